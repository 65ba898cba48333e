// Single-source shortest paths, asynchronous: the vertex of the termination-detection paper's
// Fig. 4. A vertex whose distance drops tells its neighbours; nothing else happens, so the run
// ends at the first termination, and finish reports every vertex's distance to the host.
#ifndef TESSERA_APPS_VERTEX_SSSP_H
#define TESSERA_APPS_VERTEX_SSSP_H

#include <POLite.h>

struct SSSPState {
  uint32_t id;
  int32_t dist;
  uint8_t isSource;
};

struct SSSPMessage {
  uint32_t id;  // set by finish, for the host
  int32_t dist;
};

struct SSSPVertex : PVertex<SSSPState, int32_t, SSSPMessage> {
  void init() { *readyToSend = s->isSource ? Pin(0) : No; }
  void send(volatile SSSPMessage* msg) {
    msg->dist = s->dist;
    *readyToSend = No;
  }
  void recv(SSSPMessage* msg, int32_t* weight) {
    const int32_t newDist = msg->dist + *weight;
    if (newDist < s->dist) {
      s->dist = newDist;
      *readyToSend = Pin(0);
    }
  }
  bool step() { return false; }
  bool finish(volatile SSSPMessage* msg) {
    msg->id = s->id;
    msg->dist = s->dist;
    return true;
  }
};

#endif
