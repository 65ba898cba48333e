/*
 * _start on the HiFive1 Rev B (docs/boards.md): its one hart arrives here from the bootloader
 * (or QEMU's mask ROM) at 0x20010000, executing in place from flash. Before anything else it
 * copies the initial .data from flash to the DTIM and clears .bss and the services' section;
 * then it sets up Tessera's devices in software and runs the machine's threads, green threads
 * that each enter the runtime as a Tessera hart does (boards/services/threads.h).
 */
#include "tessera/start_prologue.h"

  .section .text.start, "ax", @progbits
  .globl _start
  .type _start, @function
_start:
  tessera_start_prologue

  /* The services' stack (service_stack.h): the set-up runs there, and the first switch to a
     thread leaves it. */
  la sp, __tessera_service_stack_top

  /* .data and .sdata from their load address in flash. */
  la t0, __data_load
  la t1, __data_start
  la t2, __data_end
1:
  bgeu t1, t2, 2f
  lw t3, 0(t0)
  sw t3, 0(t1)
  addi t0, t0, 4
  addi t1, t1, 4
  j 1b
2:
  /* .bss, then the services' state and heap. */
  la t1, __bss_start
  la t2, __bss_end
3:
  bgeu t1, t2, 4f
  sw zero, 0(t1)
  addi t1, t1, 4
  j 3b
4:
  la t1, __tessera_services_start
  la t2, __tessera_services_end
5:
  bgeu t1, t2, 6f
  sw zero, 0(t1)
  addi t1, t1, 4
  j 5b
6:
  li ra, 0
  li s0, 0
  /* The services' allocations may set errno, which is thread-local: until the runtime gives
     thread 0 its TLS block, at the bottom of its partition, tp points there already. */
  la tp, __tessera_partitions
  call tessera_board_init_services

  tail tessera_board_run_threads
  .size _start, . - _start
