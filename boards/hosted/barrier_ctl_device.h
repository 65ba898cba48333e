// The counting barrier controller over its model (tessera/models/barrier_ctl.h,
// docs/barrier-controller.md): TESSERA_CSR_BARRIER_COUNT and _ENTER.
//
// An ENTER the model answers BLOCKED puts the hart's thread to sleep on a
// condition variable of its own until the model wakes the hart, then the CSR is
// issued again (never a spin); Machine::blocked_on shows BlockedOn::kBarrier
// meanwhile. A completed CSR moves the hart's cycle counter to the model's
// resume time. Bad use returns the model's status (TESSERA_BARRIER_*) and is
// recorded in guest_errors(), as QEMU logs it. The command log is recorded.
//
// Deadlock: when every hart bound to a thread is blocked (here or in another
// device) and none has been woken, every blocked hart throws Deadlock with the
// wait registries' report.
#pragma once

#include <stdint.h>

#include <mutex>
#include <string>
#include <vector>

#include "bus_error.h"
#include "hart_waiters.h"
#include "tessera/host/device.h"
#include "tessera/host/device_mutex.h"
#include "tessera/host/machine.h"
#include "tessera/models/barrier_ctl.h"

namespace tessera::host {

class BarrierCtlDevice final : public Device {
 public:
  // Throws std::invalid_argument if the model refuses the controller's position.
  BarrierCtlDevice(Machine& machine, const MachineParams& params);
  ~BarrierCtlDevice() override;

  std::string_view name() const override { return "barrier controller"; }
  std::vector<uint16_t> csrs() const override;
  uint32_t csr_swap(Hart& hart, uint16_t csr, uint32_t value) override;

  std::vector<BarrierLogLine> log() const;
  std::vector<std::string> guest_errors() const;

 private:
  static void wake(void* opaque, uint32_t hart_index);
  static void log_line(void* opaque, uint32_t hart_index, const char* line);

  Machine& machine_;
  mutable DeviceMutex mutex_;  // guards everything below and the model
  // Harts asleep in ENTER, and the wait registry the model reports to.
  HartWaiters waiters_;
  TesseraBarrierCtl* model_ = nullptr;
  std::vector<BarrierLogLine> log_;
  GuestErrors guest_errors_{"barrier-ctl"};
};

}  // namespace tessera::host
