// The sysinfo register block over the sysinfo model; the last check-in
// ends the machine's run.
#pragma once

#include <mutex>

#include "tessera/models/sysinfo.h"
#include "tessera/host/device.h"

namespace tessera::host {

class Machine;

class SysinfoDevice final : public Device {
 public:
  // Throws std::invalid_argument if the model rejects the configuration.
  SysinfoDevice(Machine& machine, const TesseraSysinfoConfig& config);
  ~SysinfoDevice() override;

  std::string_view name() const override { return "sysinfo"; }
  std::optional<MmioWindow> mmio_window() const override;
  uint32_t mmio_read32(Hart& hart, uint32_t offset) override;
  void mmio_write32(Hart& hart, uint32_t offset, uint32_t value) override;

 private:
  Machine& machine_;
  std::mutex mutex_;  // guards model_
  TesseraSysinfo* model_;
};

}  // namespace tessera::host
