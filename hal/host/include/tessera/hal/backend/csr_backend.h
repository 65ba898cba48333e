// Host backend of the CSR facade: every CSR access goes to the device
// models of the host machine, on behalf of the hart bound to the calling
// thread (tessera::host::HartScope).
#pragma once

#include <stdint.h>

namespace tessera::hal::backend {

// Defined by tessera_hal_host; throws std::logic_error for a CSR that no
// device implements or when the calling thread is bound to no hart.
uint32_t host_csr_swap(uint16_t csr, uint32_t value);
// csrr: a read that writes nothing.
uint32_t host_csr_read(uint16_t csr);

template <uint16_t Csr>
inline uint32_t csr_swap(uint32_t value) {
  return host_csr_swap(Csr, value);
}

template <uint16_t Csr>
inline uint32_t csr_read() {
  return host_csr_read(Csr);
}

}  // namespace tessera::hal::backend
