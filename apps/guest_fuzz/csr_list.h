/*
 * The CSRs guest_fuzz hits: every CSR of tessera/hw/regs.h and its neighbours (numbers nothing
 * implements, the standard counters and machine ID registers around CYCLE and HART_ID). Shared
 * by the jump table (csr_table.S) and the C++ that indexes it, so the two cannot disagree.
 * None of these changes machine state the runtime relies on (no mstatus, mtvec, mie, ...).
 */
#ifndef GUEST_FUZZ_CSR_LIST_H
#define GUEST_FUZZ_CSR_LIST_H

#define GUEST_FUZZ_CSRS(X)                                                                   \
  X(0x7fe) X(0x7ff) X(0x800) X(0x801) X(0x802) X(0x803) X(0x804) X(0x805) X(0x806) X(0x807) \
  X(0x808) X(0x809) X(0x80a) X(0x80b) X(0x80c) X(0x80d) X(0x80e) X(0x80f) X(0x810) X(0x811) \
  X(0x812) X(0x813) X(0x814) X(0x815) X(0x816) X(0x817) X(0xc00) X(0xc01) X(0xc02) X(0xc80) \
  X(0xc81) X(0xc82) X(0xf11) X(0xf12) X(0xf13) X(0xf14) X(0xf15)

/* Entries per CSR in the table: csrrw, csrrs, csrrc, then csrrwi, csrrsi, csrrci with each
 * immediate 0..31. Every entry is the CSR instruction and a ret: 8 bytes. */
#define GUEST_FUZZ_FORMS_PER_CSR (3 + 3 * 32)
#define GUEST_FUZZ_ENTRY_BYTES 8

#endif
