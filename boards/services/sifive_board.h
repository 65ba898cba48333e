// What SiFive's dev boards share (docs/boards.md): a SiFive UART as the console, semihosting for
// the run's end, and the linker layout's partitions (__tessera_partitions, one of
// __tessera_partition_size per thread). A board's board.cc supplies the rest.
#pragma once

#include <stdint.h>

#include "sifive_uart.h"

namespace tessera::board::sifive {

// Defined by the board.
const SifiveUart& console_uart();
uint32_t clock_mhz();
uint32_t harts();  // that run threads
uint32_t ram_bytes();

}  // namespace tessera::board::sifive
