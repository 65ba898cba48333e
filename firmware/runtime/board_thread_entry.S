/*
 * Where a dev board's green thread starts (boards/services/threads.h, docs/boards.md): its first
 * switch lands here, on its own stack, and it enters the runtime as a Tessera hart does
 * (start.S), with its partition.
 */
  .section .text.tessera_board_thread_entry, "ax", @progbits
  .globl tessera_board_thread_entry
  .type tessera_board_thread_entry, @function
tessera_board_thread_entry:
  li s0, 0
  call tessera_board_thread_partition
  call tessera_runtime_start
  call main
  tail tessera_runtime_finish
  .size tessera_board_thread_entry, . - tessera_board_thread_entry
