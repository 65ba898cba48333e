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
constexpr uintptr_t kClintMtime = SIFIVE_U_CLINT_MTIME;
constexpr uint64_t kCoreClockMhz = 1000;
constexpr uint64_t kTimebaseMhz = 1;  // the CLINT's mtime, on the board and in QEMU

}  // namespace

namespace sifive {

const SifiveUart& console_uart() {
  static constexpr SifiveUart kUart0(SIFIVE_U_UART0);
  return kUart0;
}

uint32_t clock_mhz() {
  return kCoreClockMhz;
}

uint32_t harts() {
  return SIFIVE_U_THREAD_HARTS;
}

uint32_t ram_bytes() {
  return 2 * 1024 * 1024;  // the L2 LIM the image runs from
}

}  // namespace sifive

uint32_t hart_index() {
  unsigned long hart;
  asm volatile("csrr %0, mhartid" : "=r"(hart));
  return static_cast<uint32_t>(hart - 1);
}

// The U54 of thread hart h is mhartid h + 1; its msip is the CLINT's word h + 1.
void hart_interrupt(uint32_t hart, bool pending) {
  *reinterpret_cast<volatile uint32_t*>(kClintMsip + 4 * (uintptr_t{hart} + 1)) = pending ? 1 : 0;
}

// Each hart's mcycle counts from its own start: the board's clock is the CLINT's mtime, which
// every hart shares, in core cycles (to the timebase's microsecond).
uint64_t cycles() {
  return *reinterpret_cast<volatile uint64_t*>(kClintMtime) * (kCoreClockMhz / kTimebaseMhz);
}

}  // namespace tessera::board
