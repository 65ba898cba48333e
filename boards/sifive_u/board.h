/*
 * The HiFive Unleashed's addresses that both start.S and board.cc use (docs/boards.md): one
 * place for each. Plain #defines, so that assembly can include them.
 */
#pragma once

#define SIFIVE_U_CLINT_MSIP 0x02000000 /* hart h's msip at + 4h */
#define SIFIVE_U_CLINT_MTIME 0x0200bff8 /* the timer every hart shares, 1 MHz */
#define SIFIVE_U_UART0 0x10010000
#define SIFIVE_U_THREAD_HARTS 4 /* the U54s, harts 1-4: Tessera threads 0-3 */
