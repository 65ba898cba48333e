// The HiFive1 Rev B as a Tessera machine (docs/boards.md): its one hart runs the machine's
// threads as green threads (boards/services/threads.h); the console is UART0, and the rest is
// what SiFive's boards share (boards/services/sifive_board.cc).
#include "tessera/board/board.h"

#include "sifive_board.h"

namespace tessera::board {

namespace {

constexpr uintptr_t kClintMsip = 0x02000000;  // hart 0's msip

}  // namespace

namespace sifive {

const SifiveUart& console_uart() {
  static constexpr SifiveUart kUart0(0x10013000);
  return kUart0;
}

uint32_t clock_mhz() {
  return 320;
}

uint32_t harts() {
  return 1;  // its threads are green threads (boards/services/threads.h)
}

uint32_t ram_bytes() {
  return 16 * 1024;  // the DTIM
}

}  // namespace sifive

uint32_t hart_index() {
  return 0;
}

void hart_interrupt(uint32_t, bool pending) {
  *reinterpret_cast<volatile uint32_t*>(kClintMsip) = pending ? 1 : 0;
}

// One hart: its mcycle is every thread's clock.
uint64_t cycles() {
  for (;;) {
    uint32_t high, low, again;
    asm volatile("csrr %0, mcycleh" : "=r"(high));
    asm volatile("csrr %0, mcycle" : "=r"(low));
    asm volatile("csrr %0, mcycleh" : "=r"(again));
    if (high == again) return static_cast<uint64_t>(high) << 32 | low;
  }
}

}  // namespace tessera::board
