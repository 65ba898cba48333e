// CSRs every hart has on its own: its id and its cycle counter.
#pragma once

#include "tessera/host/device.h"

namespace tessera::host {

class CoreCsrs final : public Device {
 public:
  std::string_view name() const override { return "core CSRs"; }
  std::vector<uint16_t> csrs() const override;
  // Read-only: the written value is ignored, as csrr would write none.
  uint32_t csr_swap(Hart& hart, uint16_t csr, uint32_t value) override;
};

}  // namespace tessera::host
