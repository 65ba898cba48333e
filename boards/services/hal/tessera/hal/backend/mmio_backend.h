// Board backend of the HAL's MMIO facade (docs/boards.md): the facade names Tessera's device
// windows (sysinfo, console, exit, MSWI), which a dev board does not have at those addresses;
// the board's software services answer for them, through the C face's entries
// (mmio_backend_c.h).
#pragma once

#include <stdint.h>

#include "tessera/hal/backend/mmio_backend_c.h"

namespace tessera::hal::backend {

inline uint32_t mmio_read32(uint32_t bus_address) {
  return tessera_board_mmio_read32(bus_address);
}

inline void mmio_write32(uint32_t bus_address, uint32_t value) {
  tessera_board_mmio_write32(bus_address, value);
}

}  // namespace tessera::hal::backend
