// Board backend of the HAL's CSR facade (docs/boards.md): a dev board has none of Tessera's
// custom CSRs, so every access through the facade goes to the board's software services
// (boards/services/services.cc), which answer for the hart id, the cycle counter and mip from
// the real CSRs and for the Tessera devices in software. The entry is the C face's
// (csr_backend_c.h), which C callers reach through tessera/hal/c_api.h.
#pragma once

#include <stdint.h>

#include "tessera/hal/backend/csr_backend_c.h"

namespace tessera::hal::backend {

template <uint16_t Csr>
inline uint32_t csr_swap(uint32_t value) {
  return TESSERA_HAL_BACKEND_CSR_SWAP(Csr, value);
}

template <uint16_t Csr>
inline uint32_t csr_read() {
  return TESSERA_HAL_BACKEND_CSR_READ(Csr);
}

}  // namespace tessera::hal::backend
