// msip: every hart drives its own MSWI msip register and reads it back through msip and through
// mip.MSIP, as boards/hosted/mswi_device_test.cc does on the host machine. Interrupts stay disabled
// (mie = 0), so a pending MSIP is only seen, never taken. Hart 0 also reads the msip one past
// its board's last hart, which reads 0 (and is logged as a guest error).
//
// Exit status (first failing hart's): 0 all good; otherwise the number of the step below that
// read something else.
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/csr.h"
#include "tessera/hal/mmio.h"
#include "tessera/hw/regs.h"
#include "tessera/print.h"

namespace {

bool msip_pending() {
  return (tessera::hal::csr_read<TESSERA_CSR_MIP>() & TESSERA_MIP_MSIP) != 0;
}

int check_own_msip(uint32_t msip) {
  if (tessera::hal::mmio_read32(msip) != 0) {
    return 1;
  }
  if (msip_pending()) {
    return 2;
  }
  tessera::hal::mmio_write32(msip, 1);
  if (tessera::hal::mmio_read32(msip) != 1) {
    return 3;
  }
  if (!msip_pending()) {
    return 4;
  }
  tessera::hal::mmio_write32(msip, 0xffff'fffeu);  // bit 0 clear: only bit 0 counts
  if (tessera::hal::mmio_read32(msip) != 0) {
    return 5;
  }
  if (msip_pending()) {
    return 6;
  }
  return 0;
}

}  // namespace

int main() {
  const tessera::drivers::Sysinfo sysinfo;
  const TesseraShape shape = sysinfo.shape();
  const uint32_t per_board = tessera_threads_per_board(&shape);
  const uint32_t index = sysinfo.hart_index();
  const uint32_t board_base = TESSERA_MSWI_BASE + index / per_board * TESSERA_MSWI_STRIDE;

  const int failed = check_own_msip(board_base + 4 * (index % per_board));
  if (failed != 0) {
    tessera::printf("msip: hart %u failed step %d\n", static_cast<unsigned>(index), failed);
    return failed;
  }
  if (index == 0 && tessera::hal::mmio_read32(board_base + 4 * per_board) != 0) {
    tessera::printf("msip: the msip past the board's last hart read non-zero\n");
    return 7;
  }
  tessera::printf("msip: hart %u ok\n", static_cast<unsigned>(index));
  return 0;
}
