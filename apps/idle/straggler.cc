// idle_straggler: no termination while one thread has not called idle.
//
// In each round one thread (the last, then thread 0, then the middle one) computes for
// kWork instructions before it calls idle, while every other thread is in idle from the start.
// Every other thread's release (modelled cycle) must come after the straggler entered idle:
// after the release each reports its release cycle to the straggler, which checks.
#include "idle_app.h"

using namespace idle_app;

namespace {
constexpr uint32_t kWork = 300000;
constexpr uint32_t kRounds = 3;
}  // namespace

int main() {
  Det det;
  const Machine m;
  const uint32_t stragglers[kRounds] = {m.n - 1, 0, m.n / 2};
  for (uint32_t round = 0; round < kRounds; round++) {
    const uint32_t s = stragglers[round];
    uint64_t entered = 0;
    if (m.me == s) {
      const uint64_t start = cycles();
      compute(kWork);
      entered = cycles();
      if (entered - start < kWork / 2) {
        fail("the computation took too few cycles", static_cast<uint32_t>(entered - start));
      }
    }
    int r = det.idle(true);
    const uint64_t released = cycles();
    if (r != tessera::termination::kTerminatedAllVoted) {
      fail("expected release with every vote true", static_cast<uint32_t>(r), round);
    }
    if (m.me != s) {
      report_release(det, m.thread_at(s), m.me, released);
    } else {
      const FirstRelease earliest = first_release(det, m.n - 1);
      const uint64_t first = earliest.cycle;
      const uint32_t first_thread = earliest.thread;
      if (m.n > 1 && first < entered) {
        fail("a thread was released before the straggler called idle", first_thread,
             static_cast<uint32_t>(entered - first));
      }
      tessera::printf("straggler (%s): round %" PRIu32 ": thread %" PRIu32
                      " entered idle at cycle %" PRIu64 " after computing; the first of the "
                      "other %" PRIu32 " threads (thread %" PRIu32 ") was released at cycle %" PRIu64
                      ", after it\n",
                      Det::kName, round, s, entered, m.n - 1, first_thread, first);
    }
    r = det.idle(true);
    if (r != tessera::termination::kTerminatedAllVoted) {
      fail("expected the report episode to end with every vote true", static_cast<uint32_t>(r));
    }
  }
  return 0;
}
