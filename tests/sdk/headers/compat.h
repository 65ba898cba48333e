// The program's one header, including only POLite.h (as Tinsel's apps' headers do).
#ifndef COMPAT_H
#define COMPAT_H

#include <POLite.h>

struct CompatState {
  uint32_t id;
  uint32_t seen;
};

struct CompatMessage {
  uint32_t from;
};

// Tinsel's headers define INLINE on both sides.
INLINE uint32_t next(uint32_t seen) {
  return seen + 1;
}

struct CompatDevice : PDevice<CompatState, None, CompatMessage> {
  void init() { *readyToSend = Pin(0); }
  void send(volatile CompatMessage* msg) {
    msg->from = s->id;
    *readyToSend = No;
  }
  void recv(CompatMessage* msg, None* edge) {
    (void)msg;
    (void)edge;
    s->seen = next(s->seen);
  }
  bool step() { return false; }
  bool finish(volatile CompatMessage* msg) {
    msg->from = s->seen;
    return true;
  }
};

#endif
