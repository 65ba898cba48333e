// A tight tinselIdle loop in Tinsel's dialect, in C++: every thread synchronises SYNCS times by
// termination detection alone (no messages), voting to stop on the last; thread 0 emits the
// round number each time, then the modelled cycles the loop took.
#include <tinsel.h>

constexpr uint32_t kSyncs = 50;

int main() {
  const bool leader = tinselId() == 0;
  const uint32_t start = tinselCycleCount();
  uint32_t round = 0;
  for (;;) {
    round++;
    if (leader) tinselEmit(round);
    // 1 when every thread is idle, 3 when every thread also voted true: all of them reach the
    // last round together. (0 would mean a message arrived; nothing sends any.)
    if (tinselIdle(round == kSyncs) > 1) break;
  }
  if (leader) {
    const uint32_t cycles = tinselCycleCount() - start;
    printf("idle: %d synchronisations in %d cycles\n", round, cycles);
  }
  return round == kSyncs ? 0 : 1;
}
