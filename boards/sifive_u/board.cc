// The HiFive Unleashed as a Tessera machine (docs/boards.md): the four U54 harts (mhartid 1-4)
// are threads 0-3 of a machine of one board, one tile and one core; the E51 (hart 0) prepares
// the image and parks (start.S). The console is UART0, and the rest is what SiFive's boards
// share (boards/services/sifive_board.cc).
#include "tessera/board/board.h"

#include "board.h"
#include "sifive_board.h"

namespace tessera::board {

namespace {

constexpr uintptr_t kClintMsip = SIFIVE_U_CLINT_MSIP;

}  // namespace

namespace sifive {

const SifiveUart& console_uart() {
  static constexpr SifiveUart kUart0(SIFIVE_U_UART0);
  return kUart0;
}

uint32_t clock_mhz() {
  return 1000;
}

uint32_t ram_bytes() {
  return 2 * 1024 * 1024;  // the L2 LIM the image runs from
}

}  // namespace sifive

uint32_t thread_index() {
  unsigned long hart;
  asm volatile("csrr %0, mhartid" : "=r"(hart));
  return static_cast<uint32_t>(hart - 1);
}

// Thread t's msip is its hart's, t + 1, in the CLINT.
void software_interrupt(uint32_t index, bool pending) {
  *reinterpret_cast<volatile uint32_t*>(kClintMsip + 4 * (uintptr_t{index} + 1)) = pending ? 1 : 0;
}

}  // namespace tessera::board
