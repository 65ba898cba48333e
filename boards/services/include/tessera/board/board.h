// What each dev board provides to the software services (docs/boards.md). A board is a Tessera
// machine of its own harts (or, on a board of one hart, of the threads that stand in for them):
// its shape, where each thread's partition is, its console and how a run ends. The services
// (boards/services/services.cc) build Tessera's devices on these, so that the firmware's
// drivers and apps build unchanged.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "tessera/hw/regs.h"

namespace tessera::board {

struct Layout {
  TesseraShape shape;       // the board's threads as a Tessera shape
  uint32_t harts;           // harts that run them, threads / harts each (boards/services/threads.h)
  uint32_t clock_mhz;       // its core clock
  uint32_t ram_size;        // bytes of RAM (reported as DRAM_SIZE)
  uint32_t partition_size;  // bytes of stack and heap per thread
};

// Defined by the board (boards/<board>/board.cc), from its linker layout.
Layout layout();

// The index (0..harts-1) of the calling hart among those that run threads.
uint32_t hart_index();
// Where thread `index`'s partition starts (its stack grows down from the end).
uintptr_t partition_base(uint32_t index);
// Sets or clears hart `hart`'s machine software interrupt (its msip), which ends its wfi.
void hart_interrupt(uint32_t hart, bool pending);
// The board's cycle count: one clock for all its threads, which compare the times they read
// (as they compare modelled cycles on -M tessera).
uint64_t cycles();
// Writes one whole console line and its newline on the board's serial console.
void console_line(const char* line, size_t length);
// Ends the run with `status`: says so on the console, then stops the board (QEMU exits with
// the status through semihosting; a board without a debugger parks its harts).
[[noreturn]] void finish(int status);

}  // namespace tessera::board
