// idle_loop: IDLE_LOOP_SYNCS tinselIdle(1) calls back to back on every thread, nothing else
// (hardware only). Thread 0 prints a line when its first release returns and another at the end:
//
//   idle_loop: start
//   idle_loop: threads <n> syncs <k> cycles <c> clock_mhz <f>
//
// k = IDLE_LOOP_SYNCS - 1 synchronisations lie between the two lines; c is their modelled
// cycles. tests/bench/idle.sh timestamps the two lines as they arrive, which gives the host
// time of those k synchronisations without the boot.
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/csr.h"
#include "tessera/hal/cycles.h"
#include "tessera/hw/regs.h"
#include "tessera/print.h"
#include "tinsel.h"

namespace {
uint64_t cycles() { return tessera::hal::cycle_count(); }
}  // namespace

int main() {
  const tessera::drivers::Sysinfo sysinfo;
  const bool timer = sysinfo.hart_index() == 0;
  int bad = 0;
  uint64_t first = 0;
  for (uint32_t k = 0; k < IDLE_LOOP_SYNCS; k++) {
    bad |= tinselIdle(1) != 3;
    if (k == 0) {
      first = cycles();
      if (timer) {
        tessera::puts("idle_loop: start");
      }
    }
  }
  const uint64_t last = cycles();
  if (bad) {
    tessera::printf("FAIL idle_loop: thread 0x%" PRIx32 ": tinselIdle(1) returned something "
                    "other than 3\n",
                    tinselId());
    return 1;
  }
  if (timer) {
    tessera::printf("idle_loop: threads %" PRIu32 " syncs %" PRIu32 " cycles %" PRIu64
                    " clock_mhz %" PRIu32 "\n",
                    sysinfo.num_harts(), static_cast<uint32_t>(IDLE_LOOP_SYNCS - 1), last - first,
                    sysinfo.clock_mhz());
  }
  return 0;
}
