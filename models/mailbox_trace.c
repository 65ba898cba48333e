/*
 * Mailbox model: the events of the host's optional trace hook
 * (TesseraMailboxEvent in tessera/models/mailbox.h, docs/tracing.md). The
 * other files call these at the moment something happens; without a hook
 * they return at once.
 */
#include "mailbox_internal.h"

#include <string.h>

static bool tracing(const TesseraMailbox *m)
{
    return m->host.event != NULL;
}

/* An event about thread t (NULL: the host) at `time`. */
static TesseraMailboxEvent event_of(const TesseraMailbox *m,
                                    const MboxThread *t,
                                    TesseraMailboxEventKind kind,
                                    uint64_t time)
{
    TesseraMailboxEvent e;

    memset(&e, 0, sizeof(e));
    e.kind = kind;
    e.hart = t ? mbox_thread_hart(m, t) : UINT32_MAX;
    e.thread = t ? t->id : m->host_id;
    e.time = time;
    return e;
}

static void emit(TesseraMailbox *m, const TesseraMailboxEvent *e)
{
    m->host.event(m->host.opaque, e);
}

static uint32_t slot_address(uint32_t slot)
{
    return TESSERA_SCRATCH_BASE + slot * TESSERA_BYTES_PER_SLOT;
}

void mbox_trace_send_event(TesseraMailbox *m, const MboxThread *t,
                           const MboxMsg *msg, uint32_t dest_id)
{
    TesseraMailboxEvent e;

    if (!tracing(m)) {
        return;
    }
    e = event_of(m, t, TESSERA_MAILBOX_EVENT_SEND, msg->sent_at);
    e.msg = msg->id;
    e.peer = dest_id;
    e.mask = msg->mask;
    e.copies = msg->mask ? mbox_popcount64(msg->mask) : 1;
    e.flits = msg->flits;
    emit(m, &e);
}

void mbox_trace_deliver_event(TesseraMailbox *m, const MboxThread *t,
                              uint32_t slot, const MboxMsg *msg,
                              uint64_t time)
{
    TesseraMailboxEvent e;

    if (!tracing(m)) {
        return;
    }
    e = event_of(m, t, TESSERA_MAILBOX_EVENT_DELIVER, time);
    e.msg = msg->id;
    e.peer = msg->src_id;
    e.flits = msg->flits;
    e.slot = slot_address(slot);
    emit(m, &e);
}

void mbox_trace_slot_event(TesseraMailbox *m, const MboxThread *t,
                           TesseraMailboxEventKind kind, uint32_t slot,
                           uint64_t msg_id, uint64_t time)
{
    TesseraMailboxEvent e;

    if (!tracing(m)) {
        return;
    }
    e = event_of(m, t, kind, time);
    e.msg = msg_id;
    e.slot = slot_address(slot);
    emit(m, &e);
}

void mbox_trace_to_host(TesseraMailbox *m, const MboxMsg *msg, uint64_t time)
{
    TesseraMailboxEvent e;

    if (!tracing(m)) {
        return;
    }
    e = event_of(m, &m->threads[msg->src_hart], TESSERA_MAILBOX_EVENT_TO_HOST,
                 time);
    e.msg = msg->id;
    e.peer = m->host_id;
    e.flits = msg->flits;
    emit(m, &e);
}

void mbox_trace_from_host(TesseraMailbox *m, uint32_t dest_hart,
                          const MboxMsg *msg)
{
    TesseraMailboxEvent e;

    if (!tracing(m)) {
        return;
    }
    e = event_of(m, &m->threads[dest_hart], TESSERA_MAILBOX_EVENT_FROM_HOST,
                 msg->sent_at);
    e.msg = msg->id;
    e.peer = m->host_id;
    e.copies = 1;
    e.flits = msg->flits;
    emit(m, &e);
}

void mbox_trace_wait_event(TesseraMailbox *m, MboxThread *t,
                           TesseraAccessStatus r, uint64_t now,
                           uint64_t resume_at, uint32_t result)
{
    TesseraMailboxEvent e;

    if (!tracing(m)) {
        return;
    }
    if (r == TESSERA_ACCESS_BLOCKED) {
        if (!t->traced_block) {
            t->traced_block = true;
            e = event_of(m, t, TESSERA_MAILBOX_EVENT_BLOCK, now);
            e.value = t->regs.wait_bits;
            emit(m, &e);
        }
        return;
    }
    if (t->traced_block) {
        t->traced_block = false;
        e = event_of(m, t, TESSERA_MAILBOX_EVENT_RESUME,
                     r == TESSERA_ACCESS_DONE ? resume_at : now);
        e.value = result;
        emit(m, &e);
    }
}

void mbox_trace_termdet(void *opaque, const TesseraTermdetEvent *te)
{
    TesseraMailbox *m = opaque;
    TesseraMailboxEvent e;

    if (!tracing(m)) {
        return;
    }
    memset(&e, 0, sizeof(e));
    e.kind = TESSERA_MAILBOX_EVENT_TERMDET;
    e.hart = te->hart;
    /* From the shape: the first round starts while the model is built. */
    e.thread = te->hart == UINT32_MAX
                   ? m->host_id
                   : tessera_thread_at(&m->cfg.shape, te->hart);
    e.time = te->time;
    e.termdet = *te;
    emit(m, &e);
}
