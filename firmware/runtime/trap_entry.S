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

#define TRAP_FRAME_SIZE (32 * 4)

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
  sw zero, 0(sp)
  sw x1, 4(sp)
  sw x3, 12(sp)
  sw x4, 16(sp)
  sw x5, 20(sp)
  sw x6, 24(sp)
  sw x7, 28(sp)
  sw x8, 32(sp)
  sw x9, 36(sp)
  sw x10, 40(sp)
  sw x11, 44(sp)
  sw x12, 48(sp)
  sw x13, 52(sp)
  sw x14, 56(sp)
  sw x15, 60(sp)
  sw x16, 64(sp)
  sw x17, 68(sp)
  sw x18, 72(sp)
  sw x19, 76(sp)
  sw x20, 80(sp)
  sw x21, 84(sp)
  sw x22, 88(sp)
  sw x23, 92(sp)
  sw x24, 96(sp)
  sw x25, 100(sp)
  sw x26, 104(sp)
  sw x27, 108(sp)
  sw x28, 112(sp)
  sw x29, 116(sp)
  sw x30, 120(sp)
  sw x31, 124(sp)
  addi t0, sp, TRAP_FRAME_SIZE /* sp as it was when the trap hit */
  sw t0, 8(sp)

  /* The C++ handler may use gp-relative data; re-establish gp from scratch. */
  la gp, __global_pointer$
  mv a0, sp
  call tessera_trap_handler

  /* Handled by the image's hook: this entry is the trap vector again, then the frame (as the
   * hook left it) goes back into the registers. t0 (x5) and sp (x2) come last. */
  la t0, tessera_trap_entry
  csrw mtvec, t0
  lw x1, 4(sp)
  lw x3, 12(sp)
  lw x4, 16(sp)
  lw x6, 24(sp)
  lw x7, 28(sp)
  lw x8, 32(sp)
  lw x9, 36(sp)
  lw x10, 40(sp)
  lw x11, 44(sp)
  lw x12, 48(sp)
  lw x13, 52(sp)
  lw x14, 56(sp)
  lw x15, 60(sp)
  lw x16, 64(sp)
  lw x17, 68(sp)
  lw x18, 72(sp)
  lw x19, 76(sp)
  lw x20, 80(sp)
  lw x21, 84(sp)
  lw x22, 88(sp)
  lw x23, 92(sp)
  lw x24, 96(sp)
  lw x25, 100(sp)
  lw x26, 104(sp)
  lw x27, 108(sp)
  lw x28, 112(sp)
  lw x29, 116(sp)
  lw x30, 120(sp)
  lw x31, 124(sp)
  lw x5, 20(sp)
  lw x2, 8(sp)
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
  srli t2, t1, 31 /* interrupt bit: interrupts report as 192 + code */
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
