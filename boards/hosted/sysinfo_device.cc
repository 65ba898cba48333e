#include "sysinfo_device.h"

#include <stdexcept>

#include "bus_error.h"
#include "tessera/host/machine.h"

namespace tessera::host {

SysinfoDevice::SysinfoDevice(Machine& machine, const TesseraSysinfoConfig& config)
    : machine_(machine), model_(tessera_sysinfo_new(&config)) {
  if (model_ == nullptr) {
    throw std::invalid_argument(
        "tessera host: the sysinfo model rejects this shape or these parameters "
        "(see tessera_sysinfo_new)");
  }
}

SysinfoDevice::~SysinfoDevice() {
  tessera_sysinfo_free(model_);
}

std::optional<MmioWindow> SysinfoDevice::mmio_window() const {
  return MmioWindow{TESSERA_SYSINFO_BASE, TESSERA_SYSINFO_SIZE};
}

uint32_t SysinfoDevice::mmio_read32(Hart& hart, uint32_t offset) {
  std::lock_guard lock(mutex_);
  return complete(hart, tessera_sysinfo_read(model_, hart.id(), offset),
                  {AccessSite::Kind::kRead, offset, 0});
}

void SysinfoDevice::mmio_write32(Hart& hart, uint32_t offset, uint32_t value) {
  TesseraAccess access;
  {
    std::lock_guard lock(mutex_);
    access = tessera_sysinfo_write(model_, hart.id(), offset, value);
  }
  (void)complete(hart, access, {AccessSite::Kind::kWrite, offset, value});
  if (access.effect == TESSERA_EFFECT_END_RUN) {
    // Unlike the exit device this does not stop the hart: checking in is
    // the end of its work, and the harts that checked in before it went
    // on running too.
    machine_.end_run(access.code);
  }
}

}  // namespace tessera::host
