// The fuzz targets' independent statement of which shapes tessera/hw/regs.h can number: every
// extent 1..65536, tile, core and thread extents powers of two, and every id (the host id one
// board row past the mesh included) within 32 bits. Written apart from the models on purpose:
// it is what their constructors are checked against.
#pragma once

#include <stdint.h>

#include "tessera/hw/regs.h"

namespace fuzz {

// Bits needed for values 0..n-1 (0 for n <= 1); 64-bit so that boards_y + 1 cannot wrap.
inline uint32_t log2_ceil(uint64_t n) {
  uint32_t bits = 0;
  while ((uint64_t{1} << bits) < n) {
    bits++;
  }
  return bits;
}

inline bool is_power_of_two(uint64_t n) { return n != 0 && (n & (n - 1)) == 0; }

inline bool shape_numberable(const TesseraShape& s) {
  const uint32_t extents[] = {s.boards_x, s.boards_y,       s.tiles_x,
                              s.tiles_y,  s.cores_per_tile, s.threads_per_core};
  for (uint32_t e : extents) {
    if (e < 1 || e > 65536) {
      return false;
    }
  }
  if (!is_power_of_two(s.tiles_x) || !is_power_of_two(s.tiles_y) ||
      !is_power_of_two(s.cores_per_tile) || !is_power_of_two(s.threads_per_core)) {
    return false;
  }
  const uint64_t id_bits = log2_ceil(s.threads_per_core) + log2_ceil(s.cores_per_tile) +
                           log2_ceil(s.tiles_x) + log2_ceil(s.tiles_y) + log2_ceil(s.boards_x) +
                           log2_ceil(uint64_t{s.boards_y} + 1);
  return id_bits <= 32;
}

}  // namespace fuzz
