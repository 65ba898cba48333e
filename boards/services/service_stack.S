/*
 * The services' own stack (service_stack.h): calls fn(arg) with sp at `top`, then returns on the
 * caller's stack. s0 keeps the caller's sp across the call, as the calling convention lets it.
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

  .section .text.tessera_board_on_stack, "ax", @progbits
  /* a0: the stack's top (16-byte aligned); a1: fn; a2: arg. */
  .globl tessera_board_on_stack
  .type tessera_board_on_stack, @function
tessera_board_on_stack:
  addi sp, sp, -16
  STORE ra, 0(sp)
  STORE s0, WORD(sp)
  mv s0, sp
  mv sp, a0
  mv a0, a2
  jalr a1
  mv sp, s0
  LOAD ra, 0(sp)
  LOAD s0, WORD(sp)
  addi sp, sp, 16
  ret
  .size tessera_board_on_stack, . - tessera_board_on_stack
