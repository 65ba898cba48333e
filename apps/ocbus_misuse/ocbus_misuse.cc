// ocbus_misuse: the open-collector bus's answers to bad use, and a deadlock
// on it (docs/ocbus.md). Run with ocbus-lines=4 and -d guest_errors.
//
// Every line resets clamped: every thread first releases them all and waits
// until they read 1. Thread 0 then writes a read-only register, drives a line
// the machine lacks and waits on one: each is a guest error that changes
// nothing, which it checks and prints. Then it clamps DATA and sleeps until
// thread 1, woken by that, clamps VALID. Last, every thread waits for line
// NEXT to read 0, which nobody clamps: the machine reports the deadlock.

#include <stdint.h>

#include "tessera/hal/csr.h"
#include "tessera/hal/mmio.h"
#include "tessera/hw/regs.h"
#include "tessera/print.h"
#include "tinsel.h"

namespace {

namespace hal = tessera::hal;

uint32_t reg(uint32_t offset) {
  return hal::mmio_read32(TESSERA_OCBUS_BASE + offset);
}
void set_reg(uint32_t offset, uint32_t value) {
  hal::mmio_write32(TESSERA_OCBUS_BASE + offset, value);
}
uint32_t wait_lines(uint32_t mask, uint32_t value) {
  return hal::csr_swap<TESSERA_CSR_OCBUS_WAIT>(mask | value << 8);
}

void check(bool ok, const char* what) {
  tessera::printf("ocbus_misuse: %s: %s\n", what, ok ? "ok" : "FAILED");
}

}  // namespace

int main() {
  const uint32_t me = tinselId();
  const uint32_t lines = reg(TESSERA_OCBUS_LINES);
  const uint32_t all = (1u << lines) - 1;
  set_reg(TESSERA_OCBUS_LOCAL, all);
  (void)wait_lines(all, all);
  if (me == 0) {
    set_reg(TESSERA_OCBUS_GLOBAL, 0);
    check(reg(TESSERA_OCBUS_GLOBAL) == all, "a write of the read-only GLOBAL changes nothing");
    set_reg(TESSERA_OCBUS_LINE(lines), 0);
    check(reg(TESSERA_OCBUS_LOCAL) == all && reg(TESSERA_OCBUS_LINE(lines)) == 0,
          "a line index out of range changes nothing and reads 0");
    check(wait_lines(1u << lines, 0) == 0, "a wait on a missing line reads 0 at once");
    set_reg(TESSERA_OCBUS_LINE(TESSERA_OCBUS_DATA), 0);
    // Sleeps until thread 1 clamps VALID.
    const uint32_t seen = wait_lines(1u << TESSERA_OCBUS_VALID, 0);
    check((seen & 1u << TESSERA_OCBUS_VALID) == 0 && reg(TESSERA_OCBUS_LINE(0)) == 0,
          "a wait ends when another thread clamps the line");
  } else if (me == 1) {
    (void)wait_lines(1u << TESSERA_OCBUS_DATA, 0);
    set_reg(TESSERA_OCBUS_LINE(TESSERA_OCBUS_VALID), 0);
  }
  // Nobody clamps NEXT: every thread waits for good.
  (void)wait_lines(1u << TESSERA_OCBUS_NEXT, 0);
  check(false, "a wait nobody can satisfy returned");
  return 1;
}
