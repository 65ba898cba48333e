// Hop counts from vertex 0, as a POLite program: the device type shared by the firmware
// (hops.cpp) and the host program (run.cpp). Its handlers take plain pointers and it asks for
// POLite's statistics, as many Tinsel programs do.
#ifndef SDK_PROJECT_HOPS_H
#define SDK_PROJECT_HOPS_H

#define POLITE_DUMP_STATS
#define POLITE_COUNT_MSGS

#include <POLite.h>

struct HopsState {
  uint32_t id;
  uint32_t hops;  // 0xffffffff: not reached yet
};

struct HopsMessage {
  uint32_t id;
  uint32_t hops;
};

struct HopsDevice : PDevice<HopsState, None, HopsMessage> {
  inline void init() { *readyToSend = s->hops == 0 ? Pin(0) : No; }
  inline void send(HopsMessage* msg) {
    msg->hops = s->hops + 1;
    *readyToSend = No;
  }
  inline void recv(HopsMessage* msg, None*) {
    if (msg->hops < s->hops) {
      s->hops = msg->hops;
      *readyToSend = Pin(0);
    }
  }
  inline bool step() { return false; }
  inline bool finish(HopsMessage* msg) {
    msg->id = s->id;
    msg->hops = s->hops;
    return true;
  }
};

#endif
