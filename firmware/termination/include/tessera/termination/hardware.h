// The hardware backend of the Detector interface: tinselIdle and the plain mailbox, through the
// mailbox driver's core. Nothing is counted or tagged in software: the termination detector
// counts messages per board, and idle() is one wait-until CSR with the idle bits (DESIGN 1.2,
// docs/idle.md).
#pragma once

#include <stdint.h>

#include "tessera/drivers/mailbox_core.h"
#include "tessera/termination/detector.h"
#include "tessera/termination/thread.h"

namespace tessera::termination {

class Hardware {
 public:
  static constexpr uint32_t kReservedWords = 0;
  static constexpr const char* kName = "hw";

  Hardware() : send_slot_(own_send_slot()) {}

  int idle(bool vote) { return tessera_mbox_idle(vote ? 1 : 0); }
  bool can_recv() { return tessera_mbox_can_recv() != 0; }
  volatile void* recv() {
    while (!tessera_mbox_can_recv()) {
      (void)tessera_mbox_wait_until(TESSERA_WAIT_CAN_RECV);
    }
    return tessera_mbox_pointer(tessera_mbox_recv());
  }
  void free(volatile void* msg) { tessera_mbox_free(tessera_mbox_bus_address(msg)); }
  volatile void* send_slot() { return send_slot_; }
  void send(uint32_t dest, volatile void* msg, uint32_t flits) {
    while (!tessera_mbox_can_send()) {
      (void)tessera_mbox_wait_until(TESSERA_WAIT_CAN_SEND);
    }
    tessera_mbox_set_len(flits - 1);
    tessera_mbox_send(dest, tessera_mbox_bus_address(msg));
  }
  void multicast(uint32_t mailbox, uint32_t mask_hi, uint32_t mask_lo, volatile void* msg,
                 uint32_t flits) {
    while (!tessera_mbox_can_send()) {
      (void)tessera_mbox_wait_until(TESSERA_WAIT_CAN_SEND);
    }
    tessera_mbox_set_len(flits - 1);
    tessera_mbox_multicast(mailbox, mask_hi, mask_lo, tessera_mbox_bus_address(msg));
  }
  uint64_t round_trips() const { return 0; }

 private:
  volatile void* send_slot_;
};

static_assert(Detector<Hardware>);

}  // namespace tessera::termination
