/*
 * Mailbox model: the intrusive FIFOs. Slots and threads are linked through
 * arrays indexed by slot and hart, so queueing allocates nothing; messages
 * waiting for a slot are pool records.
 */
#include "mailbox_internal.h"

void mbox_slot_fifo_push(TesseraMailbox *m, uint32_t tile, uint16_t *head,
                         uint16_t *tail, uint32_t slot)
{
    m->slot_next[mbox_slot_index(tile, slot)] = MBOX_NO_SLOT;
    if (*tail == MBOX_NO_SLOT) {
        *head = (uint16_t)slot;
    } else {
        m->slot_next[mbox_slot_index(tile, *tail)] = (uint16_t)slot;
    }
    *tail = (uint16_t)slot;
}

void mbox_slot_queue_by_time(TesseraMailbox *m, uint32_t tile, uint16_t *head,
                             uint16_t *tail, uint32_t slot)
{
    size_t i = mbox_slot_index(tile, slot);
    uint16_t after = MBOX_NO_SLOT; /* the last slot that must stay ahead */
    uint16_t at;

    for (at = *head; at != MBOX_NO_SLOT;
         at = m->slot_next[mbox_slot_index(tile, at)]) {
        size_t j = mbox_slot_index(tile, at);

        if (m->slot_time[j] <= m->slot_time[i] ||
            m->slot_src[j] == m->slot_src[i]) {
            after = at;
        }
    }
    if (after == *tail) {
        mbox_slot_fifo_push(m, tile, head, tail, slot);
        return;
    }
    if (after == MBOX_NO_SLOT) {
        m->slot_next[i] = *head;
        *head = (uint16_t)slot;
    } else {
        m->slot_next[i] = m->slot_next[mbox_slot_index(tile, after)];
        m->slot_next[mbox_slot_index(tile, after)] = (uint16_t)slot;
    }
}

uint32_t mbox_slot_fifo_pop(TesseraMailbox *m, uint32_t tile, uint16_t *head,
                            uint16_t *tail)
{
    uint32_t slot = *head;

    *head = m->slot_next[mbox_slot_index(tile, slot)];
    if (*head == MBOX_NO_SLOT) {
        *tail = MBOX_NO_SLOT;
    }
    return slot;
}

void mbox_hart_fifo_push(TesseraMailbox *m, uint32_t *head, uint32_t *tail,
                         uint32_t hart)
{
    m->threads[hart].next_blocked = MBOX_NO_HART;
    if (*tail == MBOX_NO_HART) {
        *head = hart;
    } else {
        m->threads[*tail].next_blocked = hart;
    }
    *tail = hart;
}

uint32_t mbox_hart_fifo_pop(TesseraMailbox *m, uint32_t *head,
                            uint32_t *tail)
{
    uint32_t hart = *head;

    *head = m->threads[hart].next_blocked;
    if (*head == MBOX_NO_HART) {
        *tail = MBOX_NO_HART;
    }
    m->threads[hart].next_blocked = MBOX_NO_HART;
    return hart;
}

void mbox_pending_push(TesseraMailbox *m, MboxThread *t, MboxMsg *msg)
{
    MboxPending *p = mbox_pool_get(&m->pendings);

    p->next = NULL;
    p->msg = msg;
    if (t->pend_tail == NULL) {
        t->pend_head = p;
    } else {
        t->pend_tail->next = p;
    }
    t->pend_tail = p;
}

MboxMsg *mbox_pending_pop(TesseraMailbox *m, MboxThread *t)
{
    MboxPending *p = t->pend_head;
    MboxMsg *msg = p->msg;

    t->pend_head = p->next;
    if (t->pend_head == NULL) {
        t->pend_tail = NULL;
    }
    mbox_pool_put(&m->pendings, p);
    return msg;
}
