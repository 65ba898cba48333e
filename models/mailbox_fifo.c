/*
 * Mailbox model: the intrusive FIFOs. Slots and threads are linked through
 * arrays indexed by slot and hart, so queueing allocates nothing (the plain
 * slot queue is the shared rules', mailbox_rules.h; the receive queue
 * ordered by time is the model's); messages waiting for a slot are pool
 * records.
 */
#include "mailbox_internal.h"

void mbox_slot_queue_by_time(TesseraMailbox *m, uint32_t tile,
                             TesseraSlotQueue *q, uint32_t slot)
{
    TesseraMailboxTile slots = mbox_tile_slots(m, tile);
    size_t i = mbox_slot_index(tile, slot);
    uint16_t after = TESSERA_MAILBOX_NO_SLOT; /* the last that stays ahead */
    uint16_t at;

    /* The last slot that stays ahead is the tail when the tail does (the
     * usual case): no walk. */
    if (q->tail != TESSERA_MAILBOX_NO_SLOT) {
        size_t j = mbox_slot_index(tile, q->tail);

        if (m->slot_info[j].time <= m->slot_info[i].time ||
            m->slot_info[j].src == m->slot_info[i].src) {
            tessera_slot_queue_push(&slots, q, slot);
            return;
        }
    }
    for (at = q->head; at != TESSERA_MAILBOX_NO_SLOT; at = slots.next[at]) {
        size_t j = mbox_slot_index(tile, at);

        if (m->slot_info[j].time <= m->slot_info[i].time ||
            m->slot_info[j].src == m->slot_info[i].src) {
            after = at;
        }
    }
    if (after == q->tail) {
        tessera_slot_queue_push(&slots, q, slot);
        return;
    }
    if (after == TESSERA_MAILBOX_NO_SLOT) {
        slots.next[slot] = q->head;
        q->head = (uint16_t)slot;
    } else {
        slots.next[slot] = slots.next[after];
        slots.next[after] = (uint16_t)slot;
    }
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
