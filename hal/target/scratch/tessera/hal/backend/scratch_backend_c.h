/* Target scratchpad backend, C face (tessera/hal/c_api.h): each tile's
 * scratchpad sits at its bus address, so a slot's bus address is its
 * pointer. The C++ facade (tessera/hal/scratch.h) is built on these. */
#ifndef TESSERA_HAL_BACKEND_SCRATCH_BACKEND_C_H
#define TESSERA_HAL_BACKEND_SCRATCH_BACKEND_C_H

#include <stdint.h>

static inline volatile void *tessera_hal_backend_scratch_pointer(uint32_t bus_address)
{
    return (volatile void *)(uintptr_t)bus_address;
}

static inline uint32_t tessera_hal_backend_scratch_bus_address(const volatile void *pointer)
{
    return (uint32_t)(uintptr_t)pointer;
}

#endif /* TESSERA_HAL_BACKEND_SCRATCH_BACKEND_C_H */
