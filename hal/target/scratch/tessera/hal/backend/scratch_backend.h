// Target scratchpad backend: each tile's scratchpad sits at its bus address, so a slot's bus
// address is its pointer.
#pragma once

#include <stdint.h>

namespace tessera::hal::backend {

inline volatile void* scratch_pointer(uint32_t bus_address) {
  return reinterpret_cast<volatile void*>(static_cast<uintptr_t>(bus_address));
}

inline uint32_t scratch_bus_address(const volatile void* pointer) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(pointer));
}

}  // namespace tessera::hal::backend
