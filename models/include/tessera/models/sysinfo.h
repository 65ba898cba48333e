/*
 * Sysinfo model: the machine-facts register block and the boot check-in
 * register (see TESSERA_SYSINFO_* in tessera/hw/regs.h). Plain C: used by
 * the QEMU wrapper and by the host HAL backend.
 *
 * Check-in: a hart writes its status (0 = success) to CHECKIN once its work
 * is done; reading CHECKIN returns how many distinct harts have checked in.
 * When the last hart checks in the model asks its host to end the run:
 * success if every status was 0, otherwise the first non-zero status.
 * A second check-in by the same hart is a guest error and is ignored.
 *
 * With time windows (docs/ranks.md), boards meet only at window ends, so
 * what CHECKIN reads is the machine's count at the last window's end
 * (tessera_sysinfo_end_window), the same however the boards are split over
 * processes; in one window a hart's own check-in shows at the next end.
 */
#ifndef TESSERA_MODELS_SYSINFO_H
#define TESSERA_MODELS_SYSINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "tessera/hw/regs.h"
#include "tessera/models/access.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TesseraSysinfoConfig {
    TesseraShape shape;
    uint32_t clock_mhz;
    uint32_t dram_size;      /* bytes per board */
    uint32_t partition_size; /* bytes per hart */
    uint32_t reflex_buffer_flits; /* B of the reflex switches (docs/reflex.md) */
    TesseraTiming timing; /* reported by TESSERA_SYSINFO_CPI..BARRIER_TILE_Y */
} TesseraSysinfoConfig;

typedef struct TesseraSysinfo TesseraSysinfo;

/* NULL on OOM or if cfg breaks the assumptions of regs.h: an extent of 0;
 * tile, core or thread extents not powers of two; ids (host id included)
 * wider than 32 bits; partitions reaching beyond dram_size; DRAM beyond
 * the 32-bit address space. */
TesseraSysinfo *tessera_sysinfo_new(const TesseraSysinfoConfig *cfg);
void tessera_sysinfo_free(TesseraSysinfo *s);

/* Back to power-on (machine reset): nobody has checked in. */
void tessera_sysinfo_reset(TesseraSysinfo *s);

/* Reads register `offset` on behalf of thread id `hart_id`
 * (tessera/models/access.h). Unknown offsets are guest errors that read 0. */
TesseraAccess tessera_sysinfo_read(TesseraSysinfo *s, uint32_t hart_id,
                                   uint32_t offset);

/* The last check-in ends the run: TESSERA_EFFECT_END_RUN with the first
 * non-zero status checked in (.code). */
TesseraAccess tessera_sysinfo_write(TesseraSysinfo *s, uint32_t hart_id,
                                    uint32_t offset, uint32_t value);

/* True if thread id `hart_id` has checked in (false for ids the machine
 * does not have). */
bool tessera_sysinfo_checked_in(const TesseraSysinfo *s, uint32_t hart_id);
/* How many harts have checked in here (what CHECKIN reads without windows). */
uint32_t tessera_sysinfo_check_ins(const TesseraSysinfo *s);

/* From now on (until the model is freed), CHECKIN reads the count of the
 * last window's end: 0 until the first. */
void tessera_sysinfo_use_windows(TesseraSysinfo *s);
/* A window ended with `check_ins` harts of the whole machine checked in
 * (over ranks: every rank's, summed). */
void tessera_sysinfo_end_window(TesseraSysinfo *s, uint32_t check_ins);

/* Partition base of a thread: DRAM_BASE + CODE_SIZE + local * size. */
uint32_t tessera_sysinfo_partition_base(const TesseraSysinfo *s,
                                        uint32_t hart_id);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_SYSINFO_H */
