/*
 * MSWI model: the msip registers of one board.
 *
 * The model does no locking: the QEMU wrapper calls it under the BQL and
 * the host backend under a mutex of its own.
 */
#include "tessera/models/mswi.h"

#include <stdlib.h>
#include <string.h>

#define MSWI_MSIP_BIT 1u

struct TesseraMswi {
    uint32_t num_harts;
    uint8_t *msip; /* bit 0 of each hart's register */
};

TesseraMswi *tessera_mswi_new(uint32_t num_harts)
{
    TesseraMswi *m;

    if (num_harts == 0 || num_harts > TESSERA_MSWI_MAX_HARTS) {
        return NULL;
    }
    m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return NULL;
    }
    m->num_harts = num_harts;
    m->msip = calloc(num_harts, sizeof(*m->msip));
    if (m->msip == NULL) {
        free(m);
        return NULL;
    }
    return m;
}

void tessera_mswi_free(TesseraMswi *m)
{
    if (m == NULL) {
        return;
    }
    free(m->msip);
    free(m);
}

/* The hart whose register is at `offset`; NULL if the access may go ahead. */
static const char *mswi_decode(const TesseraMswi *m, uint32_t offset,
                               uint32_t *hart)
{
    if (offset % 4 != 0) {
        return "mswi: unaligned register offset";
    }
    *hart = offset / 4;
    if (*hart >= m->num_harts) {
        return "mswi: msip of a hart the board does not have";
    }
    return NULL;
}

TesseraAccess tessera_mswi_read(const TesseraMswi *m, uint32_t offset)
{
    uint32_t hart;
    const char *why = mswi_decode(m, offset, &hart);

    if (why != NULL) {
        return tessera_access_guest_error(why, 0);
    }
    return tessera_access_done(m->msip[hart], 0);
}

TesseraAccess tessera_mswi_write(TesseraMswi *m, uint32_t offset,
                                 uint32_t value)
{
    uint32_t target;
    const char *why = mswi_decode(m, offset, &target);

    if (why != NULL) {
        return tessera_access_guest_error(why, 0);
    }
    m->msip[target] = value & MSWI_MSIP_BIT;
    return tessera_access_with_effect(tessera_access_done(0, 0),
                                      TESSERA_EFFECT_MSIP, (int32_t)target);
}

bool tessera_mswi_pending(const TesseraMswi *m, uint32_t hart)
{
    return hart < m->num_harts && m->msip[hart] != 0;
}

void tessera_mswi_reset(TesseraMswi *m)
{
    memset(m->msip, 0, m->num_harts * sizeof(*m->msip));
}
