// Sysinfo driver: typed access to the machine-facts block (TESSERA_SYSINFO_* in regs.h) and to
// the boot check-in register.
//
// Registers marked "per hart" answer for the hart that reads them. The driver caches nothing, so
// one instance may be shared by every hart.
#pragma once

#include <stdint.h>

#include "tessera/hw/regs.h"
#include "tessera/status.h"

namespace tessera::drivers {

class Sysinfo {
 public:
  constexpr explicit Sysinfo(uint32_t base_address = TESSERA_SYSINFO_BASE)
      : base_address_(base_address) {}

  // OK if the block carries the expected magic and a version this driver understands;
  // DataLoss for a wrong magic (nothing or something else at this address), Unimplemented for
  // another version.
  [[nodiscard]] Status check_identity() const;

  uint32_t magic() const { return read(TESSERA_SYSINFO_MAGIC); }
  uint32_t version() const { return read(TESSERA_SYSINFO_VERSION); }

  uint32_t boards_x() const { return read(TESSERA_SYSINFO_BOARDS_X); }
  uint32_t boards_y() const { return read(TESSERA_SYSINFO_BOARDS_Y); }
  uint32_t tiles_x() const { return read(TESSERA_SYSINFO_TILES_X); }
  uint32_t tiles_y() const { return read(TESSERA_SYSINFO_TILES_Y); }
  uint32_t cores_per_tile() const { return read(TESSERA_SYSINFO_CORES_PER_TILE); }
  uint32_t threads_per_core() const { return read(TESSERA_SYSINFO_THREADS_PER_CORE); }
  // The six extents above, in the form the thread-id helpers of regs.h take.
  TesseraShape shape() const;

  uint32_t clock_mhz() const { return read(TESSERA_SYSINFO_CLOCK_MHZ); }
  uint32_t dram_size() const { return read(TESSERA_SYSINFO_DRAM_SIZE); }
  uint32_t partition_size() const { return read(TESSERA_SYSINFO_PARTITION_SIZE); }
  uint32_t num_harts() const { return read(TESSERA_SYSINFO_NUM_HARTS); }
  uint32_t host_id() const { return read(TESSERA_SYSINFO_HOST_ID); }
  // Flits in each core's inbound and outbound reflex buffer (B, docs/reflex.md).
  uint32_t reflex_buffer_flits() const { return read(TESSERA_SYSINFO_REFLEX_BUFFER_FLITS); }

  // Modelled timing: the machine properties of the same names (docs/machine.md).
  uint32_t cpi() const { return read(TESSERA_SYSINFO_CPI); }
  uint32_t tile_hop_cycles() const { return read(TESSERA_SYSINFO_TILE_HOP_CYCLES); }
  uint32_t board_hop_cycles() const { return read(TESSERA_SYSINFO_BOARD_HOP_CYCLES); }
  uint32_t ocbus_settle_cycles() const { return read(TESSERA_SYSINFO_OCBUS_SETTLE_CYCLES); }
  uint32_t reflex_hop_cycles() const { return read(TESSERA_SYSINFO_REFLEX_HOP_CYCLES); }
  // The barrier controller's tile in the global tile grid.
  uint32_t barrier_tile_x() const { return read(TESSERA_SYSINFO_BARRIER_TILE_X); }
  uint32_t barrier_tile_y() const { return read(TESSERA_SYSINFO_BARRIER_TILE_Y); }
  // All of the above.
  TesseraTiming timing() const;

  // Per hart: dense index 0..num_harts()-1 (tessera_dense_index of the caller's thread id).
  uint32_t hart_index() const { return read(TESSERA_SYSINFO_HART_INDEX); }
  // Per hart: start of the caller's stack+heap partition of partition_size() bytes.
  uint32_t partition_base() const { return read(TESSERA_SYSINFO_PARTITION_BASE); }
  // Per hart: true for the first hart of each board, which prepares the board's image.
  bool board_leader() const { return read(TESSERA_SYSINFO_BOARD_LEADER) != 0; }

  // Reports the caller's final status (0 = success) once its work is done. When every hart has
  // checked in the machine ends the run: success if all reported 0, else the first non-zero
  // status. A hart checks in once; the device ignores a second check-in.
  void check_in(uint32_t status) const;
  // How many harts have checked in so far.
  uint32_t checked_in_count() const { return read(TESSERA_SYSINFO_CHECKIN); }

 private:
  uint32_t read(uint32_t offset) const;

  uint32_t base_address_;
};

}  // namespace tessera::drivers
