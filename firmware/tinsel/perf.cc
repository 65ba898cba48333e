// Tinsel's performance counters, per thread. Tessera models no data cache, so the cache
// counters read 0; the idle count is the modelled cycles the thread spent waiting in
// tinselWaitUntil and tinselIdle while counting (tinsel.h adds them up).
#include <stdint.h>

#include "tinsel.h"

extern "C" {
__thread uint32_t tessera_tinsel_counting = 0;
__thread uint64_t tessera_tinsel_idle_cycles = 0;

void tinselPerfCountReset(void) {
  tessera_tinsel_idle_cycles = 0;
}

void tinselPerfCountStart(void) {
  tessera_tinsel_counting = 1;
}

void tinselPerfCountStop(void) {
  tessera_tinsel_counting = 0;
}

uint32_t tinselMissCount(void) {
  return 0;
}

uint32_t tinselHitCount(void) {
  return 0;
}

uint32_t tinselWritebackCount(void) {
  return 0;
}

uint32_t tinselCPUIdleCount(void) {
  return static_cast<uint32_t>(tessera_tinsel_idle_cycles);
}

uint32_t tinselCPUIdleCountU(void) {
  return static_cast<uint32_t>(tessera_tinsel_idle_cycles >> 32) & 0xff;
}
}
