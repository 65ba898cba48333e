// Target MMIO backend: bus addresses are CPU addresses; one volatile 32-bit access each.
#pragma once

#include <stdint.h>

namespace tessera::hal::backend {

inline uint32_t mmio_read32(uint32_t bus_address) {
  return *reinterpret_cast<volatile uint32_t*>(static_cast<uintptr_t>(bus_address));
}

inline void mmio_write32(uint32_t bus_address, uint32_t value) {
  *reinterpret_cast<volatile uint32_t*>(static_cast<uintptr_t>(bus_address)) = value;
}

}  // namespace tessera::hal::backend
