// The parts of tessera/board/board.h that SiFive's boards share (sifive_board.h).
#include "sifive_board.h"

#include <stdio.h>

#include "semihosting.h"
#include "tessera/board/board.h"
#include "tessera/board/services.h"

extern "C" {
extern char __tessera_partitions[];
extern char __tessera_partition_size[];
extern char __tessera_threads[];
}

namespace tessera::board {
namespace {

uint32_t symbol(const char* s) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(s));
}

// Where a hart goes if semihosting's ebreak finds no debugger: nowhere.
[[noreturn, gnu::aligned(4)]] void parked() {
  for (;;) asm volatile("wfi");
}

}  // namespace

// One board, one tile, one core: the threads are the core's.
Layout layout() {
  return Layout{TesseraShape{1, 1, 1, 1, 1, symbol(__tessera_threads)}, sifive::harts(),
                sifive::clock_mhz(), sifive::ram_bytes(), symbol(__tessera_partition_size)};
}

uintptr_t partition_base(uint32_t index) {
  return reinterpret_cast<uintptr_t>(__tessera_partitions) +
         uintptr_t{index} * symbol(__tessera_partition_size);
}

void console_line(const char* line, size_t length) {
  sifive::console_uart().write(line, length);
  sifive::console_uart().write("\n", 1);
}

void finish(int status) {
  char line[48];
  const int n = snprintf(line, sizeof line, "tessera-board: exit status %d", status);
  console_line(line, static_cast<size_t>(n));
  sifive::console_uart().drain();
  asm volatile("csrw mtvec, %0" : : "r"(&parked));
  semihosting_exit(status);
  parked();
}

}  // namespace tessera::board

extern "C" void tessera_board_init_services() {
  tessera::board::sifive::console_uart().enable_transmit();
  tessera::board::init_services();
}
