#include "mswi_device.h"

#include <stdexcept>
#include <string>

#include "bus_error.h"
#include "tessera/host/hart.h"

namespace tessera::host {

MswiDevice::MswiDevice(const TesseraShape& shape)
    : harts_per_board_(tessera_threads_per_board(&shape)) {
  const uint32_t boards = shape.boards_x * shape.boards_y;
  for (uint32_t b = 0; b < boards; b++) {
    boards_.emplace_back(tessera_mswi_new(harts_per_board_));
    if (boards_.back() == nullptr) {
      throw std::invalid_argument("tessera host: " + std::to_string(harts_per_board_) +
                                  " threads per board; an MSWI block holds at most " +
                                  std::to_string(TESSERA_MSWI_MAX_HARTS));
    }
  }
}

std::optional<MmioWindow> MswiDevice::mmio_window() const {
  return MmioWindow{TESSERA_MSWI_BASE, static_cast<uint32_t>(boards_.size()) * TESSERA_MSWI_STRIDE};
}

std::vector<uint16_t> MswiDevice::csrs() const {
  return {TESSERA_CSR_MIP};
}

uint32_t MswiDevice::mmio_read32(Hart& hart, uint32_t offset) {
  std::lock_guard lock(mutex_);
  return complete(
      hart,
      tessera_mswi_read(boards_[offset / TESSERA_MSWI_STRIDE].get(), offset % TESSERA_MSWI_STRIDE),
      {AccessSite::Kind::kRead, offset, 0});
}

void MswiDevice::mmio_write32(Hart& hart, uint32_t offset, uint32_t value) {
  std::lock_guard lock(mutex_);
  // Nothing to raise (the effect): a pending msip is read through mip when asked.
  (void)complete(hart,
                 tessera_mswi_write(boards_[offset / TESSERA_MSWI_STRIDE].get(),
                                    offset % TESSERA_MSWI_STRIDE, value),
                 {AccessSite::Kind::kWrite, offset, value});
}

uint32_t MswiDevice::csr_swap(Hart& hart, uint16_t csr, uint32_t value) {
  if (csr != TESSERA_CSR_MIP) {
    return Device::csr_swap(hart, csr, value);
  }
  std::lock_guard lock(mutex_);
  const bool pending = tessera_mswi_pending(boards_[hart.index() / harts_per_board_].get(),
                                            hart.index() % harts_per_board_);
  return pending ? TESSERA_MIP_MSIP : 0;
}

}  // namespace tessera::host
