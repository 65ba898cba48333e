/*
 * Mailbox model: termination detection (tinselIdle). The termdet model
 * does the protocol and the shared mailbox rules (mailbox_rules.h) the
 * thread's side of WAIT_UNTIL with an idle bit, which mailbox_csr.c joins
 * to the detector; this file latches the detector's releases and holds
 * sends back while phase 2 has disabled them (docs/idle.md).
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

    if (t->regs.idle != TESSERA_IDLE_WAITING) {
        return;
    }
    tessera_termdet_hart_state(m->td, hart, &result, &at);
    (void)tessera_mailbox_rules_release(&t->regs, result, at);
    if (hart != m->calling) {
        mbox_wake(m, t, TESSERA_MAILBOX_IDLE_BITS);
    }
}
