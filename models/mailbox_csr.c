/*
 * Mailbox model: the Tinsel CSRs of a thread. Their rules (slot ownership,
 * the faults of bad guest behaviour, FREE and RECV, WAIT_UNTIL, tinselIdle's
 * side of the thread) are tessera/models/mailbox_rules.h, which the dev
 * boards' services follow too; this file gives them the model's storage,
 * its network (mailbox_net.c, mailbox_host.c), its time and its
 * termination detector (mailbox_idle.c).
 */
#include "mailbox_internal.h"

#include <string.h>

/* A message of thread t from its send slot, issued at now. */
static MboxMsg *new_message(TesseraMailbox *m, MboxThread *t, uint64_t now)
{
    uint32_t hart = mbox_thread_hart(m, t);
    MboxMsg *msg = mbox_pool_get(&m->msgs);

    msg->src_hart = hart;
    msg->src_id = t->id;
    msg->flits = t->regs.send_len + 1;
    msg->mask = 0;
    msg->dest_thread = 0;
    msg->refs = 0;
    msg->sent_at = mbox_max_u64(now, t->send_ready);
    msg->arrival = msg->sent_at;
    msg->id = mbox_new_msg_id(m, mbox_board_of(m, hart));
    memcpy(msg->data,
           mbox_slot_bytes(m, mbox_tile_of(m, hart),
                           (uint32_t)tessera_mailbox_slot_number(
                               t->regs.send_ptr)),
           (size_t)msg->flits * TESSERA_BYTES_PER_FLIT);
    t->send_ready = msg->sent_at;
    return msg;
}

/* SEND to a thread or the host, at `now` (sends allowed). */
static void send_unicast(TesseraMailbox *m, MboxThread *t, uint32_t board,
                         uint32_t dest, uint64_t now)
{
    MboxMsg *msg = new_message(m, t, now);
    uint32_t dest_hart = 0;

    tessera_termdet_sent(m->td, board, msg->sent_at);
    mbox_trace_send(m, t, msg, dest);
    if (dest == m->host_id) {
        msg->dest_tile = MBOX_HOST_TILE;
        if (m->host_blocked_head == MBOX_NO_HART &&
            mbox_offer_to_host(m, msg)) {
            return;
        }
        t->outbound = msg;
        mbox_hart_fifo_push(m, &m->host_blocked_head,
                            &m->host_blocked_tail, mbox_thread_hart(m, t));
        return;
    }
    (void)mbox_hart_of(m, dest, &dest_hart);
    msg->dest_tile = mbox_tile_of(m, dest_hart);
    msg->dest_thread = dest_hart & (m->threads_per_tile - 1);
    mbox_send_to_tile(m, t, msg);
}

/* MCAST_SEND to the threads of `mask` in `mailbox`, at `now`. */
static void send_multicast(TesseraMailbox *m, MboxThread *t, uint32_t board,
                           uint32_t mailbox, uint64_t mask, uint64_t now)
{
    MboxMsg *msg = new_message(m, t, now);
    uint32_t first = 0, i;

    for (i = mbox_popcount64(mask); i > 0; i--) {
        tessera_termdet_sent(m->td, board, msg->sent_at);
    }
    (void)mbox_hart_of(m, mailbox << m->tile_shift, &first);
    msg->dest_tile = mbox_tile_of(m, first);
    msg->mask = mask;
    mbox_trace_send(m, t, msg, mailbox << m->tile_shift);
    mbox_send_to_tile(m, t, msg);
}

/* ---- what the rules leave to the model ---------------------------------- */

static bool ops_can_send(void *ctx, const TesseraMailboxRegs *t)
{
    (void)ctx;
    return mbox_thread_can_send(mbox_const_thread_of(t));
}

static uint64_t ops_send_time(void *ctx, const TesseraMailboxRegs *t)
{
    (void)ctx;
    return mbox_const_thread_of(t)->send_ready;
}

static uint64_t ops_recv_time(void *ctx, const TesseraMailboxRegs *t,
                              uint32_t slot)
{
    const TesseraMailbox *m = ctx;
    uint32_t hart = mbox_thread_hart(m, mbox_const_thread_of(t));

    if (m->cfg.untimed) {
        return 0; /* receivable as soon as delivered */
    }
    return m->slot_info[mbox_slot_index(mbox_tile_of(m, hart), slot)].time;
}

static bool ops_unicast_ok(void *ctx, uint32_t dest)
{
    const TesseraMailbox *m = ctx;
    uint32_t hart;

    return dest == m->host_id || mbox_hart_of(m, dest, &hart);
}

static bool ops_multicast_ok(void *ctx, uint32_t mailbox)
{
    const TesseraMailbox *m = ctx;
    uint32_t first;

    return mailbox <= (UINT32_MAX >> m->tile_shift) &&
           mbox_hart_of(m, mailbox << m->tile_shift, &first);
}

static uint64_t ops_send(void *ctx, TesseraMailboxRegs *regs, uint32_t dest,
                         uint64_t mask, uint64_t now)
{
    TesseraMailbox *m = ctx;
    MboxThread *t = mbox_thread_of(regs);
    uint32_t board = mbox_board_of(m, mbox_thread_hart(m, t));
    uint64_t at = mbox_send_allowed(m, board, now);

    if (mask == 0) {
        send_unicast(m, t, board, dest, at);
    } else {
        send_multicast(m, t, board, dest, mask, at);
    }
    return at;
}

static void ops_received(void *ctx, TesseraMailboxRegs *regs, uint32_t slot,
                         uint64_t at)
{
    TesseraMailbox *m = ctx;
    MboxThread *t = mbox_thread_of(regs);
    uint32_t tile = mbox_tile_of(m, mbox_thread_hart(m, t));

    if (m->host.event != NULL) {
        mbox_trace_slot(m, t, TESSERA_MAILBOX_EVENT_RECEIVE, slot,
                        m->slot_msg[mbox_slot_index(tile, slot)], at);
    }
}

/* A freed slot: counted, then given to a message waiting in the network
 * for its thread if there is one. */
static bool ops_freed(void *ctx, TesseraMailboxRegs *regs, uint32_t slot,
                      bool held, uint64_t now)
{
    TesseraMailbox *m = ctx;
    MboxThread *t = mbox_thread_of(regs);
    uint32_t hart = mbox_thread_hart(m, t), board = mbox_board_of(m, hart);
    MboxMsg *msg;
    uint64_t at;

    if (held) {
        t->counts.received++;
        m->boards[board].received++;
        tessera_termdet_received(m->td, board, now);
        if (m->host.event != NULL) {
            mbox_trace_slot(m, t, TESSERA_MAILBOX_EVENT_FREE, slot,
                            m->slot_msg[mbox_slot_index(
                                mbox_tile_of(m, hart), slot)],
                            now);
        }
    } else {
        mbox_trace_slot(m, t, TESSERA_MAILBOX_EVENT_FREE, slot, 0, now);
    }
    if (t->pend_head == NULL) {
        return false;
    }
    msg = mbox_pending_pop(m, t);
    at = mbox_deliver(m, t, slot, msg, now);
    if (--msg->refs == 0) {
        uint32_t dest_tile = msg->dest_tile;

        mbox_release_if_delivered(m, msg);
        mbox_admit_blocked(m, dest_tile, at);
    }
    return true;
}

/* The termination detector (termdet.h), which the model owns. */
static void ops_idle_enter(void *ctx, TesseraMailboxRegs *t, bool vote,
                           uint64_t now)
{
    TesseraMailbox *m = ctx;

    tessera_termdet_idle_enter(m->td, mbox_thread_hart(m, mbox_thread_of(t)),
                               vote, now);
}

static void ops_idle_leave(void *ctx, TesseraMailboxRegs *t, uint64_t now)
{
    TesseraMailbox *m = ctx;

    tessera_termdet_idle_leave(m->td, mbox_thread_hart(m, mbox_thread_of(t)),
                               now);
}

static void ops_idle_abandon(void *ctx, TesseraMailboxRegs *t, uint64_t now)
{
    TesseraMailbox *m = ctx;

    tessera_termdet_idle_abandon(m->td,
                                 mbox_thread_hart(m, mbox_thread_of(t)), now);
}

static void ops_settle(void *ctx)
{
    TesseraMailbox *m = ctx;

    tessera_termdet_process(m->td);
}

static const TesseraMailboxRulesOps rules_ops = {
    .can_send = ops_can_send,
    .send_time = ops_send_time,
    .recv_time = ops_recv_time,
    .unicast_ok = ops_unicast_ok,
    .multicast_ok = ops_multicast_ok,
    .send = ops_send,
    .received = ops_received,
    .freed = ops_freed,
    .idle_enter = ops_idle_enter,
    .idle_leave = ops_idle_leave,
    .idle_abandon = ops_idle_abandon,
    .settle = ops_settle,
};

/* ---- the API ------------------------------------------------------------ */

TesseraAccess tessera_mailbox_csr(TesseraMailbox *m, uint32_t hart_index,
                                  uint32_t csrno, uint32_t value, uint64_t now)
{
    TesseraMailboxFault f = TESSERA_FAULT_NONE;
    TesseraAccessStatus r = TESSERA_ACCESS_UNKNOWN;
    uint32_t out = 0;
    uint64_t at = now;

    if (hart_index < m->num_harts && tessera_csr_is_mailbox(csrno)) {
        MboxThread *t = &m->threads[hart_index];
        TesseraMailboxTile tile =
            mbox_tile_slots(m, mbox_tile_of(m, hart_index));

        m->calling = hart_index;
        r = tessera_mailbox_rules_csr(&rules_ops, m, &tile, &t->regs, csrno,
                                      value, now, &out, &at, &f);
        m->calling = MBOX_NO_HART;
        mbox_report_wait(m, t, now);
    }
    if (r != TESSERA_ACCESS_DONE) {
        out = 0;
        at = now;
    }
    if (r != TESSERA_ACCESS_UNKNOWN) {
        mbox_trace_wait(m, &m->threads[hart_index], r, now, at, out);
    }
    if (r == TESSERA_ACCESS_FAULT) {
        return tessera_access_fault(f, tessera_mailbox_fault_name(f), now);
    }
    return tessera_access(r, out, at, NULL);
}

bool tessera_mailbox_csr_quick(TesseraMailbox *m, uint32_t hart_index,
                               uint32_t csrno, uint32_t value, uint32_t *old)
{
    return hart_index < m->num_harts && m->host.event == NULL &&
           tessera_mailbox_rules_quick_write(&m->threads[hart_index].regs,
                                             csrno, value, old);
}

void tessera_mailbox_prefetch(const TesseraMailbox *m, uint32_t hart_index,
                              uint32_t ahead)
{
    if (ahead < m->num_harts) {
        __builtin_prefetch(&m->threads[ahead]);
    }
    if (hart_index < m->num_harts) {
        uint32_t tile = mbox_tile_of(m, hart_index);
        uint16_t slot = m->threads[hart_index].regs.recv.head;

        if (slot != TESSERA_MAILBOX_NO_SLOT) {
            size_t at = mbox_slot_index(tile, slot);

            __builtin_prefetch(&m->slot_next[at]);
            __builtin_prefetch(&m->slot_state[at]);
            if (!m->cfg.untimed) {
                __builtin_prefetch(&m->slot_info[at]);
            }
            if (m->host.scratch != NULL) {
                __builtin_prefetch(m->host.scratch +
                                   (size_t)tile * TESSERA_SCRATCH_SIZE +
                                   (size_t)slot * TESSERA_BYTES_PER_SLOT);
            }
        }
    }
}

bool tessera_mailbox_recv_free_none(TesseraMailbox *m, uint32_t hart_index,
                                    uint32_t *value)
{
    const MboxThread *t;

    if (hart_index >= m->num_harts || m->host.event != NULL ||
        tessera_termdet_pending(m->td) != 0) {
        return false;
    }
    t = &m->threads[hart_index];
    /* Not waiting (wait_bits 0): the wait registry has it unblocked too,
     * as mbox_report_wait left it after its last CSR or wake */
    if (t->regs.idle != TESSERA_IDLE_NONE || t->regs.wait_bits != 0 ||
        t->regs.recv.head != TESSERA_MAILBOX_NO_SLOT) {
        return false;
    }
    *value = mbox_thread_can_send(t) ? TESSERA_RECV_FREE_CAN_SEND : 0;
    return true;
}

bool tessera_mailbox_peek_csr(const TesseraMailbox *m, uint32_t hart_index,
                              uint32_t csrno, uint32_t *value)
{
    *value = 0;
    if (hart_index >= m->num_harts || !tessera_csr_is_mailbox(csrno)) {
        return false;
    }
    /* The rules only read through the model here. */
    *value = tessera_mailbox_rules_peek(&rules_ops, (TesseraMailbox *)m,
                                        &m->threads[hart_index].regs, csrno);
    return true;
}
