// The reflex switches over the reflex switch model (docs/reflex.md): the reflex CSRs of every
// hart, and blocking.
//
// As in the mailbox device, a CSR the model answers BLOCKED (RECV on an empty inbound buffer,
// WAIT_SEND on a full outbound one) puts the calling hart's thread to sleep on a condition
// variable of its own until the model wakes the hart, then the CSR is issued again. A CSR that
// completes moves the hart's cycle counter to the model's resume time. A guest error (bad
// configuration, a refused send) does not stop the hart, as in QEMU: it is recorded
// (Machine::reflex_guest_errors) and the CSR reads what the model says (REFLEX_SEND: 0).
//
// Deadlock: when every hart bound to a thread is blocked (here or in another device) and none
// has been woken, every blocked hart throws Deadlock with the report of the wait registries.
#pragma once

#include <stdint.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bus_error.h"
#include "hart_waiters.h"
#include "tessera/host/device.h"
#include "tessera/host/device_mutex.h"
#include "tessera/host/machine.h"
#include "tessera/models/reflex.h"

namespace tessera::host {

class ReflexDevice final : public Device {
 public:
  // Throws std::invalid_argument if the model refuses the parameters (a buffer of 0 flits).
  ReflexDevice(Machine& machine, const MachineParams& params);
  ~ReflexDevice() override;

  std::string_view name() const override { return "reflex"; }
  std::vector<uint16_t> csrs() const override;
  uint32_t csr_swap(Hart& hart, uint16_t csr, uint32_t value) override;
  uint32_t csr_read(Hart& hart, uint16_t csr) override;

  std::vector<std::string> guest_errors() const;

 private:
  static void wake(void* opaque, uint32_t hart_index);
  uint32_t access(Hart& hart, uint16_t csr, bool write, uint32_t value);

  Machine& machine_;
  mutable DeviceMutex mutex_;  // guards everything below and the model
  HartWaiters waiters_;        // harts asleep in RECV or WAIT_SEND, and the wait registry
  std::unique_ptr<TesseraReflex, void (*)(TesseraReflex*)> model_{nullptr, tessera_reflex_free};
  GuestErrors guest_errors_{"reflex"};
};

}  // namespace tessera::host
