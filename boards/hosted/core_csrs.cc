#include "core_csrs.h"

#include "tessera/host/hart.h"
#include "tessera/host/machine.h"
#include "tessera/hw/regs.h"

namespace tessera::host {

std::vector<uint16_t> CoreCsrs::csrs() const {
  return {TESSERA_CSR_HART_ID, TESSERA_CSR_CYCLE, TESSERA_CSR_CYCLEH};
}

uint32_t CoreCsrs::csr_swap(Hart& hart, uint16_t csr, uint32_t value) {
  switch (csr) {
    case TESSERA_CSR_HART_ID:
      return hart.id();
    case TESSERA_CSR_CYCLE:
      return static_cast<uint32_t>(hart.cycles());
    case TESSERA_CSR_CYCLEH:
      return static_cast<uint32_t>(hart.cycles() >> 32);
    default:
      return Device::csr_swap(hart, csr, value);
  }
}

}  // namespace tessera::host
