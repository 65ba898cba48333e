#include "exit_device.h"

#include "bus_error.h"
#include "tessera/host/machine.h"

namespace tessera::host {

std::optional<MmioWindow> ExitDevice::mmio_window() const {
  return MmioWindow{TESSERA_EXIT_BASE, TESSERA_EXIT_SIZE};
}

void ExitDevice::mmio_write32(Hart& hart, uint32_t offset, uint32_t value) {
  if (offset != 0) {
    throw_bus_error(hart, "exit device has no register at offset " + hex32(offset));
  }
  int code;
  if (value == TESSERA_EXIT_PASS) {
    code = 0;
  } else if ((value & 0xffffu) == TESSERA_EXIT_FAIL) {
    // A failure must never read as success, even with code 0.
    code = (value >> 16) != 0 ? static_cast<int>(value >> 16) : 1;
  } else {
    throw_bus_error(hart, "exit device: " + hex32(value) + " is neither PASS nor FAIL");
  }
  machine_.end_run(code);
  throw MachineExit(code);
}

}  // namespace tessera::host
