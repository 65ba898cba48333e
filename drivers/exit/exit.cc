#include "tessera/drivers/exit.h"

#include "tessera/drivers/console.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/csr.h"
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

void ExitDevice::fail_protocol(const char* library, const char* what, uint32_t a, uint32_t b,
                               uint32_t code) const {
  const Console console;
  console.write("FAIL ");
  console.write(library);
  console.write(": thread ");
  console.write_hex(hal::csr_read<TESSERA_CSR_HART_ID>());
  console.write(" (index ");
  console.write_decimal(Sysinfo().hart_index());
  console.write("): ");
  console.write(what);
  console.write(" (");
  console.write_hex(a);
  console.write(", ");
  console.write_hex(b);
  console.write(")\n");
  console.flush();
  fail_and_stop(code);
}

void ExitDevice::reset() const {
  hal::mmio_write32(base_address_, TESSERA_EXIT_RESET);
}

}  // namespace tessera::drivers
