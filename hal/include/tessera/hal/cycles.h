// The hart's modelled 64-bit cycle count (docs/machine.md, "Modelled time").
#pragma once

#include <stdint.h>

#include "tessera/hal/csr.h"
#include "tessera/hw/regs.h"

namespace tessera::hal {

// Reads cycleh, cycle, cycleh again; a carry between the two words shows as a changed high
// word and the read is repeated (at most once in practice).
inline uint64_t cycle_count() {
  for (;;) {
    const uint32_t high = csr_read<TESSERA_CSR_CYCLEH>();
    const uint32_t low = csr_read<TESSERA_CSR_CYCLE>();
    if (csr_read<TESSERA_CSR_CYCLEH>() == high) {
      return static_cast<uint64_t>(high) << 32 | low;
    }
  }
}

}  // namespace tessera::hal
