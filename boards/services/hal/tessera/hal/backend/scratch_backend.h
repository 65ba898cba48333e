// Board backend of the HAL's scratchpad facade (docs/boards.md): the scratchpad is a block of the
// board's RAM (scratch_backend_c.h, the C face's, says where).
#pragma once

#include <stdint.h>

#include "tessera/hal/backend/scratch_backend_c.h"

namespace tessera::hal::backend {

inline volatile void* scratch_pointer(uint32_t bus_address) {
  return tessera_hal_backend_scratch_pointer(bus_address);
}

inline uint32_t scratch_bus_address(const volatile void* pointer) {
  return tessera_hal_backend_scratch_bus_address(pointer);
}

}  // namespace tessera::hal::backend
