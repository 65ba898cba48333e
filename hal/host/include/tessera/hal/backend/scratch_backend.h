// Host scratchpad backend: the scratchpad of the tile of the hart bound to the calling thread
// (tessera::host::HartScope), held by the host machine's mailbox device.
#pragma once

#include <stdint.h>

namespace tessera::hal::backend {

// Defined by tessera_hal_host; throw std::logic_error for an address or pointer outside the
// bound hart's tile scratchpad or when the calling thread is bound to no hart.
volatile void* scratch_pointer(uint32_t bus_address);
uint32_t scratch_bus_address(const volatile void* pointer);

}  // namespace tessera::hal::backend
