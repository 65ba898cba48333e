/*
 * Image header model: the shape an image was built for, against the
 * machine's. See tessera/models/image.h.
 */
#include "tessera/models/image.h"

#include <stdio.h>

#include "tessera/hw/machine_params.h"

static uint32_t image_word(const uint8_t *bytes, uint32_t index)
{
    const uint8_t *w = bytes + 4u * index;

    return (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 |
           (uint32_t)w[3] << 24;
}

/* The limits a machine puts on each extent (machine_params.h). */
static int shape_is_possible(const TesseraShape *s)
{
    return s->boards_x >= 1 && s->boards_x <= TESSERA_MAX_BOARDS_XY &&
           s->boards_y >= 1 && s->boards_y <= TESSERA_MAX_BOARDS_XY &&
           s->tiles_x >= 1 && s->tiles_x <= TESSERA_MAX_TILES_XY &&
           s->tiles_y >= 1 && s->tiles_y <= TESSERA_MAX_TILES_XY &&
           s->cores_per_tile >= 1 && s->cores_per_tile <= TESSERA_MAX_CORES &&
           s->threads_per_core >= 1 &&
           s->threads_per_core <= TESSERA_MAX_THREADS;
}

static int shape_equal(const TesseraShape *a, const TesseraShape *b)
{
    return a->boards_x == b->boards_x && a->boards_y == b->boards_y &&
           a->tiles_x == b->tiles_x && a->tiles_y == b->tiles_y &&
           a->cores_per_tile == b->cores_per_tile &&
           a->threads_per_core == b->threads_per_core;
}

TesseraImageFit tessera_image_fit(const uint8_t *bytes, size_t len,
                                  const TesseraShape *machine,
                                  TesseraShape *built_for)
{
    TesseraShape s;
    uint32_t w = TESSERA_IMAGE_SHAPE_WORD;

    if (bytes == NULL || len < 4u * TESSERA_IMAGE_HEADER_WORDS ||
        image_word(bytes, TESSERA_IMAGE_MAGIC_WORD) != TESSERA_IMAGE_MAGIC) {
        return TESSERA_IMAGE_ANY_SHAPE;
    }
    s.boards_x = image_word(bytes, w++);
    s.boards_y = image_word(bytes, w++);
    s.tiles_x = image_word(bytes, w++);
    s.tiles_y = image_word(bytes, w++);
    s.cores_per_tile = image_word(bytes, w++);
    s.threads_per_core = image_word(bytes, w);
    if ((s.boards_x | s.boards_y | s.tiles_x | s.tiles_y | s.cores_per_tile |
         s.threads_per_core) == 0) {
        return TESSERA_IMAGE_ANY_SHAPE;
    }
    if (!shape_is_possible(&s)) {
        return TESSERA_IMAGE_BAD_HEADER;
    }
    if (built_for != NULL) {
        *built_for = s;
    }
    return shape_equal(&s, machine) ? TESSERA_IMAGE_FITS
                                    : TESSERA_IMAGE_OTHER_SHAPE;
}

int tessera_shape_format(const TesseraShape *shape, char *out, size_t size)
{
    return snprintf(out, size,
                    "boards-x=%u,boards-y=%u,tiles-x=%u,tiles-y=%u,"
                    "cores-per-tile=%u,threads-per-core=%u",
                    (unsigned)shape->boards_x, (unsigned)shape->boards_y,
                    (unsigned)shape->tiles_x, (unsigned)shape->tiles_y,
                    (unsigned)shape->cores_per_tile,
                    (unsigned)shape->threads_per_core);
}
