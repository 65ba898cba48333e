// The HiFive Unleashed as a Tessera machine (docs/boards.md): the four U54 harts (mhartid 1-4)
// are threads 0-3 of a machine of one board, one tile and one core; the E51 (hart 0) prepares
// the image and parks. The console is UART0 and a run ends through semihosting.
#include <stdio.h>

#include "semihosting.h"
#include "sifive_uart.h"
#include "tessera/board/board.h"
#include "tessera/board/services.h"

extern "C" {
extern char __tessera_partitions[];
extern char __tessera_partition_size[];
extern char __tessera_threads[];
}

namespace tessera::board {
namespace {

constexpr SifiveUart kUart0(0x10010000);
constexpr uintptr_t kClintMsip = 0x02000000;
constexpr uint32_t kClockMhz = 1000;
constexpr uint32_t kL2LimBytes = 2 * 1024 * 1024;

uint32_t symbol(const char* s) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(s));
}

[[noreturn, gnu::aligned(4)]] void parked() {
  for (;;) asm volatile("wfi");
}

}  // namespace

Layout layout() {
  return Layout{TesseraShape{1, 1, 1, 1, 1, symbol(__tessera_threads)}, kClockMhz, kL2LimBytes,
                symbol(__tessera_partition_size)};
}

uint32_t thread_index() {
  unsigned long hart;
  asm volatile("csrr %0, mhartid" : "=r"(hart));
  return static_cast<uint32_t>(hart - 1);
}

uintptr_t partition_base(uint32_t index) {
  return reinterpret_cast<uintptr_t>(__tessera_partitions) +
         uintptr_t{index} * symbol(__tessera_partition_size);
}

void software_interrupt(uint32_t index, bool pending) {
  *reinterpret_cast<volatile uint32_t*>(kClintMsip + 4 * (uintptr_t{index} + 1)) = pending ? 1 : 0;
}

void console_line(const char* line, size_t length) {
  kUart0.write(line, length);
  kUart0.write("\n", 1);
}

void finish(int status) {
  char line[48];
  const int n = snprintf(line, sizeof line, "tessera-board: exit status %d", status);
  console_line(line, static_cast<size_t>(n));
  kUart0.drain();
  asm volatile("csrw mtvec, %0" : : "r"(&parked));
  semihosting_exit(status);
  parked();
}

}  // namespace tessera::board

extern "C" void tessera_board_init_services() {
  tessera::board::kUart0.enable_transmit();
  tessera::board::init_services();
}
