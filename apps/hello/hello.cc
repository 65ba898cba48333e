// hello: every hart introduces itself and checks that the machine agrees on who it is.
//
// Exit status (first failing hart's): 0 all good; 1 sysinfo block missing or of another
// version; 2 NUM_HARTS disagrees with the shape; 3 thread id outside the shape; 4 HART_INDEX is
// not tessera_dense_index(shape, id).
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/csr.h"
#include "tessera/hw/regs.h"
#include "tessera/print.h"

namespace {

enum HelloResult : int {
  kOk = 0,
  kNoSysinfo = 1,
  kHartCountMismatch = 2,
  kThreadOutsideShape = 3,
  kHartIndexMismatch = 4,
};

}  // namespace

int main() {
  const tessera::drivers::Sysinfo sysinfo;
  const uint32_t id = tessera::hal::csr_read<TESSERA_CSR_HART_ID>();

  if (!sysinfo.check_identity().ok()) {
    tessera::printf("FAIL thread 0x%" PRIx32 ": no sysinfo block (magic 0x%08" PRIx32
                    ", version %" PRIu32 ")\n",
                    id, sysinfo.magic(), sysinfo.version());
    return kNoSysinfo;
  }

  const TesseraShape shape = sysinfo.shape();
  const TesseraCoords at = tessera_coords(&shape, id);
  tessera::printf("hello from thread 0x%" PRIx32 ": board (%" PRIu32 ",%" PRIu32 ") tile (%" PRIu32
                  ",%" PRIu32 ") core %" PRIu32 " thread %" PRIu32 "\n",
                  id, at.board_x, at.board_y, at.tile_x, at.tile_y, at.core, at.thread);
  if (sysinfo.hart_index() == 0) {
    // The timing facts, once: what firmware that predicts its own costs reads.
    tessera::printf("machine timing: cpi %" PRIu32 ", tile hop %" PRIu32 ", board hop %" PRIu32
                    ", ocbus settle %" PRIu32 ", reflex hop %" PRIu32
                    ", barrier controller at tile (%" PRIu32 ",%" PRIu32 ")\n",
                    sysinfo.cpi(), sysinfo.tile_hop_cycles(), sysinfo.board_hop_cycles(),
                    sysinfo.ocbus_settle_cycles(), sysinfo.reflex_hop_cycles(),
                    sysinfo.barrier_tile_x(), sysinfo.barrier_tile_y());
  }

  if (sysinfo.num_harts() != tessera_num_threads(&shape)) {
    tessera::printf("FAIL thread 0x%" PRIx32 ": NUM_HARTS %" PRIu32 " but the shape has %" PRIu32
                    " threads\n",
                    id, sysinfo.num_harts(), tessera_num_threads(&shape));
    return kHartCountMismatch;
  }
  if (!tessera_thread_exists(&shape, id)) {
    tessera::printf("FAIL thread 0x%" PRIx32 ": outside the shape\n", id);
    return kThreadOutsideShape;
  }
  const uint32_t expected_index = tessera_dense_index(&shape, id);
  if (sysinfo.hart_index() != expected_index) {
    tessera::printf("FAIL thread 0x%" PRIx32 ": HART_INDEX %" PRIu32 ", expected %" PRIu32 "\n", id,
                    sysinfo.hart_index(), expected_index);
    return kHartIndexMismatch;
  }
  return kOk;
}
