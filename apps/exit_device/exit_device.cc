// exit_<case>: hart 0 writes EXIT_COMMAND | EXIT_CODE << 16 to the exit device as it is, without
// the exit driver (which refuses FAIL with code 0), then waits for the end. The other harts return
// 0, which cannot end the run because hart 0 never checks in: only the exit device can end it, with
// the status tests/qemu expects. A device that ignored the write would leave the run hanging.
#include <stdint.h>

#include "tessera/hal/csr.h"
#include "tessera/hal/mmio.h"
#include "tessera/hw/regs.h"

int main() {
  if (tessera::hal::csr_read<TESSERA_CSR_HART_ID>() != 0) {
    return 0;
  }
  tessera::hal::mmio_write32(TESSERA_EXIT_BASE, EXIT_COMMAND | (EXIT_CODE << 16));
  for (;;) {
    asm volatile("wfi");  // no interrupt is enabled: only the end of the run stops this hart
  }
}
