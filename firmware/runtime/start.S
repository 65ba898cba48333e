/*
 * _start: where every hart of every board begins (the image base, TESSERA_DRAM_BASE), with the
 * image header in its first words.
 *
 * Only what C++ cannot do itself happens here: gp, the trap vector, the hart's stack from its
 * sysinfo partition, and the FPU switch. Board preparation and the release of the other harts
 * are in startup.cc; main runs between tessera_runtime_start and tessera_runtime_finish.
 */
#include "tessera/hw/regs_asm.h"
#include "tessera/start_prologue.h"

#define MSTATUS_FS_INITIAL 0x2000

  .section .text.start, "ax", @progbits
  .globl _start
  .type _start, @function
_start:
  /* The image header (tessera/hw/regs.h): magic and the shape the image was built for, which
     the linker fills in (linker/tessera.ld: 0, any shape, unless the app's build defines it). */
  j 1f
  .word TESSERA_IMAGE_MAGIC
  .word __tessera_image_boards_x, __tessera_image_boards_y
  .word __tessera_image_tiles_x, __tessera_image_tiles_y
  .word __tessera_image_cores_per_tile, __tessera_image_threads_per_core
1:
  tessera_start_prologue

  /* Stack at the top of this hart's partition; its TLS block goes at the bottom (startup.cc). */
  li t0, TESSERA_SYSINFO_BASE
  lw a0, TESSERA_SYSINFO_PARTITION_BASE(t0)
  lw a1, TESSERA_SYSINFO_PARTITION_SIZE(t0)
  add sp, a0, a1
  andi sp, sp, -16

  /* F instructions are illegal while mstatus.FS is Off, and the ilp32f ABI uses them freely. */
  li t0, MSTATUS_FS_INITIAL
  csrs mstatus, t0
  csrw fcsr, zero

  /* No caller above this frame for debuggers to unwind into. */
  li ra, 0
  li s0, 0

  call tessera_runtime_start /* a0 = partition base; returns once the board image is ready */
  call main
  tail tessera_runtime_finish /* a0 = main's result; checks in and parks, never returns */
  .size _start, . - _start
