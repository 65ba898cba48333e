// The sifive_test-style exit device: a write ends the run, with PASS as
// success and FAIL | code << 16 as failure.
#pragma once

#include "tessera/host/device.h"

namespace tessera::host {

class Machine;

class ExitDevice final : public Device {
 public:
  explicit ExitDevice(Machine& machine) : machine_(machine) {}

  std::string_view name() const override { return "exit"; }
  std::optional<MmioWindow> mmio_window() const override;
  // Records the exit code, then throws MachineExit: on the real machine
  // nothing after this write runs.
  void mmio_write32(Hart& hart, uint32_t offset, uint32_t value) override;

 private:
  Machine& machine_;
};

}  // namespace tessera::host
