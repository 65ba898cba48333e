// idle_bench: idle synchronisations back to back (every thread calls idle(true) again as soon
// as it is released; no application messages), timed by thread 0 in modelled cycles.
//
// After kWarmup synchronisations thread 0 starts the clock; the run goes on until kBudget
// modelled cycles have passed or max_syncs synchronisations are done, whichever comes first
// (max_syncs = kThreadSyncs / threads, within kMinSyncs..kMaxSyncs: the simulator's host time
// per synchronisation grows with the thread count, the modelled figure does not need many):
// thread 0 votes false in the idle that ends the run, so every thread sees result 1 there and
// stops (all others vote true). Thread 0 prints one line:
//
//   idle_bench: method <name> threads <n> syncs <k> cycles <c> round_trips <r> clock_mhz <f>
//
// round_trips is what the software detector counted as master (waves, laps); 0 for the
// hardware, whose round trips the benchmark script counts as 3 per synchronisation.
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/exit.h"
#include "tessera/hal/csr.h"
#include "tessera/hal/cycles.h"
#include "tessera/hw/regs.h"
#include "tessera/print.h"
#include "tessera/termination/select.h"
#include "tinsel.h"

namespace {

using Det = tessera::termination::Selected;

constexpr uint32_t kWarmup = 3;
constexpr uint32_t kMinSyncs = 20;
constexpr uint32_t kMaxSyncs = 500;
constexpr uint32_t kThreadSyncs = 400000;
constexpr uint64_t kBudget = 24000000;  // 0.1 s at 240 MHz

uint64_t cycles() { return tessera::hal::cycle_count(); }

[[noreturn]] void fail(const char* what, int r, uint32_t k) {
  tessera::printf("FAIL idle_bench (%s): thread 0x%" PRIx32 ": %s (result %d, sync %" PRIu32
                  ")\n",
                  Det::kName, tinselId(), what, r, k);
  tessera::exit(1);
}

}  // namespace

int main() {
  Det det;
  const tessera::drivers::Sysinfo sysinfo;
  const bool timer = sysinfo.hart_index() == 0;
  uint32_t max_syncs = kThreadSyncs / sysinfo.num_harts();
  max_syncs = max_syncs < kMinSyncs ? kMinSyncs : max_syncs > kMaxSyncs ? kMaxSyncs : max_syncs;
  for (uint32_t k = 0; k < kWarmup; k++) {
    const int r = det.idle(true);
    if (r != tessera::termination::kTerminatedAllVoted) {
      fail("unexpected result in the warm-up", r, k);
    }
  }
  const uint64_t start = cycles();
  const uint64_t start_round_trips = det.round_trips();
  uint32_t syncs = 0;
  for (;;) {
    syncs++;
    const bool more = !timer || (syncs < max_syncs && cycles() - start < kBudget);
    const int r = det.idle(more);
    if (r == tessera::termination::kTerminated) {
      break;
    }
    if (r != tessera::termination::kTerminatedAllVoted) {
      fail("unexpected result", r, syncs);
    }
  }
  if (timer) {
    const uint64_t end = cycles();
    tessera::printf("idle_bench: method %s threads %" PRIu32 " syncs %" PRIu32 " cycles %" PRIu64
                    " round_trips %" PRIu64 " clock_mhz %" PRIu32 "\n",
                    Det::kName, sysinfo.num_harts(), syncs, end - start,
                    det.round_trips() - start_round_trips, sysinfo.clock_mhz());
  }
  return 0;
}
