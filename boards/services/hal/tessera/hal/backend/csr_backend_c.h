/* Board CSR backend, C face (tessera/hal/c_api.h; docs/boards.md): a dev
 * board has none of Tessera's custom CSRs, so every access goes to the
 * board's software services (boards/services/services.cc). The C++ backend
 * (csr_backend.h) calls the same entry. */
#ifndef TESSERA_HAL_BACKEND_CSR_BACKEND_C_H
#define TESSERA_HAL_BACKEND_CSR_BACKEND_C_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One access of CSR `csr` by the calling thread: a csrrw of `value` if
 * `write`, else a csrr; returns what it reads. */
uint32_t tessera_board_csr(uint32_t csr, uint32_t value, int write);

#ifdef __cplusplus
}
#endif

#define TESSERA_HAL_BACKEND_CSR_SWAP(csr, value) \
    tessera_board_csr((csr), (uint32_t)(value), 1)
#define TESSERA_HAL_BACKEND_CSR_READ(csr) tessera_board_csr((csr), 0, 0)
#define TESSERA_HAL_BACKEND_CSR_WRITE(csr, value) \
    ((void)tessera_board_csr((csr), (uint32_t)(value), 1))

#endif /* TESSERA_HAL_BACKEND_CSR_BACKEND_C_H */
