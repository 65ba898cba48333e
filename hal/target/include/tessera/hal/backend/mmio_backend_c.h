/* Target MMIO backend, C face (tessera/hal/c_api.h): bus addresses are CPU
 * addresses, one volatile 32-bit load. The C++ backend (mmio_backend.h)
 * reads through it. */
#ifndef TESSERA_HAL_BACKEND_MMIO_BACKEND_C_H
#define TESSERA_HAL_BACKEND_MMIO_BACKEND_C_H

#include <stdint.h>

static inline uint32_t tessera_hal_backend_mmio_read32(uint32_t bus_address)
{
    return *(volatile const uint32_t *)(uintptr_t)bus_address;
}

#endif /* TESSERA_HAL_BACKEND_MMIO_BACKEND_C_H */
