/*
 * Mailbox model: termination detection (tinselIdle). The termdet model
 * does the protocol; this file is the mailbox's side of it: WAIT_UNTIL
 * with an idle bit, the release latched for a thread, and sends held back
 * while phase 2 has disabled them (docs/idle.md).
 */
#include "mailbox_internal.h"

/* Earliest time >= t at which `board` (or TESSERA_TERMDET_HOST) may send:
 * later than t only while phase 2 has disabled sending. */
uint64_t mbox_send_allowed(TesseraMailbox *m, uint32_t board, uint64_t t)
{
    uint64_t at = tessera_termdet_send_at(m->td, board, t);

    if (at == TESSERA_TERMDET_SEND_DISABLED) {
        /* Protocol steps are run after every call, so this does not
         * happen; running them settles it in any case. */
        tessera_termdet_process(m->td);
        at = tessera_termdet_send_at(m->td, board, t);
    }
    return at == TESSERA_TERMDET_SEND_DISABLED ? t : at;
}

/* The detector released a thread blocked in idle: latch the release for
 * its next WAIT_UNTIL and wake it (unless it is the caller of the current
 * call, which picks the release up before returning). */
void mbox_idle_released(void *opaque, uint32_t hart)
{
    TesseraMailbox *m = opaque;
    MboxThread *t = &m->threads[hart];
    uint32_t result = 0;
    uint64_t at = 0;

    if (t->idle != IDLE_WAITING) {
        return;
    }
    tessera_termdet_hart_state(m->td, hart, &result, &at);
    t->idle = IDLE_READY;
    t->idle_value = result << 2;
    t->idle_resume = at;
    if (hart != m->calling) {
        mbox_wake(m, t, MBOX_IDLE_BITS);
    }
}

/* A thread in a tinselIdle call issued something else: the call is over
 * (a release not yet given is dropped). */
void mbox_abandon_idle(TesseraMailbox *m, MboxThread *t, uint64_t now)
{
    if (t->idle == IDLE_WAITING) {
        tessera_termdet_idle_abandon(m->td, mbox_thread_hart(m, t), now);
    }
    t->idle = IDLE_NONE;
}

/* tinselIdle: WAIT_UNTIL with an idle bit (see tessera_mailbox_csr). */
TesseraAccessStatus mbox_csr_idle(TesseraMailbox *m, MboxThread *t,
                               uint32_t conditions, uint64_t now,
                               uint32_t *result, uint64_t *resume_at)
{
    uint32_t hart = mbox_thread_hart(m, t);
    /* A message available always ends the call (it then returns 0). */
    uint32_t wanted = (conditions & MBOX_WAIT_BITS) | TESSERA_WAIT_CAN_RECV;
    uint64_t when;
    uint32_t holds;

    if (t->idle == IDLE_NONE) {
        holds = mbox_wait_holds(m, t, wanted, &when);
        if (holds != 0) {
            *result = holds;
            *resume_at = mbox_max_u64(now, when);
            return TESSERA_ACCESS_DONE;
        }
        tessera_termdet_idle_enter(m->td, hart,
                                   (conditions & TESSERA_WAIT_IDLE_VOTE) != 0,
                                   now);
        t->idle = IDLE_WAITING;
        /* This call may be the one that completes termination. */
        tessera_termdet_process(m->td);
    }
    holds = mbox_wait_holds(m, t, wanted, &when);
    if (t->idle == IDLE_READY) {
        /* The release is latched: it wins over a message that arrived. */
        *result = t->idle_value | holds;
        *resume_at = mbox_max_u64(now, t->idle_resume);
        t->idle = IDLE_NONE;
        return TESSERA_ACCESS_DONE;
    }
    if (holds != 0) {
        /* A message available accounts for the leave: it is counted until
         * freed. Can-send alone does not: the drain that woke the thread
         * may be a round old, its message taken and the colour whitened,
         * so the detector must treat the call as abandoned. */
        if (holds & TESSERA_WAIT_CAN_RECV) {
            tessera_termdet_idle_leave(m->td, hart, now);
        } else {
            tessera_termdet_idle_abandon(m->td, hart, now);
        }
        t->idle = IDLE_NONE;
        *result = holds;
        *resume_at = mbox_max_u64(now, when);
        return TESSERA_ACCESS_DONE;
    }
    t->wait_bits = wanted | TESSERA_WAIT_IDLE |
                   (conditions & TESSERA_WAIT_IDLE_VOTE);
    return TESSERA_ACCESS_BLOCKED;
}
