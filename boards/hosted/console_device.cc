#include "console_device.h"

#include <new>
#include <string>

#include "bus_error.h"

namespace tessera::host {

ConsoleDevice::ConsoleDevice(Machine& machine, std::function<void(const ConsoleLine&)> sink)
    : machine_(machine),
      sink_(std::move(sink)),
      model_(tessera_console_new(machine.num_harts(), &ConsoleDevice::emit, this)) {
  if (model_ == nullptr) {
    throw std::bad_alloc();
  }
}

ConsoleDevice::~ConsoleDevice() {
  tessera_console_free(model_);
}

std::optional<MmioWindow> ConsoleDevice::mmio_window() const {
  return MmioWindow{TESSERA_CONSOLE_BASE, TESSERA_CONSOLE_SIZE};
}

std::vector<uint16_t> ConsoleDevice::csrs() const {
  return {TESSERA_CSR_EMIT};
}

uint32_t ConsoleDevice::mmio_read32(Hart& hart, uint32_t offset) {
  std::lock_guard lock(mutex_);
  return complete(hart, tessera_console_read(model_, offset), {AccessSite::Kind::kRead, offset, 0});
}

void ConsoleDevice::mmio_write32(Hart& hart, uint32_t offset, uint32_t value) {
  std::lock_guard lock(mutex_);
  (void)complete(hart, tessera_console_write(model_, hart.index(), offset, value),
                 {AccessSite::Kind::kWrite, offset, value});
}

// The host's csr_swap is csrrw: it always writes.
uint32_t ConsoleDevice::csr_swap(Hart& hart, uint16_t, uint32_t value) {
  std::lock_guard lock(mutex_);
  return tessera_console_emit_csr(model_, hart.index(), true, value);
}

std::vector<ConsoleLine> ConsoleDevice::lines() const {
  std::lock_guard lock(mutex_);
  return lines_;
}

void ConsoleDevice::flush_all() {
  std::lock_guard lock(mutex_);
  tessera_console_flush_all(model_);
}

// Called by the model with mutex_ held.
void ConsoleDevice::emit(void* opaque, uint32_t hart_index, const char* line, size_t len) {
  auto* self = static_cast<ConsoleDevice*>(opaque);
  ConsoleLine& recorded = self->lines_.emplace_back(
      ConsoleLine{self->machine_.hart_at(hart_index).id(), hart_index, std::string(line, len)});
  if (self->sink_) {
    self->sink_(recorded);
  }
}

}  // namespace tessera::host
