// Single-source shortest paths, synchronous: messages that arrive during a time step only lower
// a candidate distance; step() adopts it and, if it fell, sends it on in the next step. Each
// time step moves every improvement one hop, so the run takes about as many steps as the
// longest shortest path has edges, and ends when a step improves nothing.
#ifndef TESSERA_APPS_VERTEX_SSSP_SYNC_H
#define TESSERA_APPS_VERTEX_SSSP_SYNC_H

#include <POLite.h>

#include "sssp.h"

struct SSSPSyncState {
  uint32_t id;
  int32_t dist;
  int32_t candidate;  // the least distance offered this step
  uint8_t isSource;
};

struct SSSPSyncVertex : PVertex<SSSPSyncState, int32_t, SSSPMessage> {
  void init() { *readyToSend = s->isSource ? Pin(0) : No; }
  void send(volatile SSSPMessage* msg) {
    msg->dist = s->dist;
    *readyToSend = No;
  }
  void recv(SSSPMessage* msg, int32_t* weight) {
    const int32_t offered = msg->dist + *weight;
    if (offered < s->candidate) s->candidate = offered;
  }
  bool step() {
    if (s->candidate >= s->dist) return false;
    s->dist = s->candidate;
    *readyToSend = Pin(0);
    return true;
  }
  bool finish(volatile SSSPMessage* msg) {
    msg->id = s->id;
    msg->dist = s->dist;
    return true;
  }
};

#endif
