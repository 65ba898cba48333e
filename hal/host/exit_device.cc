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
  uint32_t value = 0;
  const char* error = nullptr;
  if (tessera_exit_read(offset, &value, &error) == TESSERA_EXIT_ACTION_GUEST_ERROR) {
    throw_guest_error(hart, error, offset);
  }
  return value;
}

// The model holds no state, so this device needs no lock.
void ExitDevice::mmio_write32(Hart& hart, uint32_t offset, uint32_t value) {
  int code = 0;
  const char* error = nullptr;
  switch (tessera_exit_write(offset, value, &code, &error)) {
    case TESSERA_EXIT_ACTION_END:
      // error, if any, only explains the status (FAIL with code 0 -> 1).
      machine_.end_run(code);
      throw MachineExit(code);
    case TESSERA_EXIT_ACTION_RESET:
      throw_bus_error(hart, "exit device: reset (" + hex32(value) +
                                ") requested; the host machine cannot reboot");
    case TESSERA_EXIT_ACTION_NONE:
      return;
    case TESSERA_EXIT_ACTION_GUEST_ERROR:
      break;
  }
  throw_bus_error(hart,
                  std::string(error) + " (" + hex32(value) + " at offset " + hex32(offset) + ")");
}

}  // namespace tessera::host
