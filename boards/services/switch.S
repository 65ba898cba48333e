/*
 * Green threads (threads.h, docs/boards.md): the switch between two threads of one hart (a
 * thread's first one lands on firmware/runtime/board_thread_entry.S). Only what a call may not clobber is saved (ra, sp, s0-s11) and the
 * thread pointer, which is each thread's own (its TLS block); the boards' firmware has no FPU
 * state. The order is threads.cc's Context.
 */
#if __riscv_xlen == 64
#define STORE sd
#define LOAD ld
#define WORD 8
#else
#define STORE sw
#define LOAD lw
#define WORD 4
#endif

  .section .text.tessera_board_switch, "ax", @progbits
  /* a0: context to save into; a1: context to resume. */
  .globl tessera_board_switch
  .type tessera_board_switch, @function
tessera_board_switch:
  STORE ra, 0 * WORD(a0)
  STORE sp, 1 * WORD(a0)
  STORE tp, 2 * WORD(a0)
  STORE s0, 3 * WORD(a0)
  STORE s1, 4 * WORD(a0)
  STORE s2, 5 * WORD(a0)
  STORE s3, 6 * WORD(a0)
  STORE s4, 7 * WORD(a0)
  STORE s5, 8 * WORD(a0)
  STORE s6, 9 * WORD(a0)
  STORE s7, 10 * WORD(a0)
  STORE s8, 11 * WORD(a0)
  STORE s9, 12 * WORD(a0)
  STORE s10, 13 * WORD(a0)
  STORE s11, 14 * WORD(a0)
  LOAD ra, 0 * WORD(a1)
  LOAD sp, 1 * WORD(a1)
  LOAD tp, 2 * WORD(a1)
  LOAD s0, 3 * WORD(a1)
  LOAD s1, 4 * WORD(a1)
  LOAD s2, 5 * WORD(a1)
  LOAD s3, 6 * WORD(a1)
  LOAD s4, 7 * WORD(a1)
  LOAD s5, 8 * WORD(a1)
  LOAD s6, 9 * WORD(a1)
  LOAD s7, 10 * WORD(a1)
  LOAD s8, 11 * WORD(a1)
  LOAD s9, 12 * WORD(a1)
  LOAD s10, 13 * WORD(a1)
  LOAD s11, 14 * WORD(a1)
  ret
  .size tessera_board_switch, . - tessera_board_switch
