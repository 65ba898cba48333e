// Slot numbers the planners share (schedule.h): a round's messages use the round's number, a
// release uses kReleaseSlot, above every round (at most ceil(log2 65536) + 2 = 18 of them).
#pragma once

#include <stdint.h>

namespace tessera::barrier::slots {

inline constexpr uint32_t kRelease = 24;

// ceil(log2 n) for n >= 1.
inline uint32_t log2_ceil(uint32_t n) {
  uint32_t k = 0;
  while ((uint64_t{1} << k) < n) {
    k++;
  }
  return k;
}

// floor(log2 n) for n >= 1.
inline uint32_t log2_floor(uint32_t n) {
  return 31 - static_cast<uint32_t>(__builtin_clz(n));
}

}  // namespace tessera::barrier::slots
