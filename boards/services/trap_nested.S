/*
 * tessera_board_trap_nested: the runtime's fallback for a trap taken while a trap is handled
 * (firmware/runtime/trap_entry.S), on a dev board (docs/boards.md). It needs neither stack nor
 * gp: it ends the run through semihosting with the runtime's exit status rule (128 + exception
 * code, 192 + interrupt code), printing nothing; without a debugger it parks.
 */
#if __riscv_xlen == 64
#define STORE sd
#define WORD 8
#else
#define STORE sw
#define WORD 4
#endif

  .option push
  .option norelax
  .option norvc

  .section .text.tessera_board_trap_nested, "ax", @progbits
  .balign 16
  .globl tessera_board_trap_nested
  .type tessera_board_trap_nested, @function
tessera_board_trap_nested:
  la t0, 2f
  csrw mtvec, t0             /* semihosting without a debugger traps: park */
  csrr t1, mcause
  srli t2, t1, __riscv_xlen - 1
  slli t2, t2, 6
  andi t1, t1, 63
  add t1, t1, t2
  addi t1, t1, 128
  la a1, tessera_board_nested_block
  li t2, 0x20026            /* ADP_Stopped_ApplicationExit */
  STORE t2, 0(a1)
  STORE t1, WORD(a1)
  li a0, 0x20               /* SYS_EXIT_EXTENDED */
  .balign 16
  slli zero, zero, 0x1f
  ebreak
  srai zero, zero, 0x7
  .balign 4
2:
  csrw mie, zero
1:
  wfi
  j 1b
  .size tessera_board_trap_nested, . - tessera_board_trap_nested

  .section .tessera_services, "aw", @nobits
  .balign 8
tessera_board_nested_block:
  .skip 2 * WORD

  .option pop
