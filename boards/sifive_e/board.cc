// The HiFive1 Rev B as a Tessera machine (docs/boards.md): its one hart is thread 0 of a
// one-thread machine; the console is UART0 and a run ends through semihosting.
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

constexpr SifiveUart kUart0(0x10013000);
constexpr uint32_t kClockMhz = 320;
constexpr uint32_t kDtimBytes = 16 * 1024;

uint32_t symbol(const char* s) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(s));
}

// Where a hart goes if semihosting's ebreak finds no debugger: nowhere.
[[noreturn, gnu::aligned(4)]] void parked() {
  for (;;) asm volatile("wfi");
}

}  // namespace

Layout layout() {
  return Layout{TesseraShape{1, 1, 1, 1, 1, symbol(__tessera_threads)}, kClockMhz, kDtimBytes,
                symbol(__tessera_partition_size)};
}

uint32_t thread_index() {
  return 0;
}

uintptr_t partition_base(uint32_t index) {
  return reinterpret_cast<uintptr_t>(__tessera_partitions) +
         uintptr_t{index} * symbol(__tessera_partition_size);
}

void software_interrupt(uint32_t, bool) {
  // One hart: nobody to wake, and the runtime never asks a hart to wake itself.
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
