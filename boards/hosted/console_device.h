// The console (MMIO TX/FLUSH and the EMIT CSR) over the console model,
// recording every line it emits. The model decodes every access; a guest
// error becomes a bus error.
#pragma once

#include <mutex>
#include <vector>

#include "tessera/models/console.h"
#include "tessera/host/device.h"
#include "tessera/host/machine.h"

namespace tessera::host {

class ConsoleDevice final : public Device {
 public:
  ConsoleDevice(Machine& machine, std::function<void(const ConsoleLine&)> sink);
  ~ConsoleDevice() override;

  std::string_view name() const override { return "console"; }
  std::optional<MmioWindow> mmio_window() const override;
  std::vector<uint16_t> csrs() const override;
  uint32_t mmio_read32(Hart& hart, uint32_t offset) override;
  void mmio_write32(Hart& hart, uint32_t offset, uint32_t value) override;
  uint32_t csr_swap(Hart& hart, uint16_t csr, uint32_t value) override;

  std::vector<ConsoleLine> lines() const;
  void flush_all();

 private:
  static void emit(void* opaque, uint32_t hart_index, const char* line, size_t len);

  Machine& machine_;
  std::function<void(const ConsoleLine&)> sink_;
  mutable std::mutex mutex_;  // guards model_ and lines_
  TesseraConsole* model_;
  std::vector<ConsoleLine> lines_;
};

}  // namespace tessera::host
