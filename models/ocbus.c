/*
 * Open-collector bus model (tessera/models/ocbus.h).
 */
#include "tessera/models/ocbus.h"

#include <stdlib.h>
#include <string.h>

#define OCBUS_WAIT_OPERATION "ocbus wait-until lines read a value"

typedef struct OcbusWaiter {
    bool waiting;   /* blocked, or satisfied and not yet told */
    bool satisfied; /* latched: the condition held at `at` */
    uint32_t mask, value;
    uint32_t result;
    uint64_t at;
} OcbusWaiter;

/* Windows: harts whose drive changed this window, and when lines were
 * clamped and released in it. */
typedef struct OcbusWindow {
    TesseraOcbusTimes times;
    uint32_t num_drives;
    TesseraOcbusDrive *drives;
    uint32_t *drive_of;      /* per hart: index + 1 into drives, 0: none */
} OcbusWindow;

struct TesseraOcbus {
    TesseraOcbusConfig cfg;
    TesseraOcbusHost host;
    uint32_t all_lines;
    uint32_t global;
    uint32_t clamps[TESSERA_OCBUS_MAX_LINES]; /* harts clamping each line */
    uint64_t settled_at[TESSERA_OCBUS_MAX_LINES];
    /* Latest modelled time a hart released each line since it was last
     * clamped: with optimistic time, the write that completes a release in
     * host order need not be the latest in modelled time. */
    uint64_t released_at[TESSERA_OCBUS_MAX_LINES];
    uint8_t *local;          /* per hart */
    OcbusWaiter *waiters;    /* per hart */
    uint32_t *blocked;       /* harts blocked and not yet satisfied */
    uint32_t num_blocked;
    OcbusWindow *win;        /* windows only: a dev board has no room */
};

static uint64_t ocbus_max(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* When the masked lines took the values they have. */
static uint64_t ocbus_settled(const TesseraOcbus *b, uint32_t mask)
{
    uint64_t at = 0;

    for (uint32_t i = 0; i < b->cfg.lines; i++) {
        if (mask & (1u << i)) {
            at = ocbus_max(at, b->settled_at[i]);
        }
    }
    return at;
}

/* Windows: nothing driven yet in the window. */
static void ocbus_window_clear(TesseraOcbus *b)
{
    OcbusWindow *w = b->win;

    if (w == NULL) {
        return;
    }
    for (uint32_t i = 0; i < w->num_drives; i++) {
        w->drive_of[w->drives[i].hart] = 0;
    }
    w->num_drives = 0;
    for (uint32_t i = 0; i < TESSERA_OCBUS_MAX_LINES; i++) {
        w->times.clamped_at[i] = UINT64_MAX;
        w->times.released_at[i] = 0;
    }
}

static void ocbus_power_on(TesseraOcbus *b)
{
    /* Every hart's output resets to 0: every line clamped (docs/ocbus.md) */
    b->global = 0;
    for (uint32_t i = 0; i < TESSERA_OCBUS_MAX_LINES; i++) {
        b->clamps[i] = b->cfg.num_harts;
    }
    memset(b->settled_at, 0, sizeof(b->settled_at));
    memset(b->released_at, 0, sizeof(b->released_at));
    memset(b->local, 0, b->cfg.num_harts);
    memset(b->waiters, 0, b->cfg.num_harts * sizeof(*b->waiters));
    b->num_blocked = 0;
    ocbus_window_clear(b);
}

TesseraOcbus *tessera_ocbus_new(const TesseraOcbusConfig *cfg,
                                const TesseraOcbusHost *host)
{
    TesseraOcbus *b;

    if (cfg == NULL || host == NULL || host->wake == NULL ||
        cfg->num_harts == 0 || cfg->lines < TESSERA_OCBUS_MIN_LINES ||
        cfg->lines > TESSERA_OCBUS_MAX_LINES) {
        return NULL;
    }
    b = calloc(1, sizeof(*b));
    if (b == NULL) {
        return NULL;
    }
    b->cfg = *cfg;
    b->host = *host;
    b->all_lines = (1u << cfg->lines) - 1;
    b->local = malloc(cfg->num_harts);
    b->waiters = calloc(cfg->num_harts, sizeof(*b->waiters));
    b->blocked = calloc(cfg->num_harts, sizeof(*b->blocked));
    if (cfg->windows) {
        b->win = calloc(1, sizeof(*b->win));
        if (b->win != NULL) {
            b->win->drives = calloc(cfg->num_harts, sizeof(*b->win->drives));
            b->win->drive_of = calloc(cfg->num_harts,
                                      sizeof(*b->win->drive_of));
        }
    }
    if (b->local == NULL || b->waiters == NULL || b->blocked == NULL ||
        (cfg->windows && (b->win == NULL || b->win->drives == NULL ||
                          b->win->drive_of == NULL))) {
        tessera_ocbus_free(b);
        return NULL;
    }
    ocbus_power_on(b);
    return b;
}

void tessera_ocbus_free(TesseraOcbus *b)
{
    if (b == NULL) {
        return;
    }
    free(b->local);
    free(b->waiters);
    free(b->blocked);
    if (b->win != NULL) {
        free(b->win->drives);
        free(b->win->drive_of);
        free(b->win);
    }
    free(b);
}

void tessera_ocbus_reset(TesseraOcbus *b)
{
    for (uint32_t h = 0; h < b->cfg.num_harts; h++) {
        if (b->waiters[h].waiting && b->cfg.waits) {
            tessera_waits_unblock(b->cfg.waits, h);
        }
    }
    ocbus_power_on(b);
}

/* Hart h no longer waits (abandoned, or told its result). */
static void ocbus_forget_wait(TesseraOcbus *b, uint32_t h)
{
    OcbusWaiter *w = &b->waiters[h];

    if (!w->waiting) {
        return;
    }
    if (!w->satisfied) {
        for (uint32_t i = 0; i < b->num_blocked; i++) {
            if (b->blocked[i] == h) {
                b->blocked[i] = b->blocked[--b->num_blocked];
                break;
            }
        }
    }
    if (b->cfg.waits) {
        tessera_waits_unblock(b->cfg.waits, h);
    }
    memset(w, 0, sizeof(*w));
}

/* The lines changed: latch and wake every waiter whose condition holds. */
static void ocbus_wake_satisfied(TesseraOcbus *b)
{
    uint32_t i = 0;

    while (i < b->num_blocked) {
        uint32_t h = b->blocked[i];
        OcbusWaiter *w = &b->waiters[h];

        if ((b->global & w->mask) != (w->value & w->mask)) {
            i++;
            continue;
        }
        w->satisfied = true;
        w->result = b->global;
        w->at = ocbus_settled(b, w->mask);
        b->blocked[i] = b->blocked[--b->num_blocked];
        if (b->cfg.waits) {
            tessera_waits_unblock(b->cfg.waits, h);
        }
        b->host.wake(b->host.opaque, h);
    }
}

/* Hart h drives `local`: the clamp counts follow. */
static void ocbus_drive(TesseraOcbus *b, uint32_t h, uint32_t local)
{
    uint32_t old = b->local[h];

    b->local[h] = (uint8_t)local;
    for (uint32_t i = 0; i < b->cfg.lines; i++) {
        uint32_t bit = 1u << i;

        if ((old & bit) && !(local & bit)) {
            b->clamps[i]++;
        } else if (!(old & bit) && (local & bit)) {
            b->clamps[i]--;
        }
    }
}

/* Windows: hart h's drive changed from `old` to `local` at `now`. */
static void ocbus_window_note(TesseraOcbus *b, uint32_t h, uint32_t old,
                              uint32_t local, uint64_t now)
{
    OcbusWindow *w = b->win;

    if (w->drive_of[h] == 0) {
        w->drives[w->num_drives].hart = h;
        w->drive_of[h] = ++w->num_drives;
    }
    w->drives[w->drive_of[h] - 1].local = local;
    for (uint32_t i = 0; i < b->cfg.lines; i++) {
        uint32_t bit = 1u << i;

        if ((old & bit) && !(local & bit)) {
            w->times.clamped_at[i] = now < w->times.clamped_at[i]
                                         ? now : w->times.clamped_at[i];
        } else if (!(old & bit) && (local & bit)) {
            w->times.released_at[i] = ocbus_max(w->times.released_at[i], now);
        }
    }
}

TesseraAccess tessera_ocbus_write(TesseraOcbus *b, uint32_t hart_index,
                                  uint32_t local, uint64_t now)
{
    uint32_t old, flipped, global = 0;

    if (hart_index >= b->cfg.num_harts) {
        return tessera_access_guest_error("ocbus: no such hart", now);
    }
    if (local & ~b->all_lines) {
        return tessera_access_guest_error("ocbus: a write drives lines the "
                                          "machine does not have", now);
    }
    ocbus_forget_wait(b, hart_index);
    old = b->local[hart_index];
    ocbus_drive(b, hart_index, local);
    if (b->cfg.windows) {
        ocbus_window_note(b, hart_index, old, local, now);
        return tessera_access_done(0, now); /* seen at the window's end */
    }
    for (uint32_t i = 0; i < b->cfg.lines; i++) {
        uint32_t bit = 1u << i;

        if (!(old & bit) && (local & bit)) {
            b->released_at[i] = ocbus_max(b->released_at[i], now);
        }
        global |= b->clamps[i] == 0 ? bit : 0;
    }
    flipped = global ^ b->global;
    if (flipped == 0) {
        return tessera_access_done(0, now);
    }
    /*
     * This write decides the flipped lines: they settle a settle time after
     * it, a released line after the latest release in modelled time.
     */
    for (uint32_t i = 0; i < b->cfg.lines; i++) {
        if (!(flipped & (1u << i))) {
            continue;
        }
        if (global & (1u << i)) {
            b->settled_at[i] = b->released_at[i] + b->cfg.settle_cycles;
        } else {
            b->settled_at[i] = now + b->cfg.settle_cycles;
            b->released_at[i] = 0;
        }
    }
    b->global = global;
    ocbus_wake_satisfied(b);
    return tessera_access_done(0, now);
}

uint32_t tessera_ocbus_local(const TesseraOcbus *b, uint32_t hart_index)
{
    return hart_index < b->cfg.num_harts ? b->local[hart_index] : 0;
}

uint32_t tessera_ocbus_read(const TesseraOcbus *b, uint64_t now,
                            uint64_t *resume_at)
{
    if (resume_at != NULL) {
        *resume_at = ocbus_max(now, ocbus_settled(b, b->all_lines));
    }
    return b->global;
}

TesseraAccess tessera_ocbus_wait(TesseraOcbus *b, uint32_t hart_index,
                                 uint32_t mask, uint32_t value, uint64_t now)
{
    OcbusWaiter *w;
    TesseraAccess a;

    if (hart_index >= b->cfg.num_harts) {
        return tessera_access_guest_error("ocbus: no such hart", now);
    }
    if (mask == 0 || ((mask | value) & ~b->all_lines)) {
        return tessera_access_guest_error("ocbus: a wait names no line, or "
                                          "lines the machine does not have",
                                          now);
    }
    w = &b->waiters[hart_index];
    if (w->waiting && (w->mask != mask || (w->value & mask) != (value & mask))) {
        ocbus_forget_wait(b, hart_index);
    }
    if (w->satisfied) {
        a = tessera_access_done(w->result, ocbus_max(now, w->at));
        ocbus_forget_wait(b, hart_index);
        return a;
    }
    if ((b->global & mask) == (value & mask)) {
        ocbus_forget_wait(b, hart_index);
        return tessera_access_done(b->global,
                                   ocbus_max(now, ocbus_settled(b, mask)));
    }
    if (!w->waiting) {
        w->waiting = true;
        w->mask = mask;
        w->value = value & mask;
        b->blocked[b->num_blocked++] = hart_index;
    }
    if (b->cfg.waits) {
        tessera_waits_block(b->cfg.waits, hart_index, OCBUS_WAIT_OPERATION,
                            now);
    }
    return tessera_access_blocked(now);
}

/* ---- time windows -------------------------------------------------------- */

void tessera_ocbus_times_add(TesseraOcbusTimes *sum,
                             const TesseraOcbusTimes *t)
{
    for (uint32_t i = 0; i < TESSERA_OCBUS_MAX_LINES; i++) {
        if (t->clamped_at[i] < sum->clamped_at[i]) {
            sum->clamped_at[i] = t->clamped_at[i];
        }
        sum->released_at[i] = ocbus_max(sum->released_at[i],
                                        t->released_at[i]);
    }
}

size_t tessera_ocbus_window(const TesseraOcbus *b,
                            const TesseraOcbusDrive **drives,
                            TesseraOcbusTimes *times)
{
    if (b->win == NULL) {
        *drives = NULL;
        for (uint32_t i = 0; i < TESSERA_OCBUS_MAX_LINES; i++) {
            times->clamped_at[i] = UINT64_MAX;
            times->released_at[i] = 0;
        }
        return 0;
    }
    *drives = b->win->drives;
    *times = b->win->times;
    return b->win->num_drives;
}

bool tessera_ocbus_window_pending(const TesseraOcbus *b)
{
    return b->win != NULL && b->win->num_drives != 0;
}

uint32_t tessera_ocbus_window_end(TesseraOcbus *b,
                                  const TesseraOcbusDrive *drives, size_t n,
                                  const TesseraOcbusTimes *times,
                                  uint64_t until, bool *ok)
{
    uint32_t global = 0, flipped;

    *ok = b->cfg.windows;
    for (size_t i = 0; i < n && *ok; i++) {
        *ok = drives[i].hart < b->cfg.num_harts &&
              !(drives[i].local & ~b->all_lines);
    }
    if (!*ok) {
        return 0;
    }
    /* Another process's harts: what they drive now (this one's: no change) */
    for (size_t i = 0; i < n; i++) {
        ocbus_drive(b, drives[i].hart, drives[i].local);
    }
    for (uint32_t i = 0; i < b->cfg.lines; i++) {
        global |= b->clamps[i] == 0 ? 1u << i : 0;
    }
    flipped = global ^ b->global;
    for (uint32_t i = 0; i < b->cfg.lines; i++) {
        uint64_t at = global & (1u << i) ? times->released_at[i]
                                         : times->clamped_at[i];

        if (flipped & (1u << i)) {
            /* A flip has its write in the window; else, the window's end */
            b->settled_at[i] = (at == UINT64_MAX ? until : at) +
                               b->cfg.settle_cycles;
        }
    }
    ocbus_window_clear(b);
    b->global = global;
    if (flipped != 0) {
        ocbus_wake_satisfied(b);
    }
    return (uint32_t)__builtin_popcount(flipped);
}

/* Line i of LINE(i), or -1 for another offset. */
static int ocbus_line_register(uint32_t offset)
{
    if (offset < TESSERA_OCBUS_LINE(0) ||
        offset >= TESSERA_OCBUS_LINE(TESSERA_OCBUS_MAX_LINES) ||
        (offset - TESSERA_OCBUS_LINE(0)) % 4) {
        return -1;
    }
    return (int)((offset - TESSERA_OCBUS_LINE(0)) / 4);
}

TesseraAccess tessera_ocbus_mmio_read(TesseraOcbus *b, uint32_t hart_index,
                                      uint32_t offset, uint64_t now)
{
    int line = ocbus_line_register(offset);
    uint64_t settled;
    uint32_t global;

    if (hart_index >= b->cfg.num_harts) {
        return tessera_access_guest_error("ocbus: no such hart", now);
    }
    if (line >= 0) {
        if ((uint32_t)line >= b->cfg.lines) {
            return tessera_access_guest_error("ocbus: line index out of range "
                                              "(no such line)", now);
        }
        return tessera_access_done((b->global >> line) & 1,
                                   ocbus_max(now, b->settled_at[line]));
    }
    switch (offset) {
    case TESSERA_OCBUS_LOCAL:
        return tessera_access_done(b->local[hart_index], now);
    case TESSERA_OCBUS_GLOBAL:
        global = tessera_ocbus_read(b, now, &settled);
        return tessera_access_done(global, settled);
    case TESSERA_OCBUS_LINES:
        return tessera_access_done(b->cfg.lines, now);
    case TESSERA_OCBUS_SETTLE:
        return tessera_access_done(b->cfg.settle_cycles, now);
    default:
        return tessera_access_guest_error("ocbus: no register at this offset",
                                          now);
    }
}

TesseraAccess tessera_ocbus_mmio_write(TesseraOcbus *b, uint32_t hart_index,
                                       uint32_t offset, uint32_t value,
                                       uint64_t now)
{
    int line = ocbus_line_register(offset);
    uint32_t local;

    if (hart_index >= b->cfg.num_harts) {
        return tessera_access_guest_error("ocbus: no such hart", now);
    }
    if (line >= 0) {
        if ((uint32_t)line >= b->cfg.lines) {
            return tessera_access_guest_error("ocbus: line index out of range "
                                              "(no such line)", now);
        }
        if (value > 1) {
            return tessera_access_guest_error("ocbus: a line is driven with 0 "
                                              "(clamp) or 1 (release)", now);
        }
        local = (b->local[hart_index] & ~(1u << line)) | value << line;
        return tessera_ocbus_write(b, hart_index, local, now);
    }
    switch (offset) {
    case TESSERA_OCBUS_LOCAL:
        return tessera_ocbus_write(b, hart_index, value, now);
    case TESSERA_OCBUS_GLOBAL:
    case TESSERA_OCBUS_LINES:
    case TESSERA_OCBUS_SETTLE:
        return tessera_access_guest_error("ocbus: write to a read-only "
                                          "register (nothing changed)", now);
    default:
        return tessera_access_guest_error("ocbus: no register at this offset",
                                          now);
    }
}

TesseraAccess tessera_ocbus_wait_csr(TesseraOcbus *b, uint32_t hart_index,
                                     uint32_t value, uint64_t now)
{
    if (value >> 16) {
        return tessera_access_guest_error("ocbus: a wait is mask | value << "
                                          "8; bits 16 and up must be 0", now);
    }
    return tessera_ocbus_wait(b, hart_index, value & 0xff, (value >> 8) & 0xff,
                              now);
}
