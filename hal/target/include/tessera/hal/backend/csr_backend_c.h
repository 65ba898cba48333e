/* Target CSR backend, C face (tessera/hal/c_api.h): one CSR instruction,
 * the CSR number an immediate. The C++ backend (csr_backend.h) issues the
 * same ones. */
#ifndef TESSERA_HAL_BACKEND_CSR_BACKEND_C_H
#define TESSERA_HAL_BACKEND_CSR_BACKEND_C_H

#include <stdint.h>

/* volatile and "memory": custom CSRs send and receive messages through the
 * scratchpad. */
#define TESSERA_HAL_BACKEND_CSR_SWAP(csr, value)                                 \
    __extension__({                                                              \
        uint32_t tessera_hal_old_;                                               \
        __asm__ volatile("csrrw %0, %1, %2"                                      \
                         : "=r"(tessera_hal_old_)                                \
                         : "i"(csr), "r"((uint32_t)(value))                      \
                         : "memory");                                            \
        tessera_hal_old_;                                                        \
    })

/* volatile and "memory": a read may receive (a reflex flit) or wait. */
#define TESSERA_HAL_BACKEND_CSR_READ(csr)                                        \
    __extension__({                                                              \
        uint32_t tessera_hal_value_;                                             \
        __asm__ volatile("csrr %0, %1"                                           \
                         : "=r"(tessera_hal_value_)                              \
                         : "i"(csr)                                              \
                         : "memory");                                            \
        tessera_hal_value_;                                                      \
    })

#define TESSERA_HAL_BACKEND_CSR_WRITE(csr, value)                                \
    __asm__ volatile("csrw %0, %1" : : "i"(csr), "r"((uint32_t)(value)) : "memory")

#endif /* TESSERA_HAL_BACKEND_CSR_BACKEND_C_H */
