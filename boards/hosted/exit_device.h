// The exit device over the exit model (models/exit.c): PASS and FAIL end
// the run with the status the model gives. The host machine cannot reboot,
// so RESET fails like a guest error, naming the reset.
#pragma once

#include "tessera/host/device.h"

namespace tessera::host {

class Machine;

class ExitDevice final : public Device {
 public:
  explicit ExitDevice(Machine& machine) : machine_(machine) {}

  std::string_view name() const override { return "exit"; }
  std::optional<MmioWindow> mmio_window() const override;
  // Write-only: throws std::logic_error, as every guest error does.
  uint32_t mmio_read32(Hart& hart, uint32_t offset) override;
  // Records the exit code, then throws MachineExit: on the real machine
  // nothing after this write runs.
  void mmio_write32(Hart& hart, uint32_t offset, uint32_t value) override;

 private:
  Machine& machine_;
};

}  // namespace tessera::host
