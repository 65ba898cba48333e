// Board backend of the HAL's CSR facade (docs/boards.md): a dev board has none of Tessera's
// custom CSRs, so every access through the facade goes to the board's software services
// (boards/services/services.cc), which answer for the hart id, the cycle counter and mip from
// the real CSRs and for the Tessera devices in software.
#pragma once

#include <stdint.h>

extern "C" uint32_t tessera_board_csr(uint32_t csr, uint32_t value, int write);

namespace tessera::hal::backend {

template <uint16_t Csr>
inline uint32_t csr_swap(uint32_t value) {
  return tessera_board_csr(Csr, value, 1);
}

template <uint16_t Csr>
inline uint32_t csr_read() {
  return tessera_board_csr(Csr, 0, 0);
}

}  // namespace tessera::hal::backend
