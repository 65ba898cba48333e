/*
 * The one answer every device model gives to a guest access (a CSR or a
 * register of its window), so that each host (QEMU's overlay, the host
 * machine of boards/hosted, the dev boards' services) acts on every device with
 * one piece of code: docs/architecture.md, "The access contract".
 *
 *   DONE         `value` is what the access reads; the hart continues at
 *                `resume_at` (>= now).
 *   BLOCKED      the model has recorded the hart as a waiter (and in its
 *                wait registry, tessera/models/waits.h) and calls its
 *                host's wake(hart) once it may proceed; the host then
 *                issues the same access again, which is idempotent.
 *                `resume_at` is now, or later where the model already knows
 *                when the wait ends.
 *   GUEST_ERROR  bad guest behaviour that the hardware survives: the host
 *                reports `error` and the hart carries on with `value`
 *                (usually 0) at `resume_at`.
 *   FAULT        bad guest behaviour that traps the instruction (a mailbox
 *                fault): `code` is the fault (TesseraMailboxFault), `error`
 *                its name.
 *   UNKNOWN      not a register of this device (or no such hart).
 *
 * `error` is always a static string naming the device ("ocbus: ..."), or
 * NULL; the host adds who did what (QEMU: LOG_GUEST_ERROR; the host machine:
 * its exception or guest error list; a board: its one-line report).
 * `effect` asks the host for something beyond the access itself, whatever
 * the status: end the run with `code`, reset the machine, or update board-
 * local hart `code`'s software interrupt line.
 *
 * Plain C: models/ is shared by QEMU and the host builds.
 */
#ifndef TESSERA_MODELS_ACCESS_H
#define TESSERA_MODELS_ACCESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TesseraAccessStatus {
    TESSERA_ACCESS_DONE,
    TESSERA_ACCESS_BLOCKED,
    TESSERA_ACCESS_GUEST_ERROR,
    TESSERA_ACCESS_FAULT,
    TESSERA_ACCESS_UNKNOWN,
} TesseraAccessStatus;

typedef enum TesseraAccessEffect {
    TESSERA_EFFECT_NONE,
    TESSERA_EFFECT_END_RUN, /* end the run with exit status `code` */
    TESSERA_EFFECT_RESET,   /* reset the machine */
    TESSERA_EFFECT_MSIP,    /* board-local hart `code`'s msip was written */
} TesseraAccessEffect;

typedef struct TesseraAccess {
    TesseraAccessStatus status;
    TesseraAccessEffect effect;
    uint32_t value;
    int32_t code;
    uint64_t resume_at;
    const char *error;
} TesseraAccess;

static inline TesseraAccess tessera_access(TesseraAccessStatus status,
                                           uint32_t value, uint64_t resume_at,
                                           const char *error)
{
    TesseraAccess a = { status, TESSERA_EFFECT_NONE, value, 0, resume_at,
                        error };
    return a;
}

static inline TesseraAccess tessera_access_done(uint32_t value,
                                                uint64_t resume_at)
{
    return tessera_access(TESSERA_ACCESS_DONE, value, resume_at, NULL);
}

static inline TesseraAccess tessera_access_blocked(uint64_t resume_at)
{
    return tessera_access(TESSERA_ACCESS_BLOCKED, 0, resume_at, NULL);
}

/* Reads 0 unless the model says otherwise (set .value). */
static inline TesseraAccess tessera_access_guest_error(const char *error,
                                                       uint64_t now)
{
    return tessera_access(TESSERA_ACCESS_GUEST_ERROR, 0, now, error);
}

static inline TesseraAccess tessera_access_fault(int32_t code,
                                                 const char *name,
                                                 uint64_t now)
{
    TesseraAccess a = tessera_access(TESSERA_ACCESS_FAULT, 0, now, name);

    a.code = code;
    return a;
}

static inline TesseraAccess tessera_access_unknown(uint64_t now)
{
    return tessera_access(TESSERA_ACCESS_UNKNOWN, 0, now, NULL);
}

static inline TesseraAccess tessera_access_with_effect(TesseraAccess a,
                                                       TesseraAccessEffect e,
                                                       int32_t code)
{
    a.effect = e;
    a.code = code;
    return a;
}

/* For callers that keep out-parameters (any may be NULL): the status. */
static inline TesseraAccessStatus tessera_access_unpack(TesseraAccess a,
                                                        uint32_t *value,
                                                        uint64_t *resume_at,
                                                        const char **error)
{
    if (value) {
        *value = a.value;
    }
    if (resume_at) {
        *resume_at = a.resume_at;
    }
    if (error) {
        *error = a.error;
    }
    return a.status;
}

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_ACCESS_H */
