#include "tessera/drivers/exit.h"

#include "tessera/hal/mmio.h"

namespace tessera::drivers {

void ExitDevice::pass() const {
  hal::mmio_write32(base_address_, TESSERA_EXIT_PASS);
}

Status ExitDevice::fail(uint32_t code) const {
  if (code < kMinFailCode || code > kMaxFailCode) {
    return Status::InvalidArgument();
  }
  hal::mmio_write32(base_address_, TESSERA_EXIT_FAIL | (code << 16));
  return OkStatus();
}

void ExitDevice::fail_and_stop(uint32_t code) const {
  (void)fail(code);
#if defined(__riscv)
  for (;;) {
    asm volatile("wfi" : : : "memory");
  }
#else
  // The host machine's exit device has thrown tessera::host::MachineExit on this thread.
  __builtin_trap();
#endif
}

void ExitDevice::reset() const {
  hal::mmio_write32(base_address_, TESSERA_EXIT_RESET);
}

}  // namespace tessera::drivers
