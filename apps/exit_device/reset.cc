// exit_reset: a guest reset through the exit device reboots the machine. Hart 0 prints which
// boot it is in, resets the machine on the first and passes on the second. Which boot it is
// comes from a marker in .noinit, which the image does not load, so a reset leaves it as it was
// (linker/tessera.ld). The other harts return 0; hart 0 never checks in, so only the exit device
// ends the run.
#include <stdint.h>

#include "tessera/exit.h"
#include "tessera/hal/csr.h"
#include "tessera/hal/mmio.h"
#include "tessera/hw/regs.h"
#include "tessera/print.h"

namespace {

constexpr uint32_t kRebooted = 0x7e55'b007u;

// Zero at the first boot on QEMU; anything but kRebooted counts as a first boot.
__attribute__((section(".noinit"))) volatile uint32_t boot_marker;

}  // namespace

int main() {
  if (tessera::hal::csr_read<TESSERA_CSR_HART_ID>() != 0) {
    return 0;
  }
  if (boot_marker != kRebooted) {
    boot_marker = kRebooted;
    tessera::printf("exit_reset: boot 1, resetting\n");
    tessera::reboot();
  }
  tessera::printf("exit_reset: boot 2\n");
  tessera::exit(0);
}
