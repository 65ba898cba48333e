/*
 * Mailbox and network model: per-tile mailboxes with scratchpad message
 * slots, driven by the Tinsel CSRs of tessera/hw/regs.h, joined by a
 * dimension-ordered mesh network with finite buffering, plus modelled time.
 *
 * Plain C, no QEMU or glib: the QEMU wrapper (hw/riscv/tessera/
 * tessera_mailbox.c) and the host HAL backend both drive it. Not
 * thread-safe: the caller serialises every call (QEMU: the BQL; host: a
 * mutex).
 *
 * Threads are named by their dense hart index (tessera_dense_index) in this
 * API, by their thread id in CSR values (destinations) and in messages.
 *
 * Time: every call carries `now`, the calling thread's modelled cycle count.
 * A call may report `*resume_at` >= now: the modelled time at which the
 * operation completes (e.g. the arrival time of the message received); the
 * caller advances the thread's clock to it.
 *
 * Blocking: a CSR that must wait (wait-until whose condition does not hold)
 * returns TESSERA_ACCESS_BLOCKED and records the thread as a waiter. When the
 * condition may hold, the model calls host->wake(hart_index) (possibly from
 * inside another thread's call); the caller then issues the same CSR again.
 * Issuing a CSR again is always safe (idempotent while blocked). Every
 * mailbox CSR a thread issues ends its wait: a thread that is woken (or
 * re-executes the CSR for any other reason) and still cannot proceed is
 * recorded again. Spurious wakes are possible, missed ones are not.
 *
 * Callbacks run inside the model's calls: they must not call the model.
 *
 * Optimistic time: a message is visible (can-recv, RECV) as soon as the
 * call that sends it returns, whatever the receiver's clock says; the
 * receiver's clock then jumps to the arrival time (RECV, WAIT_UNTIL report
 * it in *resume_at). docs/mailbox.md describes the network and timing model.
 *
 * tinselIdle: WAIT_UNTIL with an idle bit (TESSERA_WAIT_IDLE, or
 * TESSERA_WAIT_IDLE_VOTE to vote true) goes through the termination
 * detector the model owns (termdet.h, docs/idle.md). The model feeds it
 * every send, receive (free) and idle call, and runs its protocol steps
 * after every call that may have changed something, so a release happens
 * inside the call that completes termination. Sends from a board are held
 * back while phase 2 has disabled them (SEND completes at *resume_at).
 */
#ifndef TESSERA_MODELS_MAILBOX_H
#define TESSERA_MODELS_MAILBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/models/access.h"
#include "tessera/models/mailbox_rules.h"
#include "tessera/models/termdet.h"
#include "tessera/models/waits.h"
#include "tessera/hw/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The operation of a WAIT_UNTIL blocked on `wait_bits`, in the words of the
 * deadlock report (tessera/models/waits.h, docs/debugging.md); also for a
 * dev board's mailbox (docs/boards.md). */
static inline const char *tessera_mailbox_wait_operation(uint32_t wait_bits)
{
    if (wait_bits & TESSERA_WAIT_IDLE) {
        return (wait_bits & TESSERA_WAIT_IDLE_VOTE)
                   ? "mailbox tinselIdle, voting true"
                   : "mailbox tinselIdle, voting false";
    }
    switch (wait_bits & (TESSERA_WAIT_CAN_SEND | TESSERA_WAIT_CAN_RECV)) {
    case TESSERA_WAIT_CAN_SEND:
        return "mailbox wait-until can-send (to send)";
    case TESSERA_WAIT_CAN_RECV:
        return "mailbox wait-until can-recv (to receive)";
    default:
        return "mailbox wait-until can-send or can-recv";
    }
}

typedef struct TesseraMailboxConfig {
    TesseraShape shape;
    uint32_t tile_hop_cycles;   /* one hop between tiles on a board */
    uint32_t board_hop_cycles;  /* L: one hop between boards */
    uint32_t buffer_flits;      /* network buffering toward each mailbox,
                                 * >= TESSERA_MAX_FLITS */
    /* Where the termination detector's master sits (QEMU: idle-master);
     * 0 = TESSERA_TERMDET_MASTER_ORIGIN. */
    TesseraTermdetMaster idle_master;
    /* Optional (may be NULL): where blocked WAIT_UNTILs are reported for
     * deadlock detection (tessera/models/waits.h). The model blocks a hart
     * there when its CSR returns BLOCKED and unblocks it when it wakes it,
     * when its next CSR does not block, and at reset. Not owned. */
    TesseraWaits *waits;
    /*
     * Time windows (docs/ranks.md): a message to another board waits at its
     * board's egress until the host calls tessera_mailbox_exchange() at the
     * end of the window it was sent in; then it enters the network at its
     * send time. A board's egress holds up to buffer_flits toward each
     * mailbox of other boards; a send that finds no room there waits in its
     * sender's outbound register (can-send 0) as for a full mailbox. Boards
     * then interact only at exchanges, in an order that depends on modelled
     * times alone, so a board's run does not depend on what else runs
     * beside it. Off: messages enter the network at once. buffer_flits must
     * then be below 65536.
     */
    bool windows;
    /*
     * With windows, when the machine is spread over several processes
     * (ranks, docs/ranks.md): local_boards[b] says whether this process
     * models board b; NULL: all of them. A message toward another process's
     * board leaves at the exchange through tessera_mailbox_take_leaving();
     * the room its admission frees at its board's egress comes back as a
     * TesseraMailboxCredit. Not owned; lives as long as the model.
     */
    const bool *local_boards;
    /*
     * Untimed (functional) mode, for native mode (docs/native.md) only:
     * every rule that decides what happens is kept (slots, buffering and
     * back-pressure, multicast, a pair's order, termination detection), the
     * bookkeeping that decides only when is dropped. A message takes no
     * time on its way (no route, no link contention) and a thread receives
     * its messages in the order they reached its mailbox in host order
     * (FIFO), not by modelled arrival; RECV and WAIT_UNTIL then never wait
     * for a message's time. Modelled cycles are not the machine's. With
     * windows and local_boards (native mode's parts, each a model of its
     * own on a worker thread of its own): only a message toward another
     * part's board waits for an exchange, which the host may make at any
     * time; one toward any board of this part enters the network at once.
     */
    bool untimed;
} TesseraMailboxConfig;

/*
 * Events, for tracing (docs/tracing.md): what the model reports to
 * TesseraMailboxHost.event, in host order, from inside the call that makes
 * it happen. Every event names the thread concerned (its dense index and
 * its thread id; the host: UINT32_MAX and the host id) and carries the
 * modelled time at which it happens.
 *
 * Message ids pair the events of one message: every SEND, MCAST_SEND and
 * message from the host gets the next id (1, 2, ...; back to 1 at reset).
 * A multicast keeps one id for all its copies: each DELIVER and RECEIVE
 * names the receiving thread, so (id, receiving thread) names one copy, and
 * the slot it went into. FREE names the slot, and the thread that freed it:
 * any thread of the tile may free a slot that holds a received message.
 */
typedef enum TesseraMailboxEventKind {
    /* A thread issued a message (time: when it left, sent_at). Unicast:
     * peer = destination id (a thread or the host id), mask = 0. Multicast:
     * peer = id of thread 0 of the destination mailbox, mask = the threads
     * of that mailbox. copies = receiving threads, flits = length. */
    TESSERA_MAILBOX_EVENT_SEND,
    /* A copy of message `msg` from thread `peer` went into receive slot
     * `slot` (bus address) of the thread, receivable at time. */
    TESSERA_MAILBOX_EVENT_DELIVER,
    /* RECV handed the thread the slot holding `msg` (time: when it
     * returned, the arrival if later than the call). */
    TESSERA_MAILBOX_EVENT_RECEIVE,
    /* FREE gave `slot` to hardware. msg: the received message it held
     * (counted as received by the freeing thread), or 0 for an empty slot:
     * the slot hand-over of start-up. */
    TESSERA_MAILBOX_EVENT_FREE,
    /* The host took message `msg` from the thread (time: its arrival at
     * the host). */
    TESSERA_MAILBOX_EVENT_TO_HOST,
    /* The host injected message `msg` toward the thread (time: when it
     * entered the network); flits = length. */
    TESSERA_MAILBOX_EVENT_FROM_HOST,
    /* The thread blocked in WAIT_UNTIL (value: its conditions,
     * TESSERA_WAIT_*). Reported once per wait, not per re-issue. */
    TESSERA_MAILBOX_EVENT_BLOCK,
    /* A thread that had blocked issued a CSR that did not block (time:
     * when it continues): its wait is over. value: the CSR's result. */
    TESSERA_MAILBOX_EVENT_RESUME,
    /* Termination detection (termdet.h): e->termdet; hart and thread name
     * its thread for hart events, else UINT32_MAX and the host id. */
    TESSERA_MAILBOX_EVENT_TERMDET,
} TesseraMailboxEventKind;

typedef struct TesseraMailboxEvent {
    TesseraMailboxEventKind kind;
    uint32_t hart;      /* dense index of the thread; UINT32_MAX: the host */
    uint32_t thread;    /* its thread id (the host id for the host) */
    uint64_t time;
    uint64_t msg;       /* message id, 0 if none */
    uint32_t peer;      /* the other end (see the kinds) */
    uint64_t mask;
    uint32_t copies;
    uint32_t flits;
    uint32_t slot;      /* bus address of the slot */
    uint32_t value;
    TesseraTermdetEvent termdet;
} TesseraMailboxEvent;

typedef struct TesseraMailboxHost {
    void *opaque;
    /* TESSERA_SCRATCH_SIZE bytes of the scratchpad of a tile (dense tile
     * index: board-major, then tile y, then tile x). One of the two: */
    uint8_t *(*scratchpad)(void *opaque, uint32_t tile_index);
    /* or every tile's scratchpad, one after another in that order, for a
     * host that keeps them so: the model reaches a slot's bytes by
     * arithmetic, without a call (used when both are given). */
    uint8_t *scratch;
    /* A thread blocked in a CSR may now proceed: issue its CSR again. */
    void (*wake)(void *opaque, uint32_t hart_index);
    /* A message addressed to the host id leaves the machine. Returns false
     * if the host cannot take it now; the model then keeps it, reports
     * can-send false to its sender, and offers it again after
     * tessera_mailbox_host_ready(). */
    bool (*to_host)(void *opaque, uint32_t src_thread_id, const uint8_t *msg,
                    uint32_t flits, uint64_t time);
    /* Optional (may be NULL): a mailbox that refused a message from the
     * host (tessera_mailbox_inject returned false, or host_can_inject
     * answered false) has room again; offer held messages again. Called
     * once per refusal at most; spurious calls are possible. */
    void (*inject_ready)(void *opaque);
    /* Optional (may be NULL), for tracing: what happened to messages,
     * waits and termination detection (TesseraMailboxEvent above). */
    void (*event)(void *opaque, const TesseraMailboxEvent *e);
} TesseraMailboxHost;

/* Faults: TesseraMailboxFault and tessera_mailbox_fault_name() in
 * tessera/hw/regs.h. */

typedef struct TesseraMailbox TesseraMailbox;

/* NULL if the configuration is invalid or memory runs out. Invalid: a
 * shape tessera/hw/regs.h cannot number (an extent of 0 or above 65536;
 * tile, core or thread extents not powers of two; ids, the host id
 * included, wider than 32 bits); fewer than 2 slots per thread (more than
 * TESSERA_SLOTS_PER_TILE / 2 threads per tile); buffer_flits below
 * TESSERA_MAX_FLITS; a host without scratchpad or scratch, wake or to_host; an
 * unknown idle_master. Running out of memory later (message records)
 * aborts. */
TesseraMailbox *tessera_mailbox_new(const TesseraMailboxConfig *cfg,
                                    const TesseraMailboxHost *host);
void tessera_mailbox_free(TesseraMailbox *m);

/* Back to the state tessera_mailbox_new gave (machine reset): every slot
 * software's, no message anywhere in the network, no hart waiting, every
 * count zero, termination detection reset. Wakes nobody: the caller resets
 * its harts too. The scratchpads are the caller's memory. */
void tessera_mailbox_reset(TesseraMailbox *m);

/* One csrrw of a mailbox CSR by hart_index (tessera/models/access.h):
 * writes `value`, and for reads returns the result in .value. On DONE
 * .resume_at >= now is the time the thread continues at; on BLOCKED, FAULT
 * and UNKNOWN .value = 0 and .resume_at = now. FAULT (.code: the
 * TesseraMailboxFault, .error its name) changes nothing but the thread's
 * MBOX_FAULT. UNKNOWN: csrno is not a mailbox CSR (or hart_index names no
 * hart).
 *
 * WAIT_UNTIL with an idle bit (tinselIdle, docs/idle.md): if a message is
 * available (can-recv is implied) or bit 0 is set and can-send holds, DONE
 * at once with those of bits 0/1 (tinselIdle returns 0). Otherwise the
 * thread enters idle, voting true if bit 3 is set, and BLOCKs. Issued again
 * while blocked: released -> DONE with (1 << 2) | (every thread voted true
 * << 3), plus the bits 0/1 that hold, and *resume_at the time the release
 * reached its board; else a message available, or bit 0 and can-send ->
 * leaves idle, DONE as above (can-send alone counts as an abandoned call
 * for the detector: termdet.h); else BLOCKED again. The release is latched until the thread is
 * given it, so issuing again is idempotent. Any other mailbox CSR, or a
 * wait-until without idle bits, abandons the idle call (and a release not
 * yet given). SEND and MCAST_SEND issued while phase 2 has disabled the
 * board's sends complete when phase 3 re-enables them (*resume_at). */
TesseraAccess tessera_mailbox_csr(TesseraMailbox *m, uint32_t hart_index,
                                  uint32_t csrno, uint32_t value, uint64_t now);

/* With windows: the messages at the boards' egresses. */
uint32_t tessera_mailbox_outbox_count(const TesseraMailbox *m);
/* With windows, at the end of a window (modelled time `at`): every message
 * at an egress enters the network at its send time, in order of (send
 * time, sending hart, issue), as if it had been sent then; one that finds
 * no room toward its mailbox stays at its egress until the next exchange
 * (then leaving at `at` or later), and so does every later one from its
 * board toward that mailbox (a pair's messages stay in order). Then
 * senders blocked at an egress whose message fits there now put it there
 * (their register frees at `at`) and are woken if they wait for can-send.
 * Returns how many entered. */
uint32_t tessera_mailbox_exchange(TesseraMailbox *m, uint64_t at);

/*
 * The exchange over several processes (config local_boards): the same
 * steps as tessera_mailbox_exchange(), with what crosses processes between
 * them. Every process, at the end of each window:
 *   1. tessera_mailbox_take_leaving(): the messages at local egresses
 *      toward other processes' boards, handed to `put` and forgotten;
 *   2. tessera_mailbox_arrive() for each such message other processes
 *      took toward its boards (in any order: the exchange sorts);
 *   3. tessera_mailbox_exchange_admit(): the admissions, as in
 *      tessera_mailbox_exchange(); for each admitted message of another
 *      process's board, `credit` gets the room it freed at that egress;
 *   4. tessera_mailbox_credit() for each credit other processes sent;
 *   5. tessera_mailbox_exchange_refill(): blocked senders enter the room.
 * A message refused in step 3 stays with the process of its destination
 * until a later exchange admits it, as it would stay at its egress in one
 * process, so every process's state is what one process's would be.
 */
typedef struct TesseraMailboxTransit {
    uint64_t mask;          /* multicast: threads in the tile; 0: unicast */
    uint64_t sent_at;
    uint64_t egress_at;
    uint64_t id;
    uint32_t src_hart;
    uint32_t src_id;
    uint32_t dest_tile;     /* dense tile index */
    uint32_t dest_thread;   /* unicast: thread in the tile */
    uint32_t dest_board;
    uint32_t flits;
    uint8_t data[TESSERA_BYTES_PER_SLOT];
} TesseraMailboxTransit;

typedef struct TesseraMailboxCredit {
    uint32_t src_board;     /* the egress */
    uint32_t dest_tile;     /* toward this mailbox */
    uint32_t flits;         /* room freed */
} TesseraMailboxCredit;

typedef void (*TesseraMailboxTransitFn)(void *opaque,
                                        const TesseraMailboxTransit *t);
typedef void (*TesseraMailboxCreditFn)(void *opaque,
                                       const TesseraMailboxCredit *c);

/* Step 1: returns how many messages left. */
uint32_t tessera_mailbox_take_leaving(TesseraMailbox *m,
                                      TesseraMailboxTransitFn put,
                                      void *opaque);
/* Step 2: false, taking nothing, if t names no local tile or board, no
 * thread or tile that exists, or an impossible length. */
bool tessera_mailbox_arrive(TesseraMailbox *m, const TesseraMailboxTransit *t);
/* Step 3: returns how many entered the network. */
uint32_t tessera_mailbox_exchange_admit(TesseraMailbox *m, uint64_t at,
                                        TesseraMailboxCreditFn credit,
                                        void *opaque);
/* Step 4: false, changing nothing, if c names no local board, no tile, or
 * more room than its egress holds. */
bool tessera_mailbox_credit(TesseraMailbox *m, const TesseraMailboxCredit *c);
/* Step 5. */
void tessera_mailbox_exchange_refill(TesseraMailbox *m, uint64_t at);


/* Offers a message of `flits` flits (1..4) from the host, sent at modelled
 * time `time`, to thread `dest_thread_id`. Returns false, taking nothing,
 * when the thread doesn't exist, flits is out of range, or the network
 * toward the thread's mailbox is full (same rules as for a thread's send:
 * buffer_flits, FIFO behind blocked senders); host->inject_ready is called
 * when that mailbox has room again. */
bool tessera_mailbox_inject(TesseraMailbox *m, uint32_t dest_thread_id,
                            const uint8_t *msg, uint32_t flits,
                            uint64_t time);
/* With windows the host's messages wait for the end of their window
 * (QEMU: at rank 0, which holds the host link, then at their board's
 * rank). The termination detector counts a message when the host sends it:
 * tessera_mailbox_host_sent() then, and tessera_mailbox_inject_sent() to
 * put it into the network later, as tessera_mailbox_inject() does but
 * without counting it again. */
void tessera_mailbox_host_sent(TesseraMailbox *m, uint64_t time);
bool tessera_mailbox_inject_sent(TesseraMailbox *m, uint32_t dest_thread_id,
                                 const uint8_t *msg, uint32_t flits,
                                 uint64_t time);
/* True if inject of a message of any length to dest_thread_id would be
 * taken now. False counts as a refusal for host->inject_ready. */
bool tessera_mailbox_host_can_inject(TesseraMailbox *m,
                                     uint32_t dest_thread_id);

/* The host can take messages again (after to_host returned false): offers
 * the held messages again, oldest first, until to_host refuses one. */
void tessera_mailbox_host_ready(TesseraMailbox *m);

/* Uncontended latency of one message from one thread (or the host id) to
 * another (or the host id), in cycles: tile hops * tile_hop_cycles + board
 * crossings * board_hop_cycles on the dimension-ordered route; 0 within a
 * tile. The host sits one board hop off tile (0,0) of board (0,0). Length
 * (flits) matters only under contention. UINT64_MAX if an id is neither a
 * thread nor the host id. */
uint64_t tessera_mailbox_latency(const TesseraMailbox *m, uint32_t src_id,
                                 uint32_t dest_id, uint32_t flits);

/* Counters, for termination detection and for tests: messages a board's
 * threads have sent (entered the network; a multicast counts one per
 * receiving thread; a message to the host counts once the host took it)
 * and received (freed a slot holding a received message, whoever sent it).
 * For the host: sent = messages injected, received = messages to_host took.
 * Sum of sent (boards and host) - sum of received = messages in flight. */
typedef struct TesseraMailboxCounts {
    uint64_t sent;
    uint64_t received;
} TesseraMailboxCounts;

TesseraMailboxCounts tessera_mailbox_board_counts(const TesseraMailbox *m,
                                                  uint32_t board_index);
TesseraMailboxCounts tessera_mailbox_thread_counts(const TesseraMailbox *m,
                                                   uint32_t hart_index);
TesseraMailboxCounts tessera_mailbox_host_counts(const TesseraMailbox *m);

/* True if a message is waiting for hart_index (can-recv would be 1). */
bool tessera_mailbox_can_recv(const TesseraMailbox *m, uint32_t hart_index);
/* True if hart_index may send (can-send would be 1). */
bool tessera_mailbox_can_send(const TesseraMailbox *m, uint32_t hart_index);
/* Conditions (TESSERA_WAIT_*) hart_index is blocked on in WAIT_UNTIL, 0 if
 * it is not blocked; for diagnostics (e.g. deadlock reports). A thread in
 * tinselIdle shows TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE (and
 * TESSERA_WAIT_IDLE_VOTE if it voted true). */
uint32_t tessera_mailbox_waiting(const TesseraMailbox *m, uint32_t hart_index);

/* The quick path of tessera_mailbox_csr, for a write of a register of the
 * next send (SEND_LEN, SEND_PTR, MCAST_HI, MCAST_LO) that is valid, by a
 * thread that is neither waiting nor in tinselIdle, with no event hook:
 * writes it, puts the old value in *old and returns true, having touched
 * nothing but that thread's registers, taken no time and woken no one (the
 * full call would return DONE with the same value at `now`). False, having
 * done nothing, for anything else: make the full call. A host may take
 * this path without the lock it holds around the model's other entry
 * points, as long as only the thread's own hart calls it. */
bool tessera_mailbox_csr_quick(TesseraMailbox *m, uint32_t hart_index,
                               uint32_t csrno, uint32_t value, uint32_t *old);

/* A hint that changes nothing: asks the caches for what hart_index's next
 * mailbox CSR reads first (its registers, and the slot record and bytes of
 * the message it would receive next), and for the registers of hart
 * `ahead`. A host that runs its harts in turn calls it for the hart that
 * runs next, with the one after that as `ahead`: each hart's registers are
 * then asked for a turn before its message is. Out-of-range harts are
 * ignored. */
void tessera_mailbox_prefetch(const TesseraMailbox *m, uint32_t hart_index,
                              uint32_t ahead);

/* The quick path of tessera_mailbox_csr for a RECV_FREE of address 0 (free
 * nothing) that finds no message, by a thread that is neither waiting nor
 * in tinselIdle, with no step of the termination detector to settle and no
 * event hook: puts the can-send bit (TESSERA_RECV_FREE_CAN_SEND or 0) in
 * *value and returns true, having changed nothing (the full call would
 * return DONE with the same value at `now`, and change nothing either).
 * False, having done nothing, for anything else: make the full call. Under
 * the same lock as tessera_mailbox_csr. A vertex program's receive loop
 * ends with one after each of its sends (docs/native.md). */
bool tessera_mailbox_recv_free_none(TesseraMailbox *m, uint32_t hart_index,
                                    uint32_t *value);

/* What a debugger shows for mailbox CSR csrno of hart_index, with no
 * effect on anything: can-send and can-recv; the slot address RECV would
 * return (0 if no message waits); for WAIT_UNTIL the conditions the thread
 * is blocked on (as tessera_mailbox_waiting); the last fault; the values
 * SEND_LEN, SEND_PTR, MCAST_HI and MCAST_LO hold; 0 for SEND, MCAST_SEND
 * and FREE, which hold nothing. False (and *value 0) if csrno is not a
 * mailbox CSR or hart_index names no hart. */
bool tessera_mailbox_peek_csr(const TesseraMailbox *m, uint32_t hart_index,
                              uint32_t csrno, uint32_t *value);

/* Termination detection: round trips and detections so far (for
 * benchmarks), the round trip in cycles, and the detector itself (for
 * tests and diagnostics: read it, don't drive it). */
void tessera_mailbox_idle_stats(const TesseraMailbox *m,
                                TesseraTermdetStats *stats);
uint64_t tessera_mailbox_idle_rtt(const TesseraMailbox *m);
const TesseraTermdet *tessera_mailbox_termdet(const TesseraMailbox *m);

/* With windows, the detector's master hears from the boards at the end of
 * each window (termdet.h, "time windows"): this process's part, whether a
 * window's end would change anything, and the end, given every process's
 * parts (false, changing nothing, if they do not fit the round under way).
 * The end wakes the threads the master's decision releases. */
size_t tessera_mailbox_idle_window(const TesseraMailbox *m,
                                   const TesseraTermdetReturn **returns,
                                   TesseraTermdetNews *news);
bool tessera_mailbox_idle_window_pending(const TesseraMailbox *m);
bool tessera_mailbox_idle_window_end(TesseraMailbox *m,
                                     const TesseraTermdetReturn *returns,
                                     size_t num_returns,
                                     const TesseraTermdetNews *news);

/* Slots each thread owns (TESSERA_SLOTS_PER_TILE / threads per tile); its
 * first is its send slot. */
uint32_t tessera_mailbox_slots_per_thread(const TesseraMailbox *m);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_MAILBOX_H */
