/*
 * Mailbox model: the Tinsel CSRs of a thread. Slot ownership (send slot,
 * slots given to hardware, received slots), SEND and MCAST_SEND, RECV and
 * FREE, WAIT_UNTIL, and the faults of bad guest behaviour; the network
 * (mailbox_net.c) carries what is sent.
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
    msg->flits = t->send_len + 1;
    msg->mask = 0;
    msg->dest_thread = 0;
    msg->refs = 0;
    msg->sent_at = mbox_max_u64(now, t->send_ready);
    msg->arrival = msg->sent_at;
    msg->id = ++m->last_msg_id;
    memcpy(msg->data,
           mbox_slot_bytes(m, mbox_tile_of(m, hart),
                           (uint32_t)mbox_slot_number(t->send_ptr)),
           (size_t)msg->flits * TESSERA_BYTES_PER_FLIT);
    t->send_ready = msg->sent_at;
    return msg;
}

static TesseraMailboxFault csr_send(TesseraMailbox *m, MboxThread *t,
                                    uint32_t dest, uint64_t now,
                                    uint64_t *resume_at)
{
    uint32_t dest_hart = 0, board = mbox_board_of(m, mbox_thread_hart(m, t));
    MboxMsg *msg;

    if (dest != m->host_id && !mbox_hart_of(m, dest, &dest_hart)) {
        return TESSERA_FAULT_BAD_DESTINATION;
    }
    if (t->outbound != NULL) {
        return TESSERA_FAULT_SEND_BUSY;
    }
    *resume_at = mbox_send_allowed(m, board, now);
    msg = new_message(m, t, *resume_at);
    tessera_termdet_sent(m->td, board, msg->sent_at);
    mbox_trace_send(m, t, msg, dest);
    if (dest == m->host_id) {
        msg->dest_tile = MBOX_HOST_TILE;
        if (m->host_blocked_head == MBOX_NO_HART &&
            mbox_offer_to_host(m, msg)) {
            return TESSERA_FAULT_NONE;
        }
        t->outbound = msg;
        mbox_hart_fifo_push(m, &m->host_blocked_head,
                            &m->host_blocked_tail, mbox_thread_hart(m, t));
        return TESSERA_FAULT_NONE;
    }
    msg->dest_tile = mbox_tile_of(m, dest_hart);
    msg->dest_thread = dest_hart & (m->threads_per_tile - 1);
    mbox_send_to_tile(m, t, msg);
    return TESSERA_FAULT_NONE;
}

static TesseraMailboxFault csr_multicast(TesseraMailbox *m, MboxThread *t,
                                         uint32_t mailbox, uint64_t now,
                                         uint64_t *resume_at)
{
    uint32_t board = mbox_board_of(m, mbox_thread_hart(m, t)), i;
    uint64_t mask = ((uint64_t)t->mcast_hi << 32) | t->mcast_lo;
    uint32_t first = 0;
    MboxMsg *msg;

    if (mailbox > (UINT32_MAX >> m->tile_shift) ||
        !mbox_hart_of(m, mailbox << m->tile_shift, &first)) {
        return TESSERA_FAULT_BAD_DESTINATION;
    }
    if (m->threads_per_tile < TESSERA_MAILBOX_MCAST_THREADS &&
        (mask >> m->threads_per_tile) != 0) {
        return TESSERA_FAULT_BAD_DESTINATION;
    }
    if (t->outbound != NULL) {
        return TESSERA_FAULT_SEND_BUSY;
    }
    if (mask == 0) {
        return TESSERA_FAULT_NONE;
    }
    *resume_at = mbox_send_allowed(m, board, now);
    msg = new_message(m, t, *resume_at);
    for (i = mbox_popcount64(mask); i > 0; i--) {
        tessera_termdet_sent(m->td, board, msg->sent_at);
    }
    msg->dest_tile = mbox_tile_of(m, first);
    msg->mask = mask;
    mbox_trace_send(m, t, msg, mailbox << m->tile_shift);
    mbox_send_to_tile(m, t, msg);
    return TESSERA_FAULT_NONE;
}

static TesseraMailboxFault csr_free(TesseraMailbox *m, MboxThread *t,
                                    uint32_t address, uint64_t now)
{
    int n = mbox_slot_number(address);
    uint32_t hart = mbox_thread_hart(m, t), tile = mbox_tile_of(m, hart), slot;
    size_t i;

    if (n < 0) {
        return TESSERA_FAULT_BAD_SLOT;
    }
    slot = (uint32_t)n;
    i = mbox_slot_index(tile, slot);
    switch (m->slot_state[i]) {
    case SLOT_HW_FREE:
    case SLOT_HW_FULL:
        return TESSERA_FAULT_DOUBLE_FREE;
    case SLOT_SOFTWARE_MSG:
        t->counts.received++;
        m->boards[mbox_board_of(m, hart)].received++;
        tessera_termdet_received(m->td, mbox_board_of(m, hart), now);
        mbox_trace_slot(m, t, TESSERA_MAILBOX_EVENT_FREE, slot,
                        m->slot_msg[i], now);
        break;
    default:
        mbox_trace_slot(m, t, TESSERA_MAILBOX_EVENT_FREE, slot, 0, now);
        break;
    }
    if (t->pend_head != NULL) {
        MboxMsg *msg = mbox_pending_pop(m, t);
        uint64_t at = mbox_deliver(m, t, slot, msg, now);

        if (--msg->refs == 0) {
            uint32_t dest_tile = msg->dest_tile;

            mbox_release_if_delivered(m, msg);
            mbox_admit_blocked(m, dest_tile, at);
        }
        return TESSERA_FAULT_NONE;
    }
    m->slot_state[i] = SLOT_HW_FREE;
    mbox_slot_fifo_push(m, tile, &t->free_head, &t->free_tail, slot);
    return TESSERA_FAULT_NONE;
}

static TesseraMailboxFault csr_recv(TesseraMailbox *m, MboxThread *t,
                                    uint64_t now, uint32_t *result,
                                    uint64_t *resume_at)
{
    uint32_t tile = mbox_tile_of(m, mbox_thread_hart(m, t)), slot;
    size_t i;

    if (t->recv_head == MBOX_NO_SLOT) {
        return TESSERA_FAULT_RECV_EMPTY;
    }
    slot = mbox_slot_fifo_pop(m, tile, &t->recv_head, &t->recv_tail);
    i = mbox_slot_index(tile, slot);
    m->slot_state[i] = SLOT_SOFTWARE_MSG;
    *result = TESSERA_SCRATCH_BASE + slot * TESSERA_BYTES_PER_SLOT;
    *resume_at = mbox_max_u64(now, m->slot_time[i]);
    mbox_trace_slot(m, t, TESSERA_MAILBOX_EVENT_RECEIVE, slot, m->slot_msg[i],
                    *resume_at);
    return TESSERA_FAULT_NONE;
}

/* Which of `conditions` (bits 0/1) hold for t, and the earliest time one
 * of them became true (*when; UINT64_MAX if none holds). */
uint32_t mbox_wait_holds(const TesseraMailbox *m, const MboxThread *t,
                         uint32_t conditions, uint64_t *when)
{
    uint32_t holds = 0;

    *when = UINT64_MAX;
    if ((conditions & TESSERA_WAIT_CAN_SEND) && t->outbound == NULL) {
        holds |= TESSERA_WAIT_CAN_SEND;
        *when = mbox_min_u64(*when, t->send_ready);
    }
    if ((conditions & TESSERA_WAIT_CAN_RECV) && t->recv_head != MBOX_NO_SLOT) {
        uint32_t tile = mbox_tile_of(m, mbox_thread_hart(m, t));

        holds |= TESSERA_WAIT_CAN_RECV;
        *when = mbox_min_u64(*when,
                             m->slot_time[mbox_slot_index(tile,
                                                          t->recv_head)]);
    }
    return holds;
}

static TesseraAccessStatus csr_wait(TesseraMailbox *m, MboxThread *t,
                                 uint32_t conditions, uint64_t now,
                                 uint32_t *result, uint64_t *resume_at,
                                 TesseraMailboxFault *fault)
{
    uint32_t satisfied;
    uint64_t when;

    if (conditions == 0 ||
        (conditions & ~(MBOX_WAIT_BITS | MBOX_IDLE_BITS)) != 0) {
        *fault = TESSERA_FAULT_BAD_WAIT;
        return TESSERA_ACCESS_FAULT;
    }
    if (conditions & MBOX_IDLE_BITS) {
        return mbox_csr_idle(m, t, conditions, now, result, resume_at);
    }
    satisfied = mbox_wait_holds(m, t, conditions, &when);
    if (satisfied == 0) {
        t->wait_bits = conditions;
        return TESSERA_ACCESS_BLOCKED;
    }
    *result = satisfied;
    *resume_at = mbox_max_u64(now, when);
    return TESSERA_ACCESS_DONE;
}

/* One mailbox CSR of thread t; *out and *at hold the result on DONE. */
static TesseraAccessStatus thread_csr(TesseraMailbox *m, MboxThread *t,
                                   uint32_t csrno, uint32_t value,
                                   uint64_t now, uint32_t *out, uint64_t *at,
                                   TesseraMailboxFault *f)
{
    switch (csrno) {
    case TESSERA_CSR_FREE:
        *f = csr_free(m, t, value, now);
        break;
    case TESSERA_CSR_CAN_SEND:
        *out = t->outbound == NULL;
        break;
    case TESSERA_CSR_CAN_RECV:
        *out = t->recv_head != MBOX_NO_SLOT;
        break;
    case TESSERA_CSR_SEND_LEN:
        if (value >= TESSERA_MAX_FLITS) {
            *f = TESSERA_FAULT_BAD_LENGTH;
            break;
        }
        *out = t->send_len;
        t->send_len = value;
        break;
    case TESSERA_CSR_SEND_PTR:
        if (mbox_slot_number(value) < 0) {
            *f = TESSERA_FAULT_BAD_SLOT;
            break;
        }
        *out = t->send_ptr;
        t->send_ptr = value;
        break;
    case TESSERA_CSR_SEND:
        *f = csr_send(m, t, value, now, at);
        break;
    case TESSERA_CSR_RECV:
        *f = csr_recv(m, t, now, out, at);
        break;
    case TESSERA_CSR_WAIT_UNTIL:
        return csr_wait(m, t, value, now, out, at, f);
    case TESSERA_CSR_MCAST_HI:
        *out = t->mcast_hi;
        t->mcast_hi = value;
        break;
    case TESSERA_CSR_MCAST_LO:
        *out = t->mcast_lo;
        t->mcast_lo = value;
        break;
    case TESSERA_CSR_MCAST_SEND:
        *f = csr_multicast(m, t, value, now, at);
        break;
    case TESSERA_CSR_MBOX_FAULT:
        *out = t->last_fault;
        break;
    }
    return *f == TESSERA_FAULT_NONE ? TESSERA_ACCESS_DONE
                                    : TESSERA_ACCESS_FAULT;
}

TesseraAccess tessera_mailbox_csr(TesseraMailbox *m, uint32_t hart_index,
                                  uint32_t csrno, uint32_t value, uint64_t now)
{
    TesseraMailboxFault f = TESSERA_FAULT_NONE;
    TesseraAccessStatus r = TESSERA_ACCESS_UNKNOWN;
    uint32_t out = 0;
    uint64_t at = now;

    if (hart_index < m->num_harts && tessera_csr_is_mailbox(csrno)) {
        MboxThread *t = &m->threads[hart_index];

        /* Whatever it waited for, a thread issuing a CSR is not waiting. */
        t->wait_bits = 0;
        if (t->idle != IDLE_NONE && (csrno != TESSERA_CSR_WAIT_UNTIL ||
                                     (value & MBOX_IDLE_BITS) == 0)) {
            mbox_abandon_idle(m, t, now);
        }
        m->calling = hart_index;
        r = thread_csr(m, t, csrno, value, now, &out, &at, &f);
        if (r == TESSERA_ACCESS_FAULT) {
            t->last_fault = f;
        }
        /* Termination detection reacts to what the call changed. A
         * release of the caller itself is given now rather than woken. */
        tessera_termdet_process(m->td);
        if (r == TESSERA_ACCESS_BLOCKED && t->idle == IDLE_READY) {
            t->wait_bits = 0;
            r = thread_csr(m, t, csrno, value, now, &out, &at, &f);
        }
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
