/* Board MMIO backend, C face (tessera/hal/c_api.h; docs/boards.md): Tessera's
 * device windows are not at those addresses on a dev board, so the board's
 * software services answer (boards/services/services.cc). The C++ backend
 * (mmio_backend.h) calls the same entries. */
#ifndef TESSERA_HAL_BACKEND_MMIO_BACKEND_C_H
#define TESSERA_HAL_BACKEND_MMIO_BACKEND_C_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

uint32_t tessera_board_mmio_read32(uint32_t bus_address);
void tessera_board_mmio_write32(uint32_t bus_address, uint32_t value);

#ifdef __cplusplus
}
#endif

static inline uint32_t tessera_hal_backend_mmio_read32(uint32_t bus_address)
{
    return tessera_board_mmio_read32(bus_address);
}

#endif /* TESSERA_HAL_BACKEND_MMIO_BACKEND_C_H */
