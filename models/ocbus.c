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
    if (b->local == NULL || b->waiters == NULL || b->blocked == NULL) {
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

TesseraOcbusResult tessera_ocbus_write(TesseraOcbus *b, uint32_t hart_index,
                                       uint32_t local, uint64_t now,
                                       const char **error)
{
    uint32_t old, flipped, global = 0;

    if (hart_index >= b->cfg.num_harts) {
        *error = "ocbus: no such hart";
        return TESSERA_OCBUS_GUEST_ERROR;
    }
    if (local & ~b->all_lines) {
        *error = "ocbus: a write drives lines the machine does not have";
        return TESSERA_OCBUS_GUEST_ERROR;
    }
    ocbus_forget_wait(b, hart_index);
    old = b->local[hart_index];
    b->local[hart_index] = (uint8_t)local;
    for (uint32_t i = 0; i < b->cfg.lines; i++) {
        uint32_t bit = 1u << i;

        if ((old & bit) && !(local & bit)) {
            b->clamps[i]++;
        } else if (!(old & bit) && (local & bit)) {
            b->clamps[i]--;
            b->released_at[i] = ocbus_max(b->released_at[i], now);
        }
        global |= b->clamps[i] == 0 ? bit : 0;
    }
    flipped = global ^ b->global;
    if (flipped == 0) {
        return TESSERA_OCBUS_DONE;
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
    return TESSERA_OCBUS_DONE;
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

TesseraOcbusResult tessera_ocbus_wait(TesseraOcbus *b, uint32_t hart_index,
                                      uint32_t mask, uint32_t value,
                                      uint64_t now, uint32_t *result,
                                      uint64_t *resume_at, const char **error)
{
    OcbusWaiter *w;

    *result = 0;
    *resume_at = now;
    if (hart_index >= b->cfg.num_harts) {
        *error = "ocbus: no such hart";
        return TESSERA_OCBUS_GUEST_ERROR;
    }
    if (mask == 0 || ((mask | value) & ~b->all_lines)) {
        *error = "ocbus: a wait names no line, or lines the machine does "
                 "not have";
        return TESSERA_OCBUS_GUEST_ERROR;
    }
    w = &b->waiters[hart_index];
    if (w->waiting && (w->mask != mask || (w->value & mask) != (value & mask))) {
        ocbus_forget_wait(b, hart_index);
    }
    if (w->satisfied) {
        *result = w->result;
        *resume_at = ocbus_max(now, w->at);
        ocbus_forget_wait(b, hart_index);
        return TESSERA_OCBUS_DONE;
    }
    if ((b->global & mask) == (value & mask)) {
        ocbus_forget_wait(b, hart_index);
        *result = b->global;
        *resume_at = ocbus_max(now, ocbus_settled(b, mask));
        return TESSERA_OCBUS_DONE;
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
    return TESSERA_OCBUS_BLOCKED;
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

TesseraOcbusResult tessera_ocbus_mmio_read(TesseraOcbus *b, uint32_t hart_index,
                                           uint32_t offset, uint64_t now,
                                           uint32_t *value, uint64_t *resume_at,
                                           const char **error)
{
    int line = ocbus_line_register(offset);

    *value = 0;
    *resume_at = now;
    if (hart_index >= b->cfg.num_harts) {
        *error = "ocbus: no such hart";
        return TESSERA_OCBUS_GUEST_ERROR;
    }
    if (line >= 0) {
        if ((uint32_t)line >= b->cfg.lines) {
            *error = "ocbus: line index out of range (no such line)";
            return TESSERA_OCBUS_GUEST_ERROR;
        }
        *value = (b->global >> line) & 1;
        *resume_at = ocbus_max(now, b->settled_at[line]);
        return TESSERA_OCBUS_DONE;
    }
    switch (offset) {
    case TESSERA_OCBUS_LOCAL:
        *value = b->local[hart_index];
        return TESSERA_OCBUS_DONE;
    case TESSERA_OCBUS_GLOBAL:
        *value = tessera_ocbus_read(b, now, resume_at);
        return TESSERA_OCBUS_DONE;
    case TESSERA_OCBUS_LINES:
        *value = b->cfg.lines;
        return TESSERA_OCBUS_DONE;
    case TESSERA_OCBUS_SETTLE:
        *value = b->cfg.settle_cycles;
        return TESSERA_OCBUS_DONE;
    default:
        *error = "ocbus: no register at this offset";
        return TESSERA_OCBUS_GUEST_ERROR;
    }
}

TesseraOcbusResult tessera_ocbus_mmio_write(TesseraOcbus *b,
                                            uint32_t hart_index,
                                            uint32_t offset, uint32_t value,
                                            uint64_t now, const char **error)
{
    int line = ocbus_line_register(offset);
    uint32_t local;

    if (hart_index >= b->cfg.num_harts) {
        *error = "ocbus: no such hart";
        return TESSERA_OCBUS_GUEST_ERROR;
    }
    if (line >= 0) {
        if ((uint32_t)line >= b->cfg.lines) {
            *error = "ocbus: line index out of range (no such line)";
            return TESSERA_OCBUS_GUEST_ERROR;
        }
        if (value > 1) {
            *error = "ocbus: a line is driven with 0 (clamp) or 1 (release)";
            return TESSERA_OCBUS_GUEST_ERROR;
        }
        local = (b->local[hart_index] & ~(1u << line)) | value << line;
        return tessera_ocbus_write(b, hart_index, local, now, error);
    }
    switch (offset) {
    case TESSERA_OCBUS_LOCAL:
        return tessera_ocbus_write(b, hart_index, value, now, error);
    case TESSERA_OCBUS_GLOBAL:
    case TESSERA_OCBUS_LINES:
    case TESSERA_OCBUS_SETTLE:
        *error = "ocbus: write to a read-only register (nothing changed)";
        return TESSERA_OCBUS_GUEST_ERROR;
    default:
        *error = "ocbus: no register at this offset";
        return TESSERA_OCBUS_GUEST_ERROR;
    }
}

TesseraOcbusResult tessera_ocbus_wait_csr(TesseraOcbus *b, uint32_t hart_index,
                                          uint32_t value, uint64_t now,
                                          uint32_t *result, uint64_t *resume_at,
                                          const char **error)
{
    if (value >> 16) {
        *result = 0;
        *resume_at = now;
        *error = "ocbus: a wait is mask | value << 8; bits 16 and up must be 0";
        return TESSERA_OCBUS_GUEST_ERROR;
    }
    return tessera_ocbus_wait(b, hart_index, value & 0xff, (value >> 8) & 0xff,
                              now, result, resume_at, error);
}
