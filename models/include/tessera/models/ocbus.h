/*
 * Open-collector bus model (DESIGN 1.6, docs/ocbus.md): 4..8 wired-AND lines
 * spanning every hart of the machine. Each hart drives its local value per
 * line (1 = release, 0 = clamp); every hart reads the same global value, the
 * AND of all local values. Every hart's output resets to 0, so every line
 * starts clamped until each hart releases it: the start state the
 * protocols need (ACWT's "initially l_valid false") holds without any
 * hart having run.
 *
 * Time: a line's global value changes `settle_cycles` after the write that
 * decides it: the first clamp of a released line, or the release of a
 * clamped one that is latest in modelled time (harts run ahead of each
 * other, so the release that completes the AND in call order may be an
 * earlier one). Time is optimistic, as in the mailbox: a read returns the
 * latest global value, and the reading hart continues at
 * max(now, the cycle that value settled).
 *
 * Blocking: wait(mask, value) returns DONE once the masked lines read
 * `value`; otherwise BLOCKED, and host->wake is called when they do. The
 * satisfaction is latched, so a line that flips back before the woken hart
 * issues the wait again does not lose the wake: the wait then completes with
 * the lines as they were when it was satisfied. Waits are reported to the
 * wait registry (tessera/models/waits.h) if the host gives one.
 *
 * Plain C: the caller serialises every call (QEMU: the BQL).
 */
#ifndef TESSERA_MODELS_OCBUS_H
#define TESSERA_MODELS_OCBUS_H

#include <stdbool.h>
#include <stdint.h>

#include "tessera/hw/machine_params.h"
#include "tessera/models/access.h"
#include "tessera/models/waits.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Lines a machine may have (DESIGN 1.6): the range of ocbus-lines. */
#define TESSERA_OCBUS_MIN_LINES ((uint32_t)TESSERA_MIN_ocbus_lines)
#define TESSERA_OCBUS_MAX_LINES ((uint32_t)TESSERA_LIMIT_ocbus_lines)

typedef struct TesseraOcbusConfig {
    uint32_t num_harts;     /* >= 1 */
    uint32_t lines;         /* TESSERA_OCBUS_MIN_LINES..MAX_LINES */
    uint32_t settle_cycles; /* a change's delay, in cycles */
    TesseraWaits *waits;    /* optional: blocked waits are reported here */
    /* Time windows (docs/ranks.md): what harts drive changes the lines that
     * every hart reads only at the end of each window
     * (tessera_ocbus_window_end, below), so that no board sees another's
     * writes in the host order of one process. */
    bool windows;
} TesseraOcbusConfig;

typedef struct TesseraOcbusHost {
    void *opaque;
    /* A hart blocked in wait may now proceed: issue the wait again. */
    void (*wake)(void *opaque, uint32_t hart_index);
} TesseraOcbusHost;

typedef struct TesseraOcbus TesseraOcbus;

/* NULL if the configuration is invalid (no harts, lines out of range, a
 * host without wake) or memory runs out. Every line starts clamped. */
TesseraOcbus *tessera_ocbus_new(const TesseraOcbusConfig *cfg,
                                const TesseraOcbusHost *host);
void tessera_ocbus_free(TesseraOcbus *b);
/* Every line clamped, nobody waiting, time back to 0 (machine reset). */
void tessera_ocbus_reset(TesseraOcbus *b);

/* Hart hart_index drives `local` (bit i = line i) at `now`. Bits above the
 * machine's lines are a guest error (nothing changes). Wakes every waiter
 * whose condition now holds. */
TesseraAccess tessera_ocbus_write(TesseraOcbus *b, uint32_t hart_index,
                                  uint32_t local, uint64_t now);
/* What hart_index drives. */
uint32_t tessera_ocbus_local(const TesseraOcbus *b, uint32_t hart_index);
/* The global value (bit i = line i) and, in *resume_at, when it settled:
 * max(now, the latest settle time of any line). */
uint32_t tessera_ocbus_read(const TesseraOcbus *b, uint64_t now,
                            uint64_t *resume_at);
/* Waits until (global & mask) == (value & mask). DONE: .value is the
 * global value that satisfied it, .resume_at when (>= now). mask 0 or bits
 * above the lines: a guest error. Any write by the hart, or a wait with
 * another condition, abandons a pending wait. */
TesseraAccess tessera_ocbus_wait(TesseraOcbus *b, uint32_t hart_index,
                                 uint32_t mask, uint32_t value, uint64_t now);

/* The register block at TESSERA_OCBUS_BASE (regs.h, docs/memory-map.md): one
 * 32-bit access by hart hart_index at `offset`, the whole decode for both
 * hosts. Reads of GLOBAL and LINE(i) move the hart on to when the value
 * settled (*resume_at). A write of a read-only register (GLOBAL, LINES,
 * SETTLE), LINE(i) of a line the machine lacks or with a value other than
 * 0 or 1, bits above the lines in LOCAL and any other offset are guest
 * errors that change nothing (a read then gives 0). */
TesseraAccess tessera_ocbus_mmio_read(TesseraOcbus *b, uint32_t hart_index,
                                      uint32_t offset, uint64_t now);
TesseraAccess tessera_ocbus_mmio_write(TesseraOcbus *b, uint32_t hart_index,
                                       uint32_t offset, uint32_t value,
                                       uint64_t now);
/* TESSERA_CSR_OCBUS_WAIT: `value` = mask | expected << 8 (bits 16 and up
 * must be 0), then tessera_ocbus_wait. */
TesseraAccess tessera_ocbus_wait_csr(TesseraOcbus *b, uint32_t hart_index,
                                     uint32_t value, uint64_t now);

/* ---- time windows -----------------------------------------------------
 *
 * With config.windows a write changes what its hart drives at once, but
 * the global value that reads and waits see changes only at the end of the
 * window: the lines settle a settle time after the earliest clamp (a line
 * that ends the window clamped) or the latest release (one that ends it
 * released) of the window, in modelled time; then the waits the new value
 * satisfies are woken. Each process keeps a copy of the whole bus; at each
 * window's end it hands every other what its harts now drive and the
 * window's clamp and release times, and every copy applies them all alike.
 */
typedef struct TesseraOcbusDrive {
    uint32_t hart;
    uint32_t local;      /* what it drives at the window's end */
} TesseraOcbusDrive;

typedef struct TesseraOcbusTimes {
    uint64_t clamped_at[TESSERA_OCBUS_MAX_LINES];  /* earliest clamp of the
                                                    * window; UINT64_MAX: none */
    uint64_t released_at[TESSERA_OCBUS_MAX_LINES]; /* latest release; 0: none */
} TesseraOcbusTimes;

/* Combines another process's times into *sum. */
void tessera_ocbus_times_add(TesseraOcbusTimes *sum,
                             const TesseraOcbusTimes *t);
/* This process's part of the window: the harts whose drive changed (valid
 * until the next call into the model) and the times. */
size_t tessera_ocbus_window(const TesseraOcbus *b,
                            const TesseraOcbusDrive **drives,
                            TesseraOcbusTimes *times);
/* Whether the end of a window would change anything: a drive changed. */
bool tessera_ocbus_window_pending(const TesseraOcbus *b);
/* The window ends at `until`: every process's drives (this one's too) and
 * the times of all, combined; the lines take their new values, and the
 * waits they satisfy are woken. Returns how many lines changed. False in
 * *ok, changing nothing, if a drive names no hart or lines the machine
 * lacks, or the bus has no windows. */
uint32_t tessera_ocbus_window_end(TesseraOcbus *b,
                                  const TesseraOcbusDrive *drives, size_t n,
                                  const TesseraOcbusTimes *times,
                                  uint64_t until, bool *ok);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_OCBUS_H */
