// Target CSR backend: one inline CSR instruction, CSR number as an immediate. The csrrw and the
// csrr are the C face's (csr_backend_c.h), which C callers reach through tessera/hal/c_api.h.
#pragma once

#include <stdint.h>

#include "tessera/hal/backend/csr_backend_c.h"

namespace tessera::hal::backend {

// CSR numbers whose bits [11:10] are 0b11 are read-only by the privileged spec (mhartid 0xf14,
// cycle 0xc00). Any csrrw to them raises an illegal-instruction exception, even with rs1 = x0,
// so for those the swap is a plain read (csrrs rd, csr, x0) and the value is ignored.
template <uint16_t Csr>
inline constexpr bool kCsrIsReadOnly = ((Csr >> 10) & 0x3) == 0x3;

template <uint16_t Csr>
inline uint32_t csr_swap(uint32_t value) {
  if constexpr (kCsrIsReadOnly<Csr>) {
    uint32_t old;
    (void)value;
    asm volatile("csrr %0, %1" : "=r"(old) : "i"(Csr));
    return old;
  } else {
    return TESSERA_HAL_BACKEND_CSR_SWAP(Csr, value);
  }
}

template <uint16_t Csr>
inline uint32_t csr_read() {
  return TESSERA_HAL_BACKEND_CSR_READ(Csr);
}

}  // namespace tessera::hal::backend
