// CSR access facade. The backend (target: inline csrrw; host: device models
// of the current hart) is chosen at build time by the include path; there is
// no virtual call on the target.
#pragma once

#include <stdint.h>

#include "tessera/hal/backend/csr_backend.h"

namespace tessera::hal {

// csrrw rd, Csr, value: writes value, returns the old value.
template <uint16_t Csr>
inline uint32_t csr_swap(uint32_t value) {
  return backend::csr_swap<Csr>(value);
}

// csrr rd, Csr (csrrs with x0): reads without writing, which a device may tell apart from a
// write of 0 (a reflex switch's ROUTE and NEXT; its read-only CSRs refuse writes).
template <uint16_t Csr>
inline uint32_t csr_read() {
  return backend::csr_read<Csr>();
}

template <uint16_t Csr>
inline void csr_write(uint32_t value) {
  (void)backend::csr_swap<Csr>(value);
}

}  // namespace tessera::hal
