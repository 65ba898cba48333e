// The hardware backend of the Detector interface: tinselIdle and the plain mailbox. Nothing is
// counted or tagged in software: the termination detector counts messages per board, and
// idle() is one wait-until CSR with the idle bits (DESIGN 1.2, docs/idle.md).
#pragma once

#include <stdint.h>

#include "tessera/termination/detector.h"
#include "tinsel.h"

namespace tessera::termination {

class Hardware {
 public:
  static constexpr uint32_t kReservedWords = 0;
  static constexpr const char* kName = "hw";

  Hardware() : send_slot_(tinselSendSlot()) {}

  int idle(bool vote) { return tinselIdle(vote ? 1 : 0); }
  bool can_recv() { return tinselCanRecv() != 0; }
  volatile void* recv() {
    while (!tinselCanRecv()) {
      tinselWaitUntil(TINSEL_CAN_RECV);
    }
    return tinselRecv();
  }
  void free(volatile void* msg) { tinselFree(msg); }
  volatile void* send_slot() { return send_slot_; }
  void send(uint32_t dest, volatile void* msg, uint32_t flits) {
    while (!tinselCanSend()) {
      tinselWaitUntil(TINSEL_CAN_SEND);
    }
    tinselSetLen(static_cast<int>(flits) - 1);
    tinselSend(dest, msg);
  }
  void multicast(uint32_t mailbox, uint32_t mask_hi, uint32_t mask_lo, volatile void* msg,
                 uint32_t flits) {
    while (!tinselCanSend()) {
      tinselWaitUntil(TINSEL_CAN_SEND);
    }
    tinselSetLen(static_cast<int>(flits) - 1);
    tinselMulticast(mailbox, mask_hi, mask_lo, msg);
  }
  uint64_t round_trips() const { return 0; }

 private:
  volatile void* send_slot_;
};

static_assert(Detector<Hardware>);

}  // namespace tessera::termination
