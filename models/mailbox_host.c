/*
 * Mailbox model: the host port. The host sits one board hop off tile (0,0)
 * of board (0,0) with thread id tessera_host_id(): it injects messages
 * toward threads and takes the messages threads send to it, refusing them
 * while it is busy (they are offered again after host_ready).
 */
#include "mailbox_internal.h"

#include <string.h>

/* Offers a message to the host; on success it has left the machine. */
bool mbox_offer_to_host(TesseraMailbox *m, MboxMsg *msg)
{
    uint32_t from = mbox_tile_of(m, msg->src_hart);
    /* With windows only the sender's board's links, which its process
     * sees (mbox_route()) */
    uint32_t board = m->cfg.windows ? mbox_board_of(m, msg->src_hart)
                                    : MBOX_ALL_BOARDS;
    uint64_t arrival = mbox_route(m, from, MBOX_HOST_TILE, msg->sent_at,
                                  msg->flits, false, board);

    if (!m->host.to_host(m->host.opaque, msg->src_id, msg->data, msg->flits,
                         arrival)) {
        return false;
    }
    mbox_route(m, from, MBOX_HOST_TILE, msg->sent_at, msg->flits, true,
               board);
    mbox_trace_to_host(m, msg, arrival);
    m->threads[msg->src_hart].counts.sent++;
    m->boards[mbox_board_of(m, msg->src_hart)].sent++;
    m->host_counts.received++;
    tessera_termdet_received(m->td, TESSERA_TERMDET_HOST, arrival);
    mbox_pool_put(&m->msgs, msg);
    return true;
}

static bool inject(TesseraMailbox *m, uint32_t dest_thread_id,
                   const uint8_t *msg, uint32_t flits, uint64_t time,
                   bool count)
{
    uint32_t dest_hart;
    MboxMsg *rec;

    if (flits < 1 || flits > TESSERA_MAX_FLITS ||
        !mbox_hart_of(m, dest_thread_id, &dest_hart)) {
        return false;
    }
    if (!mbox_tile_has_room(m, mbox_tile_of(m, dest_hart), flits)) {
        m->tiles[mbox_tile_of(m, dest_hart)].host_waiting = true;
        return false;
    }
    rec = mbox_pool_get(&m->msgs);
    rec->src_hart = MBOX_NO_HART;
    rec->src_id = m->host_id;
    rec->dest_tile = mbox_tile_of(m, dest_hart);
    rec->dest_thread = dest_hart & (m->threads_per_tile - 1);
    rec->mask = 0;
    rec->flits = flits;
    rec->refs = 0;
    /* The host is held back while termination is being released. */
    time = mbox_send_allowed(m, TESSERA_TERMDET_HOST, time);
    rec->sent_at = time;
    rec->id = mbox_new_msg_id(m, m->num_boards + mbox_board_of(m, dest_hart));
    memcpy(rec->data, msg, (size_t)flits * TESSERA_BYTES_PER_FLIT);
    if (count) {
        tessera_termdet_sent(m->td, TESSERA_TERMDET_HOST, time);
    }
    mbox_trace_from_host(m, dest_hart, rec);
    mbox_enter_network(m, rec, time);
    tessera_termdet_process(m->td);
    return true;
}

bool tessera_mailbox_inject(TesseraMailbox *m, uint32_t dest_thread_id,
                            const uint8_t *msg, uint32_t flits,
                            uint64_t time)
{
    return inject(m, dest_thread_id, msg, flits, time, true);
}

void tessera_mailbox_host_sent(TesseraMailbox *m, uint64_t time)
{
    tessera_termdet_sent(m->td, TESSERA_TERMDET_HOST, time);
}

bool tessera_mailbox_inject_sent(TesseraMailbox *m, uint32_t dest_thread_id,
                                 const uint8_t *msg, uint32_t flits,
                                 uint64_t time)
{
    return inject(m, dest_thread_id, msg, flits, time, false);
}

bool tessera_mailbox_host_can_inject(TesseraMailbox *m,
                                     uint32_t dest_thread_id)
{
    uint32_t dest_hart;

    if (!mbox_hart_of(m, dest_thread_id, &dest_hart)) {
        return false;
    }
    if (!mbox_tile_has_room(m, mbox_tile_of(m, dest_hart), TESSERA_MAX_FLITS)) {
        m->tiles[mbox_tile_of(m, dest_hart)].host_waiting = true;
        return false;
    }
    return true;
}

void tessera_mailbox_host_ready(TesseraMailbox *m)
{
    while (m->host_blocked_head != MBOX_NO_HART) {
        MboxThread *s = &m->threads[m->host_blocked_head];
        MboxMsg *msg = s->outbound;

        if (!mbox_offer_to_host(m, msg)) {
            return;
        }
        mbox_hart_fifo_pop(m, &m->host_blocked_head, &m->host_blocked_tail);
        s->outbound = NULL;
        mbox_wake(m, s, TESSERA_WAIT_CAN_SEND);
        tessera_termdet_process(m->td);
    }
}
