// libFuzzer target: the sysinfo model (models/sysinfo.c). A
// configuration, often invalid, then reads and writes of any offset by any
// hart id, with time windows turned on and window ends given at any point;
// every answer is checked against the register table of
// tessera/hw/regs.h and the check-in rules of sysinfo.h (docs/fuzzing.md).
//
// Input: a configuration (raw or mostly valid), then operations.
#include <stddef.h>
#include <stdint.h>

#include <vector>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "shape_oracle.h"
#include "tessera/models/sysinfo.h"
#include "tessera/testing/access.h"

namespace {

using tessera::testing::kRunEnds;
using tessera::testing::StatusOrRunEnds;

using fuzz::FuzzInput;

constexpr int kMaxOperations = 4000;
constexpr uint32_t kMaxHarts = 4096;

uint32_t edge_or_small(FuzzInput& in, uint32_t small) {
  static const uint32_t kEdges[] = {0,        1,          2,          3,         5,
                                    16,       65535,      65536,      65537,     1u << 20,
                                    1u << 31, 0x80000001, 0xfffffffe, 0xffffffff};
  const uint8_t b = in.byte();
  if (b < 0xc0) {
    return 1u << (b % (small + 1));
  }
  return b < 0xf0 ? in.pick(kEdges) : in.u32();
}

// sysinfo.h (and sysinfo.c, which also caps every extent at 65536): what
// tessera_sysinfo_new refuses.
bool config_valid(const TesseraSysinfoConfig& c) {
  const TesseraShape& s = c.shape;
  if (!fuzz::shape_numberable(s)) {
    return false;
  }
  const uint64_t per_board =
      uint64_t{s.tiles_x} * s.tiles_y * s.cores_per_tile * s.threads_per_core;
  return uint64_t{TESSERA_CODE_SIZE} + per_board * c.partition_size <= c.dram_size &&
         uint64_t{TESSERA_DRAM_BASE} + c.dram_size <= (uint64_t{1} << 32);
}

class Scenario {
 public:
  Scenario(TesseraSysinfo* model, const TesseraSysinfoConfig& c)
      : model_(model), c_(c), checked_in_(tessera_num_threads(&c.shape), false) {}

  uint32_t harts() const { return static_cast<uint32_t>(checked_in_.size()); }

  // A thread, the host, a hole in the id space, or anything.
  uint32_t pick_id(FuzzInput& in) const {
    switch (in.below(6)) {
      case 0:
      case 1:
      case 2:
        return tessera_thread_at(&c_.shape, in.below(harts()));
      case 3:
        return tessera_host_id(&c_.shape) + in.below(3);
      case 4: {
        TesseraCoords co{};
        co.board_x = in.below(1u << fuzz::log2_ceil(c_.shape.boards_x));
        co.board_y = in.below(c_.shape.boards_y + 1);
        co.tile_x = in.below(c_.shape.tiles_x);
        co.tile_y = in.below(c_.shape.tiles_y);
        co.core = in.below(c_.shape.cores_per_tile);
        co.thread = in.below(c_.shape.threads_per_core);
        return tessera_thread_id(&c_.shape, &co);
      }
      default:
        return in.u32();
    }
  }

  uint32_t count() const { return count_; }

  // With windows, CHECKIN reads the count a window end gave (the machine's, which the
  // fuzzer makes up: over ranks it is every rank's).
  void use_windows() {
    tessera_sysinfo_use_windows(model_);
    windows_ = true;
  }
  void end_window(uint32_t machine_count) {
    tessera_sysinfo_end_window(model_, machine_count);
    at_window_end_ = machine_count;
  }

  void read(uint32_t id, uint32_t offset, bool with_error) {
    uint32_t value = 0xdeadbeef;
    const char* error = nullptr;
    const TesseraAccessStatus a = tessera_access_unpack(
        tessera_sysinfo_read(model_, id, offset), &value, nullptr, with_error ? &error : nullptr);
    uint32_t want = 0;
    if (!exists(id) || offset % 4 != 0 || !expected(id, offset, &want)) {
      FUZZ_CHECK(a == TESSERA_ACCESS_GUEST_ERROR && value == 0 && (!with_error || error),
                 "read of 0x%x by 0x%x: action %d value 0x%x, expected a guest error", offset, id,
                 a, value);
      return;
    }
    FUZZ_CHECK(a == TESSERA_ACCESS_DONE && value == want,
               "read of 0x%x by 0x%x: action %d value 0x%x, expected 0x%x", offset, id, a, value,
               want);
  }

  void write(uint32_t id, uint32_t offset, uint32_t value, bool with_out) {
    int code = 12345;
    const char* error = nullptr;
    const int a = StatusOrRunEnds(tessera_sysinfo_write(model_, id, offset, value),
                                  with_out ? &code : nullptr, with_out ? &error : nullptr);
    if (!exists(id) || offset % 4 != 0 || offset != TESSERA_SYSINFO_CHECKIN) {
      FUZZ_CHECK(a == TESSERA_ACCESS_GUEST_ERROR && (!with_out || error),
                 "write of 0x%x by 0x%x: action %d, expected a guest error", offset, id, a);
      return;
    }
    const uint32_t index = dense(id);
    if (checked_in_[index]) {
      FUZZ_CHECK(a == TESSERA_ACCESS_GUEST_ERROR && (!with_out || error),
                 "second check-in of 0x%x: action %d", id, a);
      return;
    }
    checked_in_[index] = true;
    count_++;
    if (exit_code_ == 0) {
      exit_code_ = static_cast<int>(value);
    }
    if (count_ < harts()) {
      FUZZ_CHECK(a == TESSERA_ACCESS_DONE, "check-in %u of %u: action %d", count_, harts(), a);
      return;
    }
    FUZZ_CHECK(a == kRunEnds && (!with_out || code == exit_code_),
               "last check-in: action %d code %d, expected exit with %d", a, code, exit_code_);
  }

 private:
  bool exists(uint32_t id) const {
    const TesseraCoords co = tessera_coords(&c_.shape, id);
    return co.board_x < c_.shape.boards_x && co.board_y < c_.shape.boards_y;
  }
  uint32_t local(uint32_t id) const {
    const TesseraCoords co = tessera_coords(&c_.shape, id);
    return ((co.tile_y * c_.shape.tiles_x + co.tile_x) * c_.shape.cores_per_tile + co.core) *
               c_.shape.threads_per_core +
           co.thread;
  }
  uint32_t dense(uint32_t id) const {
    const TesseraCoords co = tessera_coords(&c_.shape, id);
    return (co.board_y * c_.shape.boards_x + co.board_x) * tessera_threads_per_board(&c_.shape) +
           local(id);
  }

  // The register table of tessera/hw/regs.h.
  bool expected(uint32_t id, uint32_t offset, uint32_t* value) const {
    const TesseraShape& s = c_.shape;
    switch (offset) {
      case TESSERA_SYSINFO_MAGIC:
        *value = TESSERA_SYSINFO_MAGIC_VALUE;
        return true;
      case TESSERA_SYSINFO_VERSION:
        *value = TESSERA_SYSINFO_VERSION_VALUE;
        return true;
      case TESSERA_SYSINFO_BOARDS_X:
        *value = s.boards_x;
        return true;
      case TESSERA_SYSINFO_BOARDS_Y:
        *value = s.boards_y;
        return true;
      case TESSERA_SYSINFO_TILES_X:
        *value = s.tiles_x;
        return true;
      case TESSERA_SYSINFO_TILES_Y:
        *value = s.tiles_y;
        return true;
      case TESSERA_SYSINFO_CORES_PER_TILE:
        *value = s.cores_per_tile;
        return true;
      case TESSERA_SYSINFO_THREADS_PER_CORE:
        *value = s.threads_per_core;
        return true;
      case TESSERA_SYSINFO_CLOCK_MHZ:
        *value = c_.clock_mhz;
        return true;
      case TESSERA_SYSINFO_DRAM_SIZE:
        *value = c_.dram_size;
        return true;
      case TESSERA_SYSINFO_PARTITION_SIZE:
        *value = c_.partition_size;
        return true;
      case TESSERA_SYSINFO_NUM_HARTS:
        *value = harts();
        return true;
      case TESSERA_SYSINFO_HART_INDEX:
        *value = dense(id);
        return true;
      case TESSERA_SYSINFO_PARTITION_BASE:
        *value = TESSERA_DRAM_BASE + TESSERA_CODE_SIZE + local(id) * c_.partition_size;
        return true;
      case TESSERA_SYSINFO_CHECKIN:
        *value = windows_ ? at_window_end_ : count_;
        return true;
      case TESSERA_SYSINFO_BOARD_LEADER:
        *value = local(id) == 0;
        return true;
      case TESSERA_SYSINFO_HOST_ID:
        *value = tessera_host_id(&s);
        return true;
      case TESSERA_SYSINFO_REFLEX_BUFFER_FLITS:
        *value = c_.reflex_buffer_flits;
        return true;
      case TESSERA_SYSINFO_CPI:
        *value = c_.timing.cpi;
        return true;
      case TESSERA_SYSINFO_TILE_HOP_CYCLES:
        *value = c_.timing.tile_hop_cycles;
        return true;
      case TESSERA_SYSINFO_BOARD_HOP_CYCLES:
        *value = c_.timing.board_hop_cycles;
        return true;
      case TESSERA_SYSINFO_OCBUS_SETTLE_CYCLES:
        *value = c_.timing.ocbus_settle_cycles;
        return true;
      case TESSERA_SYSINFO_REFLEX_HOP_CYCLES:
        *value = c_.timing.reflex_hop_cycles;
        return true;
      case TESSERA_SYSINFO_BARRIER_TILE_X:
        *value = c_.timing.barrier_tile_x;
        return true;
      case TESSERA_SYSINFO_BARRIER_TILE_Y:
        *value = c_.timing.barrier_tile_y;
        return true;
      default:
        return false;
    }
  }

  TesseraSysinfo* model_;
  TesseraSysinfoConfig c_;
  std::vector<bool> checked_in_;
  bool windows_ = false;
  uint32_t at_window_end_ = 0;
  uint32_t count_ = 0;
  int exit_code_ = 0;  // first non-zero status, in check-in order
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  TesseraSysinfoConfig c{};
  const bool raw = in.byte() < 0x20;
  c.shape.boards_x = raw ? edge_or_small(in, 3) : 1 + in.below(8);
  c.shape.boards_y = raw ? edge_or_small(in, 3) : 1 + in.below(8);
  c.shape.tiles_x = edge_or_small(in, 2);
  c.shape.tiles_y = edge_or_small(in, 2);
  c.shape.cores_per_tile = edge_or_small(in, 3);
  c.shape.threads_per_core = edge_or_small(in, 4);
  c.clock_mhz = in.u32();
  c.reflex_buffer_flits = in.u32();
  c.timing = {in.u32(), in.u32(), in.u32(), in.u32(), in.u32(), in.u32(), in.u32()};
  c.partition_size = raw ? in.u32() : in.below(1u << 20);
  const uint64_t needed = uint64_t{TESSERA_CODE_SIZE} +
                          uint64_t{tessera_threads_per_board(&c.shape)} * c.partition_size;
  c.dram_size =
      raw || needed > 0x80000000u ? in.u32() : static_cast<uint32_t>(needed) + in.below(1u << 20);
  const bool valid = config_valid(c);
  TesseraSysinfo* model = tessera_sysinfo_new(&c);
  FUZZ_CHECK((model != nullptr) == valid,
             "tessera_sysinfo_new %s boards %ux%u tiles %ux%u cores %u threads %u dram 0x%x "
             "partition 0x%x",
             model ? "took" : "refused", c.shape.boards_x, c.shape.boards_y, c.shape.tiles_x,
             c.shape.tiles_y, c.shape.cores_per_tile, c.shape.threads_per_core, c.dram_size,
             c.partition_size);
  if (model == nullptr) {
    return 0;
  }
  if (tessera_num_threads(&c.shape) <= kMaxHarts) {
    Scenario scenario(model, c);
    for (int i = 0; i < kMaxOperations && !in.empty(); i++) {
      const uint8_t kind = in.byte();
      const uint32_t id = scenario.pick_id(in);
      const uint32_t offset = in.below(4) == 0 ? in.u32() : in.below(0x48);
      switch (kind % 6) {
        case 0:
        case 1:
          scenario.read(id, offset, in.flag());
          break;
        case 2:
          scenario.write(id, offset, in.u32(), in.flag());
          break;
        case 4:
          scenario.use_windows();
          break;
        case 5:
          // Mostly this model's own count, as in one process; any count, as over ranks.
          scenario.end_window(in.flag() ? scenario.count() : in.u32());
          break;
        default:
          // Check-in, with a status that is mostly 0.
          scenario.write(id, TESSERA_SYSINFO_CHECKIN, in.below(8) == 0 ? in.u32() : 0, in.flag());
          break;
      }
    }
  }
  tessera_sysinfo_free(model);
  return 0;
}
