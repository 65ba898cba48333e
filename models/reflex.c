/*
 * Reflex switch model (tessera/models/reflex.h, docs/reflex.md).
 *
 * Every sender's outbound buffer moves eagerly: after anything that may let
 * its head move, the head's path is walked and, if every switch on it is on,
 * the flit is delivered along it at once. A head that cannot move is filed
 * under the switch that holds it back, so a read (which turns one switch on)
 * retries only the senders that switch holds, never every hart.
 */
#include "tessera/models/reflex.h"

#include <stdlib.h>
#include <string.h>

#define REFLEX_NONE UINT32_MAX
/* held_at of a head held by a ring with no root: waits for any route. */
#define REFLEX_HELD_BY_LOOP (UINT32_MAX - 1)
/* held_at of a head whose path leaves its board: waits for the window's end
 * (time windows). */
#define REFLEX_HELD_FOR_WINDOW (UINT32_MAX - 2)

#define REFLEX_RECV_OPERATION "reflex receive (inbound buffer empty)"
#define REFLEX_WAIT_SEND_OPERATION "reflex wait-send (outbound buffer full)"

#define REFLEX_LOOP_ERROR \
    "reflex: a flit's path comes back to a switch it has passed (a ring " \
    "with no root); the flit stays in its outbound buffer until the routes " \
    "change"

typedef enum ReflexBlocked {
    REFLEX_BLOCKED_NONE,
    REFLEX_BLOCKED_RECV,
    REFLEX_BLOCKED_WAIT_SEND,
} ReflexBlocked;

/* Intrusive lists of harts, linked through ReflexSwitch.link[by]: by
 * holder (the switch holding the head back) and all held heads. */
typedef struct ReflexList {
    uint32_t first, last, count;
} ReflexList;

typedef struct ReflexLink {
    uint32_t prev, next;
} ReflexLink;

enum { REFLEX_BY_HOLDER, REFLEX_BY_ALL };

typedef struct ReflexSwitch {
    uint32_t route;
    uint32_t next; /* dense index or TESSERA_REFLEX_NO_NEXT */

    /* Inbound: in_count flits; delivered and reads count every flit ever
     * (flit k is at slot k % B, and uses the slot read k - B freed). */
    uint32_t in_count;
    uint64_t delivered, reads;

    /* Outbound: out_count flits; sent and moved likewise. */
    uint32_t out_count;
    uint64_t sent, moved;

    /* The switch holding this hart's head back (REFLEX_NONE if the head is
     * not held or there is none; REFLEX_HELD_BY_LOOP). */
    uint32_t held_at;
    ReflexLink link[2];
    bool loop_reported; /* the head's ring with no root was reported */
    bool error_pending; /* in the take_error queue */
    uint32_t error_next;

    /* Where the head's last walk stopped (REFLEX_NONE: start again from
     * the sender), at how many hops, with the latest credit before it. It
     * stays right until a flit moves or a switch is configured. */
    uint32_t walk_at;
    uint32_t walk_hops;
    uint64_t walk_credit;
    uint64_t walk_changes;

    ReflexList holds; /* senders whose head this switch holds back */
    ReflexBlocked blocked;
} ReflexSwitch;

/* A head waiting for the window's end, and when it was sent. */
typedef struct ReflexWindowHead {
    uint64_t sent;
    uint32_t sender;
} ReflexWindowHead;

struct TesseraReflex {
    TesseraReflexConfig cfg;
    TesseraReflexHost host;
    uint32_t num_harts;
    uint32_t b;
    ReflexSwitch *sw;
    /* Per hart, B entries each (hart h's at h * B). */
    uint32_t *in_flit;
    uint64_t *in_arrival;
    uint64_t *read_time; /* read k at k % B */
    uint32_t *out_flit;
    uint64_t *out_sent;
    uint64_t *move_time; /* move k at k % B */
    ReflexList held; /* every sender whose head is held */
    uint32_t error_first, error_last;
    /* Counts moves and configuration changes: the only events that can
     * turn a switch off or change its credit. */
    uint64_t changes;
    /* Time windows (tessera_reflex_use_windows); NULL without: apart, as
     * a dev board's heap is a few KiB */
    struct ReflexWindows *win;
};

typedef struct ReflexWindows {
    const bool *local_boards; /* NULL: every board is here */
    uint32_t threads_per_board;
    uint32_t for_window;   /* heads held for the window's end */
    bool crossing;         /* walks may leave the sender's board (the
                            * window's end) */
    bool replaying;        /* applying another rank's CSRs */
    bool log_lost;         /* memory ran out for the log: copies differ */
    /* Over ranks: this process's CSRs of the window, for the others */
    TesseraReflexOp *log;
    size_t log_count, log_capacity;
    ReflexWindowHead heads[]; /* room for every hart */
} ReflexWindows;

static uint64_t reflex_max(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static size_t reflex_slot(const TesseraReflex *r, uint32_t h, uint64_t k)
{
    return (size_t)h * r->b + (size_t)(k % r->b);
}

static bool reflex_delivers(uint32_t route)
{
    return route == TESSERA_REFLEX_ROUTE_CORE ||
           route == TESSERA_REFLEX_ROUTE_BOTH;
}

static bool reflex_passes_on(uint32_t route)
{
    return route == TESSERA_REFLEX_ROUTE_FORWARD ||
           route == TESSERA_REFLEX_ROUTE_BOTH;
}

static bool reflex_on(const TesseraReflex *r, uint32_t s)
{
    return r->sw[s].route != TESSERA_REFLEX_ROUTE_OFF &&
           r->sw[s].in_count < r->b;
}

/* When switch s got the credit the next flit into its core uses: the read
 * that freed that slot (0 for the first B flits). For a switch that only
 * forwards, the same read is the one that turned it on. */
static uint64_t reflex_credit(const TesseraReflex *r, uint32_t s)
{
    const ReflexSwitch *w = &r->sw[s];

    return w->delivered < r->b
               ? 0
               : r->read_time[reflex_slot(r, s, w->delivered - r->b)];
}

/* ---- lists ------------------------------------------------------------ */

static void reflex_list_append(TesseraReflex *r, ReflexList *l, int by,
                               uint32_t h)
{
    ReflexLink *k = &r->sw[h].link[by];

    k->prev = l->last;
    k->next = REFLEX_NONE;
    if (l->last == REFLEX_NONE) {
        l->first = h;
    } else {
        r->sw[l->last].link[by].next = h;
    }
    l->last = h;
    l->count++;
}

static void reflex_list_remove(TesseraReflex *r, ReflexList *l, int by,
                               uint32_t h)
{
    ReflexLink *k = &r->sw[h].link[by];

    if (k->prev == REFLEX_NONE) {
        l->first = k->next;
    } else {
        r->sw[k->prev].link[by].next = k->next;
    }
    if (k->next == REFLEX_NONE) {
        l->last = k->prev;
    } else {
        r->sw[k->next].link[by].prev = k->prev;
    }
    k->prev = k->next = REFLEX_NONE;
    l->count--;
}

static void reflex_list_init(ReflexList *l)
{
    l->first = l->last = REFLEX_NONE;
    l->count = 0;
}

static void reflex_unhold(TesseraReflex *r, uint32_t sender)
{
    ReflexSwitch *w = &r->sw[sender];

    if (w->held_at == REFLEX_NONE) {
        return;
    }
    if (w->held_at == REFLEX_HELD_FOR_WINDOW) {
        r->win->for_window--;
    } else if (w->held_at != REFLEX_HELD_BY_LOOP) {
        reflex_list_remove(r, &r->sw[w->held_at].holds, REFLEX_BY_HOLDER,
                           sender);
    }
    reflex_list_remove(r, &r->held, REFLEX_BY_ALL, sender);
    w->held_at = REFLEX_NONE;
}

static void reflex_hold(TesseraReflex *r, uint32_t sender, uint32_t held_at)
{
    r->sw[sender].held_at = held_at;
    if (held_at == REFLEX_HELD_FOR_WINDOW) {
        r->win->for_window++;
    } else if (held_at != REFLEX_HELD_BY_LOOP) {
        reflex_list_append(r, &r->sw[held_at].holds, REFLEX_BY_HOLDER, sender);
    }
    reflex_list_append(r, &r->held, REFLEX_BY_ALL, sender);
}

/* ---- waits ------------------------------------------------------------ */

static void reflex_unblock(TesseraReflex *r, uint32_t h)
{
    if (r->sw[h].blocked != REFLEX_BLOCKED_NONE) {
        r->sw[h].blocked = REFLEX_BLOCKED_NONE;
        if (r->cfg.waits) {
            tessera_waits_unblock(r->cfg.waits, h);
        }
    }
}

static void reflex_wake(TesseraReflex *r, uint32_t h, ReflexBlocked on)
{
    if (r->sw[h].blocked == on) {
        reflex_unblock(r, h);
        r->host.wake(r->host.opaque, h);
    }
}

static TesseraAccess reflex_block(TesseraReflex *r, uint32_t h,
                                  ReflexBlocked on, uint64_t now)
{
    r->sw[h].blocked = on;
    if (r->cfg.waits) {
        tessera_waits_block(r->cfg.waits, h,
                            on == REFLEX_BLOCKED_RECV
                                ? REFLEX_RECV_OPERATION
                                : REFLEX_WAIT_SEND_OPERATION,
                            now);
    }
    return tessera_access_blocked(now);
}

/* Any operation of hart h other than the one it is blocked in ends the
 * blocked one (an interrupt handler ran, or a debugger). */
static void reflex_begin(TesseraReflex *r, uint32_t h, ReflexBlocked op)
{
    if (r->sw[h].blocked != op) {
        reflex_unblock(r, h);
    }
}

/* ---- moving flits ----------------------------------------------------- */

typedef enum ReflexWalk {
    REFLEX_WALK_MOVES,
    REFLEX_WALK_HELD,
    REFLEX_WALK_LOOP,
    REFLEX_WALK_LEAVES, /* windows: the path leaves the board (mid-window) */
} ReflexWalk;

static uint32_t reflex_board(const TesseraReflex *r, uint32_t h)
{
    return h / r->win->threads_per_board;
}

/* Whether walks may leave the sender's board: always without windows, at
 * the window's end with them. */
static bool reflex_crossing(const TesseraReflex *r)
{
    return r->win == NULL || r->win->crossing;
}

/* Walks the path of a flit from `sender` as the routes are now. MOVES:
 * every switch on it is on, *at is the latest credit time among them.
 * HELD: *held_at is the first switch that is off (or the sender, whose next
 * switch is unset). LOOP: the path comes back to a switch it has passed.
 *
 * O(path length). A path longer than the machine has switches has come
 * back to one. A held head resumes where its last walk stopped if nothing
 * has moved or been configured since: the switches before that one are
 * still on with the same credits, so a flit held at each switch of a long
 * ring in turn costs O(ring), not O(ring^2). */
static ReflexWalk reflex_walk(TesseraReflex *r, uint32_t sender, uint64_t *at,
                              uint32_t *held_at)
{
    ReflexSwitch *from = &r->sw[sender];
    uint32_t s = from->next;
    uint64_t hops = 1;

    *at = 0;
    if (from->walk_at != REFLEX_NONE && from->walk_changes == r->changes) {
        s = from->walk_at;
        hops = from->walk_hops;
        *at = from->walk_credit;
    }
    from->walk_at = REFLEX_NONE;
    if (s == TESSERA_REFLEX_NO_NEXT) {
        *held_at = sender;
        return REFLEX_WALK_HELD;
    }
    for (;;) {
        ReflexSwitch *w = &r->sw[s];

        /* Mid-window, another board's switch is as it was at the window's
         * start here: the flit waits for the window's end */
        if (!reflex_crossing(r) &&
            reflex_board(r, s) != reflex_board(r, sender)) {
            return REFLEX_WALK_LEAVES;
        }
        /* Back at the sender, only its core may end the path. */
        if (hops > r->num_harts ||
            (s == sender && reflex_passes_on(w->route))) {
            return REFLEX_WALK_LOOP;
        }
        if (!reflex_on(r, s)) {
            *held_at = s;
            from->walk_at = s;
            from->walk_hops = (uint32_t)hops;
            from->walk_credit = *at;
            from->walk_changes = r->changes;
            return REFLEX_WALK_HELD;
        }
        *at = reflex_max(*at, reflex_credit(r, s));
        if (!reflex_passes_on(w->route)) {
            return REFLEX_WALK_MOVES;
        }
        s = w->next; /* set: a route that passes on needs a next switch */
        hops++;
    }
}

/* The head of sender's outbound buffer moves at `at` (max of the sent time
 * and the walk's credits): it reaches every core on its path. */
static void reflex_move_head(TesseraReflex *r, uint32_t sender, uint64_t at)
{
    ReflexSwitch *from = &r->sw[sender];
    size_t head = reflex_slot(r, sender, from->moved);
    uint32_t flit = r->out_flit[head];
    uint32_t s = from->next;
    uint64_t hops = 0;

    at = reflex_max(at, r->out_sent[head]);
    for (;;) {
        ReflexSwitch *w = &r->sw[s];

        hops++;
        if (reflex_delivers(w->route)) {
            size_t slot = reflex_slot(r, s, w->delivered);

            r->in_flit[slot] = flit;
            r->in_arrival[slot] = at + hops * r->cfg.hop_cycles;
            w->delivered++;
            w->in_count++;
            reflex_wake(r, s, REFLEX_BLOCKED_RECV);
        }
        if (!reflex_passes_on(w->route)) {
            break;
        }
        s = w->next;
    }
    r->changes++;
    r->move_time[reflex_slot(r, sender, from->moved)] = at;
    from->moved++;
    from->out_count--;
    from->loop_reported = false;
    reflex_wake(r, sender, REFLEX_BLOCKED_WAIT_SEND);
}

static void reflex_report_loop(TesseraReflex *r, uint32_t sender)
{
    ReflexSwitch *w = &r->sw[sender];

    if (w->loop_reported || w->error_pending) {
        return;
    }
    w->loop_reported = true;
    w->error_pending = true;
    w->error_next = REFLEX_NONE;
    if (r->error_last == REFLEX_NONE) {
        r->error_first = sender;
    } else {
        r->sw[r->error_last].error_next = sender;
    }
    r->error_last = sender;
}

/* Moves sender's flits while their paths are on; files the first that
 * cannot move under whatever holds it. */
static void reflex_advance(TesseraReflex *r, uint32_t sender)
{
    reflex_unhold(r, sender);
    while (r->sw[sender].out_count > 0) {
        uint64_t at;
        uint32_t held_at;

        switch (reflex_walk(r, sender, &at, &held_at)) {
        case REFLEX_WALK_MOVES:
            reflex_move_head(r, sender, at);
            continue;
        case REFLEX_WALK_HELD:
            reflex_hold(r, sender, held_at);
            return;
        case REFLEX_WALK_LOOP:
            reflex_report_loop(r, sender);
            reflex_hold(r, sender, REFLEX_HELD_BY_LOOP);
            return;
        case REFLEX_WALK_LEAVES:
            reflex_hold(r, sender, REFLEX_HELD_FOR_WINDOW);
            return;
        }
    }
}

/* Switch s may have turned on or changed: retry the heads it holds, oldest
 * first, while it is on (those left would only be held by it again). Each
 * is tried once: one held for want of the sender's next switch stays. */
static void reflex_retry_held_at(TesseraReflex *r, uint32_t s)
{
    uint32_t n = r->sw[s].holds.count;

    while (n-- > 0 && r->sw[s].holds.first != REFLEX_NONE &&
           (reflex_on(r, s) || r->sw[s].holds.first == s)) {
        reflex_advance(r, r->sw[s].holds.first);
    }
}

/* Switch s was configured: paths changed, so every held head tries again,
 * those s holds first. Their walks stopped at s, so the switches before it
 * are as they were: their walks resume there (except s's own head, whose
 * path starts at s). O(held heads x path) per
 * configuration, which is rare. */
static void reflex_reconfigured(TesseraReflex *r, uint32_t s)
{
    uint32_t n;

    for (uint32_t h = r->sw[s].holds.first; h != REFLEX_NONE;
         h = r->sw[h].link[REFLEX_BY_HOLDER].next) {
        /* Not s's own head: its path starts at s's next switch. */
        if (h != s && r->sw[h].walk_changes == r->changes) {
            r->sw[h].walk_changes = r->changes + 1;
        }
    }
    r->changes++;
    reflex_retry_held_at(r, s);
    n = r->held.count;
    for (uint32_t h = r->held.first; n-- > 0 && h != REFLEX_NONE;) {
        uint32_t next = r->sw[h].link[REFLEX_BY_ALL].next;

        /*
         * With windows, only heads of s's board: another board's are
         * retried where that board runs, and their places in the lists
         * must not depend on which process retried them first.
         */
        if (reflex_crossing(r) || reflex_board(r, h) == reflex_board(r, s)) {
            reflex_advance(r, h);
        }
        h = next;
    }
}

/* ---- life cycle ------------------------------------------------------- */

static void reflex_power_on(TesseraReflex *r)
{
    for (uint32_t h = 0; h < r->num_harts; h++) {
        ReflexSwitch *w = &r->sw[h];

        memset(w, 0, sizeof(*w));
        w->route = TESSERA_REFLEX_ROUTE_OFF;
        w->next = TESSERA_REFLEX_NO_NEXT;
        w->held_at = REFLEX_NONE;
        w->link[REFLEX_BY_HOLDER].prev = w->link[REFLEX_BY_HOLDER].next =
            REFLEX_NONE;
        w->link[REFLEX_BY_ALL].prev = w->link[REFLEX_BY_ALL].next =
            REFLEX_NONE;
        w->error_next = REFLEX_NONE;
        w->walk_at = REFLEX_NONE;
        reflex_list_init(&w->holds);
    }
    reflex_list_init(&r->held);
    r->error_first = r->error_last = REFLEX_NONE;
    r->changes = 0;
    if (r->win) {
        r->win->for_window = 0;
        r->win->log_count = 0;
    }
}

void tessera_reflex_free(TesseraReflex *r)
{
    if (r == NULL) {
        return;
    }
    free(r->sw);
    free(r->in_flit);
    free(r->in_arrival);
    free(r->read_time);
    free(r->out_flit);
    free(r->out_sent);
    free(r->move_time);
    if (r->win) {
        free(r->win->log);
        free(r->win);
    }
    free(r);
}

TesseraReflex *tessera_reflex_new(const TesseraReflexConfig *cfg,
                                  const TesseraReflexHost *host)
{
    TesseraReflex *r;
    uint32_t harts;
    size_t slots;

    if (cfg == NULL || host == NULL || host->wake == NULL) {
        return NULL;
    }
    harts = tessera_num_threads(&cfg->shape);
    if (harts == 0 || cfg->buffer_flits < TESSERA_MIN_reflex_buffer_flits ||
        cfg->buffer_flits > TESSERA_LIMIT_reflex_buffer_flits) {
        return NULL;
    }
    r = calloc(1, sizeof(*r));
    if (r == NULL) {
        return NULL;
    }
    r->cfg = *cfg;
    r->host = *host;
    r->num_harts = harts;
    r->b = cfg->buffer_flits;

    slots = (size_t)harts * r->b;
    r->sw = calloc(harts, sizeof(*r->sw));
    r->in_flit = calloc(slots, sizeof(*r->in_flit));
    r->in_arrival = calloc(slots, sizeof(*r->in_arrival));
    r->read_time = calloc(slots, sizeof(*r->read_time));
    r->out_flit = calloc(slots, sizeof(*r->out_flit));
    r->out_sent = calloc(slots, sizeof(*r->out_sent));
    r->move_time = calloc(slots, sizeof(*r->move_time));
    if (r->sw == NULL || r->in_flit == NULL || r->in_arrival == NULL ||
        r->read_time == NULL || r->out_flit == NULL || r->out_sent == NULL ||
        r->move_time == NULL) {
        tessera_reflex_free(r);
        return NULL;
    }
    reflex_power_on(r);
    return r;
}

void tessera_reflex_reset(TesseraReflex *r)
{
    for (uint32_t h = 0; h < r->num_harts; h++) {
        reflex_unblock(r, h);
    }
    reflex_power_on(r);
}

/* ---- operations ------------------------------------------------------- */

#define REFLEX_NO_SUCH_HART "reflex: no such hart"

/* The switch of hart h, about to be configured, or NULL (no such hart). */
static ReflexSwitch *reflex_configuring(TesseraReflex *r, uint32_t h)
{
    if (h >= r->num_harts) {
        return NULL;
    }
    reflex_begin(r, h, REFLEX_BLOCKED_NONE);
    return &r->sw[h];
}

TesseraAccess tessera_reflex_set_route(TesseraReflex *r, uint32_t hart_index,
                                       uint32_t route)
{
    ReflexSwitch *w = reflex_configuring(r, hart_index);

    if (w == NULL) {
        return tessera_access_guest_error(REFLEX_NO_SUCH_HART, 0);
    }
    if (route > TESSERA_REFLEX_ROUTE_BOTH) {
        return tessera_access_guest_error("reflex: no such route (above "
                                          "TESSERA_REFLEX_ROUTE_BOTH)", 0);
    }
    if (reflex_passes_on(route) && w->next == TESSERA_REFLEX_NO_NEXT) {
        return tessera_access_guest_error("reflex: a route that passes flits "
                                          "on needs a next switch (an open "
                                          "ring); the switch keeps its route",
                                          0);
    }
    if (w->route != route) {
        w->route = route;
        reflex_reconfigured(r, hart_index);
    }
    return tessera_access_done(0, 0);
}

TesseraAccess tessera_reflex_set_next(TesseraReflex *r, uint32_t hart_index,
                                      uint32_t next_index)
{
    ReflexSwitch *w = reflex_configuring(r, hart_index);

    if (w == NULL) {
        return tessera_access_guest_error(REFLEX_NO_SUCH_HART, 0);
    }
    if (next_index != TESSERA_REFLEX_NO_NEXT && next_index >= r->num_harts) {
        return tessera_access_guest_error("reflex: the next switch is no hart "
                                          "of the machine", 0);
    }
    if (next_index == TESSERA_REFLEX_NO_NEXT && reflex_passes_on(w->route)) {
        return tessera_access_guest_error("reflex: no next switch while the "
                                          "route passes flits on (an open "
                                          "ring); the switch keeps its next "
                                          "switch", 0);
    }
    if (w->next != next_index) {
        w->next = next_index;
        reflex_reconfigured(r, hart_index);
    }
    return tessera_access_done(0, 0);
}

/* When the next flit from h may enter its outbound buffer: the move that
 * freed its slot (0 for the first B flits). */
static uint64_t reflex_out_slot_free(const TesseraReflex *r, uint32_t h)
{
    const ReflexSwitch *w = &r->sw[h];

    return w->sent < r->b ? 0
                          : r->move_time[reflex_slot(r, h, w->sent - r->b)];
}

/* DONE reads 1, a refusal 0. */
static TesseraAccess reflex_send(TesseraReflex *r, uint32_t h, uint32_t flit,
                                 uint64_t now)
{
    ReflexSwitch *w;
    size_t slot;
    uint64_t resume_at;

    if (h >= r->num_harts) {
        return tessera_access_guest_error(REFLEX_NO_SUCH_HART, now);
    }
    reflex_begin(r, h, REFLEX_BLOCKED_NONE);
    w = &r->sw[h];
    if (w->next == TESSERA_REFLEX_NO_NEXT) {
        return tessera_access_guest_error("reflex: a send from a switch with "
                                          "no next switch", now);
    }
    if (w->out_count == r->b) {
        return tessera_access_guest_error("reflex: a send while the outbound "
                                          "buffer is full (a switch on the "
                                          "path is off: its core's inbound "
                                          "buffer is full, or it is "
                                          "unconfigured)", now);
    }
    if (w->out_count == 0) {
        uint64_t at;
        uint32_t held_at;

        if (reflex_walk(r, h, &at, &held_at) == REFLEX_WALK_LOOP) {
            return tessera_access_guest_error("reflex: a send into a ring "
                                              "with no root (its path comes "
                                              "back to a switch it has "
                                              "passed); refused", now);
        }
    }
    resume_at = reflex_max(now, reflex_out_slot_free(r, h));
    slot = reflex_slot(r, h, w->sent);
    r->out_flit[slot] = flit;
    r->out_sent[slot] = resume_at;
    w->sent++;
    w->out_count++;
    if (w->out_count == 1) {
        reflex_advance(r, h);
    }
    return tessera_access_done(1, resume_at);
}

TesseraAccess tessera_reflex_send(TesseraReflex *r, uint32_t hart_index,
                                  uint32_t flit, uint64_t now)
{
    return reflex_send(r, hart_index, flit, now);
}

TesseraAccess tessera_reflex_recv(TesseraReflex *r, uint32_t hart_index,
                                  uint64_t now)
{
    ReflexSwitch *w;
    size_t slot;
    bool was_full;
    TesseraAccess a;

    if (hart_index >= r->num_harts) {
        return tessera_access_guest_error(REFLEX_NO_SUCH_HART, now);
    }
    reflex_begin(r, hart_index, REFLEX_BLOCKED_RECV);
    w = &r->sw[hart_index];
    if (w->in_count == 0) {
        return reflex_block(r, hart_index, REFLEX_BLOCKED_RECV, now);
    }
    reflex_unblock(r, hart_index);
    slot = reflex_slot(r, hart_index, w->reads);
    a = tessera_access_done(r->in_flit[slot],
                            reflex_max(now, r->in_arrival[slot]));
    was_full = w->in_count == r->b;
    r->read_time[slot] = a.resume_at;
    w->reads++;
    w->in_count--;
    if (was_full) {
        reflex_retry_held_at(r, hart_index);
    }
    return a;
}

TesseraAccess tessera_reflex_wait_send(TesseraReflex *r, uint32_t hart_index,
                                       uint64_t now)
{
    ReflexSwitch *w;

    if (hart_index >= r->num_harts) {
        return tessera_access_guest_error(REFLEX_NO_SUCH_HART, now);
    }
    reflex_begin(r, hart_index, REFLEX_BLOCKED_WAIT_SEND);
    w = &r->sw[hart_index];
    if (w->out_count == r->b) {
        return reflex_block(r, hart_index, REFLEX_BLOCKED_WAIT_SEND, now);
    }
    reflex_unblock(r, hart_index);
    return tessera_access_done(r->b - w->out_count,
                               reflex_max(now,
                                          reflex_out_slot_free(r, hart_index)));
}

/* A configuration write: reads the old value if the model took it. */
static TesseraAccess reflex_configured(TesseraAccess a, uint32_t old,
                                       uint64_t now)
{
    a.resume_at = now;
    a.value = a.status == TESSERA_ACCESS_DONE ? old : 0;
    return a;
}

/* Keeps a CSR of this process's hart for the other ranks. */
static void reflex_log(TesseraReflex *r, uint32_t h, uint32_t csrno,
                       bool write, uint32_t value, uint64_t now)
{
    ReflexWindows *win = r->win;

    if (win->log_count == win->log_capacity) {
        size_t n = win->log_capacity ? 2 * win->log_capacity : 64;
        TesseraReflexOp *grown = realloc(win->log, n * sizeof(*grown));

        if (grown == NULL) {
            win->log_lost = true; /* the host must not go on (window_ok) */
            return;
        }
        win->log = grown;
        win->log_capacity = n;
    }
    win->log[win->log_count++] = (TesseraReflexOp){
        .now = now, .hart_index = h, .csrno = csrno, .value = value,
        .write = write,
    };
}

static bool reflex_local(const TesseraReflex *r, uint32_t h)
{
    return r->win == NULL || r->win->local_boards == NULL ||
           r->win->local_boards[reflex_board(r, h)];
}

TesseraAccess tessera_reflex_csr(TesseraReflex *r, uint32_t hart_index,
                                 uint32_t csrno, bool write, uint32_t value,
                                 uint64_t now)
{
    const TesseraShape *shape = &r->cfg.shape;
    ReflexSwitch *w;
    uint32_t next, old;

    if (hart_index >= r->num_harts) {
        return tessera_access_guest_error(REFLEX_NO_SUCH_HART, now);
    }
    if (r->win && r->win->local_boards != NULL && !r->win->replaying &&
        reflex_local(r, hart_index)) {
        reflex_log(r, hart_index, csrno, write, value, now);
    }
    reflex_begin(r, hart_index,
                 csrno == TESSERA_CSR_REFLEX_RECV ? REFLEX_BLOCKED_RECV
                 : csrno == TESSERA_CSR_REFLEX_WAIT_SEND
                     ? REFLEX_BLOCKED_WAIT_SEND
                     : REFLEX_BLOCKED_NONE);
    w = &r->sw[hart_index];
    if (write && (csrno == TESSERA_CSR_REFLEX_RECV ||
                  csrno == TESSERA_CSR_REFLEX_STATUS ||
                  csrno == TESSERA_CSR_REFLEX_WAIT_SEND)) {
        return tessera_access_guest_error("reflex: a write of a read-only "
                                          "reflex CSR", now);
    }
    switch (csrno) {
    case TESSERA_CSR_REFLEX_SEND:
        if (!write) {
            return tessera_access_guest_error("reflex: REFLEX_SEND read "
                                              "without a flit to send", now);
        }
        return reflex_send(r, hart_index, value, now);
    case TESSERA_CSR_REFLEX_RECV:
        return tessera_reflex_recv(r, hart_index, now);
    case TESSERA_CSR_REFLEX_ROUTE:
        if (!write) {
            return tessera_access_done(w->route, now);
        }
        old = w->route;
        return reflex_configured(tessera_reflex_set_route(r, hart_index,
                                                          value),
                                 old, now);
    case TESSERA_CSR_REFLEX_NEXT:
        old = w->next == TESSERA_REFLEX_NO_NEXT
                  ? TESSERA_REFLEX_NO_NEXT
                  : tessera_thread_at(shape, w->next);
        if (!write) {
            return tessera_access_done(old, now);
        }
        if (value == TESSERA_REFLEX_NO_NEXT) {
            next = TESSERA_REFLEX_NO_NEXT;
        } else if (tessera_thread_exists(shape, value)) {
            next = tessera_dense_index(shape, value);
        } else {
            return tessera_access_guest_error("reflex: REFLEX_NEXT names no "
                                              "thread of the machine", now);
        }
        return reflex_configured(tessera_reflex_set_next(r, hart_index, next),
                                 old, now);
    case TESSERA_CSR_REFLEX_STATUS:
        return tessera_access_done(w->in_count | (r->b - w->out_count) << 16,
                                   now);
    case TESSERA_CSR_REFLEX_WAIT_SEND:
        return tessera_reflex_wait_send(r, hart_index, now);
    default:
        return tessera_access_guest_error("reflex: not a reflex CSR", now);
    }
}

/* (sent time, sender): one order on every copy, whatever the lists' */
static int reflex_window_order(const void *a, const void *b)
{
    const ReflexWindowHead *x = a, *y = b;

    if (x->sent != y->sent) {
        return x->sent < y->sent ? -1 : 1;
    }
    return x->sender < y->sender ? -1 : x->sender > y->sender;
}

bool tessera_reflex_use_windows(TesseraReflex *r, const bool *local_boards)
{
    ReflexWindows *win;

    if (r->win) {
        return true;
    }
    win = calloc(1, sizeof(*win) + (size_t)r->num_harts * sizeof(win->heads[0]));
    if (win == NULL) {
        return false;
    }
    win->local_boards = local_boards;
    win->threads_per_board = tessera_threads_per_board(&r->cfg.shape);
    r->win = win;
    return true;
}

size_t tessera_reflex_window_ops(const TesseraReflex *r,
                                 const TesseraReflexOp **ops)
{
    *ops = r->win ? r->win->log : NULL;
    return r->win ? r->win->log_count : 0;
}

/* The heads waiting for the window move, in one order on every copy. */
static uint32_t reflex_move_window_heads(TesseraReflex *r)
{
    ReflexWindows *win = r->win;
    ReflexWindowHead *heads = win->heads;
    uint64_t before = 0, after = 0;
    uint32_t n = 0;

    if (win->for_window == 0) {
        return 0;
    }
    for (uint32_t h = r->held.first; h != REFLEX_NONE;
         h = r->sw[h].link[REFLEX_BY_ALL].next) {
        if (r->sw[h].held_at == REFLEX_HELD_FOR_WINDOW) {
            heads[n].sent = r->out_sent[reflex_slot(r, h, r->sw[h].moved)];
            heads[n].sender = h;
            before += r->sw[h].moved;
            n++;
        }
    }
    qsort(heads, n, sizeof(*heads), reflex_window_order);
    /* Walks cached mid-window stop at the board's edge, and walks cached
     * now cross it: neither is resumed by the other */
    r->changes++;
    win->crossing = true;
    for (uint32_t i = 0; i < n; i++) {
        if (r->sw[heads[i].sender].held_at == REFLEX_HELD_FOR_WINDOW) {
            reflex_advance(r, heads[i].sender);
        }
    }
    win->crossing = false;
    r->changes++;
    for (uint32_t i = 0; i < n; i++) {
        after += r->sw[heads[i].sender].moved;
    }
    return (uint32_t)(after - before);
}

uint32_t tessera_reflex_window_end(TesseraReflex *r,
                                   const TesseraReflexOp *others, size_t n)
{
    if (r->win == NULL) {
        return 0;
    }
    r->win->replaying = true;
    for (size_t i = 0; i < n; i++) {
        const TesseraReflexOp *op = &others[i];

        if (op->hart_index < r->num_harts && !reflex_local(r, op->hart_index)) {
            (void)tessera_reflex_csr(r, op->hart_index, op->csrno,
                                     op->write != 0, op->value, op->now);
        }
    }
    r->win->replaying = false;
    r->win->log_count = 0;
    return reflex_move_window_heads(r);
}

bool tessera_reflex_window_ok(const TesseraReflex *r)
{
    return r->win == NULL || !r->win->log_lost;
}

uint32_t tessera_reflex_window_pending(const TesseraReflex *r)
{
    return r->win ? r->win->for_window + (uint32_t)r->win->log_count : 0;
}

const char *tessera_reflex_take_error(TesseraReflex *r, uint32_t *hart_index)
{
    uint32_t h = r->error_first;

    if (h == REFLEX_NONE) {
        return NULL;
    }
    r->error_first = r->sw[h].error_next;
    if (r->error_first == REFLEX_NONE) {
        r->error_last = REFLEX_NONE;
    }
    r->sw[h].error_pending = false;
    *hart_index = h;
    return REFLEX_LOOP_ERROR;
}

uint32_t tessera_reflex_inbound(const TesseraReflex *r, uint32_t hart_index)
{
    return hart_index < r->num_harts ? r->sw[hart_index].in_count : 0;
}

uint32_t tessera_reflex_outbound(const TesseraReflex *r, uint32_t hart_index)
{
    return hart_index < r->num_harts ? r->sw[hart_index].out_count : 0;
}

bool tessera_reflex_switch_on(const TesseraReflex *r, uint32_t hart_index)
{
    return hart_index < r->num_harts && reflex_on(r, hart_index);
}
