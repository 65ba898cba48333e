/*
 * Preload model: a file of bytes for threads' partitions (machine property
 * preload=<file>; the format is TESSERA_PRELOAD_* in tessera/hw/regs.h).
 * The machine writes them before any hart runs: how a host program hands
 * the vertex runtime its graph (PGraph::write, HostLink). The whole file is
 * checked first, so a bad one changes nothing. Plain C: used by the QEMU
 * machine and by HostLink, which writes such files.
 */
#ifndef TESSERA_MODELS_PRELOAD_H
#define TESSERA_MODELS_PRELOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/hw/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TesseraPreloadRecord {
    uint32_t thread_id;
    uint32_t offset; /* bytes from the thread's partition base */
    uint32_t length;
    const uint8_t *bytes;
} TesseraPreloadRecord;

/*
 * Checks a whole file for a machine of this shape and partition size: the
 * header, and that every record names a thread of the shape and lies
 * within its partition. False, with one line in why (naming the record),
 * if not.
 */
bool tessera_preload_check(const uint8_t *data, size_t size,
                           const TesseraShape *shape, uint32_t partition_size,
                           char *why, size_t why_size);

/*
 * The record at byte position *at of a checked file (start with *at = 0);
 * advances *at. False after the last.
 */
bool tessera_preload_next(const uint8_t *data, size_t size, size_t *at,
                          TesseraPreloadRecord *record);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_PRELOAD_H */
