#include "tessera/host/device.h"

#include <string>

#include "bus_error.h"

namespace tessera::host {

std::vector<uint16_t> csrs_where(int (*is)(uint32_t csr)) {
  constexpr uint32_t kCsrCount = 4096;  // 12-bit CSR numbers
  std::vector<uint16_t> csrs;
  for (uint32_t csr = 0; csr < kCsrCount; csr++) {
    if (is(csr)) {
      csrs.push_back(static_cast<uint16_t>(csr));
    }
  }
  return csrs;
}

uint32_t Device::mmio_read32(Hart& hart, uint32_t offset) {
  throw_bus_error(hart,
                  std::string(name()) + " has no readable register at offset " + hex32(offset));
}

void Device::mmio_write32(Hart& hart, uint32_t offset, uint32_t) {
  throw_bus_error(hart,
                  std::string(name()) + " has no writable register at offset " + hex32(offset));
}

uint32_t Device::csr_swap(Hart& hart, uint16_t csr, uint32_t) {
  throw_bus_error(hart, std::string(name()) + " does not implement CSR " + hex32(csr));
}

}  // namespace tessera::host
