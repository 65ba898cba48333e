// The HiFive1 Rev B as a Tessera machine (docs/boards.md): its one hart is thread 0 of a
// one-thread machine; the console is UART0, and the rest is what SiFive's boards share
// (boards/services/sifive_board.cc).
#include "tessera/board/board.h"

#include "sifive_board.h"

namespace tessera::board {

namespace sifive {

const SifiveUart& console_uart() {
  static constexpr SifiveUart kUart0(0x10013000);
  return kUart0;
}

uint32_t clock_mhz() {
  return 320;
}

uint32_t ram_bytes() {
  return 16 * 1024;  // the DTIM
}

}  // namespace sifive

uint32_t thread_index() {
  return 0;
}

void software_interrupt(uint32_t, bool) {
  // One hart: nobody to wake, and the runtime never asks a hart to wake itself.
}

}  // namespace tessera::board
