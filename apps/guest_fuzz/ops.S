/*
 * The operations guest_fuzz issues that may trap, each a single instruction followed by ret, so
 * that the trap hook (guest_fuzz.cc) resumes at mepc + 4 = the ret. The hook handles only traps
 * whose mepc lies between guest_fuzz_ops_start and guest_fuzz_ops_end: a trap anywhere else is a
 * real failure and is reported as usual.
 *
 * CSR numbers and immediates are encoded in the instruction, so each (CSR, form, immediate) has
 * its own entry; csr_list.h lists the CSRs for both this table and the C++ that indexes it.
 */
#include "csr_list.h"

  .option push
  .option norelax

  .section .text.guest_fuzz_ops, "ax", @progbits
  .balign 4
  .globl guest_fuzz_ops_start
guest_fuzz_ops_start:

/* uint32_t guest_fuzz_csr(uint32_t entry, uint32_t operand): runs table entry `entry` with
 * `operand` in the source register; returns what the CSR read back (0 if it trapped). */
  .globl guest_fuzz_csr
  .type guest_fuzz_csr, @function
guest_fuzz_csr:
  slli t0, a0, 3
  la t1, guest_fuzz_csr_table
  add t1, t1, t0
  li a0, 0
  jr t1
  .size guest_fuzz_csr, . - guest_fuzz_csr

  .macro imm_entries op, csr
  .irp imm, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
  \op a0, \csr, \imm
  ret
  .endr
  .endm

  .macro csr_entries csr
  csrrw a0, \csr, a1
  ret
  csrrs a0, \csr, a1
  ret
  csrrc a0, \csr, a1
  ret
  imm_entries csrrwi, \csr
  imm_entries csrrsi, \csr
  imm_entries csrrci, \csr
  .endm

#define GUEST_FUZZ_ASM_ENTRIES(csr) csr_entries csr;
#define GUEST_FUZZ_ASM_COUNT(csr) +1

  .balign 4
guest_fuzz_csr_table:
  GUEST_FUZZ_CSRS(GUEST_FUZZ_ASM_ENTRIES)
guest_fuzz_csr_table_end:
  .if guest_fuzz_csr_table_end - guest_fuzz_csr_table - GUEST_FUZZ_ENTRY_BYTES * GUEST_FUZZ_FORMS_PER_CSR * (0 GUEST_FUZZ_CSRS(GUEST_FUZZ_ASM_COUNT))
  .error "guest_fuzz_csr_table: entry size or CSR count differs from csr_list.h"
  .endif

/* uint32_t guest_fuzz_mem(uint32_t op, uint32_t address, uint32_t value): op 0..4 = lb, lbu, lh,
 * lhu, lw (returns the value loaded), 5..7 = sb, sh, sw of `value`. 0 if it trapped. */
  .globl guest_fuzz_mem
  .type guest_fuzz_mem, @function
guest_fuzz_mem:
  slli t0, a0, 3
  la t1, guest_fuzz_mem_table
  add t1, t1, t0
  li a0, 0
  jr t1
  .size guest_fuzz_mem, . - guest_fuzz_mem

  .balign 4
guest_fuzz_mem_table:
  lb a0, 0(a1)
  ret
  lbu a0, 0(a1)
  ret
  lh a0, 0(a1)
  ret
  lhu a0, 0(a1)
  ret
  lw a0, 0(a1)
  ret
  sb a2, 0(a1)
  ret
  sh a2, 0(a1)
  ret
  sw a2, 0(a1)
  ret

  .globl guest_fuzz_ops_end
guest_fuzz_ops_end:

  .option pop
