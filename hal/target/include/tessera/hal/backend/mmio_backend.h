// Target MMIO backend: bus addresses are CPU addresses; one volatile 32-bit access each. The read
// is the C face's (mmio_backend_c.h), which C callers reach through tessera/hal/c_api.h.
#pragma once

#include <stdint.h>

#include "tessera/hal/backend/mmio_backend_c.h"

namespace tessera::hal::backend {

inline uint32_t mmio_read32(uint32_t bus_address) {
  return tessera_hal_backend_mmio_read32(bus_address);
}

inline void mmio_write32(uint32_t bus_address, uint32_t value) {
  *reinterpret_cast<volatile uint32_t*>(static_cast<uintptr_t>(bus_address)) = value;
}

}  // namespace tessera::hal::backend
