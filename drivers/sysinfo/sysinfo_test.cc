// The sysinfo driver on the host machine: every hart reads the shape and
// its own facts from inside its HartScope; check-in ends the run.
#include "tessera/drivers/sysinfo.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>

#include "tessera/hal/csr.h"
#include "tessera/host/machine.h"
#include "tessera/testing/shapes.h"

namespace tessera::drivers {
namespace {

using host::Hart;
using host::HartScope;
using host::Machine;

class SysinfoDriverTest : public ::testing::TestWithParam<TesseraShape> {};

TEST_P(SysinfoDriverTest, EveryHartReadsTheShapeAndItsOwnFacts) {
  const TesseraShape shape = GetParam();
  host::MachineParams params;
  params.clock_mhz = 240;
  params.partition_size = 16u << 10;
  Machine machine(shape, params);

  std::mutex mutex;
  std::set<uint32_t> indices;
  std::set<uint32_t> partitions;  // (board-local) bases
  uint32_t leaders = 0;
  machine.run_on_all_harts([&](Hart& hart) {
    const Sysinfo sysinfo;
    EXPECT_TRUE(sysinfo.check_identity().ok());
    const TesseraShape seen = sysinfo.shape();
    EXPECT_EQ(seen.boards_x, shape.boards_x);
    EXPECT_EQ(seen.boards_y, shape.boards_y);
    EXPECT_EQ(seen.tiles_x, shape.tiles_x);
    EXPECT_EQ(seen.tiles_y, shape.tiles_y);
    EXPECT_EQ(seen.cores_per_tile, shape.cores_per_tile);
    EXPECT_EQ(seen.threads_per_core, shape.threads_per_core);
    EXPECT_EQ(sysinfo.num_harts(), tessera_num_threads(&shape));
    EXPECT_EQ(sysinfo.clock_mhz(), 240u);
    EXPECT_EQ(sysinfo.partition_size(), 16u << 10);
    EXPECT_EQ(sysinfo.host_id(), tessera_host_id(&shape));
    EXPECT_EQ(sysinfo.reflex_buffer_flits(), uint32_t{TESSERA_DEFAULT_reflex_buffer_flits});
    EXPECT_EQ(sysinfo.cpi(), uint32_t{TESSERA_DEFAULT_cpi});
    EXPECT_EQ(sysinfo.tile_hop_cycles(), uint32_t{TESSERA_DEFAULT_tile_hop_cycles});
    EXPECT_EQ(sysinfo.board_hop_cycles(), uint32_t{TESSERA_DEFAULT_board_hop_cycles});
    EXPECT_EQ(sysinfo.ocbus_settle_cycles(), uint32_t{TESSERA_DEFAULT_ocbus_settle_cycles});
    EXPECT_EQ(sysinfo.reflex_hop_cycles(), uint32_t{TESSERA_DEFAULT_reflex_hop_cycles});
    EXPECT_EQ(sysinfo.barrier_tile_x(), uint32_t{TESSERA_DEFAULT_barrier_tile_x});
    EXPECT_EQ(sysinfo.barrier_tile_y(), uint32_t{TESSERA_DEFAULT_barrier_tile_y});

    // What firmware does at boot: its own id from the CSR, the rest from
    // sysinfo.
    const uint32_t id = hal::csr_read<TESSERA_CSR_HART_ID>();
    EXPECT_EQ(id, hart.id());
    const uint32_t index = sysinfo.hart_index();
    EXPECT_EQ(index, tessera_dense_index(&shape, id));
    const uint32_t local = index % tessera_threads_per_board(&shape);
    const uint32_t base = sysinfo.partition_base();
    EXPECT_EQ(base, TESSERA_DRAM_BASE + TESSERA_CODE_SIZE + local * (16u << 10));
    EXPECT_LE(uint64_t{base} + sysinfo.partition_size(),
              uint64_t{TESSERA_DRAM_BASE} + sysinfo.dram_size());
    EXPECT_EQ(sysinfo.board_leader(), local == 0);

    std::lock_guard lock(mutex);
    indices.insert(index);
    partitions.insert(base);
    leaders += sysinfo.board_leader() ? 1 : 0;
  });

  EXPECT_EQ(indices.size(), machine.num_harts());
  EXPECT_EQ(partitions.size(), tessera_threads_per_board(&shape));
  EXPECT_EQ(leaders, shape.boards_x * shape.boards_y);
}

INSTANTIATE_TEST_SUITE_P(Shapes, SysinfoDriverTest,
                         ::testing::Values(TesseraShape{1, 1, 1, 1, 1, 1},  // a single hart
                                           TesseraShape{3, 2, 1, 1, 2, 2},  // 3x2 boards
                                           TesseraShape{1, 1, 2, 2, 4, 4},  // one board of 64
                                           TesseraShape{2, 3, 2, 1, 1, 2}),
                         tessera::testing::ShapeTestName);

// 3x2 boards of 2 harts each.
constexpr TesseraShape kTwelveHarts{3, 2, 1, 1, 1, 2};

TEST(SysinfoDriverCheckIn, AllHartsCheckingInAtOnceEndTheRunWithSuccess) {
  Machine machine(kTwelveHarts);
  machine.run_on_all_harts([](Hart&) { Sysinfo().check_in(0); });
  EXPECT_EQ(machine.exit_code(), 0);
  HartScope scope(machine, 0);
  EXPECT_EQ(Sysinfo().checked_in_count(), 12u);
}

TEST(SysinfoDriverCheckIn, AWholeReferenceBoardChecksIn) {
  Machine machine({1, 1, 4, 4, 4, 16});  // 1,024 harts, 1,024 host threads
  machine.run_on_all_harts([](Hart&) {
    const Sysinfo sysinfo;
    sysinfo.check_in(sysinfo.hart_index() < sysinfo.num_harts() ? 0 : 1);
  });
  EXPECT_EQ(machine.exit_code(), 0);
}

TEST(SysinfoDriverCheckIn, RunEndsAfterTheLastHartWithTheFirstNonZeroStatus) {
  Machine machine(kTwelveHarts);
  const std::vector<uint32_t> ids = machine.thread_ids();
  for (size_t i = 0; i < ids.size(); i++) {
    HartScope scope(machine, ids[ids.size() - 1 - i]);  // last hart first
    EXPECT_FALSE(machine.exit_code().has_value()) << "before check-in " << i;
    Sysinfo().check_in(i == 4 ? 42 : i == 7 ? 43 : 0);
    EXPECT_EQ(Sysinfo().checked_in_count(), i + 1);
  }
  EXPECT_EQ(machine.exit_code(), 42);
}

TEST(SysinfoDriverCheckIn, SecondCheckInOfAHartIsAnError) {
  Machine machine(kTwelveHarts);
  HartScope scope(machine, 0);
  const Sysinfo sysinfo;
  sysinfo.check_in(0);
  try {
    sysinfo.check_in(0);
    ADD_FAILURE() << "a second check-in was accepted";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("twice"), std::string::npos) << e.what();
  }
  EXPECT_EQ(sysinfo.checked_in_count(), 1u);
  EXPECT_FALSE(machine.exit_code().has_value());
}

}  // namespace
}  // namespace tessera::drivers
