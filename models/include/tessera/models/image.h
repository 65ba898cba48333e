/*
 * Image header model: reads the header every image carries in its first
 * words (TESSERA_IMAGE_* in tessera/hw/regs.h) and decides whether the
 * image may boot on a machine of a given shape. An image built for one
 * shape (a Tinsel-dialect program with config.h compiled in) must not run
 * on another: its thread-id arithmetic would address the wrong threads.
 * Plain C: used by the QEMU machine when it loads an image and by host
 * tools that boot images (HostLink).
 */
#ifndef TESSERA_MODELS_IMAGE_H
#define TESSERA_MODELS_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "tessera/hw/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum TesseraImageFit {
    TESSERA_IMAGE_ANY_SHAPE,   /* no header, or one that names no shape */
    TESSERA_IMAGE_FITS,        /* built for exactly this machine's shape */
    TESSERA_IMAGE_OTHER_SHAPE, /* built for *built_for, another shape */
    TESSERA_IMAGE_BAD_HEADER,  /* a header whose shape no machine has */
} TesseraImageFit;

/*
 * The first `len` bytes of the image at its base (little-endian words).
 * Fewer than a header's bytes, or no magic, is an image without a header:
 * it runs on any shape. *built_for (if not NULL) gets the recorded shape
 * when there is one (FITS, OTHER_SHAPE).
 */
TesseraImageFit tessera_image_fit(const uint8_t *bytes, size_t len,
                                  const TesseraShape *machine,
                                  TesseraShape *built_for);

/*
 * "boards-x=3,boards-y=2,tiles-x=4,tiles-y=4,cores-per-tile=4,
 * threads-per-core=16": a shape as machine properties, NUL-terminated and
 * cut to fit `size` bytes. Returns the length it needed, as snprintf does.
 */
int tessera_shape_format(const TesseraShape *shape, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_IMAGE_H */
