// Machine software interrupts over one MSWI model (models/mswi.c) per
// board, at the QEMU machine's addresses: board b's msip registers start at
// TESSERA_MSWI_BASE + b * TESSERA_MSWI_STRIDE. A hart's msip reads back as
// mip.MSIP through CSR TESSERA_CSR_MIP, as on QEMU.
//
// What the host machine does not do: it delivers no interrupt (there is no
// trap and no wfi to wake), so a set msip only shows in msip and mip; the
// other mip bits read as 0, and writes to mip change nothing (MSIP is
// read-only there, and the machine has no other pending bit to write).
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "tessera/host/device.h"
#include "tessera/hw/regs.h"
#include "tessera/models/mswi.h"

namespace tessera::host {

class MswiDevice final : public Device {
 public:
  // Throws std::invalid_argument if a board has more harts than its MSWI
  // block holds (TESSERA_MSWI_MAX_HARTS).
  explicit MswiDevice(const TesseraShape& shape);

  std::string_view name() const override { return "mswi"; }
  std::optional<MmioWindow> mmio_window() const override;
  std::vector<uint16_t> csrs() const override;
  uint32_t mmio_read32(Hart& hart, uint32_t offset) override;
  void mmio_write32(Hart& hart, uint32_t offset, uint32_t value) override;
  // mip: MSIP of the calling hart's msip; the written value is ignored.
  uint32_t csr_swap(Hart& hart, uint16_t csr, uint32_t value) override;

 private:
  struct ModelDeleter {
    void operator()(TesseraMswi* m) const { tessera_mswi_free(m); }
  };

  uint32_t harts_per_board_;
  std::mutex mutex_;  // guards the models
  std::vector<std::unique_ptr<TesseraMswi, ModelDeleter>> boards_;
};

}  // namespace tessera::host
