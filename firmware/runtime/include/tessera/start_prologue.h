/*
 * The first instructions of every _start (firmware/runtime/start.S and each dev board's,
 * docs/boards.md), for .S files: gp first, since the linker may relax later address loads into
 * gp-relative ones; then the trap vector, so that any fault from here on is reported
 * (firmware/runtime/trap.cc) instead of jumping to address 0.
 */
#pragma once

/* clang-format off */
.macro tessera_start_prologue
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la t0, tessera_trap_entry
  csrw mtvec, t0
.endm
/* clang-format on */
