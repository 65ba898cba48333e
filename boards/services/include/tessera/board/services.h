// The software services' side that boards and start-up code call (docs/boards.md).
#pragma once

#include <stdint.h>

namespace tessera::board {

// Sets up Tessera's devices in software: once, on the first thread, before any other thread
// touches them. Ends the run if there is no room for them.
void init_services();

// The hart's cycle counter (mcycle), 64 bits on RV32 and RV64 alike.
inline uint64_t cycles() {
#if __riscv_xlen == 32
  for (;;) {
    uint32_t high, low, again;
    asm volatile("csrr %0, mcycleh" : "=r"(high));
    asm volatile("csrr %0, mcycle" : "=r"(low));
    asm volatile("csrr %0, mcycleh" : "=r"(again));
    if (high == again) return static_cast<uint64_t>(high) << 32 | low;
  }
#else
  uint64_t value;
  asm volatile("csrr %0, mcycle" : "=r"(value));
  return value;
#endif
}

inline uint32_t read_mip() {
  unsigned long value;
  asm volatile("csrr %0, mip" : "=r"(value));
  return static_cast<uint32_t>(value);
}

}  // namespace tessera::board

extern "C" void tessera_board_init_services();
