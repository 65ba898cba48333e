/*
 * Mailbox and network model: the Tinsel CSRs of every thread, one mailbox
 * per tile with its scratchpad of 64-byte slots, and a dimension-ordered
 * mesh network with finite buffering toward each mailbox (docs/mailbox.md).
 *
 * State, all in dense arrays:
 *   threads  per hart index: CSR registers, the slots it gave to hardware
 *            (FIFO), the messages waiting for RECV (FIFO), the messages
 *            waiting in the network for a slot (FIFO), its outbound register
 *   tiles    per dense tile index: flits buffered toward the mailbox, the
 *            FIFO of senders blocked on it
 *   slots    per tile * TESSERA_SLOTS_PER_TILE: who owns the slot, a link
 *            for the FIFO it is on, when its message became receivable
 *   links    4 directed links per tile of the global grid + 2 host links
 *
 * Termination detection (tinselIdle) is the termdet model, which this
 * model owns and feeds: sends when issued, receives when freed, idle calls.
 * Its protocol steps run at the end of every call that may have changed
 * something (docs/idle.md).
 *
 * Every operation is O(1) apart from the route length and the threads a
 * multicast reaches; nothing scans all threads or tiles (a release by the
 * termination detector visits the threads of each board once).
 *
 * The model does no locking: the QEMU wrapper calls it under the BQL and
 * the host backend under a mutex of its own.
 */
#include "tessera/models/mailbox.h"

#include <stdlib.h>
#include <string.h>

#define MBOX_MAX_EXTENT   (1u << 16)
#define MBOX_NO_SLOT      0xffffu
#define MBOX_NO_HART      UINT32_MAX
#define MBOX_HOST_TILE    UINT32_MAX
#define MBOX_POOL_CHUNK   256
#define MBOX_WAIT_BITS    (TESSERA_WAIT_CAN_SEND | TESSERA_WAIT_CAN_RECV)
#define MBOX_IDLE_BITS    (TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE)

/* Where a thread stands in a tinselIdle call. */
enum {
    IDLE_NONE,         /* not in one */
    IDLE_WAITING,      /* blocked in idle, the detector has it as idle */
    IDLE_READY,        /* released: the next issue returns idle_value */
};

/* Who owns a slot. */
enum {
    SLOT_SOFTWARE,     /* software's, no received message in it */
    SLOT_SOFTWARE_MSG, /* software's, holds a message it received */
    SLOT_HW_FREE,      /* given to hardware, empty, on a free FIFO */
    SLOT_HW_FULL,      /* hardware's, holds a message waiting for RECV */
};

/* Directed links leaving a tile of the global grid. */
enum {
    LINK_X_PLUS,
    LINK_X_MINUS,
    LINK_Y_PLUS,
    LINK_Y_MINUS,
    LINKS_PER_TILE,
};

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
    uint8_t data[TESSERA_BYTES_PER_SLOT];
};

/* A message waiting in the network for a slot of one receiving thread. */
typedef struct MboxPending MboxPending;
struct MboxPending {
    MboxPending *next;
    MboxMsg *msg;
};

typedef struct MboxThread {
    uint32_t id;
    uint32_t send_ptr;       /* bus address */
    uint32_t send_len;       /* flits - 1 */
    uint32_t mcast_hi, mcast_lo;
    uint32_t last_fault;
    uint32_t wait_bits;      /* conditions of a blocked WAIT_UNTIL */
    uint16_t free_head, free_tail; /* slots given to hardware */
    uint16_t recv_head, recv_tail; /* slots holding messages for RECV */
    MboxPending *pend_head, *pend_tail;
    MboxMsg *outbound;       /* a send the network has not taken yet */
    uint32_t next_blocked;   /* FIFO of senders blocked on one mailbox */
    uint64_t send_ready;     /* when can-send last became true */
    TesseraMailboxCounts counts;
    uint8_t idle;            /* IDLE_* */
    uint32_t idle_value;     /* IDLE_READY: (1 << 2) | (all voted true << 3) */
    uint64_t idle_resume;    /* IDLE_READY: when the release reached it */
} MboxThread;

typedef struct MboxTile {
    uint32_t buffer_used;    /* flits not yet delivered into a slot */
    uint32_t blocked_head, blocked_tail;
    uint32_t gx, gy;         /* position in the global tile grid */
    bool host_waiting;       /* the host was refused here */
} MboxTile;

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
    uint32_t slots_per_thread;
    uint32_t board_shift, board_x_bits;
    uint32_t grid_x, grid_y;
    uint32_t host_id;
    MboxThread *threads;
    MboxTile *tiles;
    uint8_t *slot_state;
    uint16_t *slot_next;
    uint64_t *slot_time;
    MboxLink *links;          /* grid tiles * 4, then host in, host out */
    TesseraMailboxCounts *boards;
    TesseraMailboxCounts host_counts;
    uint32_t host_blocked_head, host_blocked_tail;
    MboxPool msgs, pendings;
    TesseraTermdet *td;       /* termination detection (tinselIdle) */
    uint32_t calling;         /* hart inside tessera_mailbox_csr */
};

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static bool is_power_of_two(uint32_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}

/* ---- pools -------------------------------------------------------------- */

static void pool_init(MboxPool *p, size_t size)
{
    p->size = size;
    p->free_list = NULL;
    p->chunks = NULL;
}

static void *pool_get(MboxPool *p)
{
    void *obj;

    if (p->free_list == NULL) {
        /* The header keeps the objects as aligned as malloc's result. */
        size_t header = (sizeof(void *) + 15) & ~(size_t)15;
        char *chunk = malloc(header + p->size * MBOX_POOL_CHUNK);
        size_t i;

        if (chunk == NULL) {
            abort();
        }
        memcpy(chunk, &p->chunks, sizeof(void *));
        p->chunks = chunk;
        for (i = 0; i < MBOX_POOL_CHUNK; i++) {
            obj = chunk + header + i * p->size;
            memcpy(obj, &p->free_list, sizeof(void *));
            p->free_list = obj;
        }
    }
    obj = p->free_list;
    memcpy(&p->free_list, obj, sizeof(void *));
    return obj;
}

static void pool_put(MboxPool *p, void *obj)
{
    memcpy(obj, &p->free_list, sizeof(void *));
    p->free_list = obj;
}

static void pool_destroy(MboxPool *p)
{
    while (p->chunks != NULL) {
        void *chunk = p->chunks;

        memcpy(&p->chunks, chunk, sizeof(void *));
        free(chunk);
    }
}

/* ---- ids, tiles, slots -------------------------------------------------- */

/* Dense hart index of thread id `id`; false if no such thread. */
static bool hart_of(const TesseraMailbox *m, uint32_t id, uint32_t *hart)
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

static uint32_t tile_of(const TesseraMailbox *m, uint32_t hart)
{
    return hart >> m->tile_shift;
}

static uint32_t board_of(const TesseraMailbox *m, uint32_t hart)
{
    return hart / m->threads_per_board;
}

static uint32_t thread_hart(const TesseraMailbox *m, const MboxThread *t)
{
    return (uint32_t)(t - m->threads);
}

/* Slot number within the tile of a slot's bus address, or -1. */
static int slot_number(uint32_t bus_address)
{
    uint32_t offset = bus_address - TESSERA_SCRATCH_BASE;

    if (bus_address < TESSERA_SCRATCH_BASE || offset >= TESSERA_SCRATCH_SIZE ||
        offset % TESSERA_BYTES_PER_SLOT != 0) {
        return -1;
    }
    return (int)(offset / TESSERA_BYTES_PER_SLOT);
}

static size_t slot_index(uint32_t tile, uint32_t slot)
{
    return (size_t)tile * TESSERA_SLOTS_PER_TILE + slot;
}

static uint8_t *slot_bytes(TesseraMailbox *m, uint32_t tile, uint32_t slot)
{
    return m->host.scratchpad(m->host.opaque, tile) +
           (size_t)slot * TESSERA_BYTES_PER_SLOT;
}

/* Appends slot to a FIFO of slots of `tile` linked through slot_next. */
static void slot_fifo_push(TesseraMailbox *m, uint32_t tile, uint16_t *head,
                           uint16_t *tail, uint32_t slot)
{
    m->slot_next[slot_index(tile, slot)] = MBOX_NO_SLOT;
    if (*tail == MBOX_NO_SLOT) {
        *head = (uint16_t)slot;
    } else {
        m->slot_next[slot_index(tile, *tail)] = (uint16_t)slot;
    }
    *tail = (uint16_t)slot;
}

static uint32_t slot_fifo_pop(TesseraMailbox *m, uint32_t tile,
                              uint16_t *head, uint16_t *tail)
{
    uint32_t slot = *head;

    *head = m->slot_next[slot_index(tile, slot)];
    if (*head == MBOX_NO_SLOT) {
        *tail = MBOX_NO_SLOT;
    }
    return slot;
}

/* FIFO of threads linked through next_blocked. */
static void hart_fifo_push(TesseraMailbox *m, uint32_t *head, uint32_t *tail,
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

static uint32_t hart_fifo_pop(TesseraMailbox *m, uint32_t *head,
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

static void wake(TesseraMailbox *m, MboxThread *t, uint32_t condition)
{
    if (t->wait_bits & condition) {
        t->wait_bits = 0;
        m->host.wake(m->host.opaque, thread_hart(m, t));
    }
}

/* ---- network timing ----------------------------------------------------- */

static size_t grid_link(const TesseraMailbox *m, uint32_t gx, uint32_t gy,
                        int dir)
{
    return ((size_t)gy * m->grid_x + gx) * LINKS_PER_TILE + (size_t)dir;
}

static size_t host_link(const TesseraMailbox *m, bool to_host)
{
    return (size_t)m->grid_x * m->grid_y * LINKS_PER_TILE + (to_host ? 1 : 0);
}

/*
 * One hop: the message reaches the link at t and occupies it for `flits`
 * cycles. It waits for the message that last started on the link unless it
 * got there earlier in modelled time (then it does not wait: a message
 * never waits for one that is later in modelled time, only the host order
 * of calls put it first). Returns when its head reaches the next node.
 */
static uint64_t hop(TesseraMailbox *m, size_t link, uint64_t t,
                    uint32_t latency, uint32_t flits, bool commit)
{
    MboxLink *l = &m->links[link];
    uint64_t start = t;

    if (t >= l->last_start && l->next_free > t) {
        start = l->next_free;
    }
    if (commit && start >= l->last_start) {
        l->last_start = start;
        l->next_free = start + flits;
    }
    return start + latency;
}

/* Dimension-ordered (X then Y) route between grid positions. */
static uint64_t route_grid(TesseraMailbox *m, uint32_t x, uint32_t y,
                           uint32_t dx, uint32_t dy, uint64_t t,
                           uint32_t flits, bool commit)
{
    const uint32_t tiles_x = m->cfg.shape.tiles_x;
    const uint32_t tiles_y = m->cfg.shape.tiles_y;

    while (x != dx) {
        bool up = x < dx;
        bool crossing = up ? (x + 1) % tiles_x == 0 : x % tiles_x == 0;

        t = hop(m, grid_link(m, x, y, up ? LINK_X_PLUS : LINK_X_MINUS), t,
                crossing ? m->cfg.board_hop_cycles : m->cfg.tile_hop_cycles,
                flits, commit);
        x = up ? x + 1 : x - 1;
    }
    while (y != dy) {
        bool up = y < dy;
        bool crossing = up ? (y + 1) % tiles_y == 0 : y % tiles_y == 0;

        t = hop(m, grid_link(m, x, y, up ? LINK_Y_PLUS : LINK_Y_MINUS), t,
                crossing ? m->cfg.board_hop_cycles : m->cfg.tile_hop_cycles,
                flits, commit);
        y = up ? y + 1 : y - 1;
    }
    return t;
}

/* Arrival time of a message leaving tile `from` at t for tile `to`; either
 * may be MBOX_HOST_TILE (the host, one board hop off grid position 0,0). */
static uint64_t route(TesseraMailbox *m, uint32_t from, uint32_t to,
                      uint64_t t, uint32_t flits, bool commit)
{
    uint32_t x = 0, y = 0, dx = 0, dy = 0;

    if (from == MBOX_HOST_TILE) {
        t = hop(m, host_link(m, false), t, m->cfg.board_hop_cycles, flits,
                commit);
    } else {
        x = m->tiles[from].gx;
        y = m->tiles[from].gy;
    }
    if (to != MBOX_HOST_TILE) {
        dx = m->tiles[to].gx;
        dy = m->tiles[to].gy;
    }
    t = route_grid(m, x, y, dx, dy, t, flits, commit);
    if (to == MBOX_HOST_TILE) {
        t = hop(m, host_link(m, true), t, m->cfg.board_hop_cycles, flits,
                commit);
    }
    return t;
}

/* Uncontended latency along one dimension: n hops, of which `crossings`
 * leave a board. */
static uint64_t axis_latency(const TesseraMailbox *m, uint32_t from,
                             uint32_t to, uint32_t tiles)
{
    uint32_t hops = from > to ? from - to : to - from;
    uint32_t fb = from / tiles, tb = to / tiles;
    uint32_t crossings = fb > tb ? fb - tb : tb - fb;

    return (uint64_t)(hops - crossings) * m->cfg.tile_hop_cycles +
           (uint64_t)crossings * m->cfg.board_hop_cycles;
}

/* ---- delivery ----------------------------------------------------------- */

/* Copies msg into `slot` of receiving thread t and queues it for RECV;
 * receivable at max(arrival, not_before). Returns that time. */
static uint64_t deliver(TesseraMailbox *m, MboxThread *t, uint32_t slot,
                        const MboxMsg *msg, uint64_t not_before)
{
    uint32_t tile = tile_of(m, thread_hart(m, t));
    size_t i = slot_index(tile, slot);

    memcpy(slot_bytes(m, tile, slot), msg->data,
           (size_t)msg->flits * TESSERA_BYTES_PER_FLIT);
    m->slot_state[i] = SLOT_HW_FULL;
    m->slot_time[i] = max_u64(msg->arrival, not_before);
    slot_fifo_push(m, tile, &t->recv_head, &t->recv_tail, slot);
    if (m->host.delivered) {
        m->host.delivered(m->host.opaque, thread_hart(m, t), msg->src_id,
                          msg->flits, m->slot_time[i]);
    }
    wake(m, t, TESSERA_WAIT_CAN_RECV);
    return m->slot_time[i];
}

/* Delivers msg to thread t now if t has given a slot, else queues it. */
static void offer(TesseraMailbox *m, MboxThread *t, MboxMsg *msg)
{
    MboxPending *p;

    if (t->free_head != MBOX_NO_SLOT) {
        uint32_t tile = tile_of(m, thread_hart(m, t));
        uint32_t slot = slot_fifo_pop(m, tile, &t->free_head, &t->free_tail);

        deliver(m, t, slot, msg, 0);
        msg->refs--;
        return;
    }
    p = pool_get(&m->pendings);
    p->next = NULL;
    p->msg = msg;
    if (t->pend_tail == NULL) {
        t->pend_head = p;
    } else {
        t->pend_tail->next = p;
    }
    t->pend_tail = p;
}

/* The message no longer occupies the network once delivered everywhere. */
static void release_if_delivered(TesseraMailbox *m, MboxMsg *msg)
{
    if (msg->refs == 0) {
        m->tiles[msg->dest_tile].buffer_used -= msg->flits;
        pool_put(&m->msgs, msg);
    }
}

static uint32_t popcount64(uint64_t x)
{
    uint32_t n = 0;

    for (; x != 0; x &= x - 1) {
        n++;
    }
    return n;
}

/* Puts msg into the network toward a tile at `depart` (there is room):
 * counts it, times it, delivers what can be delivered. */
static void enter_network(TesseraMailbox *m, MboxMsg *msg, uint64_t depart)
{
    uint32_t from = msg->src_hart == MBOX_NO_HART
                        ? MBOX_HOST_TILE
                        : tile_of(m, msg->src_hart);
    uint32_t base = msg->dest_tile << m->tile_shift;
    uint32_t copies = msg->mask ? popcount64(msg->mask) : 1;

    msg->arrival = route(m, from, msg->dest_tile, depart, msg->flits, true);
    if (msg->src_hart == MBOX_NO_HART) {
        m->host_counts.sent += copies;
    } else {
        m->threads[msg->src_hart].counts.sent += copies;
        m->boards[board_of(m, msg->src_hart)].sent += copies;
    }
    m->tiles[msg->dest_tile].buffer_used += msg->flits;
    msg->refs = copies;
    if (msg->mask == 0) {
        offer(m, &m->threads[base + msg->dest_thread], msg);
    } else {
        uint64_t mask = msg->mask;

        while (mask != 0) {
            uint32_t k = (uint32_t)__builtin_ctzll(mask);

            mask &= mask - 1;
            offer(m, &m->threads[base + k], msg);
        }
    }
    release_if_delivered(m, msg);
}

static bool tile_has_room(const TesseraMailbox *m, uint32_t tile,
                          uint32_t flits)
{
    const MboxTile *t = &m->tiles[tile];

    return t->blocked_head == MBOX_NO_HART &&
           t->buffer_used + flits <= m->cfg.buffer_flits;
}

/* Room appeared toward `tile` at modelled time `at`: blocked senders enter
 * in FIFO order while they fit, then the host hears about it. */
static void admit_blocked(TesseraMailbox *m, uint32_t tile, uint64_t at)
{
    MboxTile *tl = &m->tiles[tile];

    while (tl->blocked_head != MBOX_NO_HART) {
        MboxThread *s = &m->threads[tl->blocked_head];
        MboxMsg *msg = s->outbound;
        uint64_t depart;

        if (tl->buffer_used + msg->flits > m->cfg.buffer_flits) {
            return;
        }
        hart_fifo_pop(m, &tl->blocked_head, &tl->blocked_tail);
        s->outbound = NULL;
        depart = max_u64(msg->sent_at, at);
        s->send_ready = depart;
        enter_network(m, msg, depart);
        wake(m, s, TESSERA_WAIT_CAN_SEND);
    }
    if (tl->host_waiting && tl->buffer_used < m->cfg.buffer_flits) {
        tl->host_waiting = false;
        if (m->host.inject_ready != NULL) {
            m->host.inject_ready(m->host.opaque);
        }
    }
}

/* Offers a message to the host; on success it has left the machine. */
static bool offer_to_host(TesseraMailbox *m, MboxMsg *msg)
{
    uint32_t from = tile_of(m, msg->src_hart);
    uint64_t arrival = route(m, from, MBOX_HOST_TILE, msg->sent_at,
                             msg->flits, false);

    if (!m->host.to_host(m->host.opaque, msg->src_id, msg->data, msg->flits,
                         arrival)) {
        return false;
    }
    route(m, from, MBOX_HOST_TILE, msg->sent_at, msg->flits, true);
    m->threads[msg->src_hart].counts.sent++;
    m->boards[board_of(m, msg->src_hart)].sent++;
    m->host_counts.received++;
    tessera_termdet_received(m->td, TESSERA_TERMDET_HOST, arrival);
    pool_put(&m->msgs, msg);
    return true;
}

/* ---- termination detection ---------------------------------------------- */

/* Earliest time >= t at which `board` (or TESSERA_TERMDET_HOST) may send:
 * later than t only while phase 2 has disabled sending. */
static uint64_t send_allowed(TesseraMailbox *m, uint32_t board, uint64_t t)
{
    uint64_t at = tessera_termdet_send_at(m->td, board, t);

    if (at == TESSERA_TERMDET_SEND_DISABLED) {
        /* Protocol steps are run after every call, so this does not
         * happen; running them settles it in any case. */
        tessera_termdet_process(m->td);
        at = tessera_termdet_send_at(m->td, board, t);
    }
    return at == TESSERA_TERMDET_SEND_DISABLED ? t : at;
}

/* The detector released a thread blocked in idle: latch the release for
 * its next WAIT_UNTIL and wake it (unless it is the caller of the current
 * call, which picks the release up before returning). */
static void idle_released(void *opaque, uint32_t hart)
{
    TesseraMailbox *m = opaque;
    MboxThread *t = &m->threads[hart];
    uint32_t result = 0;
    uint64_t at = 0;

    if (t->idle != IDLE_WAITING) {
        return;
    }
    tessera_termdet_hart_state(m->td, hart, &result, &at);
    t->idle = IDLE_READY;
    t->idle_value = result << 2;
    t->idle_resume = at;
    if (hart != m->calling) {
        wake(m, t, MBOX_IDLE_BITS);
    }
}

/* A thread in a tinselIdle call issued something else: the call is over
 * (a release not yet given is dropped). */
static void abandon_idle(TesseraMailbox *m, MboxThread *t, uint64_t now)
{
    if (t->idle == IDLE_WAITING) {
        tessera_termdet_idle_leave(m->td, thread_hart(m, t), now);
    }
    t->idle = IDLE_NONE;
}

/* ---- CSRs --------------------------------------------------------------- */

/* A message of thread t from its send slot, issued at now. */
static MboxMsg *new_message(TesseraMailbox *m, MboxThread *t, uint64_t now)
{
    uint32_t hart = thread_hart(m, t);
    MboxMsg *msg = pool_get(&m->msgs);

    msg->src_hart = hart;
    msg->src_id = t->id;
    msg->flits = t->send_len + 1;
    msg->mask = 0;
    msg->dest_thread = 0;
    msg->refs = 0;
    msg->sent_at = max_u64(now, t->send_ready);
    msg->arrival = msg->sent_at;
    memcpy(msg->data,
           slot_bytes(m, tile_of(m, hart), (uint32_t)slot_number(t->send_ptr)),
           (size_t)msg->flits * TESSERA_BYTES_PER_FLIT);
    t->send_ready = msg->sent_at;
    return msg;
}

/* Sends msg toward its tile now, or holds it in t's outbound register. */
static void send_to_tile(TesseraMailbox *m, MboxThread *t, MboxMsg *msg)
{
    MboxTile *tile = &m->tiles[msg->dest_tile];

    if (tile_has_room(m, msg->dest_tile, msg->flits)) {
        enter_network(m, msg, msg->sent_at);
        return;
    }
    t->outbound = msg;
    hart_fifo_push(m, &tile->blocked_head, &tile->blocked_tail,
                   thread_hart(m, t));
}

static TesseraMailboxFault csr_send(TesseraMailbox *m, MboxThread *t,
                                    uint32_t dest, uint64_t now,
                                    uint64_t *resume_at)
{
    uint32_t dest_hart = 0, board = board_of(m, thread_hart(m, t));
    MboxMsg *msg;

    if (dest != m->host_id && !hart_of(m, dest, &dest_hart)) {
        return TESSERA_FAULT_BAD_DESTINATION;
    }
    if (t->outbound != NULL) {
        return TESSERA_FAULT_SEND_BUSY;
    }
    *resume_at = send_allowed(m, board, now);
    msg = new_message(m, t, *resume_at);
    tessera_termdet_sent(m->td, board, msg->sent_at);
    if (dest == m->host_id) {
        msg->dest_tile = MBOX_HOST_TILE;
        if (m->host_blocked_head == MBOX_NO_HART && offer_to_host(m, msg)) {
            return TESSERA_FAULT_NONE;
        }
        t->outbound = msg;
        hart_fifo_push(m, &m->host_blocked_head, &m->host_blocked_tail,
                       thread_hart(m, t));
        return TESSERA_FAULT_NONE;
    }
    msg->dest_tile = tile_of(m, dest_hart);
    msg->dest_thread = dest_hart & (m->threads_per_tile - 1);
    send_to_tile(m, t, msg);
    return TESSERA_FAULT_NONE;
}

static TesseraMailboxFault csr_multicast(TesseraMailbox *m, MboxThread *t,
                                         uint32_t mailbox, uint64_t now,
                                         uint64_t *resume_at)
{
    uint32_t board = board_of(m, thread_hart(m, t)), i;
    uint64_t mask = ((uint64_t)t->mcast_hi << 32) | t->mcast_lo;
    uint32_t first = 0;
    MboxMsg *msg;

    if (mailbox > (UINT32_MAX >> m->tile_shift) ||
        !hart_of(m, mailbox << m->tile_shift, &first)) {
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
    *resume_at = send_allowed(m, board, now);
    msg = new_message(m, t, *resume_at);
    for (i = popcount64(mask); i > 0; i--) {
        tessera_termdet_sent(m->td, board, msg->sent_at);
    }
    msg->dest_tile = tile_of(m, first);
    msg->mask = mask;
    send_to_tile(m, t, msg);
    return TESSERA_FAULT_NONE;
}

static TesseraMailboxFault csr_free(TesseraMailbox *m, MboxThread *t,
                                    uint32_t address, uint64_t now)
{
    int n = slot_number(address);
    uint32_t hart = thread_hart(m, t), tile = tile_of(m, hart), slot;
    size_t i;

    if (n < 0) {
        return TESSERA_FAULT_BAD_SLOT;
    }
    slot = (uint32_t)n;
    i = slot_index(tile, slot);
    switch (m->slot_state[i]) {
    case SLOT_HW_FREE:
    case SLOT_HW_FULL:
        return TESSERA_FAULT_DOUBLE_FREE;
    case SLOT_SOFTWARE_MSG:
        t->counts.received++;
        m->boards[board_of(m, hart)].received++;
        tessera_termdet_received(m->td, board_of(m, hart), now);
        break;
    default:
        break;
    }
    if (t->pend_head != NULL) {
        MboxPending *p = t->pend_head;
        MboxMsg *msg = p->msg;
        uint64_t at;

        t->pend_head = p->next;
        if (t->pend_head == NULL) {
            t->pend_tail = NULL;
        }
        pool_put(&m->pendings, p);
        at = deliver(m, t, slot, msg, now);
        if (--msg->refs == 0) {
            uint32_t dest_tile = msg->dest_tile;

            release_if_delivered(m, msg);
            admit_blocked(m, dest_tile, at);
        }
        return TESSERA_FAULT_NONE;
    }
    m->slot_state[i] = SLOT_HW_FREE;
    slot_fifo_push(m, tile, &t->free_head, &t->free_tail, slot);
    return TESSERA_FAULT_NONE;
}

static TesseraMailboxFault csr_recv(TesseraMailbox *m, MboxThread *t,
                                    uint64_t now, uint32_t *result,
                                    uint64_t *resume_at)
{
    uint32_t tile = tile_of(m, thread_hart(m, t)), slot;
    size_t i;

    if (t->recv_head == MBOX_NO_SLOT) {
        return TESSERA_FAULT_RECV_EMPTY;
    }
    slot = slot_fifo_pop(m, tile, &t->recv_head, &t->recv_tail);
    i = slot_index(tile, slot);
    m->slot_state[i] = SLOT_SOFTWARE_MSG;
    *result = TESSERA_SCRATCH_BASE + slot * TESSERA_BYTES_PER_SLOT;
    *resume_at = max_u64(now, m->slot_time[i]);
    return TESSERA_FAULT_NONE;
}

/* Which of `conditions` (bits 0/1) hold for t, and the earliest time one
 * of them became true (*when; UINT64_MAX if none holds). */
static uint32_t wait_holds(const TesseraMailbox *m, const MboxThread *t,
                           uint32_t conditions, uint64_t *when)
{
    uint32_t holds = 0;

    *when = UINT64_MAX;
    if ((conditions & TESSERA_WAIT_CAN_SEND) && t->outbound == NULL) {
        holds |= TESSERA_WAIT_CAN_SEND;
        *when = min_u64(*when, t->send_ready);
    }
    if ((conditions & TESSERA_WAIT_CAN_RECV) && t->recv_head != MBOX_NO_SLOT) {
        uint32_t tile = tile_of(m, thread_hart(m, t));

        holds |= TESSERA_WAIT_CAN_RECV;
        *when = min_u64(*when, m->slot_time[slot_index(tile, t->recv_head)]);
    }
    return holds;
}

/* tinselIdle: WAIT_UNTIL with an idle bit (see tessera_mailbox_csr). */
static TesseraCsrResult csr_idle(TesseraMailbox *m, MboxThread *t,
                                 uint32_t conditions, uint64_t now,
                                 uint32_t *result, uint64_t *resume_at)
{
    uint32_t hart = thread_hart(m, t);
    /* A message available always ends the call (it then returns 0). */
    uint32_t wanted = (conditions & MBOX_WAIT_BITS) | TESSERA_WAIT_CAN_RECV;
    uint64_t when;
    uint32_t holds;

    if (t->idle == IDLE_NONE) {
        holds = wait_holds(m, t, wanted, &when);
        if (holds != 0) {
            *result = holds;
            *resume_at = max_u64(now, when);
            return TESSERA_CSR_DONE;
        }
        tessera_termdet_idle_enter(m->td, hart,
                                   (conditions & TESSERA_WAIT_IDLE_VOTE) != 0,
                                   now);
        t->idle = IDLE_WAITING;
        /* This call may be the one that completes termination. */
        tessera_termdet_process(m->td);
    }
    holds = wait_holds(m, t, wanted, &when);
    if (t->idle == IDLE_READY) {
        /* The release is latched: it wins over a message that arrived. */
        *result = t->idle_value | holds;
        *resume_at = max_u64(now, t->idle_resume);
        t->idle = IDLE_NONE;
        return TESSERA_CSR_DONE;
    }
    if (holds != 0) {
        tessera_termdet_idle_leave(m->td, hart, now);
        t->idle = IDLE_NONE;
        *result = holds;
        *resume_at = max_u64(now, when);
        return TESSERA_CSR_DONE;
    }
    t->wait_bits = wanted | TESSERA_WAIT_IDLE |
                   (conditions & TESSERA_WAIT_IDLE_VOTE);
    return TESSERA_CSR_BLOCKED;
}

static TesseraCsrResult csr_wait(TesseraMailbox *m, MboxThread *t,
                                 uint32_t conditions, uint64_t now,
                                 uint32_t *result, uint64_t *resume_at,
                                 TesseraMailboxFault *fault)
{
    uint32_t satisfied;
    uint64_t when;

    if (conditions == 0 ||
        (conditions & ~(MBOX_WAIT_BITS | MBOX_IDLE_BITS)) != 0) {
        *fault = TESSERA_FAULT_BAD_WAIT;
        return TESSERA_CSR_FAULT;
    }
    if (conditions & MBOX_IDLE_BITS) {
        return csr_idle(m, t, conditions, now, result, resume_at);
    }
    satisfied = wait_holds(m, t, conditions, &when);
    if (satisfied == 0) {
        t->wait_bits = conditions;
        return TESSERA_CSR_BLOCKED;
    }
    *result = satisfied;
    *resume_at = max_u64(now, when);
    return TESSERA_CSR_DONE;
}

/* One mailbox CSR of thread t; *out and *at hold the result on DONE. */
static TesseraCsrResult thread_csr(TesseraMailbox *m, MboxThread *t,
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
        if (slot_number(value) < 0) {
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
    return *f == TESSERA_FAULT_NONE ? TESSERA_CSR_DONE : TESSERA_CSR_FAULT;
}

TesseraCsrResult tessera_mailbox_csr(TesseraMailbox *m, uint32_t hart_index,
                                     uint32_t csrno, uint32_t value,
                                     uint64_t now, uint32_t *result,
                                     uint64_t *resume_at,
                                     TesseraMailboxFault *fault)
{
    TesseraMailboxFault f = TESSERA_FAULT_NONE;
    TesseraCsrResult r = TESSERA_CSR_UNKNOWN;
    uint32_t out = 0;
    uint64_t at = now;

    if (hart_index < m->num_harts && tessera_csr_is_mailbox(csrno)) {
        MboxThread *t = &m->threads[hart_index];

        /* Whatever it waited for, a thread issuing a CSR is not waiting. */
        t->wait_bits = 0;
        if (t->idle != IDLE_NONE && (csrno != TESSERA_CSR_WAIT_UNTIL ||
                                     (value & MBOX_IDLE_BITS) == 0)) {
            abandon_idle(m, t, now);
        }
        m->calling = hart_index;
        r = thread_csr(m, t, csrno, value, now, &out, &at, &f);
        if (r == TESSERA_CSR_FAULT) {
            t->last_fault = f;
        }
        /* Termination detection reacts to what the call changed. A
         * release of the caller itself is given now rather than woken. */
        tessera_termdet_process(m->td);
        if (r == TESSERA_CSR_BLOCKED && t->idle == IDLE_READY) {
            t->wait_bits = 0;
            r = thread_csr(m, t, csrno, value, now, &out, &at, &f);
        }
        m->calling = MBOX_NO_HART;
    }
    if (r != TESSERA_CSR_DONE) {
        out = 0;
        at = now;
    }
    if (result != NULL) {
        *result = out;
    }
    if (resume_at != NULL) {
        *resume_at = at;
    }
    if (fault != NULL) {
        *fault = f;
    }
    return r;
}

/* ---- the host ----------------------------------------------------------- */

bool tessera_mailbox_inject(TesseraMailbox *m, uint32_t dest_thread_id,
                            const uint8_t *msg, uint32_t flits,
                            uint64_t time)
{
    uint32_t dest_hart;
    MboxMsg *rec;

    if (flits < 1 || flits > TESSERA_MAX_FLITS ||
        !hart_of(m, dest_thread_id, &dest_hart)) {
        return false;
    }
    if (!tile_has_room(m, tile_of(m, dest_hart), flits)) {
        m->tiles[tile_of(m, dest_hart)].host_waiting = true;
        return false;
    }
    rec = pool_get(&m->msgs);
    rec->src_hart = MBOX_NO_HART;
    rec->src_id = m->host_id;
    rec->dest_tile = tile_of(m, dest_hart);
    rec->dest_thread = dest_hart & (m->threads_per_tile - 1);
    rec->mask = 0;
    rec->flits = flits;
    rec->refs = 0;
    /* The host is held back while termination is being released. */
    time = send_allowed(m, TESSERA_TERMDET_HOST, time);
    rec->sent_at = time;
    memcpy(rec->data, msg, (size_t)flits * TESSERA_BYTES_PER_FLIT);
    tessera_termdet_sent(m->td, TESSERA_TERMDET_HOST, time);
    enter_network(m, rec, time);
    tessera_termdet_process(m->td);
    return true;
}

bool tessera_mailbox_host_can_inject(TesseraMailbox *m,
                                     uint32_t dest_thread_id)
{
    uint32_t dest_hart;

    if (!hart_of(m, dest_thread_id, &dest_hart)) {
        return false;
    }
    if (!tile_has_room(m, tile_of(m, dest_hart), TESSERA_MAX_FLITS)) {
        m->tiles[tile_of(m, dest_hart)].host_waiting = true;
        return false;
    }
    return true;
}

void tessera_mailbox_host_ready(TesseraMailbox *m)
{
    while (m->host_blocked_head != MBOX_NO_HART) {
        MboxThread *s = &m->threads[m->host_blocked_head];
        MboxMsg *msg = s->outbound;

        if (!offer_to_host(m, msg)) {
            return;
        }
        hart_fifo_pop(m, &m->host_blocked_head, &m->host_blocked_tail);
        s->outbound = NULL;
        wake(m, s, TESSERA_WAIT_CAN_SEND);
        tessera_termdet_process(m->td);
    }
}

/* ---- queries ------------------------------------------------------------ */

/* Grid position of a thread id (false for the host id or no thread). */
static bool grid_of(const TesseraMailbox *m, uint32_t id, uint32_t *gx,
                    uint32_t *gy)
{
    uint32_t hart;

    if (!hart_of(m, id, &hart)) {
        return false;
    }
    *gx = m->tiles[tile_of(m, hart)].gx;
    *gy = m->tiles[tile_of(m, hart)].gy;
    return true;
}

uint64_t tessera_mailbox_latency(const TesseraMailbox *m, uint32_t src_id,
                                 uint32_t dest_id, uint32_t flits)
{
    uint32_t sx = 0, sy = 0, dx = 0, dy = 0;
    uint64_t latency = 0;

    (void)flits;
    if (src_id == m->host_id) {
        latency += m->cfg.board_hop_cycles;
    } else if (!grid_of(m, src_id, &sx, &sy)) {
        return UINT64_MAX;
    }
    if (dest_id == m->host_id) {
        latency += m->cfg.board_hop_cycles;
    } else if (!grid_of(m, dest_id, &dx, &dy)) {
        return UINT64_MAX;
    }
    return latency + axis_latency(m, sx, dx, m->cfg.shape.tiles_x) +
           axis_latency(m, sy, dy, m->cfg.shape.tiles_y);
}

TesseraMailboxCounts tessera_mailbox_board_counts(const TesseraMailbox *m,
                                                  uint32_t board_index)
{
    TesseraMailboxCounts none = { 0, 0 };

    if (board_index >= m->cfg.shape.boards_x * m->cfg.shape.boards_y) {
        return none;
    }
    return m->boards[board_index];
}

TesseraMailboxCounts tessera_mailbox_thread_counts(const TesseraMailbox *m,
                                                   uint32_t hart_index)
{
    TesseraMailboxCounts none = { 0, 0 };

    if (hart_index >= m->num_harts) {
        return none;
    }
    return m->threads[hart_index].counts;
}

TesseraMailboxCounts tessera_mailbox_host_counts(const TesseraMailbox *m)
{
    return m->host_counts;
}

bool tessera_mailbox_can_recv(const TesseraMailbox *m, uint32_t hart_index)
{
    return hart_index < m->num_harts &&
           m->threads[hart_index].recv_head != MBOX_NO_SLOT;
}

bool tessera_mailbox_can_send(const TesseraMailbox *m, uint32_t hart_index)
{
    return hart_index < m->num_harts &&
           m->threads[hart_index].outbound == NULL;
}

uint32_t tessera_mailbox_waiting(const TesseraMailbox *m, uint32_t hart_index)
{
    return hart_index < m->num_harts ? m->threads[hart_index].wait_bits : 0;
}

uint32_t tessera_mailbox_slots_per_thread(const TesseraMailbox *m)
{
    return m->slots_per_thread;
}

void tessera_mailbox_idle_stats(const TesseraMailbox *m,
                                TesseraTermdetStats *stats)
{
    tessera_termdet_stats(m->td, stats);
}

uint64_t tessera_mailbox_idle_rtt(const TesseraMailbox *m)
{
    return tessera_termdet_rtt(m->td);
}

const TesseraTermdet *tessera_mailbox_termdet(const TesseraMailbox *m)
{
    return m->td;
}

/* ---- construction ------------------------------------------------------- */

static bool config_ok(const TesseraMailboxConfig *cfg,
                      const TesseraMailboxHost *host)
{
    const TesseraShape *s = &cfg->shape;
    uint64_t id_bits;

    if (host == NULL || host->scratchpad == NULL || host->wake == NULL ||
        host->to_host == NULL) {
        return false;
    }
    if (s->boards_x < 1 || s->boards_x > MBOX_MAX_EXTENT ||
        s->boards_y < 1 || s->boards_y > MBOX_MAX_EXTENT ||
        s->tiles_x > MBOX_MAX_EXTENT || s->tiles_y > MBOX_MAX_EXTENT ||
        s->cores_per_tile > MBOX_MAX_EXTENT ||
        s->threads_per_core > MBOX_MAX_EXTENT ||
        !is_power_of_two(s->tiles_x) || !is_power_of_two(s->tiles_y) ||
        !is_power_of_two(s->cores_per_tile) ||
        !is_power_of_two(s->threads_per_core)) {
        return false;
    }
    id_bits = (uint64_t)tessera_board_shift(s) +
              tessera_log2_ceil(s->boards_x) +
              tessera_log2_ceil(s->boards_y + 1);
    if (id_bits > 32) {
        return false;
    }
    if ((uint64_t)s->cores_per_tile * s->threads_per_core >
        TESSERA_SLOTS_PER_TILE / 2) {
        return false;
    }
    if (cfg->idle_master != TESSERA_TERMDET_MASTER_ORIGIN &&
        cfg->idle_master != TESSERA_TERMDET_MASTER_CENTRE) {
        return false;
    }
    return cfg->buffer_flits >= TESSERA_MAX_FLITS;
}

TesseraMailbox *tessera_mailbox_new(const TesseraMailboxConfig *cfg,
                                    const TesseraMailboxHost *host)
{
    TesseraMailbox *m;
    const TesseraShape *s;
    uint32_t i, boards, tiles_per_board;
    size_t slots;
    TesseraTermdetConfig td_cfg;
    TesseraTermdetHost td_host;

    if (cfg == NULL || !config_ok(cfg, host)) {
        return NULL;
    }
    m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return NULL;
    }
    m->cfg = *cfg;
    m->host = *host;
    s = &m->cfg.shape;
    boards = s->boards_x * s->boards_y;
    tiles_per_board = s->tiles_x * s->tiles_y;
    m->threads_per_tile = tessera_threads_per_tile(s);
    m->tile_shift = tessera_tile_shift(s);
    m->threads_per_board = tessera_threads_per_board(s);
    m->num_harts = tessera_num_threads(s);
    m->num_tiles = boards * tiles_per_board;
    m->slots_per_thread = TESSERA_SLOTS_PER_TILE / m->threads_per_tile;
    m->board_shift = tessera_board_shift(s);
    m->board_x_bits = tessera_log2_ceil(s->boards_x);
    m->grid_x = s->boards_x * s->tiles_x;
    m->grid_y = s->boards_y * s->tiles_y;
    m->host_id = tessera_host_id(s);
    m->host_blocked_head = MBOX_NO_HART;
    m->host_blocked_tail = MBOX_NO_HART;
    m->calling = MBOX_NO_HART;
    pool_init(&m->msgs, sizeof(MboxMsg));
    pool_init(&m->pendings, sizeof(MboxPending));

    slots = (size_t)m->num_tiles * TESSERA_SLOTS_PER_TILE;
    m->threads = calloc(m->num_harts, sizeof(*m->threads));
    m->tiles = calloc(m->num_tiles, sizeof(*m->tiles));
    m->slot_state = calloc(slots, sizeof(*m->slot_state));
    m->slot_next = calloc(slots, sizeof(*m->slot_next));
    m->slot_time = calloc(slots, sizeof(*m->slot_time));
    m->links = calloc((size_t)m->grid_x * m->grid_y * LINKS_PER_TILE + 2,
                      sizeof(*m->links));
    m->boards = calloc(boards, sizeof(*m->boards));
    td_cfg.shape = *s;
    td_cfg.board_hop_cycles = cfg->board_hop_cycles;
    td_cfg.master = cfg->idle_master;
    td_host.opaque = m;
    td_host.wake = idle_released;
    m->td = tessera_termdet_new(&td_cfg, &td_host);
    if (m->threads == NULL || m->tiles == NULL || m->slot_state == NULL ||
        m->slot_next == NULL || m->slot_time == NULL || m->links == NULL ||
        m->boards == NULL || m->td == NULL) {
        tessera_mailbox_free(m);
        return NULL;
    }

    for (i = 0; i < m->num_tiles; i++) {
        uint32_t board = i / tiles_per_board, local = i % tiles_per_board;
        MboxTile *t = &m->tiles[i];

        t->gx = board % s->boards_x * s->tiles_x + local % s->tiles_x;
        t->gy = board / s->boards_x * s->tiles_y + local / s->tiles_x;
        t->blocked_head = MBOX_NO_HART;
        t->blocked_tail = MBOX_NO_HART;
    }
    for (i = 0; i < m->num_harts; i++) {
        MboxThread *t = &m->threads[i];
        uint32_t board = i / m->threads_per_board;
        uint32_t first_slot = (i & (m->threads_per_tile - 1)) *
                              m->slots_per_thread;

        t->id = ((((board / s->boards_x) << m->board_x_bits) |
                  (board % s->boards_x)) << m->board_shift) |
                (i % m->threads_per_board);
        t->send_ptr = TESSERA_SCRATCH_BASE +
                      first_slot * TESSERA_BYTES_PER_SLOT;
        t->free_head = t->free_tail = MBOX_NO_SLOT;
        t->recv_head = t->recv_tail = MBOX_NO_SLOT;
        t->next_blocked = MBOX_NO_HART;
    }
    return m;
}

void tessera_mailbox_free(TesseraMailbox *m)
{
    if (m == NULL) {
        return;
    }
    pool_destroy(&m->msgs);
    pool_destroy(&m->pendings);
    free(m->threads);
    free(m->tiles);
    free(m->slot_state);
    free(m->slot_next);
    free(m->slot_time);
    free(m->links);
    free(m->boards);
    tessera_termdet_free(m->td);
    free(m);
}
