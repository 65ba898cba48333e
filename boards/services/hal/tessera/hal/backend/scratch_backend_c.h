/* Board scratchpad backend, C face (tessera/hal/c_api.h; docs/boards.md):
 * a dev board's scratchpad is a block of its RAM that its linker layout
 * reserves (__tessera_scratch, TESSERA_SCRATCH_SIZE bytes), and the board's
 * software mailbox (boards/services/mailbox_service.cc) moves messages
 * through it. Bus addresses keep Tessera's numbering, so slot arithmetic is
 * the same. The C++ facade (tessera/hal/scratch.h) is built on these. */
#ifndef TESSERA_HAL_BACKEND_SCRATCH_BACKEND_C_H
#define TESSERA_HAL_BACKEND_SCRATCH_BACKEND_C_H

#include <stdint.h>

#include "tessera/hw/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

extern char __tessera_scratch[];

#ifdef __cplusplus
}
#endif

static inline volatile void *tessera_hal_backend_scratch_pointer(uint32_t bus_address)
{
    return (volatile void *)(__tessera_scratch + (bus_address - TESSERA_SCRATCH_BASE));
}

static inline uint32_t tessera_hal_backend_scratch_bus_address(const volatile void *pointer)
{
    return TESSERA_SCRATCH_BASE +
           (uint32_t)((const volatile char *)pointer - (const volatile char *)__tessera_scratch);
}

#endif /* TESSERA_HAL_BACKEND_SCRATCH_BACKEND_C_H */
