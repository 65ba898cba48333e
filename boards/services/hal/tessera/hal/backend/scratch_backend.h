// Board backend of the HAL's scratchpad facade (docs/boards.md): a dev board's scratchpad is a
// block of its RAM that its linker layout reserves (__tessera_scratch, TESSERA_SCRATCH_SIZE
// bytes), and the board's software mailbox (boards/services/mailbox_service.cc) moves messages
// through it. Bus addresses keep Tessera's numbering, so slot arithmetic is the same.
#pragma once

#include <stdint.h>

#include "tessera/hw/regs.h"

extern "C" char __tessera_scratch[];

namespace tessera::hal::backend {

inline volatile void* scratch_pointer(uint32_t bus_address) {
  return __tessera_scratch + (bus_address - TESSERA_SCRATCH_BASE);
}

inline uint32_t scratch_bus_address(const volatile void* pointer) {
  return TESSERA_SCRATCH_BASE +
         static_cast<uint32_t>(static_cast<const volatile char*>(pointer) - __tessera_scratch);
}

}  // namespace tessera::hal::backend
