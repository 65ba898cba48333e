// Start-up between _start (start.S) and main, and the hand-over after main.
//
// Every hart: TLS block at the bottom of its partition. The board leader (sysinfo BOARD_LEADER):
// clears its board's .bss, runs the constructors, then releases the other harts of its board
// through their MSWI msip registers. The others sleep in wfi (machine software interrupt enabled
// in mie only, so it wakes wfi without being taken) until the leader's released flag is set.
// Then, on every hart, the mailbox hook of TINSEL_API v2 images (firmware/tinsel/v2_start.cc), if
// the image has one. After main each hart checks in its result with sysinfo and parks; the last
// check-in ends the run.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "machine.h"
#include "tessera/drivers/console.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/exit.h"
#include "tessera/hal/mmio.h"
#include "tessera/heap.h"
#include "tessera/hw/regs.h"

// Linker script symbols (linker/tessera.ld). Sizes and offsets are absolute symbols: their
// addresses are the values.
extern "C" {
extern const uint8_t __tls_template_start[];
extern const uint8_t __tdata_size[];
extern const uint8_t __tbss_offset[];
extern const uint8_t __tbss_size[];
extern const uint8_t __tls_block_size[];
extern const uint8_t __tls_block_align[];
extern uint8_t __bss_start[];
extern uint8_t __bss_end[];
using Constructor = void (*)();
extern const Constructor __preinit_array_start[];
extern const Constructor __preinit_array_end[];
extern const Constructor __init_array_start[];
extern const Constructor __init_array_end[];

// Defined only in images built with TINSEL_API v2: gives the thread's receive slots to hardware.
[[gnu::weak]] void tessera_runtime_prepare_mailbox();
}

namespace tessera::runtime {
namespace {

// Set by the board leader once the board image is ready. In .data rather than .bss: the other
// harts read it before the leader has cleared .bss, and the loader put this 0 in board DRAM.
[[gnu::section(".data.tessera_board_released")]] volatile uint32_t board_released = 0;

uintptr_t symbol_value(const uint8_t* symbol) {
  return reinterpret_cast<uintptr_t>(symbol);
}

// Where a hart's TLS block starts in its partition.
uintptr_t thread_local_block(uintptr_t partition_base) {
  const uintptr_t align = symbol_value(__tls_block_align);
  return (partition_base + align - 1) & ~(align - 1);
}

// picolibc keeps errno (and a few other things) thread-local; every hart needs its own copy,
// addressed through tp (RISC-V TLS variant I: tp points at the start of the block).
void init_thread_local_storage(uintptr_t partition_base) {
  const uintptr_t block = thread_local_block(partition_base);
  memcpy(reinterpret_cast<void*>(block), __tls_template_start, symbol_value(__tdata_size));
  memset(reinterpret_cast<void*>(block + symbol_value(__tbss_offset)), 0,
         symbol_value(__tbss_size));
  machine::set_thread_pointer(block);
}

void prepare_board_image() {
#ifndef TESSERA_BOARD_PREPARES_IMAGE
  // QEMU loads .data but leaves .bss to the image. (A dev board's start.S has done both before
  // its software services started, and clearing again would lose their state.)
  memset(__bss_start, 0, static_cast<size_t>(__bss_end - __bss_start));
#endif
  for (const Constructor* c = __preinit_array_start; c != __preinit_array_end; ++c) {
    (*c)();
  }
  for (const Constructor* c = __init_array_start; c != __init_array_end; ++c) {
    (*c)();
  }
}

// msip register of a board-local hart in its board's ACLINT MSWI.
uint32_t msip_address(uint32_t board, uint32_t local_index) {
  return TESSERA_MSWI_BASE + board * TESSERA_MSWI_STRIDE + 4 * local_index;
}

struct BoardPosition {
  uint32_t board;        // dense board index, row-major
  uint32_t local_index;  // this hart's index within its board
  uint32_t harts;        // harts on each board
};

BoardPosition board_position(const drivers::Sysinfo& sysinfo) {
  const TesseraShape shape = sysinfo.shape();
  const uint32_t harts = tessera_threads_per_board(&shape);
  const uint32_t index = sysinfo.hart_index();
  return BoardPosition{index / harts, index % harts, harts};
}

void release_board_harts(const BoardPosition& me) {
  machine::fence();  // the prepared image before the flag
  board_released = 1;
  machine::fence();  // the flag before any wake-up
  for (uint32_t k = 0; k < me.harts; ++k) {
    if (k != me.local_index) {
      hal::mmio_write32(msip_address(me.board, k), 1);
    }
  }
}

void wait_for_board_release(const BoardPosition& me) {
  // msip is level-triggered, so a release that lands before the wfi is not lost.
  machine::write_mie(machine::kMieMachineSoftware);
  while (board_released == 0) {
    machine::wait_for_interrupt();
  }
  machine::fence();  // nothing of the prepared image is read before the flag
  hal::mmio_write32(msip_address(me.board, me.local_index), 0);
  machine::write_mie(0);
}

}  // namespace

extern "C" void tessera_runtime_start(uintptr_t partition_base) {
  init_thread_local_storage(partition_base);
  const drivers::Sysinfo sysinfo;
  const BoardPosition me = board_position(sysinfo);
  if (sysinfo.board_leader()) {
    prepare_board_image();
    release_board_harts(me);
  } else {
    wait_for_board_release(me);
  }
  if (tessera_runtime_prepare_mailbox != nullptr) {
    tessera_runtime_prepare_mailbox();
  }
}

#ifdef TESSERA_BOARD_BACKEND
// A dev board's threads (boards/services/threads.h): a thread that has checked in gives its
// hart to the others.
extern "C" [[noreturn]] void tessera_board_thread_exit();
#endif

extern "C" [[noreturn]] void tessera_runtime_finish(int main_result) {
  drivers::Console().flush();  // a last line without '\n' still belongs to this hart
  drivers::Sysinfo().check_in(exit_status(main_result));
#ifdef TESSERA_BOARD_BACKEND
  tessera_board_thread_exit();
#else
  machine::park();
#endif
}

}  // namespace tessera::runtime

namespace tessera {

void* heap_base() {
  const uintptr_t end = runtime::thread_local_block(drivers::Sysinfo().partition_base()) +
                        runtime::symbol_value(__tls_block_size);
  return reinterpret_cast<void*>((end + 15) & ~uintptr_t{15});
}

}  // namespace tessera

// For C callers (tinsel.h's tinselHeapBase).
extern "C" void* tessera_heap_base() {
  return tessera::heap_base();
}
