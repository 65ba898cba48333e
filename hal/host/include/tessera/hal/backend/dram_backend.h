// Host DRAM backend: the board DRAM of the hart bound to the calling thread
// (tessera::host::HartScope), held by the host machine.
#pragma once

#include <stdint.h>

namespace tessera::hal::backend {

// Defined by tessera_hal_host; throws std::logic_error for an address outside the bound hart's
// board DRAM or when the calling thread is bound to no hart.
void* dram_pointer(uint32_t bus_address);

}  // namespace tessera::hal::backend
