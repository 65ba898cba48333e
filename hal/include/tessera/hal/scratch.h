// Mailbox scratchpad facade: message slots are named by bus addresses (what the mailbox CSRs
// take and return, inside [TESSERA_SCRATCH_BASE, + TESSERA_SCRATCH_SIZE)), and software reads and
// writes them through pointers. These two turn one into the other for the calling hart, whose
// tile's scratchpad is the one at those addresses.
//
// Target backend: identity casts (the scratchpad is at its bus address). Board backend: a block
// of the board's RAM. Both say so once, in C: their scratch_backend_c.h, the HAL's C face
// (tessera/hal/c_api.h). Host backend (C++ only, its scratch_backend.h): the scratchpad of the
// bound hart's tile in the host machine; an address or pointer outside it throws
// std::logic_error.
#pragma once

#include <stdint.h>

#if __has_include("tessera/hal/backend/scratch_backend.h")
#include "tessera/hal/backend/scratch_backend.h"
#else
#include "tessera/hal/c_api.h"

namespace tessera::hal::backend {

inline volatile void* scratch_pointer(uint32_t bus_address) {
  return tessera_hal_scratch_pointer(bus_address);
}

inline uint32_t scratch_bus_address(const volatile void* pointer) {
  return tessera_hal_scratch_bus_address(pointer);
}

}  // namespace tessera::hal::backend
#endif

namespace tessera::hal {

// Pointer to the byte at `bus_address` of the calling hart's tile scratchpad.
inline volatile void* scratch_pointer(uint32_t bus_address) {
  return backend::scratch_pointer(bus_address);
}

// Bus address of a pointer into the calling hart's tile scratchpad (inverse of scratch_pointer).
inline uint32_t scratch_bus_address(const volatile void* pointer) {
  return backend::scratch_bus_address(pointer);
}

}  // namespace tessera::hal
