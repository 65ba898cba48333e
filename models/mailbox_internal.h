/*
 * Mailbox and network model, private to its files: the state and the
 * functions the files share. tessera/models/mailbox.h is the public API.
 *
 * The model is split by concern:
 *   mailbox.c        construction, teardown and the read-only queries
 *   mailbox_pool.c   fixed-size message records from malloc'd chunks
 *   mailbox_fifo.c   the intrusive FIFOs (slots by time, harts, pending
 *                    messages)
 *   mailbox_route.c  dimension-ordered routes, link contention, latency
 *   mailbox_net.c    admission under finite buffering, delivery to slots
 *   mailbox_csr.c    the CSRs: the shared mailbox rules
 *                    (tessera/models/mailbox_rules.h) on this model's
 *                    storage, network and time
 *   mailbox_idle.c   the termination detector's side of the CSRs
 *   mailbox_host.c   the host port (inject, to_host, host_ready)
 *   mailbox_trace.c  events for the host's trace hook (docs/tracing.md)
 *
 * State, all in dense arrays:
 *   threads  per hart index: CSR registers and slot queues (the rules'
 *            TesseraMailboxRegs), the messages waiting in the network for
 *            a slot (FIFO), its outbound register
 *   tiles    per dense tile index: flits buffered toward the mailbox, the
 *            FIFO of senders blocked on it
 *   slots    per tile * TESSERA_SLOTS_PER_TILE: who owns the slot and a
 *            link for the queue it is on (a TesseraMailboxTile per tile),
 *            when its message became receivable and from whom
 *   links    4 directed links per tile of the global grid + 2 host links
 *
 * Every operation is O(1) apart from the route length and the threads a
 * multicast reaches; nothing scans all threads or tiles (a release by the
 * termination detector visits the threads of each board once).
 */
#ifndef TESSERA_MODELS_MAILBOX_INTERNAL_H
#define TESSERA_MODELS_MAILBOX_INTERNAL_H

#include "tessera/models/mailbox.h"
#include "tessera/models/mailbox_rules.h"

#define MBOX_MAX_EXTENT   (1u << 16)
#define MBOX_NO_HART      UINT32_MAX
#define MBOX_HOST_TILE    UINT32_MAX
#define MBOX_ALL_BOARDS   UINT32_MAX
#define MBOX_POOL_CHUNK   256

/* The dimensions of the mesh; a tile has a + and a - link in each. */
enum {
    MBOX_AXIS_X,
    MBOX_AXIS_Y,
    MBOX_AXES,
};
#define MBOX_LINKS_PER_TILE (2 * MBOX_AXES)

typedef struct MboxMsg MboxMsg;
struct MboxMsg {
    MboxMsg *next_free;   /* pool */
    uint32_t src_hart;    /* MBOX_NO_HART: from the host */
    uint32_t src_id;      /* thread id of the sender */
    uint32_t dest_tile;   /* dense tile index, MBOX_HOST_TILE: the host */
    uint32_t dest_thread; /* unicast: thread in tile */
    uint64_t mask;        /* multicast: threads in tile; 0 for unicast */
    uint32_t flits;
    uint32_t refs;        /* deliveries into slots still to make */
    uint64_t sent_at;     /* when its sender issued it */
    uint64_t arrival;     /* when it reached the destination mailbox */
    uint64_t id;          /* message id of the trace events */
    uint64_t egress_at;   /* windows: when it may leave its board's egress */
    uint8_t data[TESSERA_BYTES_PER_SLOT];
};

/* A message waiting in the network for a slot of one receiving thread. */
typedef struct MboxPending MboxPending;
struct MboxPending {
    MboxPending *next;
    MboxMsg *msg;
};

/* The rules' registers come first: the rules' callbacks get back to the
 * thread from them (mbox_thread_of). */
typedef struct MboxThread {
    TesseraMailboxRegs regs;
    uint32_t id;
    MboxPending *pend_head, *pend_tail;
    MboxMsg *outbound;       /* a send the network has not taken yet */
    uint32_t next_blocked;   /* FIFO of senders blocked on one mailbox */
    uint64_t send_ready;     /* when can-send last became true */
    TesseraMailboxCounts counts;
    bool traced_block;       /* a BLOCK event awaits its RESUME */
} MboxThread;

typedef struct MboxTile {
    uint32_t buffer_used;    /* flits not yet delivered into a slot */
    uint32_t blocked_head, blocked_tail;
    uint32_t pos[MBOX_AXES]; /* position in the global tile grid */
    bool host_waiting;       /* the host was refused here */
} MboxTile;

/* What the model keeps of the message a slot holds, together: a delivery
 * and a RECV touch one cache line of it. */
typedef struct MboxSlotInfo {
    uint64_t time;            /* when its message became receivable */
    uint32_t src;             /* its sender's hart (MBOX_NO_HART: the host) */
} MboxSlotInfo;

/* A directed link is busy for `flits` cycles per message. */
typedef struct MboxLink {
    uint64_t last_start;     /* latest (modelled) start of a message */
    uint64_t next_free;      /* when that message has left the link */
} MboxLink;

/* Fixed-size objects from malloc'd chunks; never returned before free. */
typedef struct MboxPool {
    size_t size;
    void *free_list;
    void *chunks;            /* linked through their first pointer */
} MboxPool;

struct TesseraMailbox {
    TesseraMailboxConfig cfg;
    TesseraMailboxHost host;
    uint32_t num_harts, num_tiles;
    uint32_t threads_per_tile, tile_shift, threads_per_board;
    uint32_t num_boards;
    uint32_t slots_per_thread;
    uint32_t board_shift, board_x_bits;
    uint32_t grid[MBOX_AXES];      /* global tile grid extents */
    uint32_t board_tiles[MBOX_AXES]; /* tiles of one board per axis */
    uint32_t host_id;
    MboxThread *threads;
    MboxTile *tiles;
    uint8_t *slot_state;
    uint16_t *slot_next;
    MboxSlotInfo *slot_info;
    uint64_t *slot_msg;       /* id of the message a slot holds; kept only
                               * for the event hook, which alone reads it */
    MboxLink *links;          /* grid tiles * 4, then host in, host out */
    TesseraMailboxCounts *boards;
    TesseraMailboxCounts host_counts;
    uint32_t host_blocked_head, host_blocked_tail;
    /* With windows: messages at their board's egress, waiting for an
     * exchange; flits each board holds there toward each mailbox; per
     * board, senders whose message found no room there (next_blocked). */
    MboxMsg **outbox;
    uint32_t outbox_count, outbox_capacity;
    uint16_t *egress_used;    /* [board * num_tiles + tile] */
    /* The exchange that last refused a message of the pair: later ones
     * of the pair wait behind it (a pair's messages stay in order). */
    uint32_t *egress_refused; /* [board * num_tiles + tile] */
    uint32_t exchanges;
    uint32_t *egress_blocked_head, *egress_blocked_tail; /* [board] */
    MboxPool msgs, pendings;
    TesseraTermdet *td;       /* termination detection (tinselIdle) */
    uint32_t calling;         /* hart inside tessera_mailbox_csr */
    /*
     * Messages each source has issued, for their ids (mbox_new_msg_id):
     * [board] a board's threads, [boards + board] the host's to a board.
     */
    uint64_t *msg_seq;
};

static inline uint64_t mbox_max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static inline uint64_t mbox_min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static inline uint32_t mbox_popcount64(uint64_t x)
{
    uint32_t n = 0;

    for (; x != 0; x &= x - 1) {
        n++;
    }
    return n;
}

/* The thread's outbound register is free. */
static inline bool mbox_thread_can_send(const MboxThread *t)
{
    return t->outbound == NULL;
}

/* ---- ids, tiles, slots -------------------------------------------------- */

/* Dense hart index of thread id `id`; false if no such thread. */
static inline bool mbox_hart_of(const TesseraMailbox *m, uint32_t id,
                                uint32_t *hart)
{
    /* Both shifts are below 32: the host id's row fits in 32 bits. */
    uint32_t board_bits = id >> m->board_shift;
    uint32_t bx = board_bits & ((1u << m->board_x_bits) - 1);
    uint32_t by = board_bits >> m->board_x_bits;

    if (bx >= m->cfg.shape.boards_x || by >= m->cfg.shape.boards_y) {
        return false;
    }
    *hart = (by * m->cfg.shape.boards_x + bx) * m->threads_per_board +
            (id & (m->threads_per_board - 1));
    return true;
}

static inline uint32_t mbox_tile_of(const TesseraMailbox *m, uint32_t hart)
{
    return hart >> m->tile_shift;
}

static inline uint32_t mbox_board_of(const TesseraMailbox *m, uint32_t hart)
{
    return hart / m->threads_per_board;
}

/*
 * A new message's id from `source` (msg_seq): unique, and the same however
 * the machine is split over processes, since each source numbers its own
 * in its own order (trace files of every split agree, docs/tracing.md).
 */
static inline uint64_t mbox_new_msg_id(TesseraMailbox *m, uint32_t source)
{
    return ++m->msg_seq[source] * (2 * (uint64_t)m->num_boards) + source;
}

static inline uint32_t mbox_thread_hart(const TesseraMailbox *m,
                                        const MboxThread *t)
{
    return (uint32_t)(t - m->threads);
}

static inline size_t mbox_slot_index(uint32_t tile, uint32_t slot)
{
    return (size_t)tile * TESSERA_SLOTS_PER_TILE + slot;
}

/* The slots of a tile, as the rules see them. */
static inline TesseraMailboxTile mbox_tile_slots(const TesseraMailbox *m,
                                                 uint32_t tile)
{
    TesseraMailboxTile v;

    v.state = m->slot_state + mbox_slot_index(tile, 0);
    v.next = m->slot_next + mbox_slot_index(tile, 0);
    v.threads = m->threads_per_tile;
    return v;
}

static inline MboxThread *mbox_thread_of(TesseraMailboxRegs *regs)
{
    return (MboxThread *)regs;
}

static inline const MboxThread *mbox_const_thread_of(
    const TesseraMailboxRegs *regs)
{
    return (const MboxThread *)regs;
}

static inline uint8_t *mbox_slot_bytes(TesseraMailbox *m, uint32_t tile,
                                       uint32_t slot)
{
    uint8_t *base = m->host.scratch != NULL
                        ? m->host.scratch + (size_t)tile * TESSERA_SCRATCH_SIZE
                        : m->host.scratchpad(m->host.opaque, tile);

    return base + (size_t)slot * TESSERA_BYTES_PER_SLOT;
}

/* ---- mailbox_pool.c ----------------------------------------------------- */

void mbox_pool_init(MboxPool *p, size_t size);
void *mbox_pool_get(MboxPool *p);
void mbox_pool_put(MboxPool *p, void *obj);
void mbox_pool_destroy(MboxPool *p);

/* ---- mailbox_fifo.c ----------------------------------------------------- */

/* Queues a received slot in order of receivable time (slot_info): after every
 * slot receivable no later and every slot from the same sender. RECV takes
 * the message that reached the mailbox first in modelled time, whatever
 * order the senders ran in on the host, and a pair's messages stay in
 * order. */
void mbox_slot_queue_by_time(TesseraMailbox *m, uint32_t tile,
                             TesseraSlotQueue *q, uint32_t slot);
/* Threads, linked through next_blocked. */
void mbox_hart_fifo_push(TesseraMailbox *m, uint32_t *head, uint32_t *tail,
                         uint32_t hart);
uint32_t mbox_hart_fifo_pop(TesseraMailbox *m, uint32_t *head,
                            uint32_t *tail);
/* Messages waiting in the network for a slot of thread t. */
void mbox_pending_push(TesseraMailbox *m, MboxThread *t, MboxMsg *msg);
MboxMsg *mbox_pending_pop(TesseraMailbox *m, MboxThread *t);

/* ---- mailbox_route.c ---------------------------------------------------- */

/* Arrival time of a message leaving tile `from` at t for tile `to`; either
 * may be MBOX_HOST_TILE. With commit, the message occupies the links. It
 * waits for (and occupies) only the links of `board`, or every link on
 * its way with MBOX_ALL_BOARDS; the host link's own hops only then. */
uint64_t mbox_route(TesseraMailbox *m, uint32_t from, uint32_t to,
                    uint64_t t, uint32_t flits, bool commit, uint32_t board);

/* ---- mailbox_net.c ------------------------------------------------------ */

/* Wakes t if it waits for one of `condition`. */
void mbox_wake(TesseraMailbox *m, MboxThread *t, uint32_t condition);
/* Tells the wait registry (if any) what thread t now waits on: its
 * wait_bits, nothing if 0. */
void mbox_report_wait(TesseraMailbox *m, MboxThread *t, uint64_t now);
uint64_t mbox_deliver(TesseraMailbox *m, MboxThread *t, uint32_t slot,
                      const MboxMsg *msg, uint64_t not_before);
void mbox_release_if_delivered(TesseraMailbox *m, MboxMsg *msg);
bool mbox_tile_has_room(const TesseraMailbox *m, uint32_t tile,
                        uint32_t flits);
void mbox_enter_network(TesseraMailbox *m, MboxMsg *msg, uint64_t depart);
void mbox_send_to_tile(TesseraMailbox *m, MboxThread *t, MboxMsg *msg);
void mbox_admit_blocked(TesseraMailbox *m, uint32_t tile, uint64_t at);

/* ---- mailbox_idle.c ----------------------------------------------------- */

uint64_t mbox_send_allowed(TesseraMailbox *m, uint32_t board, uint64_t t);
void mbox_idle_released(void *opaque, uint32_t hart);

/* ---- mailbox_host.c ----------------------------------------------------- */

bool mbox_offer_to_host(TesseraMailbox *m, MboxMsg *msg);

/* ---- mailbox_trace.c ---------------------------------------------------- *
 * Each reports one TesseraMailboxEvent to host.event, and does nothing if
 * the host has no event hook. The ones of every message and CSR are inline
 * wrappers that check for the hook first: without one, not even a call. */

/* SEND of msg by t; dest_id: the destination (unicast) or thread 0 of the
 * destination mailbox (multicast). */
void mbox_trace_send_event(TesseraMailbox *m, const MboxThread *t,
                           const MboxMsg *msg, uint32_t dest_id);
static inline void mbox_trace_send(TesseraMailbox *m, const MboxThread *t,
                                   const MboxMsg *msg, uint32_t dest_id)
{
    if (m->host.event != NULL) {
        mbox_trace_send_event(m, t, msg, dest_id);
    }
}
/* DELIVER of msg into `slot` (number in the tile) of t, receivable at
 * time. */
void mbox_trace_deliver_event(TesseraMailbox *m, const MboxThread *t,
                              uint32_t slot, const MboxMsg *msg,
                              uint64_t time);
static inline void mbox_trace_deliver(TesseraMailbox *m, const MboxThread *t,
                                      uint32_t slot, const MboxMsg *msg,
                                      uint64_t time)
{
    if (m->host.event != NULL) {
        mbox_trace_deliver_event(m, t, slot, msg, time);
    }
}
/* RECEIVE (RECV) or FREE of `slot` by t; msg_id 0: an empty slot. */
void mbox_trace_slot_event(TesseraMailbox *m, const MboxThread *t,
                           TesseraMailboxEventKind kind, uint32_t slot,
                           uint64_t msg_id, uint64_t time);
static inline void mbox_trace_slot(TesseraMailbox *m, const MboxThread *t,
                                   TesseraMailboxEventKind kind, uint32_t slot,
                                   uint64_t msg_id, uint64_t time)
{
    if (m->host.event != NULL) {
        mbox_trace_slot_event(m, t, kind, slot, msg_id, time);
    }
}
void mbox_trace_to_host(TesseraMailbox *m, const MboxMsg *msg,
                        uint64_t time);
void mbox_trace_from_host(TesseraMailbox *m, uint32_t dest_hart,
                          const MboxMsg *msg);
/* After a CSR of t returned r (BLOCKED: BLOCK once per wait; anything
 * else after a BLOCK: RESUME at resume_at). */
void mbox_trace_wait_event(TesseraMailbox *m, MboxThread *t,
                           TesseraAccessStatus r, uint64_t now,
                           uint64_t resume_at, uint32_t result);
static inline void mbox_trace_wait(TesseraMailbox *m, MboxThread *t,
                                   TesseraAccessStatus r, uint64_t now,
                                   uint64_t resume_at, uint32_t result)
{
    if (m->host.event != NULL) {
        mbox_trace_wait_event(m, t, r, now, resume_at, result);
    }
}
/* The termination detector's event hook: forwards to host.event. */
void mbox_trace_termdet(void *opaque, const TesseraTermdetEvent *e);

#endif /* TESSERA_MODELS_MAILBOX_INTERNAL_H */
