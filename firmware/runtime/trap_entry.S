/*
 * Trap entry: saves the interrupted registers on the hart's own stack as a TrapFrame
 * (tessera/trap.h) and hands it to tessera_trap_handler, which reports the trap and ends the run,
 * or returns if the image's hook handled the trap: the frame is then restored and mret resumes
 * at mepc.
 *
 * A second trap while this one is handled (say, the stack pointer was the culprit) goes to
 * tessera_trap_nested, which needs neither stack nor gp: it ends the run with the same exit
 * status rule as trap.cc (128 + exception code, 192 + interrupt code) but prints nothing.
 */
#include "tessera/hw/regs_asm.h"

/* XLEN-sized slots: 32 bits on Tessera, 64 on an RV64 dev board (docs/boards.md). */
#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define REG_BYTES 8
#else
#define REG_S sw
#define REG_L lw
#define REG_BYTES 4
#endif
#define TRAP_FRAME_SIZE (32 * REG_BYTES)

  .option push
  .option norelax /* gp may be the corrupted register; address everything pc-relative. */

  .section .text.tessera_trap_entry, "ax", @progbits
  .balign 4
  .globl tessera_trap_entry
  .type tessera_trap_entry, @function
tessera_trap_entry:
  csrw mscratch, t0
  la t0, tessera_trap_nested
  csrw mtvec, t0
  csrr t0, mscratch

  addi sp, sp, -TRAP_FRAME_SIZE
  REG_S zero, 0*REG_BYTES(sp)
  REG_S x1, 1*REG_BYTES(sp)
  REG_S x3, 3*REG_BYTES(sp)
  REG_S x4, 4*REG_BYTES(sp)
  REG_S x5, 5*REG_BYTES(sp)
  REG_S x6, 6*REG_BYTES(sp)
  REG_S x7, 7*REG_BYTES(sp)
  REG_S x8, 8*REG_BYTES(sp)
  REG_S x9, 9*REG_BYTES(sp)
  REG_S x10, 10*REG_BYTES(sp)
  REG_S x11, 11*REG_BYTES(sp)
  REG_S x12, 12*REG_BYTES(sp)
  REG_S x13, 13*REG_BYTES(sp)
  REG_S x14, 14*REG_BYTES(sp)
  REG_S x15, 15*REG_BYTES(sp)
  REG_S x16, 16*REG_BYTES(sp)
  REG_S x17, 17*REG_BYTES(sp)
  REG_S x18, 18*REG_BYTES(sp)
  REG_S x19, 19*REG_BYTES(sp)
  REG_S x20, 20*REG_BYTES(sp)
  REG_S x21, 21*REG_BYTES(sp)
  REG_S x22, 22*REG_BYTES(sp)
  REG_S x23, 23*REG_BYTES(sp)
  REG_S x24, 24*REG_BYTES(sp)
  REG_S x25, 25*REG_BYTES(sp)
  REG_S x26, 26*REG_BYTES(sp)
  REG_S x27, 27*REG_BYTES(sp)
  REG_S x28, 28*REG_BYTES(sp)
  REG_S x29, 29*REG_BYTES(sp)
  REG_S x30, 30*REG_BYTES(sp)
  REG_S x31, 31*REG_BYTES(sp)
  addi t0, sp, TRAP_FRAME_SIZE /* sp as it was when the trap hit */
  REG_S t0, 2*REG_BYTES(sp)

  /* The C++ handler may use gp-relative data; re-establish gp from scratch. */
  la gp, __global_pointer$
  mv a0, sp
  call tessera_trap_handler

  /* Handled by the image's hook: this entry is the trap vector again, then the frame (as the
   * hook left it) goes back into the registers. t0 (x5) and sp (x2) come last. */
  la t0, tessera_trap_entry
  csrw mtvec, t0
  REG_L x1, 1*REG_BYTES(sp)
  REG_L x3, 3*REG_BYTES(sp)
  REG_L x4, 4*REG_BYTES(sp)
  REG_L x6, 6*REG_BYTES(sp)
  REG_L x7, 7*REG_BYTES(sp)
  REG_L x8, 8*REG_BYTES(sp)
  REG_L x9, 9*REG_BYTES(sp)
  REG_L x10, 10*REG_BYTES(sp)
  REG_L x11, 11*REG_BYTES(sp)
  REG_L x12, 12*REG_BYTES(sp)
  REG_L x13, 13*REG_BYTES(sp)
  REG_L x14, 14*REG_BYTES(sp)
  REG_L x15, 15*REG_BYTES(sp)
  REG_L x16, 16*REG_BYTES(sp)
  REG_L x17, 17*REG_BYTES(sp)
  REG_L x18, 18*REG_BYTES(sp)
  REG_L x19, 19*REG_BYTES(sp)
  REG_L x20, 20*REG_BYTES(sp)
  REG_L x21, 21*REG_BYTES(sp)
  REG_L x22, 22*REG_BYTES(sp)
  REG_L x23, 23*REG_BYTES(sp)
  REG_L x24, 24*REG_BYTES(sp)
  REG_L x25, 25*REG_BYTES(sp)
  REG_L x26, 26*REG_BYTES(sp)
  REG_L x27, 27*REG_BYTES(sp)
  REG_L x28, 28*REG_BYTES(sp)
  REG_L x29, 29*REG_BYTES(sp)
  REG_L x30, 30*REG_BYTES(sp)
  REG_L x31, 31*REG_BYTES(sp)
  REG_L x5, 5*REG_BYTES(sp)
  REG_L x2, 2*REG_BYTES(sp)
  mret
  .size tessera_trap_entry, . - tessera_trap_entry

  .section .text.tessera_trap_nested, "ax", @progbits
  .balign 4
  .globl tessera_trap_nested
  .type tessera_trap_nested, @function
tessera_trap_nested:
#ifdef TESSERA_BOARD_BACKEND
  /* A dev board has no exit device at TESSERA_EXIT_BASE: its own stack-free exit. */
  j tessera_board_trap_nested
#endif
  csrr t1, mcause
  srli t2, t1, __riscv_xlen - 1 /* interrupt bit: interrupts report as 192 + code */
  slli t2, t2, 6
  andi t1, t1, 63
  add t1, t1, t2
  addi t1, t1, 128
  slli t1, t1, 16
  li t2, TESSERA_EXIT_FAIL
  or t1, t1, t2
  li t0, TESSERA_EXIT_BASE
  sw t1, 0(t0)
  csrw mie, zero
1:
  wfi
  j 1b
  .size tessera_trap_nested, . - tessera_trap_nested

  .option pop
