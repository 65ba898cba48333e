/*
 * Clock model: cycles = retired instructions x CPI + cycles waited.
 *
 * Out-of-range hart indices are ignored (read as 0): the callers index by a
 * dense hart index they got from the machine, so one out of range is a bug
 * of theirs, and a model never writes outside its arrays.
 */
#include "tessera/models/clock.h"

#include <stdlib.h>

#include "tessera/hw/machine_params.h"
#include "tessera/hw/regs.h"

typedef struct TesseraHartClock {
    uint64_t retired; /* instructions */
    uint64_t waited;  /* cycles */
} TesseraHartClock;

struct TesseraClocks {
    uint32_t num_harts;
    uint32_t cpi;
    TesseraHartClock *harts;
};

TesseraClocks *tessera_clocks_new(uint32_t num_harts, uint32_t cpi)
{
    TesseraClocks *c;

    if (num_harts == 0 || num_harts > TESSERA_MAX_HARTS ||
        cpi < TESSERA_MIN_cpi || cpi > TESSERA_LIMIT_cpi) {
        return NULL;
    }
    c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return NULL;
    }
    c->num_harts = num_harts;
    c->cpi = cpi;
    c->harts = calloc(num_harts, sizeof(*c->harts));
    if (c->harts == NULL) {
        free(c);
        return NULL;
    }
    return c;
}

void tessera_clocks_free(TesseraClocks *c)
{
    if (c != NULL) {
        free(c->harts);
        free(c);
    }
}

uint32_t tessera_clocks_cpi(const TesseraClocks *c)
{
    return c->cpi;
}

void tessera_clocks_retire(TesseraClocks *c, uint32_t hart_index,
                           uint64_t instructions)
{
    if (hart_index < c->num_harts) {
        c->harts[hart_index].retired += instructions;
    }
}

void tessera_clocks_unretire(TesseraClocks *c, uint32_t hart_index,
                             uint64_t instructions)
{
    if (hart_index < c->num_harts) {
        TesseraHartClock *h = &c->harts[hart_index];

        h->retired -= instructions < h->retired ? instructions : h->retired;
    }
}

uint64_t tessera_clocks_retired_total(const TesseraClocks *c)
{
    uint64_t total = 0;

    for (uint32_t i = 0; i < c->num_harts; i++) {
        total += c->harts[i].retired;
    }
    return total;
}

uint64_t tessera_clocks_now(const TesseraClocks *c, uint32_t hart_index)
{
    const TesseraHartClock *h;

    if (hart_index >= c->num_harts) {
        return 0;
    }
    h = &c->harts[hart_index];
    return h->retired * c->cpi + h->waited;
}

uint64_t tessera_clocks_wait_until(TesseraClocks *c, uint32_t hart_index,
                                   uint64_t until)
{
    uint64_t now = tessera_clocks_now(c, hart_index);

    if (hart_index >= c->num_harts || until <= now) {
        return 0;
    }
    c->harts[hart_index].waited += until - now;
    return until - now;
}

bool tessera_clocks_read_csr(const TesseraClocks *c, uint32_t hart_index,
                             uint16_t csr, uint32_t *value)
{
    uint64_t now = tessera_clocks_now(c, hart_index);

    switch (csr) {
    case TESSERA_CSR_CYCLE:
        *value = (uint32_t)now;
        return true;
    case TESSERA_CSR_CYCLEH:
        *value = (uint32_t)(now >> 32);
        return true;
    default:
        *value = 0;
        return false;
    }
}

void tessera_clocks_reset(TesseraClocks *c)
{
    uint32_t i;

    for (i = 0; i < c->num_harts; i++) {
        c->harts[i].retired = 0;
        c->harts[i].waited = 0;
    }
}
