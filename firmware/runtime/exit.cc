#include "tessera/exit.h"

#include "machine.h"
#include "tessera/drivers/console.h"
#include "tessera/drivers/exit.h"

namespace tessera {

void exit(int code) {
  drivers::Console().flush();
  const drivers::ExitDevice exit_device;
  if (code == 0) {
    exit_device.pass();
  } else {
    // exit_status() of a non-zero code is always in the device's 1..255.
    (void)exit_device.fail(exit_status(code));
  }
  runtime::machine::park();  // the device write does not stop this hart by itself
}

void reboot() {
  drivers::Console().flush();
  drivers::ExitDevice().reset();
  runtime::machine::park();  // until the reset takes this hart
}

}  // namespace tessera
