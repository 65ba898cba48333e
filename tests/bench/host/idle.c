// The idle loop of ./tessera bench host: every thread calls tinselIdle SYNCS times back to back
// (termination detection alone, no messages), voting to stop on the last. Thread 0 prints the
// synchronisations and their modelled cycles, which every build must agree on.
#include <tinsel.h>

int main(void) {
  const uint32_t start = tinselCycleCount();
  uint32_t round = 0;
  for (;;) {
    round++;
    // 1 when every thread is idle, 3 when every thread also voted to stop: all reach the last
    // round together.
    if (tinselIdle(round == SYNCS) > 1) break;
  }
  if (tinselId() == 0) {
    const uint32_t cycles = tinselCycleCount() - start;
    printf("idle: syncs %u cycles %u\n", round, cycles);
  }
  return round == SYNCS ? 0 : 1;
}
