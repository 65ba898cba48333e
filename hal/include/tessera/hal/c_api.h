/*
 * The HAL's C face: CSR accesses, an MMIO read and the scratchpad's bus
 * addresses for C callers (the mailbox driver core,
 * tessera/drivers/mailbox_core.h, and tinsel.h, which Tinsel's C programs
 * use), where the C++ facades (tessera/hal/csr.h, mmio.h, scratch.h) cannot
 * go. The same backends answer both: the backend folder on the include path
 * provides csr_backend_c.h, mmio_backend_c.h and scratch_backend_c.h, on
 * which the C++ backends and the scratchpad facade are built, so each
 * backend says once what a CSR access, a device read and a slot's pointer
 * are.
 *
 *   target   one csrrw, the CSR number an immediate; the scratchpad at its
 *            bus address
 *   board    the board's services (boards/services, docs/boards.md); the
 *            scratchpad a block of the board's RAM
 *   host     none: the host backend is C++ only (tessera/hal/csr.h)
 *
 * Plain C (gnu11) and C++.
 */
#ifndef TESSERA_HAL_C_API_H
#define TESSERA_HAL_C_API_H

#include <stdint.h>

#if defined(__has_include)
#if !__has_include("tessera/hal/backend/csr_backend_c.h")
#error "tessera/hal/c_api.h: this backend has no C face (the host backend is C++ only)"
#endif
#endif

#include "tessera/hal/backend/csr_backend_c.h"
#include "tessera/hal/backend/mmio_backend_c.h"
#include "tessera/hal/backend/scratch_backend_c.h"

/* csrrw rd, csr, value: writes value, returns the old value. `csr` must be
 * a constant, and writable (bits [11:10] not 0b11: the C++ facade reads the
 * read-only ones instead). */
#define TESSERA_HAL_CSR_SWAP(csr, value) TESSERA_HAL_BACKEND_CSR_SWAP(csr, value)

/* csrr and csrw of the constant `csr`. */
#define TESSERA_HAL_CSR_READ(csr) TESSERA_HAL_BACKEND_CSR_READ(csr)
#define TESSERA_HAL_CSR_WRITE(csr, value) TESSERA_HAL_BACKEND_CSR_WRITE(csr, value)

/* One 32-bit read of the device register at `bus_address`. */
static inline uint32_t tessera_hal_mmio_read32(uint32_t bus_address)
{
    return tessera_hal_backend_mmio_read32(bus_address);
}

/* Pointer to the byte at `bus_address` of the calling hart's tile
 * scratchpad, and back (tessera/hal/scratch.h). */
static inline volatile void *tessera_hal_scratch_pointer(uint32_t bus_address)
{
    return tessera_hal_backend_scratch_pointer(bus_address);
}

static inline uint32_t tessera_hal_scratch_bus_address(const volatile void *pointer)
{
    return tessera_hal_backend_scratch_bus_address(pointer);
}

#endif /* TESSERA_HAL_C_API_H */
