// Host backend of the MMIO facade: every access is decoded by the host
// machine's memory map on behalf of the hart bound to the calling thread
// (tessera::host::HartScope).
#pragma once

#include <stdint.h>

namespace tessera::hal::backend {

// Defined by tessera_hal_host; throw std::logic_error for an unmapped or
// unaligned address or when the calling thread is bound to no hart.
uint32_t mmio_read32(uint32_t bus_address);
void mmio_write32(uint32_t bus_address, uint32_t value);

}  // namespace tessera::hal::backend
