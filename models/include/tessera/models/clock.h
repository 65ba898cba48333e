/*
 * Clock model: the modelled time of every hart, the rule both hosts follow.
 *
 * A hart's cycle count is the instructions it has retired times the
 * machine's CPI, plus the cycles it has spent waiting. A device that makes
 * a hart wait moves its clock to the modelled completion time of what it
 * waited for; nothing else moves it. Plain C: used by the QEMU wrapper
 * (hw/riscv/tessera/tessera_time.c, retired instructions from icount) and by
 * the host HAL backend (one instruction per CSR or MMIO access).
 *
 * Each hart's entry is touched only on behalf of that hart, so a host whose
 * harts are threads needs no lock as long as each thread keeps to its own.
 */
#ifndef TESSERA_MODELS_CLOCK_H
#define TESSERA_MODELS_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TesseraClocks TesseraClocks;

/* num_harts clocks at cycle 0. NULL on OOM, if num_harts is 0 or if cpi is
 * outside the cpi property's range (tessera/hw/machine_params.h). */
TesseraClocks *tessera_clocks_new(uint32_t num_harts, uint32_t cpi);
void tessera_clocks_free(TesseraClocks *c);

uint32_t tessera_clocks_cpi(const TesseraClocks *c);

/* Hart hart_index has retired `instructions` more instructions. */
void tessera_clocks_retire(TesseraClocks *c, uint32_t hart_index,
                           uint64_t instructions);
/* Takes back `instructions` the host counted although they did not complete
 * and will be executed again (at most what the hart has retired). */
void tessera_clocks_unretire(TesseraClocks *c, uint32_t hart_index,
                             uint64_t instructions);

/* Hart hart_index's modelled cycle count. */
uint64_t tessera_clocks_now(const TesseraClocks *c, uint32_t hart_index);

/* Instructions retired by every hart since the last reset (the run's count
 * of guest instructions, for the host-time bench). */
uint64_t tessera_clocks_retired_total(const TesseraClocks *c);

/* Hart hart_index waited until cycle `until`: its clock moves there if it is
 * behind. Returns the cycles added (0 if the clock was already past). */
uint64_t tessera_clocks_wait_until(TesseraClocks *c, uint32_t hart_index,
                                   uint64_t until);

/* The cycle CSRs: TESSERA_CSR_CYCLE reads the low word of the hart's count,
 * TESSERA_CSR_CYCLEH the high word. False (and *value 0) for another CSR. */
bool tessera_clocks_read_csr(const TesseraClocks *c, uint32_t hart_index,
                             uint16_t csr, uint32_t *value);

/* Every clock back to cycle 0 (machine reset). */
void tessera_clocks_reset(TesseraClocks *c);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_CLOCK_H */
