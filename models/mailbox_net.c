/*
 * Mailbox model: the network's contents. A message enters the network
 * toward a mailbox while that mailbox's buffering (buffer_flits) has room
 * and no earlier sender waits for it; it is delivered into a slot the
 * receiving thread gave to hardware, or waits in the network for one.
 * Room that appears lets blocked senders in, in FIFO order.
 */
#include "mailbox_internal.h"

#include <stdlib.h>
#include <string.h>

void mbox_report_wait(TesseraMailbox *m, MboxThread *t, uint64_t now)
{
    uint32_t hart = mbox_thread_hart(m, t);

    if (m->cfg.waits == NULL) {
        return;
    }
    if (t->regs.wait_bits) {
        tessera_waits_block(m->cfg.waits, hart,
                            tessera_mailbox_wait_operation(t->regs.wait_bits),
                            now);
    } else {
        tessera_waits_unblock(m->cfg.waits, hart);
    }
}

void mbox_wake(TesseraMailbox *m, MboxThread *t, uint32_t condition)
{
    if (tessera_mailbox_rules_wakes(&t->regs, condition)) {
        mbox_report_wait(m, t, 0);
        m->host.wake(m->host.opaque, mbox_thread_hart(m, t));
    }
}

/* Copies msg into `slot` of receiving thread t and queues it for RECV;
 * receivable at max(arrival, not_before). Returns that time. */
uint64_t mbox_deliver(TesseraMailbox *m, MboxThread *t, uint32_t slot,
                      const MboxMsg *msg, uint64_t not_before)
{
    uint32_t tile = mbox_tile_of(m, mbox_thread_hart(m, t));
    size_t i = mbox_slot_index(tile, slot);
    TesseraMailboxTile slots = mbox_tile_slots(m, tile);

    memcpy(mbox_slot_bytes(m, tile, slot), msg->data,
           (size_t)msg->flits * TESSERA_BYTES_PER_FLIT);
    tessera_mailbox_rules_fill(&slots, slot);
    if (m->cfg.untimed) {
        /* Receivable at once, in the order of delivery (a pair's messages
         * are delivered in order): no record of time or sender to keep */
        uint64_t time = mbox_max_u64(msg->arrival, not_before);

        if (m->host.event != NULL) {
            m->slot_msg[i] = msg->id;
        }
        tessera_slot_queue_push(&slots, &t->regs.recv, slot);
        mbox_trace_deliver(m, t, slot, msg, time);
        mbox_wake(m, t, TESSERA_WAIT_CAN_RECV);
        return time;
    }
    m->slot_info[i].time = mbox_max_u64(msg->arrival, not_before);
    m->slot_info[i].src = msg->src_hart;
    if (m->host.event != NULL) {
        m->slot_msg[i] = msg->id;
    }
    mbox_slot_queue_by_time(m, tile, &t->regs.recv, slot);
    mbox_trace_deliver(m, t, slot, msg, m->slot_info[i].time);
    mbox_wake(m, t, TESSERA_WAIT_CAN_RECV);
    return m->slot_info[i].time;
}

/* Asks the caches for what delivering to the threads of `mask` from `base`
 * will touch, all at once rather than one miss after another: first their
 * records, then the slot each would fill, its record and the record of the
 * tail of its receive queue. Changes nothing. Inlined always: on its own it
 * would be a pure function whose result nobody uses, and the compiler drops
 * the call. */
static inline __attribute__((always_inline)) void
prefetch_receivers(const TesseraMailbox *m, uint32_t base, uint64_t mask)
{
    uint64_t left;

    for (left = mask; left != 0; left &= left - 1) {
        uint32_t hart = base + (uint32_t)__builtin_ctzll(left);

        __builtin_prefetch(&m->threads[hart]);
    }
    for (left = mask; left != 0; left &= left - 1) {
        uint32_t hart = base + (uint32_t)__builtin_ctzll(left);
        const MboxThread *t = &m->threads[hart];
        size_t first = mbox_slot_index(mbox_tile_of(m, hart), 0);
        uint16_t slot = t->regs.free.head, tail = t->regs.recv.tail;

        if (slot != TESSERA_MAILBOX_NO_SLOT) {
            __builtin_prefetch(&m->slot_next[first + slot]);
            if (!m->cfg.untimed) {
                __builtin_prefetch(&m->slot_info[first + slot], 1);
            }
        }
        if (tail != TESSERA_MAILBOX_NO_SLOT && !m->cfg.untimed) {
            __builtin_prefetch(&m->slot_info[first + tail]);
        }
    }
}

/* Delivers msg to thread t now if t has given a slot, else queues it. */
static void offer(TesseraMailbox *m, MboxThread *t, MboxMsg *msg)
{
    if (t->regs.free.head != TESSERA_MAILBOX_NO_SLOT) {
        TesseraMailboxTile tile =
            mbox_tile_slots(m, mbox_tile_of(m, mbox_thread_hart(m, t)));
        uint32_t slot = tessera_slot_queue_pop(&tile, &t->regs.free);

        mbox_deliver(m, t, slot, msg, 0);
        msg->refs--;
        return;
    }
    mbox_pending_push(m, t, msg);
}

/* The message no longer occupies the network once delivered everywhere. */
void mbox_release_if_delivered(TesseraMailbox *m, MboxMsg *msg)
{
    if (msg->refs == 0) {
        m->tiles[msg->dest_tile].buffer_used -= msg->flits;
        mbox_pool_put(&m->msgs, msg);
    }
}

/*
 * The board whose links a message contends for: with windows, a message
 * between boards waits only on its destination board's links (elsewhere it
 * takes the uncontended latency), since only the destination's process
 * routes it, at the exchange, and other boards' links carry traffic that
 * process does not see. Without windows, every link on the way.
 */
static uint32_t contended_board(const TesseraMailbox *m, uint32_t from,
                                uint32_t to)
{
    uint32_t tiles_per_board = m->cfg.shape.tiles_x * m->cfg.shape.tiles_y;

    if (!m->cfg.windows || (from != MBOX_HOST_TILE &&
                            from / tiles_per_board == to / tiles_per_board)) {
        return MBOX_ALL_BOARDS;
    }
    return to / tiles_per_board; /* from the host too: see mbox_route() */
}

/*
 * A message counts as sent by its thread and board (and the host) as it
 * leaves them: into the network, or with windows into its board's egress,
 * so that over ranks the sender's rank counts it (the same figures as one
 * process gives, whichever rank admits it).
 */
static bool waits_for_exchange(const TesseraMailbox *m, uint32_t src_hart,
                               const MboxMsg *msg);

static void count_sent(TesseraMailbox *m, const MboxMsg *msg)
{
    uint32_t copies = msg->mask ? mbox_popcount64(msg->mask) : 1;

    if (msg->src_hart == MBOX_NO_HART) {
        m->host_counts.sent += copies;
    } else {
        m->threads[msg->src_hart].counts.sent += copies;
        m->boards[mbox_board_of(m, msg->src_hart)].sent += copies;
    }
}

/* Puts msg into the network toward a tile at `depart` (there is room):
 * counts it, times it, delivers what can be delivered. */
void mbox_enter_network(TesseraMailbox *m, MboxMsg *msg, uint64_t depart)
{
    uint32_t from = msg->src_hart == MBOX_NO_HART
                        ? MBOX_HOST_TILE
                        : mbox_tile_of(m, msg->src_hart);
    uint32_t base = msg->dest_tile << m->tile_shift;
    uint32_t copies = msg->mask ? mbox_popcount64(msg->mask) : 1;

    msg->arrival = m->cfg.untimed
                       ? depart
                       : mbox_route(m, from, msg->dest_tile, depart, msg->flits,
                                    true,
                                    contended_board(m, from, msg->dest_tile));
    /* One that waited at its board's egress counted as it went in there */
    if (msg->src_hart == MBOX_NO_HART ||
        !waits_for_exchange(m, msg->src_hart, msg)) {
        count_sent(m, msg);
    }
    m->tiles[msg->dest_tile].buffer_used += msg->flits;
    msg->refs = copies;
    if (msg->mask == 0) {
        offer(m, &m->threads[base + msg->dest_thread], msg);
    } else {
        uint64_t mask = msg->mask;

        prefetch_receivers(m, base, mask);
        while (mask != 0) {
            uint32_t k = (uint32_t)__builtin_ctzll(mask);

            mask &= mask - 1;
            offer(m, &m->threads[base + k], msg);
        }
    }
    mbox_release_if_delivered(m, msg);
}

bool mbox_tile_has_room(const TesseraMailbox *m, uint32_t tile,
                        uint32_t flits)
{
    const MboxTile *t = &m->tiles[tile];

    return t->blocked_head == MBOX_NO_HART &&
           t->buffer_used + flits <= m->cfg.buffer_flits;
}

static bool board_is_local(const TesseraMailbox *m, uint32_t board);

/*
 * Whether msg waits for the exchange: windows, and it leaves its board.
 * Untimed, a window orders nothing by time, so only a message toward
 * another process's board waits (native mode's parts, docs/native.md).
 */
static bool waits_for_exchange(const TesseraMailbox *m, uint32_t src_hart,
                               const MboxMsg *msg)
{
    const TesseraShape *s = &m->cfg.shape;
    uint32_t dest_board = msg->dest_tile / (s->tiles_x * s->tiles_y);

    if (!m->cfg.windows || dest_board == mbox_board_of(m, src_hart)) {
        return false;
    }
    return !m->cfg.untimed || !board_is_local(m, dest_board);
}

/* Keeps msg for the exchange at the end of the window. */
static void mbox_outbox_push(TesseraMailbox *m, MboxMsg *msg)
{
    if (m->outbox_count == m->outbox_capacity) {
        uint32_t n = m->outbox_capacity ? 2 * m->outbox_capacity : 64;
        MboxMsg **grown = realloc(m->outbox, n * sizeof(*grown));

        if (grown == NULL) {
            abort(); /* as for message records: the model cannot go on */
        }
        m->outbox = grown;
        m->outbox_capacity = n;
    }
    m->outbox[m->outbox_count++] = msg;
}

/* Flits board `board` holds at its egress toward tile `tile`. */
static uint16_t *egress_used(TesseraMailbox *m, uint32_t board, uint32_t tile)
{
    return &m->egress_used[(size_t)board * m->num_tiles + tile];
}

static bool egress_has_room(TesseraMailbox *m, uint32_t board,
                            const MboxMsg *msg)
{
    return *egress_used(m, board, msg->dest_tile) + msg->flits <=
           m->cfg.buffer_flits;
}

/* msg goes into its board's egress at `at` (there is room). */
static void enter_egress(TesseraMailbox *m, uint32_t board, MboxMsg *msg,
                         uint64_t at)
{
    *egress_used(m, board, msg->dest_tile) += msg->flits;
    msg->egress_at = at;
    count_sent(m, msg);
    mbox_outbox_push(m, msg);
}

/* msg leaves its board at the next exchange: into the board's egress if
 * it holds buffer_flits or fewer toward that mailbox then, else it waits in
 * its sender's outbound register. */
static void mbox_send_to_egress(TesseraMailbox *m, MboxThread *t,
                                MboxMsg *msg)
{
    uint32_t hart = mbox_thread_hart(m, t);
    uint32_t board = mbox_board_of(m, hart);

    if (m->egress_blocked_head[board] == MBOX_NO_HART &&
        egress_has_room(m, board, msg)) {
        enter_egress(m, board, msg, msg->sent_at);
        return;
    }
    t->outbound = msg;
    mbox_hart_fifo_push(m, &m->egress_blocked_head[board],
                        &m->egress_blocked_tail[board], hart);
}

/* Sends msg toward its tile now, holds it in t's outbound register until
 * there is room, or keeps it for the window's exchange (another board). */
void mbox_send_to_tile(TesseraMailbox *m, MboxThread *t, MboxMsg *msg)
{
    MboxTile *tile = &m->tiles[msg->dest_tile];
    uint32_t hart = mbox_thread_hart(m, t);

    if (waits_for_exchange(m, hart, msg)) {
        mbox_send_to_egress(m, t, msg);
        return;
    }
    if (mbox_tile_has_room(m, msg->dest_tile, msg->flits)) {
        mbox_enter_network(m, msg, msg->sent_at);
        return;
    }
    t->outbound = msg;
    mbox_hart_fifo_push(m, &tile->blocked_head, &tile->blocked_tail,
                        mbox_thread_hart(m, t));
}

/* Room appeared toward `tile` at modelled time `at`: blocked senders enter
 * in FIFO order while they fit, then the host hears about it. */
void mbox_admit_blocked(TesseraMailbox *m, uint32_t tile, uint64_t at)
{
    MboxTile *tl = &m->tiles[tile];

    while (tl->blocked_head != MBOX_NO_HART) {
        MboxThread *s = &m->threads[tl->blocked_head];
        MboxMsg *msg = s->outbound;
        uint64_t depart;

        if (tl->buffer_used + msg->flits > m->cfg.buffer_flits) {
            return;
        }
        mbox_hart_fifo_pop(m, &tl->blocked_head, &tl->blocked_tail);
        s->outbound = NULL;
        depart = mbox_max_u64(msg->sent_at, at);
        s->send_ready = depart;
        mbox_enter_network(m, msg, depart);
        mbox_wake(m, s, TESSERA_WAIT_CAN_SEND);
    }
    if (tl->host_waiting && tl->buffer_used < m->cfg.buffer_flits) {
        tl->host_waiting = false;
        if (m->host.inject_ready != NULL) {
            m->host.inject_ready(m->host.opaque);
        }
    }
}


/* ---- the exchange at the end of a window -------------------------------- */

/* Send time, then sending hart, then issue order: modelled facts only. */
static int outbox_order(const void *a, const void *b)
{
    const MboxMsg *x = *(MboxMsg *const *)a, *y = *(MboxMsg *const *)b;

    if (x->sent_at != y->sent_at) {
        return x->sent_at < y->sent_at ? -1 : 1;
    }
    if (x->src_hart != y->src_hart) {
        return x->src_hart < y->src_hart ? -1 : 1;
    }
    return x->id < y->id ? -1 : x->id > y->id;
}

uint32_t tessera_mailbox_outbox_count(const TesseraMailbox *m)
{
    return m->outbox_count;
}

/* Senders of `board` blocked at its egress whose message fits now enter
 * it, in FIFO order (one that does not fit keeps its place). */
static void admit_to_egress(TesseraMailbox *m, uint32_t board, uint64_t at)
{
    uint32_t *head = &m->egress_blocked_head[board];
    uint32_t *tail = &m->egress_blocked_tail[board];
    uint32_t keep_head = MBOX_NO_HART, keep_tail = MBOX_NO_HART;

    while (*head != MBOX_NO_HART) {
        uint32_t hart = mbox_hart_fifo_pop(m, head, tail);
        MboxThread *t = &m->threads[hart];
        MboxMsg *msg = t->outbound;

        if (!egress_has_room(m, board, msg)) {
            mbox_hart_fifo_push(m, &keep_head, &keep_tail, hart);
            continue;
        }
        enter_egress(m, board, msg, mbox_max_u64(msg->sent_at, at));
        t->outbound = NULL;
        t->send_ready = mbox_max_u64(t->send_ready, msg->egress_at);
        mbox_wake(m, t, TESSERA_WAIT_CAN_SEND);
    }
    *head = keep_head;
    *tail = keep_tail;
}

static bool board_is_local(const TesseraMailbox *m, uint32_t board)
{
    return m->cfg.local_boards == NULL || m->cfg.local_boards[board];
}

uint32_t tessera_mailbox_exchange_admit(TesseraMailbox *m, uint64_t at,
                                        TesseraMailboxCreditFn credit,
                                        void *opaque)
{
    uint32_t n = m->outbox_count, entered = 0, i;

    m->outbox_count = 0;
    m->exchanges++;
    if (n > 1) {
        qsort(m->outbox, n, sizeof(*m->outbox), outbox_order);
    }
    for (i = 0; i < n; i++) {
        MboxMsg *msg = m->outbox[i];
        uint32_t board = mbox_board_of(m, msg->src_hart);
        size_t pair = (size_t)board * m->num_tiles + msg->dest_tile;

        if (m->egress_refused[pair] == m->exchanges ||
            !mbox_tile_has_room(m, msg->dest_tile, msg->flits)) {
            /* Stays at its egress, and so does what follows it there
             * toward the same mailbox; tries again at the next exchange */
            m->egress_refused[pair] = m->exchanges;
            msg->egress_at = mbox_max_u64(msg->egress_at, at);
            m->outbox[m->outbox_count++] = msg;
            continue;
        }
        if (board_is_local(m, board)) {
            m->egress_used[pair] -= msg->flits;
        } else if (credit != NULL) {
            TesseraMailboxCredit c = { board, msg->dest_tile, msg->flits };

            credit(opaque, &c);
        }
        mbox_enter_network(m, msg, msg->egress_at);
        entered++;
    }
    return entered;
}

void tessera_mailbox_exchange_refill(TesseraMailbox *m, uint64_t at)
{
    uint32_t boards = m->cfg.shape.boards_x * m->cfg.shape.boards_y;

    for (uint32_t board = 0; board < boards; board++) {
        if (m->egress_blocked_head[board] != MBOX_NO_HART) {
            admit_to_egress(m, board, at);
        }
    }
}

uint32_t tessera_mailbox_exchange(TesseraMailbox *m, uint64_t at)
{
    uint32_t entered = tessera_mailbox_exchange_admit(m, at, NULL, NULL);

    tessera_mailbox_exchange_refill(m, at);
    return entered;
}

/* ---- the exchange over several processes -------------------------------- */

uint32_t tessera_mailbox_take_leaving(TesseraMailbox *m,
                                      TesseraMailboxTransitFn put,
                                      void *opaque)
{
    uint32_t tiles_per_board = m->cfg.shape.tiles_x * m->cfg.shape.tiles_y;
    uint32_t n = m->outbox_count, kept = 0, left = 0;

    for (uint32_t i = 0; i < n; i++) {
        MboxMsg *msg = m->outbox[i];
        uint32_t board = msg->dest_tile / tiles_per_board;
        TesseraMailboxTransit t;

        if (board_is_local(m, board)) {
            m->outbox[kept++] = msg;
            continue;
        }
        memset(&t, 0, sizeof(t));
        t.mask = msg->mask;
        t.sent_at = msg->sent_at;
        t.egress_at = msg->egress_at;
        t.id = msg->id;
        t.src_hart = msg->src_hart;
        t.src_id = msg->src_id;
        t.dest_tile = msg->dest_tile;
        t.dest_thread = msg->dest_thread;
        t.dest_board = board;
        t.flits = msg->flits;
        memcpy(t.data, msg->data, (size_t)msg->flits * TESSERA_BYTES_PER_FLIT);
        put(opaque, &t);
        mbox_pool_put(&m->msgs, msg);
        left++;
    }
    m->outbox_count = kept;
    return left;
}

bool tessera_mailbox_arrive(TesseraMailbox *m, const TesseraMailboxTransit *t)
{
    uint32_t tiles_per_board = m->cfg.shape.tiles_x * m->cfg.shape.tiles_y;
    uint32_t boards = m->cfg.shape.boards_x * m->cfg.shape.boards_y;
    MboxMsg *msg;

    if (!m->cfg.windows || t->dest_tile >= m->num_tiles ||
        t->dest_board != t->dest_tile / tiles_per_board ||
        !board_is_local(m, t->dest_board) || t->src_hart >= m->num_harts ||
        mbox_board_of(m, t->src_hart) >= boards ||
        board_is_local(m, mbox_board_of(m, t->src_hart)) || t->flits == 0 ||
        t->flits > TESSERA_MAX_FLITS ||
        (t->mask == 0 ? t->dest_thread >= m->threads_per_tile
                      : (m->threads_per_tile < 64 &&
                         t->mask >> m->threads_per_tile != 0))) {
        return false;
    }
    msg = mbox_pool_get(&m->msgs);
    memset(msg, 0, sizeof(*msg));
    msg->src_hart = t->src_hart;
    msg->src_id = t->src_id;
    msg->dest_tile = t->dest_tile;
    msg->dest_thread = t->dest_thread;
    msg->mask = t->mask;
    msg->flits = t->flits;
    msg->sent_at = t->sent_at;
    msg->arrival = t->sent_at;
    msg->egress_at = t->egress_at;
    msg->id = t->id;
    memcpy(msg->data, t->data, (size_t)t->flits * TESSERA_BYTES_PER_FLIT);
    mbox_outbox_push(m, msg);
    return true;
}

bool tessera_mailbox_credit(TesseraMailbox *m, const TesseraMailboxCredit *c)
{
    uint32_t boards = m->cfg.shape.boards_x * m->cfg.shape.boards_y;
    uint16_t *used;

    if (!m->cfg.windows || c->src_board >= boards ||
        !board_is_local(m, c->src_board) || c->dest_tile >= m->num_tiles) {
        return false;
    }
    used = egress_used(m, c->src_board, c->dest_tile);
    if (c->flits > *used) {
        return false;
    }
    *used -= c->flits;
    return true;
}
