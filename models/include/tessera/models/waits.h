/*
 * Wait registry: which harts are stopped in a blocking device operation,
 * which operation, and since which modelled cycle; and the deadlock report
 * built from it (docs/debugging.md, "Deadlocks").
 *
 * Every model with a blocking operation reports to the registry its host
 * gives it (the mailbox: TesseraMailboxConfig.waits): block when the
 * operation returns "blocked", unblock when it completes or the model wakes
 * the hart. So a device added later gets deadlock reports without touching
 * either host. The hosts decide when the machine is deadlocked (QEMU: every
 * vCPU halted with nothing to wake it; the host backend: every hart blocked
 * for a grace period); the registry says who waits on what.
 *
 * Plain C, no locks: the caller serialises calls (QEMU: the BQL).
 */
#ifndef TESSERA_MODELS_WAITS_H
#define TESSERA_MODELS_WAITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/hw/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exit status of a run that ends in a deadlock (both hosts' tools). Guest
 * programs use 1..123 (docs/firmware.md), traps 128..255. */
#define TESSERA_DEADLOCK_EXIT_STATUS 125

/* Operations of harts the machine itself has stopped (not a device): the
 * hosts add them just before reporting. */
#define TESSERA_WAIT_OP_FINISHED "finished (returned from main and checked in)"
#define TESSERA_WAIT_OP_WFI      "wfi, no interrupt enabled and pending"

typedef struct TesseraWaits TesseraWaits;

/* A registry for every hart of a machine of this shape (a copy is kept).
 * NULL if the shape has no harts or memory runs out. */
TesseraWaits *tessera_waits_new(const TesseraShape *shape);
void tessera_waits_free(TesseraWaits *w);

/* Nobody waits (machine reset). */
void tessera_waits_reset(TesseraWaits *w);

/* Hart hart_index is stopped in `operation` since modelled cycle `since`.
 * `operation` names the device and what it waits for ("mailbox wait-until
 * can-recv"); it must outlive the registry (a string literal). Blocking
 * again in the same operation keeps the first `since`. Out-of-range harts
 * are ignored. */
void tessera_waits_block(TesseraWaits *w, uint32_t hart_index,
                         const char *operation, uint64_t since);
/* Hart hart_index may go on (its operation completed or it was woken). */
void tessera_waits_unblock(TesseraWaits *w, uint32_t hart_index);

/* The operation hart_index is stopped in, or NULL. */
const char *tessera_waits_operation(const TesseraWaits *w,
                                    uint32_t hart_index);
/* The cycle it has been stopped since (0 if not stopped). */
uint64_t tessera_waits_since(const TesseraWaits *w, uint32_t hart_index);
/* How many harts are stopped. */
uint32_t tessera_waits_count(const TesseraWaits *w);

/* The report: one line per operation, each "  <threads>: <operation>,
 * since cycle <c>" (or "since cycles <first>..<last>"), where <threads> is
 * "thread 0x<id>" or "threads " and the ids as ranges ("0x0-0x3f, 0x80"),
 * at most 8 ranges and then "and <n> more", followed by the count. Lines
 * are in the order each operation's first hart appears; every line ends in
 * '\n'. Writes at most `size` bytes, NUL included (truncating), and returns
 * the length of the whole report, as snprintf does. Harts not stopped are
 * left out. */
size_t tessera_waits_report(const TesseraWaits *w, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_WAITS_H */
