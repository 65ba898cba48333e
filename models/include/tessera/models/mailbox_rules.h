/*
 * The mailbox's rules, once: what a thread's mailbox CSRs do to its slots
 * and registers, the faults of bad guest behaviour, the freed-slot rule and
 * the thread's side of tinselIdle (docs/mailbox.md, docs/idle.md). The
 * storage and the network are the caller's:
 *
 *   the mailbox model (models/mailbox_csr.c)  every tile of a machine, a
 *       mesh network with modelled time, the termination detector termdet.h
 *   a dev board's services (boards/services/mailbox_service.cc)  one tile
 *       in the board's RAM, no network: a send is a copy, no time
 *
 * The caller keeps, in memory of its own, a TesseraMailboxRegs per thread
 * and a state and a link per slot of each tile (TesseraMailboxTile), and
 * answers through TesseraMailboxRulesOps for what the rules leave to it:
 * carrying a message, counting it, the detector, the time. The functions
 * are static inline, and the model passes a constant ops table, so on its
 * hot path (tessera_mailbox_csr) the operations are direct calls.
 *
 * Plain C and C++ (the board services are C++).
 */
#ifndef TESSERA_MODELS_MAILBOX_RULES_H
#define TESSERA_MODELS_MAILBOX_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "tessera/models/access.h"
#include "tessera/hw/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TESSERA_MAILBOX_NO_SLOT    0xffffu
/* A multicast mask (MCAST_HI:MCAST_LO) names threads 0..63 of a mailbox. */
#define TESSERA_MAILBOX_MCAST_THREADS 64u
#define TESSERA_MAILBOX_WAIT_BITS  (TESSERA_WAIT_CAN_SEND | TESSERA_WAIT_CAN_RECV)
#define TESSERA_MAILBOX_IDLE_BITS  (TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE)

/* Who owns a slot. Every slot is software's at reset (0). */
enum {
    TESSERA_SLOT_SOFTWARE,     /* software's, no received message in it */
    TESSERA_SLOT_SOFTWARE_MSG, /* software's, holds a message it received */
    TESSERA_SLOT_HW_FREE,      /* given to hardware, empty, on a free queue */
    TESSERA_SLOT_HW_FULL,      /* hardware's, holds a message for RECV */
};

/* Where a thread stands in a tinselIdle call. */
enum {
    TESSERA_IDLE_NONE,    /* not in one */
    TESSERA_IDLE_WAITING, /* blocked in idle, the detector has it as idle */
    TESSERA_IDLE_READY,   /* released: the next issue returns idle_value */
};

/* A queue of slots of one tile, linked through TesseraMailboxTile.next. */
typedef struct TesseraSlotQueue {
    uint16_t head, tail;
} TesseraSlotQueue;

/* One tile, in the caller's memory: TESSERA_SLOTS_PER_TILE entries each. */
typedef struct TesseraMailboxTile {
    uint8_t *state;            /* TESSERA_SLOT_* */
    uint16_t *next;            /* the next slot of the queue a slot is on */
    uint32_t threads;          /* threads of the tile (a power of two) */
} TesseraMailboxTile;

/* The mailbox registers of one thread, and its slot queues. Power-on:
 * zeroed, then tessera_mailbox_rules_power_on. */
typedef struct TesseraMailboxRegs {
    uint32_t send_ptr;         /* bus address */
    uint32_t send_len;         /* flits - 1 */
    uint32_t mcast_hi, mcast_lo;
    uint32_t last_fault;
    uint32_t wait_bits;        /* conditions of a blocked WAIT_UNTIL */
    TesseraSlotQueue free;     /* slots given to hardware */
    TesseraSlotQueue recv;     /* slots holding messages for RECV */
    uint8_t idle;              /* TESSERA_IDLE_* */
    uint32_t idle_value;       /* READY: (1 << 2) | (all voted true << 3) */
    uint64_t idle_resume;      /* READY: when the release reached it */
} TesseraMailboxRegs;

/*
 * What the rules leave to the caller. `t` is the calling thread's
 * registers; times are the caller's (a board without time answers 0).
 */
typedef struct TesseraMailboxRulesOps {
    /* can-send: t's outbound register is empty. */
    bool (*can_send)(void *ctx, const TesseraMailboxRegs *t);
    /* When t's can-send became true, and when `slot` (t's oldest received)
     * became receivable. */
    uint64_t (*send_time)(void *ctx, const TesseraMailboxRegs *t);
    uint64_t (*recv_time)(void *ctx, const TesseraMailboxRegs *t,
                          uint32_t slot);
    /* SEND: `dest` is a thread or the host id. MCAST_SEND: `mailbox` is a
     * mailbox (thread id >> log2(threads per tile)). */
    bool (*unicast_ok)(void *ctx, uint32_t dest);
    bool (*multicast_ok)(void *ctx, uint32_t mailbox);
    /* Sends t's send slot, everything checked: to `dest` (mask 0), or to
     * the threads of `mask` in mailbox `dest`. Returns when the send
     * completes (>= now). */
    uint64_t (*send)(void *ctx, TesseraMailboxRegs *t, uint32_t dest,
                     uint64_t mask, uint64_t now);
    /* RECV gave t `slot`, receivable at `at`. */
    void (*received)(void *ctx, TesseraMailboxRegs *t, uint32_t slot,
                     uint64_t at);
    /* FREE of `slot` by t, software's; `held` if it held a received message
     * (counted as received by t from now). The slot goes to t: returns true
     * if the caller put a message waiting for t into it, false to leave it
     * on t's free queue. */
    bool (*freed)(void *ctx, TesseraMailboxRegs *t, uint32_t slot, bool held,
                  uint64_t now);
    /* The termination detector: t enters a tinselIdle call (voting), leaves
     * it for a message it can receive, or abandons it. */
    void (*idle_enter)(void *ctx, TesseraMailboxRegs *t, bool vote,
                       uint64_t now);
    void (*idle_leave)(void *ctx, TesseraMailboxRegs *t, uint64_t now);
    void (*idle_abandon)(void *ctx, TesseraMailboxRegs *t, uint64_t now);
    /* Runs the detector's steps: a release may follow what just changed
     * (tessera_mailbox_rules_release). */
    void (*settle)(void *ctx);
} TesseraMailboxRulesOps;

/* ---- slots ------------------------------------------------------------ */

/* Slot number within the tile of a slot's bus address, or -1. */
static inline int tessera_mailbox_slot_number(uint32_t bus_address)
{
    uint32_t offset = bus_address - TESSERA_SCRATCH_BASE;

    if (bus_address < TESSERA_SCRATCH_BASE || offset >= TESSERA_SCRATCH_SIZE ||
        offset % TESSERA_BYTES_PER_SLOT != 0) {
        return -1;
    }
    return (int)(offset / TESSERA_BYTES_PER_SLOT);
}

static inline uint32_t tessera_mailbox_slot_address(uint32_t slot)
{
    return TESSERA_SCRATCH_BASE + slot * TESSERA_BYTES_PER_SLOT;
}

static inline void tessera_slot_queue_push(const TesseraMailboxTile *tile,
                                           TesseraSlotQueue *q, uint32_t slot)
{
    tile->next[slot] = TESSERA_MAILBOX_NO_SLOT;
    if (q->tail == TESSERA_MAILBOX_NO_SLOT) {
        q->head = (uint16_t)slot;
    } else {
        tile->next[q->tail] = (uint16_t)slot;
    }
    q->tail = (uint16_t)slot;
}

/* The head of a non-empty queue, taken off it. */
static inline uint32_t tessera_slot_queue_pop(const TesseraMailboxTile *tile,
                                              TesseraSlotQueue *q)
{
    uint32_t slot = q->head;

    q->head = tile->next[slot];
    if (q->head == TESSERA_MAILBOX_NO_SLOT) {
        q->tail = TESSERA_MAILBOX_NO_SLOT;
    }
    return slot;
}

/* Power-on of thread `index_in_tile`: every queue empty, SEND_PTR its send
 * slot (its first: a tile's slots are divided evenly in thread order). */
static inline void tessera_mailbox_rules_power_on(const TesseraMailboxTile *tile,
                                                  TesseraMailboxRegs *t,
                                                  uint32_t index_in_tile)
{
    uint32_t per_thread = TESSERA_SLOTS_PER_TILE / tile->threads;

    t->send_ptr = tessera_mailbox_slot_address(index_in_tile * per_thread);
    t->free.head = t->free.tail = TESSERA_MAILBOX_NO_SLOT;
    t->recv.head = t->recv.tail = TESSERA_MAILBOX_NO_SLOT;
}

/* A message went into `slot`, which t had given to hardware: t may RECV it
 * (the caller queues it on t->recv, in its order). */
static inline void tessera_mailbox_rules_fill(const TesseraMailboxTile *tile,
                                              uint32_t slot)
{
    tile->state[slot] = TESSERA_SLOT_HW_FULL;
}

/* ---- waits and tinselIdle -------------------------------------------- */

/* A thread waiting for one of `condition` stops waiting: true if it did
 * (the caller wakes it). */
static inline bool tessera_mailbox_rules_wakes(TesseraMailboxRegs *t,
                                               uint32_t condition)
{
    if (t->wait_bits & condition) {
        t->wait_bits = 0;
        return true;
    }
    return false;
}

/* The detector released t with `value` (1 | every vote true << 1) that
 * reached it at `at`: latched for its next WAIT_UNTIL. True if t was in
 * idle (the caller wakes it, unless t is the caller of the current CSR,
 * which picks the release up before returning). */
static inline bool tessera_mailbox_rules_release(TesseraMailboxRegs *t,
                                                 uint32_t value, uint64_t at)
{
    if (t->idle != TESSERA_IDLE_WAITING) {
        return false;
    }
    t->idle = TESSERA_IDLE_READY;
    t->idle_value = value << 2;
    t->idle_resume = at;
    return true;
}

static inline uint64_t tessera_mailbox_rules_max(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Which of `conditions` (bits 0/1) hold for t, and the earliest time one
 * of them became true (*when; UINT64_MAX if none holds). */
static inline uint32_t tessera_mailbox_rules_holds(
    const TesseraMailboxRulesOps *ops, void *ctx, const TesseraMailboxRegs *t,
    uint32_t conditions, uint64_t *when)
{
    uint32_t holds = 0;

    *when = UINT64_MAX;
    if ((conditions & TESSERA_WAIT_CAN_SEND) && ops->can_send(ctx, t)) {
        holds |= TESSERA_WAIT_CAN_SEND;
        *when = ops->send_time(ctx, t);
    }
    if ((conditions & TESSERA_WAIT_CAN_RECV) &&
        t->recv.head != TESSERA_MAILBOX_NO_SLOT) {
        uint64_t at = ops->recv_time(ctx, t, t->recv.head);

        holds |= TESSERA_WAIT_CAN_RECV;
        *when = at < *when ? at : *when;
    }
    return holds;
}

/* A thread in a tinselIdle call issued something else: the call is over
 * (a release not yet given is dropped). */
static inline void tessera_mailbox_rules_abandon_idle(
    const TesseraMailboxRulesOps *ops, void *ctx, TesseraMailboxRegs *t,
    uint64_t now)
{
    if (t->idle == TESSERA_IDLE_WAITING) {
        ops->idle_abandon(ctx, t, now);
    }
    t->idle = TESSERA_IDLE_NONE;
}

/* tinselIdle: WAIT_UNTIL with an idle bit (tessera_mailbox_csr in
 * tessera/models/mailbox.h says what it answers). */
static inline TesseraAccessStatus tessera_mailbox_rules_idle(
    const TesseraMailboxRulesOps *ops, void *ctx, TesseraMailboxRegs *t,
    uint32_t conditions, uint64_t now, uint32_t *result, uint64_t *resume_at)
{
    /* A message available always ends the call (it then returns 0). */
    uint32_t wanted = (conditions & TESSERA_MAILBOX_WAIT_BITS) |
                      TESSERA_WAIT_CAN_RECV;
    uint64_t when;
    uint32_t holds;

    if (t->idle == TESSERA_IDLE_NONE) {
        holds = tessera_mailbox_rules_holds(ops, ctx, t, wanted, &when);
        if (holds != 0) {
            *result = holds;
            *resume_at = tessera_mailbox_rules_max(now, when);
            return TESSERA_ACCESS_DONE;
        }
        ops->idle_enter(ctx, t, (conditions & TESSERA_WAIT_IDLE_VOTE) != 0,
                        now);
        t->idle = TESSERA_IDLE_WAITING;
        /* This call may be the one that completes termination. */
        ops->settle(ctx);
    }
    holds = tessera_mailbox_rules_holds(ops, ctx, t, wanted, &when);
    if (t->idle == TESSERA_IDLE_READY) {
        /* The release is latched: it wins over a message that arrived. */
        *result = t->idle_value | holds;
        *resume_at = tessera_mailbox_rules_max(now, t->idle_resume);
        t->idle = TESSERA_IDLE_NONE;
        return TESSERA_ACCESS_DONE;
    }
    if (holds != 0) {
        /* A message available accounts for the leave: it is counted until
         * freed. Can-send alone does not: the drain that woke the thread
         * may be a round old, its message taken and the colour whitened,
         * so the detector must treat the call as abandoned. */
        if (holds & TESSERA_WAIT_CAN_RECV) {
            ops->idle_leave(ctx, t, now);
        } else {
            ops->idle_abandon(ctx, t, now);
        }
        t->idle = TESSERA_IDLE_NONE;
        *result = holds;
        *resume_at = tessera_mailbox_rules_max(now, when);
        return TESSERA_ACCESS_DONE;
    }
    t->wait_bits = wanted | TESSERA_WAIT_IDLE |
                   (conditions & TESSERA_WAIT_IDLE_VOTE);
    return TESSERA_ACCESS_BLOCKED;
}

/* ---- the CSRs ------------------------------------------------------- */

static inline TesseraMailboxFault tessera_mailbox_rules_free(
    const TesseraMailboxRulesOps *ops, void *ctx,
    const TesseraMailboxTile *tile, TesseraMailboxRegs *t, uint32_t address,
    uint64_t now)
{
    int n = tessera_mailbox_slot_number(address);
    uint32_t slot;
    uint8_t state;

    if (n < 0) {
        return TESSERA_FAULT_BAD_SLOT;
    }
    slot = (uint32_t)n;
    state = tile->state[slot];
    if (state == TESSERA_SLOT_HW_FREE || state == TESSERA_SLOT_HW_FULL) {
        return TESSERA_FAULT_DOUBLE_FREE;
    }
    /* The slot goes to the thread that frees it, whoever received into it:
     * at once to a message waiting for it, else onto its free queue. */
    if (ops->freed(ctx, t, slot, state == TESSERA_SLOT_SOFTWARE_MSG, now)) {
        return TESSERA_FAULT_NONE;
    }
    tile->state[slot] = TESSERA_SLOT_HW_FREE;
    tessera_slot_queue_push(tile, &t->free, slot);
    return TESSERA_FAULT_NONE;
}

static inline TesseraMailboxFault tessera_mailbox_rules_recv(
    const TesseraMailboxRulesOps *ops, void *ctx,
    const TesseraMailboxTile *tile, TesseraMailboxRegs *t, uint64_t now,
    uint32_t *result, uint64_t *resume_at)
{
    uint32_t slot;

    if (t->recv.head == TESSERA_MAILBOX_NO_SLOT) {
        return TESSERA_FAULT_RECV_EMPTY;
    }
    slot = tessera_slot_queue_pop(tile, &t->recv);
    tile->state[slot] = TESSERA_SLOT_SOFTWARE_MSG;
    *result = tessera_mailbox_slot_address(slot);
    *resume_at = tessera_mailbox_rules_max(now, ops->recv_time(ctx, t, slot));
    ops->received(ctx, t, slot, *resume_at);
    return TESSERA_FAULT_NONE;
}

/* RECV_FREE: FREE of `address` unless 0, then RECV if a message waits (else
 * the slot part reads 0), and can-send in bit 0: one operation for a receive
 * loop's FREE, CAN_RECV, RECV and the CAN_SEND before its next send. A bad
 * slot to free faults as FREE does, before anything changes. */
static inline TesseraMailboxFault tessera_mailbox_rules_recv_free(
    const TesseraMailboxRulesOps *ops, void *ctx,
    const TesseraMailboxTile *tile, TesseraMailboxRegs *t, uint32_t address,
    uint64_t now, uint32_t *result, uint64_t *resume_at)
{
    TesseraMailboxFault f = TESSERA_FAULT_NONE;

    if (address != 0) {
        f = tessera_mailbox_rules_free(ops, ctx, tile, t, address, now);
        if (f != TESSERA_FAULT_NONE) {
            return f;
        }
    }
    *result = 0;
    if (t->recv.head != TESSERA_MAILBOX_NO_SLOT) {
        f = tessera_mailbox_rules_recv(ops, ctx, tile, t, now, result,
                                       resume_at);
    }
    if (ops->can_send(ctx, t)) {
        *result |= TESSERA_RECV_FREE_CAN_SEND;
    }
    return f;
}

static inline TesseraMailboxFault tessera_mailbox_rules_send(
    const TesseraMailboxRulesOps *ops, void *ctx, TesseraMailboxRegs *t,
    uint32_t dest, uint64_t now, uint64_t *resume_at)
{
    if (!ops->unicast_ok(ctx, dest)) {
        return TESSERA_FAULT_BAD_DESTINATION;
    }
    if (!ops->can_send(ctx, t)) {
        return TESSERA_FAULT_SEND_BUSY;
    }
    *resume_at = ops->send(ctx, t, dest, 0, now);
    return TESSERA_FAULT_NONE;
}

static inline TesseraMailboxFault tessera_mailbox_rules_multicast(
    const TesseraMailboxRulesOps *ops, void *ctx,
    const TesseraMailboxTile *tile, TesseraMailboxRegs *t, uint32_t mailbox,
    uint64_t now, uint64_t *resume_at)
{
    uint64_t mask = ((uint64_t)t->mcast_hi << 32) | t->mcast_lo;

    if (!ops->multicast_ok(ctx, mailbox)) {
        return TESSERA_FAULT_BAD_DESTINATION;
    }
    if (tile->threads < TESSERA_MAILBOX_MCAST_THREADS &&
        (mask >> tile->threads) != 0) {
        return TESSERA_FAULT_BAD_DESTINATION;
    }
    if (!ops->can_send(ctx, t)) {
        return TESSERA_FAULT_SEND_BUSY;
    }
    if (mask == 0) {
        return TESSERA_FAULT_NONE;
    }
    *resume_at = ops->send(ctx, t, mailbox, mask, now);
    return TESSERA_FAULT_NONE;
}

static inline TesseraAccessStatus tessera_mailbox_rules_wait(
    const TesseraMailboxRulesOps *ops, void *ctx, TesseraMailboxRegs *t,
    uint32_t conditions, uint64_t now, uint32_t *result, uint64_t *resume_at,
    TesseraMailboxFault *fault)
{
    uint32_t satisfied;
    uint64_t when;

    if (conditions == 0 ||
        (conditions & ~(TESSERA_MAILBOX_WAIT_BITS |
                        TESSERA_MAILBOX_IDLE_BITS)) != 0) {
        *fault = TESSERA_FAULT_BAD_WAIT;
        return TESSERA_ACCESS_FAULT;
    }
    if (conditions & TESSERA_MAILBOX_IDLE_BITS) {
        return tessera_mailbox_rules_idle(ops, ctx, t, conditions, now, result,
                                          resume_at);
    }
    satisfied = tessera_mailbox_rules_holds(ops, ctx, t, conditions, &when);
    if (satisfied == 0) {
        t->wait_bits = conditions;
        return TESSERA_ACCESS_BLOCKED;
    }
    *result = satisfied;
    *resume_at = tessera_mailbox_rules_max(now, when);
    return TESSERA_ACCESS_DONE;
}

/*
 * A write of one of the registers of t's next send (SEND_LEN, SEND_PTR,
 * MCAST_HI, MCAST_LO): the old value into *out, or the fault of a bad
 * value (nothing written). False, having done nothing, for another CSR.
 */
static inline bool tessera_mailbox_rules_send_register(
    TesseraMailboxRegs *t, uint32_t csrno, uint32_t value, uint32_t *out,
    TesseraMailboxFault *f)
{
    uint32_t *reg;

    switch (csrno) {
    case TESSERA_CSR_SEND_LEN:
        if (value >= TESSERA_MAX_FLITS) {
            *f = TESSERA_FAULT_BAD_LENGTH;
            return true;
        }
        reg = &t->send_len;
        break;
    case TESSERA_CSR_SEND_PTR:
        if (tessera_mailbox_slot_number(value) < 0) {
            *f = TESSERA_FAULT_BAD_SLOT;
            return true;
        }
        reg = &t->send_ptr;
        break;
    case TESSERA_CSR_MCAST_HI:
        reg = &t->mcast_hi;
        break;
    case TESSERA_CSR_MCAST_LO:
        reg = &t->mcast_lo;
        break;
    default:
        return false;
    }
    *out = *reg;
    *reg = value;
    return true;
}

/*
 * The same write, when it is all that tessera_mailbox_rules_csr would do:
 * the register is written and nothing else (no fault, no time, no
 * tinselIdle to abandon, no wait to end). False, having done nothing,
 * where the full rules must decide. A host may take this path without
 * its locks and clocks (tessera_mailbox_csr_quick): it touches t alone.
 */
static inline bool tessera_mailbox_rules_quick_write(TesseraMailboxRegs *t,
                                                     uint32_t csrno,
                                                     uint32_t value,
                                                     uint32_t *out)
{
    TesseraMailboxFault f = TESSERA_FAULT_NONE;

    /* A bad value is a fault, which writes nothing: the full rules report it */
    return t->idle == TESSERA_IDLE_NONE && t->wait_bits == 0 &&
           tessera_mailbox_rules_send_register(t, csrno, value, out, &f) &&
           f == TESSERA_FAULT_NONE;
}

/* One mailbox CSR of thread t; *out and *at hold the result on DONE. */
static inline TesseraAccessStatus tessera_mailbox_rules_issue(
    const TesseraMailboxRulesOps *ops, void *ctx,
    const TesseraMailboxTile *tile, TesseraMailboxRegs *t, uint32_t csrno,
    uint32_t value, uint64_t now, uint32_t *out, uint64_t *at,
    TesseraMailboxFault *f)
{
    switch (csrno) {
    case TESSERA_CSR_FREE:
        *f = tessera_mailbox_rules_free(ops, ctx, tile, t, value, now);
        break;
    case TESSERA_CSR_CAN_SEND:
        *out = ops->can_send(ctx, t);
        break;
    case TESSERA_CSR_CAN_RECV:
        *out = t->recv.head != TESSERA_MAILBOX_NO_SLOT;
        break;
    case TESSERA_CSR_SEND_LEN:
    case TESSERA_CSR_SEND_PTR:
    case TESSERA_CSR_MCAST_HI:
    case TESSERA_CSR_MCAST_LO:
        tessera_mailbox_rules_send_register(t, csrno, value, out, f);
        break;
    case TESSERA_CSR_SEND:
        *f = tessera_mailbox_rules_send(ops, ctx, t, value, now, at);
        break;
    case TESSERA_CSR_RECV:
        *f = tessera_mailbox_rules_recv(ops, ctx, tile, t, now, out, at);
        break;
    case TESSERA_CSR_RECV_FREE:
        *f = tessera_mailbox_rules_recv_free(ops, ctx, tile, t, value, now,
                                             out, at);
        break;
    case TESSERA_CSR_WAIT_UNTIL:
        return tessera_mailbox_rules_wait(ops, ctx, t, value, now, out, at, f);
    case TESSERA_CSR_MCAST_SEND:
        *f = tessera_mailbox_rules_multicast(ops, ctx, tile, t, value, now, at);
        break;
    case TESSERA_CSR_MBOX_FAULT:
        *out = t->last_fault;
        break;
    }
    return *f == TESSERA_FAULT_NONE ? TESSERA_ACCESS_DONE
                                    : TESSERA_ACCESS_FAULT;
}

/*
 * One csrrw of mailbox CSR `csrno` (tessera_csr_is_mailbox) by thread t:
 * the CSR's effect, then the detector's steps. On DONE *out is the value
 * read and *at >= now the time the thread continues at; a FAULT (code in
 * *f) changes nothing but t's MBOX_FAULT. Whatever t waited for, issuing a
 * CSR ends the wait, and any CSR but a tinselIdle WAIT_UNTIL ends an idle
 * call. A release of t by the steps is given at once rather than woken.
 */
static inline TesseraAccessStatus tessera_mailbox_rules_csr(
    const TesseraMailboxRulesOps *ops, void *ctx,
    const TesseraMailboxTile *tile, TesseraMailboxRegs *t, uint32_t csrno,
    uint32_t value, uint64_t now, uint32_t *out, uint64_t *at,
    TesseraMailboxFault *f)
{
    TesseraAccessStatus r;

    t->wait_bits = 0;
    if (t->idle != TESSERA_IDLE_NONE &&
        (csrno != TESSERA_CSR_WAIT_UNTIL ||
         (value & TESSERA_MAILBOX_IDLE_BITS) == 0)) {
        tessera_mailbox_rules_abandon_idle(ops, ctx, t, now);
    }
    r = tessera_mailbox_rules_issue(ops, ctx, tile, t, csrno, value, now, out,
                                    at, f);
    if (r == TESSERA_ACCESS_FAULT) {
        t->last_fault = *f;
    }
    ops->settle(ctx);
    /* Only WAIT_UNTIL blocks: issued again, it takes the release. (One call
     * of _issue, so that the compiler inlines it on the model's hot path.) */
    if (r == TESSERA_ACCESS_BLOCKED && t->idle == TESSERA_IDLE_READY) {
        t->wait_bits = 0;
        r = tessera_mailbox_rules_wait(ops, ctx, t, value, now, out, at, f);
    }
    return r;
}

/* What mailbox CSR `csrno` shows for t with no effect on anything (a
 * debugger's view, tessera_mailbox_peek_csr): 0 for SEND, MCAST_SEND and
 * FREE, which hold nothing. */
static inline uint32_t tessera_mailbox_rules_peek(
    const TesseraMailboxRulesOps *ops, void *ctx, const TesseraMailboxRegs *t,
    uint32_t csrno)
{
    switch (csrno) {
    case TESSERA_CSR_CAN_SEND:
        return ops->can_send(ctx, t);
    case TESSERA_CSR_CAN_RECV:
        return t->recv.head != TESSERA_MAILBOX_NO_SLOT;
    case TESSERA_CSR_RECV:
        return t->recv.head != TESSERA_MAILBOX_NO_SLOT
                   ? tessera_mailbox_slot_address(t->recv.head)
                   : 0;
    case TESSERA_CSR_RECV_FREE: /* as if it freed nothing */
        return (t->recv.head != TESSERA_MAILBOX_NO_SLOT
                    ? tessera_mailbox_slot_address(t->recv.head)
                    : 0) |
               (ops->can_send(ctx, t) ? TESSERA_RECV_FREE_CAN_SEND : 0);
    case TESSERA_CSR_WAIT_UNTIL:
        return t->wait_bits;
    case TESSERA_CSR_SEND_LEN:
        return t->send_len;
    case TESSERA_CSR_SEND_PTR:
        return t->send_ptr;
    case TESSERA_CSR_MCAST_HI:
        return t->mcast_hi;
    case TESSERA_CSR_MCAST_LO:
        return t->mcast_lo;
    case TESSERA_CSR_MBOX_FAULT:
        return t->last_fault;
    default: /* SEND, MCAST_SEND, FREE: commands with nothing to show */
        return 0;
    }
}

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_MAILBOX_RULES_H */
