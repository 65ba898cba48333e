// ocbus_bench: modelled cycles per open-collector bus operation over every hart, for
// tests/bench/ocbus.sh. For each operation (ACWT, arbitration, the ACWT barrier) thread 0 prints
// "ocbus_bench: start <op>", runs the episodes with every hart, and prints
//   ocbus_bench: <op> harts <n> arrival <simultaneous|jittered> episodes <e> cycles <c>
// where c is thread 0's modelled cycles over the episodes. Jittered: in each episode one hart,
// a different one each time, does 200 iterations of work before it arrives.
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/ocbus.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/cycles.h"
#include "tessera/print.h"

#ifndef OCBUS_BENCH_JITTERED
#define OCBUS_BENCH_JITTERED 0
#endif

namespace {

void maybe_late(uint32_t episode, uint32_t me, uint32_t n) {
  if (OCBUS_BENCH_JITTERED && (episode * 7 + 3) % n == me) {
    volatile uint32_t sum = 0;
    for (uint32_t i = 0; i < 200; i++) sum = sum + i;
  }
}

template <typename Op>
void measure(const char* name, uint32_t episodes, uint32_t me, uint32_t n,
             tessera::drivers::OcBusProtocols& bus, Op op) {
  bus.barrier();  // everyone starts together
  if (me == 0) tessera::printf("ocbus_bench: start %s\n", name);
  const uint64_t start = tessera::hal::cycle_count();
  for (uint32_t e = 0; e < episodes; e++) {
    maybe_late(e, me, n);
    op(e);
  }
  const uint64_t cycles = tessera::hal::cycle_count() - start;
  if (me == 0) {
    tessera::printf("ocbus_bench: %s harts %" PRIu32 " arrival %s episodes %" PRIu32
                    " cycles %" PRIu64 "\n",
                    name, n, OCBUS_BENCH_JITTERED ? "jittered" : "simultaneous", episodes, cycles);
  }
}

}  // namespace

int main() {
  const tessera::drivers::Sysinfo sysinfo;
  const uint32_t n = sysinfo.num_harts(), me = sysinfo.hart_index();
  tessera::drivers::OcBusProtocols bus;
  measure("acwt", 50, me, n, bus, [&](uint32_t e) { (void)bus.all((e + me) % 5 != 0); });
  measure("arbitration", 5, me, n, bus, [&](uint32_t e) { (void)bus.arbitrate(e * 31 + me % 7); });
  measure("ocbus_barrier", 50, me, n, bus, [&](uint32_t) { bus.barrier(); });
  return 0;
}
