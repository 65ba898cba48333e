// runaway: hart 0 points its trap vector at unmapped memory and then traps, so that fetching the
// handler faults at the handler itself, forever. The machine must park that hart with a report
// and check it in with status 129 (128 + instruction access fault), while the other harts keep
// running: each counts to kIterations, prints a line and returns 0. The run then ends with 129.
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/hw/regs.h"
#include "tessera/print.h"

namespace {

// Between the scratchpad window and sysinfo: nothing is mapped there.
constexpr uint32_t kUnmappedVector = TESSERA_SCRATCH_BASE + 3 * TESSERA_SCRATCH_SIZE;
static_assert(kUnmappedVector + 4 <= TESSERA_SYSINFO_BASE, "must lie in the gap");

constexpr uint32_t kIterations = 2'000'000;

[[noreturn]] void trap_into_unmapped_vector() {
  asm volatile("csrw mtvec, %0" ::"r"(kUnmappedVector));
  asm volatile(".word 0");  // illegal instruction: the trap goes to kUnmappedVector
  __builtin_unreachable();
}

}  // namespace

int main() {
  const tessera::drivers::Sysinfo sysinfo;
  if (sysinfo.hart_index() == 0) {
    trap_into_unmapped_vector();
  }
  volatile uint32_t counter = 0;  // volatile: the loop is the work, not to be folded away
  for (uint32_t i = 0; i < kIterations; ++i) {
    counter = counter + 1;
  }
  const uint32_t counted = counter;
  tessera::printf("runaway: hart %" PRIu32 " counted to %" PRIu32 "\n", sysinfo.hart_index(),
                  counted);
  return 0;
}
