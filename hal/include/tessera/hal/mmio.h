// Memory-mapped register access facade; addresses are bus addresses of the
// memory map in tessera/hw/regs.h. Backend chosen at build time.
#pragma once

#include <stdint.h>

#include "tessera/hal/backend/mmio_backend.h"

namespace tessera::hal {

inline uint32_t mmio_read32(uint32_t bus_address) { return backend::mmio_read32(bus_address); }

inline void mmio_write32(uint32_t bus_address, uint32_t value) {
  backend::mmio_write32(bus_address, value);
}

}  // namespace tessera::hal
