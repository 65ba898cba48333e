/*
 * Counting barrier controller model (tessera/models/barrier_ctl.h).
 */
#include "tessera/models/barrier_ctl.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/models/mesh.h"

/* A fixed string: the registry keeps the pointer (waits.h). */
#define BARRIER_WAIT_OPERATION "barrier controller enter (waiting for the count)"
#define BARRIER_WAIT_POSTED "barrier controller command (waiting for the window's end)"
#define BARRIER_UIDS (TESSERA_BARRIER_UID_MASK + 1u)
#define BARRIER_NONE UINT32_MAX

typedef enum BarrierHartState {
    BARRIER_HART_IDLE,
    BARRIER_HART_WAITING,  /* counted in an open episode */
    BARRIER_HART_RELEASED, /* overflowed; its ENTER has yet to complete */
} BarrierHartState;

typedef struct BarrierHart {
    BarrierHartState state;
    uint32_t value;     /* the ENTER value it was counted with */
    uint64_t src_cycle; /* when it entered */
    uint64_t resume_at; /* RELEASED: overflow + lat_3 */
    uint32_t next;      /* next arrival of its episode, or BARRIER_NONE */
    /* Windows: its command waits for an exchange, or has been answered */
    enum { BARRIER_POST_NONE, BARRIER_POST_WAITING, BARRIER_POST_ANSWERED } post;
    uint32_t post_csr, post_value;
    TesseraAccess answer;
} BarrierHart;

/* Windows: a command on its way to the controller. */
typedef struct BarrierPost {
    uint64_t arrival; /* at the controller: now + lat_1 */
    uint64_t now;     /* when its hart issued it */
    uint32_t hart;
} BarrierPost;

typedef struct BarrierEpisode {
    uint32_t uid, count, arrived;
    uint32_t first, last; /* arrivals in order, through BarrierHart.next */
    uint64_t overflow;    /* max(src_cycle + lat_1) so far */
} BarrierEpisode;

/* A uid with a registered count or an open episode, in a table of
 * cfg.uid_slots (a host with little memory). */
typedef struct BarrierUid {
    uint32_t uid;
    uint16_t registered;
    uint16_t episode; /* index + 1, 0 = not open */
} BarrierUid;

struct TesseraBarrierCtl {
    TesseraBarrierCtlConfig cfg;
    TesseraBarrierCtlHost host;
    TesseraMeshTiming timing;
    uint32_t num_harts;
    BarrierHart *harts;
    /* cfg.uid_slots == 0: by uid, over every uid. */
    uint16_t *registered;   /* by uid */
    uint16_t *episode_of;   /* by uid: episode index + 1, 0 = not open */
    /* cfg.uid_slots > 0: the uids in use. */
    BarrierUid *uids;
    /* An open episode has a hart waiting in it, and a hart waits in one at
     * most: min(TESSERA_BARRIER_MAX_OPEN, harts) episodes are enough, and
     * FULL is reached exactly where TESSERA_BARRIER_MAX_OPEN says. */
    uint32_t max_open;
    BarrierEpisode *episodes;
    uint16_t *free_episodes;
    uint32_t num_free;
    BarrierPost *posts; /* windows: waiting for an exchange, one per hart */
    uint32_t num_posts;
    /* Windows: posted here since tessera_barrier_ctl_fresh() last looked */
    TesseraBarrierCtlPost *fresh;
    uint32_t num_fresh;
};

/* The slot of a small host's table that holds uid (a registered count or an
 * open episode), or -1. */
static int32_t barrier_uid_index(const TesseraBarrierCtl *b, uint32_t uid)
{
    for (uint32_t i = 0; i < b->cfg.uid_slots; i++) {
        const BarrierUid *u = &b->uids[i];

        if ((u->registered != 0 || u->episode != 0) && u->uid == uid) {
            return (int32_t)i;
        }
    }
    return -1;
}

/* The uid's slot in the table of a small host; with `create`, a free one if
 * it has none (NULL if the table is full). */
static BarrierUid *barrier_uid_slot(TesseraBarrierCtl *b, uint32_t uid,
                                    bool create)
{
    int32_t i = barrier_uid_index(b, uid);

    if (i >= 0) {
        return &b->uids[i];
    }
    for (uint32_t k = 0; create && k < b->cfg.uid_slots; k++) {
        BarrierUid *u = &b->uids[k];

        if (u->registered == 0 && u->episode == 0) {
            u->uid = uid;
            return u;
        }
    }
    return NULL;
}

static uint32_t barrier_registered(const TesseraBarrierCtl *b, uint32_t uid)
{
    int32_t i;

    if (b->cfg.uid_slots == 0) {
        return b->registered[uid];
    }
    i = barrier_uid_index(b, uid);
    return i >= 0 ? b->uids[i].registered : 0;
}

/* False if a small host's table has no room for the uid. */
static bool barrier_set_registered(TesseraBarrierCtl *b, uint32_t uid,
                                   uint32_t count)
{
    BarrierUid *u;

    if (b->cfg.uid_slots == 0) {
        b->registered[uid] = (uint16_t)count;
        return true;
    }
    u = barrier_uid_slot(b, uid, count != 0);
    if (u != NULL) {
        u->registered = (uint16_t)count;
    }
    return u != NULL || count == 0;
}

/* The uid's open episode's index + 1, or 0. */
static uint32_t barrier_episode_of(const TesseraBarrierCtl *b, uint32_t uid)
{
    int32_t i;

    if (b->cfg.uid_slots == 0) {
        return b->episode_of[uid];
    }
    i = barrier_uid_index(b, uid);
    return i >= 0 ? b->uids[i].episode : 0;
}

/* False if a small host's table has no room for the uid. */
static bool barrier_set_episode_of(TesseraBarrierCtl *b, uint32_t uid,
                                   uint32_t episode)
{
    BarrierUid *u;

    if (b->cfg.uid_slots == 0) {
        b->episode_of[uid] = (uint16_t)episode;
        return true;
    }
    u = barrier_uid_slot(b, uid, episode != 0);
    if (u != NULL) {
        u->episode = (uint16_t)episode;
    }
    return u != NULL || episode == 0;
}

static uint64_t barrier_max(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static void barrier_power_on(TesseraBarrierCtl *b)
{
    for (uint32_t h = 0; h < b->num_harts; h++) {
        b->harts[h] = (BarrierHart){ .next = BARRIER_NONE };
    }
    if (b->cfg.uid_slots == 0) {
        memset(b->registered, 0, BARRIER_UIDS * sizeof(*b->registered));
        memset(b->episode_of, 0, BARRIER_UIDS * sizeof(*b->episode_of));
    } else {
        memset(b->uids, 0, b->cfg.uid_slots * sizeof(*b->uids));
    }
    memset(b->episodes, 0, b->max_open * sizeof(*b->episodes));
    b->num_free = b->max_open;
    b->num_posts = 0;
    b->num_fresh = 0;
    for (uint32_t i = 0; i < b->max_open; i++) {
        /* Lowest index on top: episodes are handed out in order. */
        b->free_episodes[i] = (uint16_t)(b->max_open - 1 - i);
    }
}

TesseraBarrierCtl *tessera_barrier_ctl_new(const TesseraBarrierCtlConfig *cfg,
                                           const TesseraBarrierCtlHost *host)
{
    TesseraBarrierCtl *b;
    uint32_t num_harts;

    if (cfg == NULL || host == NULL || host->wake == NULL) {
        return NULL;
    }
    num_harts = tessera_num_threads(&cfg->shape);
    if (num_harts == 0 ||
        cfg->tile_x >= cfg->shape.boards_x * cfg->shape.tiles_x ||
        cfg->tile_y >= cfg->shape.boards_y * cfg->shape.tiles_y) {
        return NULL;
    }
    b = calloc(1, sizeof(*b));
    if (b == NULL) {
        return NULL;
    }
    b->cfg = *cfg;
    b->host = *host;
    b->timing.tile_hop_cycles = cfg->tile_hop_cycles;
    b->timing.board_hop_cycles = cfg->board_hop_cycles;
    b->num_harts = num_harts;
    b->max_open = num_harts < TESSERA_BARRIER_MAX_OPEN ? num_harts
                                                       : TESSERA_BARRIER_MAX_OPEN;
    b->harts = calloc(num_harts, sizeof(*b->harts));
    b->episodes = calloc(b->max_open, sizeof(*b->episodes));
    b->free_episodes = calloc(b->max_open, sizeof(*b->free_episodes));
    if (cfg->windows) {
        b->posts = calloc(num_harts, sizeof(*b->posts));
        b->fresh = calloc(num_harts, sizeof(*b->fresh));
    }
    if (cfg->uid_slots == 0) {
        b->registered = calloc(BARRIER_UIDS, sizeof(*b->registered));
        b->episode_of = calloc(BARRIER_UIDS, sizeof(*b->episode_of));
    } else {
        b->uids = calloc(cfg->uid_slots, sizeof(*b->uids));
    }
    if (b->harts == NULL || b->episodes == NULL || b->free_episodes == NULL ||
        (cfg->windows && (b->posts == NULL || b->fresh == NULL)) ||
        (cfg->uid_slots == 0 ? b->registered == NULL || b->episode_of == NULL
                             : b->uids == NULL)) {
        tessera_barrier_ctl_free(b);
        return NULL;
    }
    barrier_power_on(b);
    return b;
}

void tessera_barrier_ctl_free(TesseraBarrierCtl *b)
{
    if (b == NULL) {
        return;
    }
    free(b->harts);
    free(b->registered);
    free(b->episode_of);
    free(b->uids);
    free(b->episodes);
    free(b->free_episodes);
    free(b->posts);
    free(b->fresh);
    free(b);
}

void tessera_barrier_ctl_reset(TesseraBarrierCtl *b)
{
    for (uint32_t h = 0; h < b->num_harts; h++) {
        if ((b->harts[h].state != BARRIER_HART_IDLE ||
             b->harts[h].post == BARRIER_POST_WAITING) &&
            b->cfg.waits) {
            tessera_waits_unblock(b->cfg.waits, h);
        }
    }
    barrier_power_on(b);
}

uint64_t tessera_barrier_ctl_latency(const TesseraBarrierCtl *b,
                                     uint32_t hart_index)
{
    uint32_t x, y;

    tessera_mesh_tile_of(&b->cfg.shape,
                         tessera_thread_at(&b->cfg.shape, hart_index), &x, &y);
    return tessera_mesh_latency(&b->cfg.shape, &b->timing, x, y,
                                b->cfg.tile_x, b->cfg.tile_y);
}

void tessera_barrier_ctl_grid_of(const TesseraBarrierCtl *b,
                                 uint32_t hart_index, uint32_t *x,
                                 uint32_t *y)
{
    const TesseraShape *s = &b->cfg.shape;
    uint32_t id = tessera_thread_at(s, hart_index);
    uint32_t per_tile = tessera_threads_per_tile(s);
    uint32_t tile_x;

    tessera_mesh_tile_of(s, id, &tile_x, y);
    *x = tile_x * per_tile + (id & ((1u << tessera_tile_shift(s)) - 1));
}

static void barrier_log(TesseraBarrierCtl *b, uint32_t hart,
                        const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void barrier_log(TesseraBarrierCtl *b, uint32_t hart,
                        const char *fmt, ...)
{
    char line[TESSERA_BARRIER_CTL_LINE_MAX];
    va_list ap;

    if (b->host.log == NULL) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    b->host.log(b->host.opaque, hart, line);
}

/* The episode overflowed: log the answers, release every participant but
 * `last` (whose ENTER completes now) and close the uid. */
static void barrier_release(TesseraBarrierCtl *b, BarrierEpisode *e,
                            uint32_t last)
{
    uint32_t index = (uint32_t)(e - b->episodes);
    uint32_t h, x, y;

    for (h = e->first; h != BARRIER_NONE; h = b->harts[h].next) {
        barrier_log(b, h, "RESULT 0");
    }
    for (h = e->first; h != BARRIER_NONE; h = b->harts[h].next) {
        tessera_barrier_ctl_grid_of(b, h, &x, &y);
        barrier_log(b, h, "WRITE %" PRIu64 " %" PRIu32 " %" PRIu32 " %" PRIu32
                    " 0 1 %" PRIu32, b->harts[h].src_cycle, x, y, e->uid,
                    TESSERA_BARRIER_CTL_DESC + e->count);
    }
    for (h = e->first; h != BARRIER_NONE; h = b->harts[h].next) {
        b->harts[h].resume_at = e->overflow + tessera_barrier_ctl_latency(b, h);
        barrier_log(b, h, "SYNC %" PRIu64, b->harts[h].resume_at);
    }
    h = e->first;
    while (h != BARRIER_NONE) {
        BarrierHart *p = &b->harts[h];
        uint32_t next = p->next;

        p->next = BARRIER_NONE;
        if (h == last) {
            p->state = BARRIER_HART_IDLE;
        } else {
            p->state = BARRIER_HART_RELEASED;
            if (b->cfg.waits) {
                tessera_waits_unblock(b->cfg.waits, h);
            }
            b->host.wake(b->host.opaque, h);
        }
        h = next;
    }
    barrier_set_episode_of(b, e->uid, 0);
    memset(e, 0, sizeof(*e));
    b->free_episodes[b->num_free++] = (uint16_t)index;
}

/* The status of a refused ENTER, or TESSERA_BARRIER_OK if the hart may be
 * counted in uid's episode (opened here if need be: *episode). */
static uint32_t barrier_admit(TesseraBarrierCtl *b, uint32_t uid,
                              uint32_t count, BarrierEpisode **episode,
                              const char **error)
{
    BarrierEpisode *e;

    if (count == 0) {
        *error = "barrier controller: enter with count 0 and no count "
                 "registered for the uid";
        return TESSERA_BARRIER_NO_COUNT;
    }
    if (count > b->num_harts) {
        *error = "barrier controller: enter with a count above the harts of "
                 "the machine";
        return TESSERA_BARRIER_TOO_MANY;
    }
    if (barrier_episode_of(b, uid) != 0) {
        e = &b->episodes[barrier_episode_of(b, uid) - 1];
        if (e->count != count) {
            *error = "barrier controller: enter with a count other than the "
                     "open uid's";
            return TESSERA_BARRIER_MISMATCH;
        }
        *episode = e;
        return TESSERA_BARRIER_OK;
    }
    if (b->num_free == 0) {
        *error = "barrier controller: enter would open more uids than "
                 "TESSERA_BARRIER_MAX_OPEN";
        return TESSERA_BARRIER_FULL;
    }
    e = &b->episodes[b->free_episodes[b->num_free - 1]];
    if (!barrier_set_episode_of(b, uid, (uint32_t)(e - b->episodes + 1))) {
        *error = "barrier controller: enter would open a uid the machine's "
                 "uid table has no room for";
        return TESSERA_BARRIER_FULL;
    }
    b->num_free--;
    e->uid = uid;
    e->count = count;
    e->first = e->last = BARRIER_NONE;
    *episode = e;
    return TESSERA_BARRIER_OK;
}

/* DONE or BLOCKED; *error names a refusal (then DONE with its status). */
static TesseraAccessStatus barrier_enter(TesseraBarrierCtl *b, uint32_t h,
                                         uint32_t value, uint64_t now,
                                         uint32_t *status, uint64_t *resume_at,
                                         const char **error)
{
    BarrierHart *p = &b->harts[h];
    uint32_t uid = value & TESSERA_BARRIER_UID_MASK;
    uint32_t count = value >> TESSERA_BARRIER_COUNT_SHIFT;
    uint64_t latency = tessera_barrier_ctl_latency(b, h);
    uint64_t round_trip = 2 * latency;
    BarrierEpisode *e = NULL;
    uint32_t x, y;

    if (p->state != BARRIER_HART_IDLE && p->value != value) {
        *error = "barrier controller: enter while the hart's entry in "
                 "another uid or count is outstanding";
        *status = TESSERA_BARRIER_BUSY;
        *resume_at = now + round_trip;
        return TESSERA_ACCESS_DONE;
    }
    if (p->state == BARRIER_HART_WAITING) {
        /* The same ENTER again: the same arrival, still waiting. */
        if (b->cfg.waits) {
            tessera_waits_block(b->cfg.waits, h, BARRIER_WAIT_OPERATION, now);
        }
        return TESSERA_ACCESS_BLOCKED;
    }
    if (p->state == BARRIER_HART_RELEASED) {
        p->state = BARRIER_HART_IDLE;
        *status = TESSERA_BARRIER_OK;
        *resume_at = barrier_max(now, p->resume_at);
        return TESSERA_ACCESS_DONE;
    }
    if (count == 0) {
        count = barrier_registered(b, uid);
    }
    *status = barrier_admit(b, uid, count, &e, error);
    if (*status != TESSERA_BARRIER_OK) {
        *resume_at = now + round_trip;
        return TESSERA_ACCESS_DONE;
    }
    p->value = value;
    p->src_cycle = now;
    p->next = BARRIER_NONE;
    if (e->last == BARRIER_NONE) {
        e->first = h;
    } else {
        b->harts[e->last].next = h;
    }
    e->last = h;
    e->arrived++;
    e->overflow = barrier_max(e->overflow, now + latency);
    tessera_barrier_ctl_grid_of(b, h, &x, &y);
    barrier_log(b, h, "BARRIER %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32,
                x, y, uid, count);
    if (e->arrived < e->count) {
        p->state = BARRIER_HART_WAITING;
        if (b->cfg.waits) {
            tessera_waits_block(b->cfg.waits, h, BARRIER_WAIT_OPERATION, now);
        }
        return TESSERA_ACCESS_BLOCKED;
    }
    barrier_release(b, e, h);
    *resume_at = p->resume_at;
    return TESSERA_ACCESS_DONE;
}

static uint32_t barrier_set_count(TesseraBarrierCtl *b, uint32_t value,
                                  const char **error)
{
    uint32_t uid = value & TESSERA_BARRIER_UID_MASK;
    uint32_t count = value >> TESSERA_BARRIER_COUNT_SHIFT;
    uint32_t old = barrier_registered(b, uid);

    if (count > b->num_harts) {
        *error = "barrier controller: a registered count above the harts of "
                 "the machine";
        return old;
    }
    if (!barrier_set_registered(b, uid, count)) {
        *error = "barrier controller: a count for a uid the machine's uid "
                 "table has no room for";
    }
    return old;
}

/* A command carried out now (without windows: when issued). */
static TesseraAccess barrier_csr_now(TesseraBarrierCtl *b, uint32_t hart_index,
                                     uint32_t csr, uint32_t value, uint64_t now)
{
    TesseraAccessStatus status = TESSERA_ACCESS_DONE;
    const char *error = NULL;
    uint32_t result = 0;
    uint64_t resume_at = now;

    switch (csr) {
    case TESSERA_CSR_BARRIER_COUNT:
        result = barrier_set_count(b, value, &error);
        resume_at = now + 2 * tessera_barrier_ctl_latency(b, hart_index);
        break;
    case TESSERA_CSR_BARRIER_ENTER:
        status = barrier_enter(b, hart_index, value, now, &result, &resume_at,
                               &error);
        break;
    default:
        return tessera_access_unknown(now);
    }
    if (status == TESSERA_ACCESS_BLOCKED) {
        return tessera_access_blocked(now);
    }
    /* A refusal still reads its status and takes its round trip. */
    return tessera_access(error ? TESSERA_ACCESS_GUEST_ERROR
                                : TESSERA_ACCESS_DONE,
                          result, resume_at, error);
}

/* Windows: the command waits for the exchange at the end of the window in
 * which it reaches the controller. */
static TesseraAccess barrier_post(TesseraBarrierCtl *b, uint32_t h,
                                  uint32_t csr, uint32_t value, uint64_t now)
{
    BarrierHart *p = &b->harts[h];
    uint64_t arrival = now + tessera_barrier_ctl_latency(b, h);

    /* Room for one per hart: a hart's command is on its way once at most;
     * fresh ones are a subset of those */
    b->posts[b->num_posts++] = (BarrierPost){
        .arrival = arrival,
        .now = now,
        .hart = h,
    };
    b->fresh[b->num_fresh++] = (TesseraBarrierCtlPost){
        .arrival = arrival,
        .now = now,
        .hart = h,
        .csr = csr,
        .value = value,
        .idle = p->state == BARRIER_HART_IDLE,
    };
    p->post = BARRIER_POST_WAITING;
    p->post_csr = csr;
    p->post_value = value;
    if (b->cfg.waits) {
        tessera_waits_block(b->cfg.waits, h, BARRIER_WAIT_POSTED, now);
    }
    return tessera_access_blocked(now);
}

TesseraAccess tessera_barrier_ctl_csr(TesseraBarrierCtl *b,
                                      uint32_t hart_index, uint32_t csr,
                                      uint32_t value, uint64_t now)
{
    BarrierHart *p;

    if (hart_index >= b->num_harts) {
        return tessera_access_guest_error("barrier controller: no such hart",
                                          now);
    }
    if (csr != TESSERA_CSR_BARRIER_COUNT && csr != TESSERA_CSR_BARRIER_ENTER) {
        return tessera_access_unknown(now);
    }
    if (!b->cfg.windows) {
        return barrier_csr_now(b, hart_index, csr, value, now);
    }
    p = &b->harts[hart_index];
    if (p->post == BARRIER_POST_WAITING) {
        /* Issued again before the exchange: the same command, still on its way */
        return tessera_access_blocked(now);
    }
    if (p->post == BARRIER_POST_ANSWERED) {
        p->post = BARRIER_POST_NONE;
        if (p->post_csr == csr && p->post_value == value) {
            TesseraAccess a = p->answer;

            a.resume_at = barrier_max(a.resume_at, now);
            return a;
        }
    }
    if (csr == TESSERA_CSR_BARRIER_ENTER && p->state != BARRIER_HART_IDLE &&
        p->value == value) {
        /* Its counted ENTER again: still waiting, or released */
        return barrier_csr_now(b, hart_index, csr, value, now);
    }
    return barrier_post(b, hart_index, csr, value, now);
}

size_t tessera_barrier_ctl_fresh(TesseraBarrierCtl *b,
                                 const TesseraBarrierCtlPost **posts)
{
    size_t n = b->cfg.windows ? b->num_fresh : 0;

    *posts = b->fresh;
    b->num_fresh = 0;
    return n;
}

bool tessera_barrier_ctl_post_remote(TesseraBarrierCtl *b,
                                     const TesseraBarrierCtlPost *post)
{
    BarrierHart *p;

    if (!b->cfg.windows || post->hart >= b->num_harts ||
        (post->csr != TESSERA_CSR_BARRIER_COUNT &&
         post->csr != TESSERA_CSR_BARRIER_ENTER) ||
        post->now > UINT64_MAX - tessera_barrier_ctl_latency(b, post->hart) ||
        post->arrival != post->now + tessera_barrier_ctl_latency(b, post->hart)) {
        return false;
    }
    p = &b->harts[post->hart];
    if (p->post == BARRIER_POST_WAITING || post->idle > 1 ||
        (post->idle && p->state == BARRIER_HART_WAITING)) {
        return false;
    }
    if (post->idle && p->state == BARRIER_HART_RELEASED) {
        p->state = BARRIER_HART_IDLE; /* it took its release at home */
    }
    b->posts[b->num_posts++] = (BarrierPost){
        .arrival = post->arrival,
        .now = post->now,
        .hart = post->hart,
    };
    p->post = BARRIER_POST_WAITING;
    p->post_csr = post->csr;
    p->post_value = post->value;
    return true;
}

uint32_t tessera_barrier_ctl_posted(const TesseraBarrierCtl *b)
{
    return b->num_posts;
}

/* Arrival at the controller, then hart: modelled facts only. */
static int barrier_post_order(const void *x, const void *y)
{
    const BarrierPost *p = x, *q = y;

    if (p->arrival != q->arrival) {
        return p->arrival < q->arrival ? -1 : 1;
    }
    return p->hart < q->hart ? -1 : p->hart > q->hart;
}

uint32_t tessera_barrier_ctl_exchange(TesseraBarrierCtl *b, uint64_t until)
{
    uint32_t n = b->num_posts, done = 0, kept = 0, i;

    /* Fresh ones are for the processes' exchange before this one: a hart
     * posts once at most between two exchanges, so they fit */
    b->num_fresh = 0;
    if (n > 1) {
        qsort(b->posts, n, sizeof(*b->posts), barrier_post_order);
    }
    for (i = 0; i < n; i++) {
        BarrierPost post = b->posts[i];
        BarrierHart *p = &b->harts[post.hart];
        TesseraAccess a;

        if (post.arrival >= until) {
            b->posts[kept++] = post;
            continue;
        }
        p->post = BARRIER_POST_NONE;
        a = barrier_csr_now(b, post.hart, p->post_csr, p->post_value, post.now);
        done++;
        /* The registry shows what the hart waits for now: its episode (an
         * entry counted now or before), or nothing */
        if (b->cfg.waits) {
            if (p->state == BARRIER_HART_WAITING) {
                tessera_waits_block(b->cfg.waits, post.hart,
                                    BARRIER_WAIT_OPERATION, p->src_cycle);
            } else {
                tessera_waits_unblock(b->cfg.waits, post.hart);
            }
        }
        if (a.status == TESSERA_ACCESS_BLOCKED) {
            continue; /* counted in its episode: waits there */
        }
        p->post = BARRIER_POST_ANSWERED;
        p->answer = a;
        b->host.wake(b->host.opaque, post.hart);
    }
    b->num_posts = kept;
    return done;
}

uint32_t tessera_barrier_ctl_arrived(const TesseraBarrierCtl *b, uint32_t uid,
                                     uint32_t *count)
{
    const BarrierEpisode *e;

    *count = 0;
    if (uid >= BARRIER_UIDS || barrier_episode_of(b, uid) == 0) {
        return 0;
    }
    e = &b->episodes[barrier_episode_of(b, uid) - 1];
    *count = e->count;
    return e->arrived;
}

uint32_t tessera_barrier_ctl_open_uids(const TesseraBarrierCtl *b)
{
    return b->max_open - b->num_free;
}

uint32_t tessera_barrier_ctl_registered(const TesseraBarrierCtl *b,
                                        uint32_t uid)
{
    return uid < BARRIER_UIDS ? barrier_registered(b, uid) : 0;
}
