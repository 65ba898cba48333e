// libFuzzer target: the image header model (models/image.c). Any bytes as an
// image's first words against any machine shape; the verdict is checked
// against the rules of image.h, written again here.
//
// Input: six bytes of machine shape, then the image's bytes.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/hw/machine_params.h"
#include "tessera/hw/regs.h"
#include "tessera/models/image.h"

namespace {

uint32_t word(const uint8_t* bytes, uint32_t index) {
  uint32_t w;
  memcpy(&w, bytes + 4 * index, 4);  // the fuzzing hosts are little-endian
  return w;
}

bool possible(const TesseraShape& s) {
  return s.boards_x >= 1 && s.boards_x <= TESSERA_MAX_BOARDS_XY && s.boards_y >= 1 &&
         s.boards_y <= TESSERA_MAX_BOARDS_XY && s.tiles_x >= 1 &&
         s.tiles_x <= TESSERA_MAX_TILES_XY && s.tiles_y >= 1 &&
         s.tiles_y <= TESSERA_MAX_TILES_XY && s.cores_per_tile >= 1 &&
         s.cores_per_tile <= TESSERA_MAX_CORES && s.threads_per_core >= 1 &&
         s.threads_per_core <= TESSERA_MAX_THREADS;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::FuzzInput in(data, size);
  TesseraShape machine{};
  machine.boards_x = in.in_range(1, 8);
  machine.boards_y = in.in_range(1, 8);
  machine.tiles_x = 1u << in.below(4);
  machine.tiles_y = 1u << in.below(4);
  machine.cores_per_tile = 1u << in.below(5);
  machine.threads_per_core = 1u << in.below(7);
  uint8_t image[64] = {};
  const size_t len = in.take(image, sizeof image);

  TesseraShape built_for{};
  const TesseraImageFit fit = tessera_image_fit(image, len, &machine, &built_for);
  TesseraImageFit want = TESSERA_IMAGE_ANY_SHAPE;
  if (len >= 4 * TESSERA_IMAGE_HEADER_WORDS &&
      word(image, TESSERA_IMAGE_MAGIC_WORD) == TESSERA_IMAGE_MAGIC) {
    const uint32_t w = TESSERA_IMAGE_SHAPE_WORD;
    const TesseraShape s{word(image, w),     word(image, w + 1), word(image, w + 2),
                         word(image, w + 3), word(image, w + 4), word(image, w + 5)};
    const TesseraShape none{};
    if (memcmp(&s, &none, sizeof s) == 0) {
      want = TESSERA_IMAGE_ANY_SHAPE;
    } else if (!possible(s)) {
      want = TESSERA_IMAGE_BAD_HEADER;
    } else {
      want = memcmp(&s, &machine, sizeof s) == 0 ? TESSERA_IMAGE_FITS : TESSERA_IMAGE_OTHER_SHAPE;
      FUZZ_CHECK(memcmp(&s, &built_for, sizeof s) == 0, "built_for is not the recorded shape");
    }
  }
  FUZZ_CHECK(fit == want, "verdict %d, expected %d", static_cast<int>(fit),
             static_cast<int>(want));
  char text[128];
  const int needed = tessera_shape_format(&machine, text, sizeof text);
  FUZZ_CHECK(needed > 0 && static_cast<size_t>(needed) < sizeof text &&
                 strlen(text) == static_cast<size_t>(needed),
             "shape text of %d bytes", needed);
  return 0;
}
