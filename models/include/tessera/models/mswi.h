/*
 * MSWI model: one board's machine software interrupts, with the register
 * layout of the RISC-V ACLINT MSWI (TESSERA_MSWI_* in tessera/hw/regs.h):
 * one 32-bit msip register per hart of the board, at 4 x the hart's
 * board-local index. Bit 0 is the level of the hart's mip.MSIP; the other
 * bits read as 0 and writing them does nothing. Plain C: used by the QEMU
 * wrapper (hw/riscv/tessera_mswi.c) and by the host HAL backend.
 */
#ifndef TESSERA_MODELS_MSWI_H
#define TESSERA_MODELS_MSWI_H

#include <stdbool.h>
#include <stdint.h>

#include "tessera/hw/regs.h"
#include "tessera/models/access.h"

#ifdef __cplusplus
extern "C" {
#endif

/* msip registers that fit in one board's stride of the window. */
#define TESSERA_MSWI_MAX_HARTS (TESSERA_MSWI_STRIDE / 4)


typedef struct TesseraMswi TesseraMswi;

/* Every msip starts at 0. NULL on OOM, or unless
 * 1 <= num_harts <= TESSERA_MSWI_MAX_HARTS. */
TesseraMswi *tessera_mswi_new(uint32_t num_harts);
void tessera_mswi_free(TesseraMswi *m);

/*
 * Accesses at `offset` from the board's base. An offset that is not a
 * multiple of 4, or names no hart of the board, is a guest error; such a
 * read gives 0.
 */
TesseraAccess tessera_mswi_read(const TesseraMswi *m, uint32_t offset);

/* Done with TESSERA_EFFECT_MSIP: .code is the board-local index of the
 * hart whose msip was written; its host sets that hart's MSIP line to
 * tessera_mswi_pending(m, .code). */
TesseraAccess tessera_mswi_write(TesseraMswi *m, uint32_t offset,
                                 uint32_t value);

/* Whether board-local hart `hart`'s msip is set (false outside the board). */
bool tessera_mswi_pending(const TesseraMswi *m, uint32_t hart);

/* Power-on state: every msip 0. Its host lowers every MSIP line. */
void tessera_mswi_reset(TesseraMswi *m);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_MSWI_H */
