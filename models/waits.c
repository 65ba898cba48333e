/*
 * Wait registry and deadlock report (tessera/models/waits.h).
 */
#include "tessera/models/waits.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ranges of thread ids printed per line before "and <n> more". */
#define WAITS_RANGES_PER_LINE 8u

typedef struct WaitsHart {
    const char *operation; /* NULL: not stopped */
    uint64_t since;
} WaitsHart;

struct TesseraWaits {
    TesseraShape shape;
    uint32_t num_harts;
    uint32_t count;
    WaitsHart *harts;
};

/* Operations are compared as text: one literal may have several copies. */
static bool waits_same(const char *a, const char *b)
{
    return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

TesseraWaits *tessera_waits_new(const TesseraShape *shape)
{
    TesseraWaits *w;
    uint32_t n = tessera_num_threads(shape);

    if (n == 0) {
        return NULL;
    }
    w = calloc(1, sizeof(*w));
    if (w == NULL) {
        return NULL;
    }
    w->shape = *shape;
    w->num_harts = n;
    w->harts = calloc(n, sizeof(*w->harts));
    if (w->harts == NULL) {
        free(w);
        return NULL;
    }
    return w;
}

void tessera_waits_free(TesseraWaits *w)
{
    if (w == NULL) {
        return;
    }
    free(w->harts);
    free(w);
}

void tessera_waits_reset(TesseraWaits *w)
{
    memset(w->harts, 0, (size_t)w->num_harts * sizeof(*w->harts));
    w->count = 0;
}

void tessera_waits_block(TesseraWaits *w, uint32_t hart_index,
                         const char *operation, uint64_t since)
{
    WaitsHart *h;

    if (hart_index >= w->num_harts || operation == NULL) {
        return;
    }
    h = &w->harts[hart_index];
    if (h->operation == NULL) {
        w->count++;
    } else if (waits_same(h->operation, operation)) {
        return;
    }
    h->operation = operation;
    h->since = since;
}

void tessera_waits_unblock(TesseraWaits *w, uint32_t hart_index)
{
    if (hart_index < w->num_harts && w->harts[hart_index].operation) {
        w->harts[hart_index].operation = NULL;
        w->harts[hart_index].since = 0;
        w->count--;
    }
}

const char *tessera_waits_operation(const TesseraWaits *w,
                                    uint32_t hart_index)
{
    return hart_index < w->num_harts ? w->harts[hart_index].operation : NULL;
}

uint64_t tessera_waits_since(const TesseraWaits *w, uint32_t hart_index)
{
    return hart_index < w->num_harts ? w->harts[hart_index].since : 0;
}

uint32_t tessera_waits_count(const TesseraWaits *w)
{
    return w->count;
}

/* snprintf into a report that may already be longer than its buffer. */
typedef struct WaitsText {
    char *out;
    size_t size;
    size_t len; /* of the whole text, written or not */
} WaitsText;

static void waits_printf(WaitsText *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void waits_printf(WaitsText *t, const char *fmt, ...)
{
    va_list ap;
    size_t room = t->len < t->size ? t->size - t->len : 0;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(room ? t->out + t->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) {
        t->len += (size_t)n;
    }
}

/* Ranges of consecutive thread ids, printed as they close. */
typedef struct WaitsRanges {
    uint32_t count;
    uint32_t first, last; /* the open range, if count > 0 */
} WaitsRanges;

static void waits_close_range(const WaitsRanges *r, WaitsText *t)
{
    if (r->count > WAITS_RANGES_PER_LINE) {
        return;
    }
    waits_printf(t, r->count > 1 ? ", 0x%" PRIx32 : "0x%" PRIx32, r->first);
    if (r->last != r->first) {
        waits_printf(t, "-0x%" PRIx32, r->last);
    }
}

static void waits_add_id(WaitsRanges *r, uint32_t id, WaitsText *t)
{
    if (r->count > 0 && id == r->last + 1) {
        r->last = id;
        return;
    }
    if (r->count > 0) {
        waits_close_range(r, t);
    }
    r->count++;
    r->first = r->last = id;
}

/* One line: the harts stopped in `operation`, from dense index `first`. */
static void waits_report_line(const TesseraWaits *w, uint32_t first,
                              WaitsText *t)
{
    const char *operation = w->harts[first].operation;
    uint64_t since_min = UINT64_MAX, since_max = 0;
    uint32_t harts = 0;
    WaitsRanges ranges = { 0 };

    for (uint32_t i = first; i < w->num_harts; i++) {
        harts += waits_same(w->harts[i].operation, operation);
    }
    waits_printf(t, "  %s ", harts == 1 ? "thread" : "threads");
    for (uint32_t i = first; i < w->num_harts; i++) {
        const WaitsHart *h = &w->harts[i];

        if (!waits_same(h->operation, operation)) {
            continue;
        }
        since_min = h->since < since_min ? h->since : since_min;
        since_max = h->since > since_max ? h->since : since_max;
        waits_add_id(&ranges, tessera_thread_at(&w->shape, i), t);
    }
    waits_close_range(&ranges, t);
    if (ranges.count > WAITS_RANGES_PER_LINE) {
        waits_printf(t, " and %" PRIu32 " more ranges",
                     (uint32_t)(ranges.count - WAITS_RANGES_PER_LINE));
    }
    if (harts > 1) {
        waits_printf(t, " (%" PRIu32 ")", harts);
    }
    waits_printf(t, ": %s, since cycle", operation);
    if (since_min == since_max) {
        waits_printf(t, " %llu\n", (unsigned long long)since_min);
    } else {
        waits_printf(t, "s %llu..%llu\n", (unsigned long long)since_min,
                     (unsigned long long)since_max);
    }
}

size_t tessera_waits_report(const TesseraWaits *w, char *out, size_t size)
{
    WaitsText t = { .out = out, .size = size, .len = 0 };
    /* Operations already reported: few (each device has a handful). */
    const char **done = NULL;
    size_t ndone = 0;

    if (size > 0) {
        out[0] = '\0';
    }
    for (uint32_t i = 0; i < w->num_harts; i++) {
        const char *operation = w->harts[i].operation;
        const char **grown;
        bool seen = false;

        for (size_t k = 0; k < ndone && !seen; k++) {
            seen = waits_same(done[k], operation);
        }
        if (operation == NULL || seen) {
            continue;
        }
        grown = realloc(done, (ndone + 1) * sizeof(*done));
        if (grown == NULL) {
            break; /* the report is cut short, not wrong */
        }
        done = grown;
        done[ndone++] = operation;
        waits_report_line(w, i, &t);
    }
    free(done);
    return t.len;
}
