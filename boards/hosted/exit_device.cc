#include "exit_device.h"

#include <string>

#include "bus_error.h"
#include "tessera/host/machine.h"
#include "tessera/models/exit.h"

namespace tessera::host {

std::optional<MmioWindow> ExitDevice::mmio_window() const {
  return MmioWindow{TESSERA_EXIT_BASE, TESSERA_EXIT_SIZE};
}

uint32_t ExitDevice::mmio_read32(Hart& hart, uint32_t offset) {
  return complete(hart, tessera_exit_read(offset), {AccessSite::Kind::kRead, offset, 0});
}

// The model holds no state, so this device needs no lock.
void ExitDevice::mmio_write32(Hart& hart, uint32_t offset, uint32_t value) {
  const TesseraAccess access = tessera_exit_write(offset, value);
  switch (access.effect) {
    case TESSERA_EFFECT_END_RUN:
      // A guest error here only explains the status (FAIL with code 0 -> 1).
      machine_.end_run(access.code);
      throw MachineExit(access.code);
    case TESSERA_EFFECT_RESET:
      throw_bus_error(hart, "exit device: reset (" + hex32(value) +
                                ") requested; the host machine cannot reboot");
    default:
      (void)complete(hart, access, {AccessSite::Kind::kWrite, offset, value});
  }
}

}  // namespace tessera::host
