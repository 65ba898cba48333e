// DRAM facade: a thread's partition (its stack and heaps, tessera/hw/regs.h) is named by bus
// addresses (sysinfo's PARTITION_BASE), and software uses it through pointers. dram_pointer turns
// one into the other for the calling hart, whose board's DRAM is the one at those addresses.
//
// Target and dev-board backends: an identity cast (DRAM is at its bus address). Host backend
// (its dram_backend.h): the bound hart's board DRAM in the host machine, host memory; an address
// outside it throws std::logic_error. Native mode (docs/native.md) needs this: the partitions of
// thousands of harts live in the host process.
#pragma once

#include <stdint.h>

#if __has_include("tessera/hal/backend/dram_backend.h")
#include "tessera/hal/backend/dram_backend.h"
#else
namespace tessera::hal::backend {

inline void* dram_pointer(uint32_t bus_address) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(bus_address));
}

}  // namespace tessera::hal::backend
#endif

namespace tessera::hal {

// Pointer to the byte at `bus_address` of the calling hart's board DRAM.
inline void* dram_pointer(uint32_t bus_address) {
  return backend::dram_pointer(bus_address);
}

}  // namespace tessera::hal
