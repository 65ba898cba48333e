#include "tessera/drivers/sysinfo.h"

#include "tessera/hal/mmio.h"

namespace tessera::drivers {

Status Sysinfo::check_identity() const {
  if (magic() != TESSERA_SYSINFO_MAGIC_VALUE) {
    return Status::DataLoss();
  }
  if (version() != TESSERA_SYSINFO_VERSION_VALUE) {
    return Status::Unimplemented();
  }
  return OkStatus();
}

TesseraShape Sysinfo::shape() const {
  TesseraShape shape;
  shape.boards_x = boards_x();
  shape.boards_y = boards_y();
  shape.tiles_x = tiles_x();
  shape.tiles_y = tiles_y();
  shape.cores_per_tile = cores_per_tile();
  shape.threads_per_core = threads_per_core();
  return shape;
}

TesseraTiming Sysinfo::timing() const {
  TesseraTiming t;
  t.cpi = cpi();
  t.tile_hop_cycles = tile_hop_cycles();
  t.board_hop_cycles = board_hop_cycles();
  t.ocbus_settle_cycles = ocbus_settle_cycles();
  t.reflex_hop_cycles = reflex_hop_cycles();
  t.barrier_tile_x = barrier_tile_x();
  t.barrier_tile_y = barrier_tile_y();
  return t;
}

void Sysinfo::check_in(uint32_t status) const {
  hal::mmio_write32(base_address_ + TESSERA_SYSINFO_CHECKIN, status);
}

uint32_t Sysinfo::read(uint32_t offset) const {
  return hal::mmio_read32(base_address_ + offset);
}

}  // namespace tessera::drivers
