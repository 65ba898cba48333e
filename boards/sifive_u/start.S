/*
 * _start on the HiFive Unleashed (docs/boards.md): all five harts arrive here together, with
 * a0 = mhartid. Hart 0, the E51, prepares the image (clears .bss and the services' section),
 * sets up Tessera's devices in software, releases the four U54s and parks. Each U54 sleeps in
 * wfi until released, then enters the runtime as Tessera thread mhartid - 1, with its stack at
 * the top of its partition, as a Tessera hart does (firmware/runtime/start.S).
 */
#include "tessera/start_prologue.h"

#include "board.h"

#define MIE_MSIE 8 /* the architecture's mie.MSIE, the bit of mip.MSIP (TESSERA_MIP_MSIP) */

  .section .text.start, "ax", @progbits
  .globl _start
  .type _start, @function
_start:
  tessera_start_prologue
  li ra, 0
  li s0, 0
  csrr a0, mhartid
  bnez a0, thread

  /* The E51. */
  la sp, __tessera_boot_stack_top
  la t1, __bss_start
  la t2, __bss_end
1:
  bgeu t1, t2, 2f
  sd zero, 0(t1)
  addi t1, t1, 8
  j 1b
2:
  la t1, __tessera_services_start
  la t2, __tessera_services_end
3:
  bgeu t1, t2, 4f
  sd zero, 0(t1)
  addi t1, t1, 8
  j 3b
4:
  /* The services' allocations may set errno, which is thread-local: until the runtime gives
     thread 0 its TLS block, at the bottom of its partition, tp points there already. */
  la tp, __tessera_partitions
  call tessera_board_init_services
  fence rw, rw
  li t0, 1
  la t1, tessera_board_services_ready
  sw t0, 0(t1)
  fence rw, rw
  li t1, SIFIVE_U_CLINT_MSIP + 4
  li t2, SIFIVE_U_THREAD_HARTS
5:
  sw t0, 0(t1)
  addi t1, t1, 4
  addi t2, t2, -1
  bnez t2, 5b
  csrw mie, zero
6:
  wfi
  j 6b

  /* A U54: msip is level-triggered, so a release before the wfi is not lost. */
thread:
  li t0, MIE_MSIE
  csrw mie, t0
7:
  la t0, tessera_board_services_ready
  lw t1, 0(t0)
  bnez t1, 8f
  wfi
  j 7b
8:
  fence rw, rw
  li t0, SIFIVE_U_CLINT_MSIP
  slli t1, a0, 2
  add t0, t0, t1
  sw zero, 0(t0)
  csrw mie, zero
  /* Thread mhartid - 1: its partition, and the stack at its top. */
  addi t2, a0, -1
  la t0, __tessera_partitions
  la t1, __tessera_partition_size
  mul t2, t2, t1
  add a0, t0, t2
  add sp, a0, t1
  andi sp, sp, -16
  call tessera_runtime_start
  call main
  tail tessera_runtime_finish
  .size _start, . - _start

  /* Set by the E51 once the services are ready; loaded as 0 with every image. */
  .section .data.tessera_board_services_ready, "aw", @progbits
  .balign 4
tessera_board_services_ready:
  .word 0
