// The sysinfo model on its own: registers match the shape for every hart,
// and the check-in register ends the run after the last hart.
#include "tessera/models/sysinfo.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tessera/testing/access.h"
#include "tessera/testing/shapes.h"

namespace {

using tessera::testing::kRunEnds;
using tessera::testing::StatusOrRunEnds;

constexpr uint32_t kDramSize = 256u << 20;
constexpr uint32_t kPartitionSize = 64u << 10;
constexpr uint32_t kReflexBufferFlits = 7;
// Every timing value different, so a register that reads the wrong field is caught.
constexpr TesseraTiming kTiming{3, 5, 170, 11, 2, 6, 9};

TesseraSysinfoConfig ConfigFor(const TesseraShape& shape) {
  return TesseraSysinfoConfig{shape, 250, kDramSize, kPartitionSize, kReflexBufferFlits, kTiming};
}

using tessera::testing::AllThreadIds;

class Sysinfo {
 public:
  explicit Sysinfo(const TesseraSysinfoConfig& config) : model_(tessera_sysinfo_new(&config)) {}
  ~Sysinfo() { tessera_sysinfo_free(model_); }
  TesseraSysinfo* get() const { return model_; }

  uint32_t Read(uint32_t hart_id, uint32_t offset) const {
    uint32_t value = 0xdeadbeef;
    const char* error = nullptr;
    EXPECT_EQ(tessera_access_unpack(tessera_sysinfo_read(model_, hart_id, offset), &value, nullptr,
                                    &error),
              TESSERA_ACCESS_DONE)
        << (error ? error : "");
    return value;
  }

  int CheckIn(uint32_t hart_id, uint32_t status, int* exit_code) {
    const char* error = nullptr;
    return StatusOrRunEnds(tessera_sysinfo_write(model_, hart_id, TESSERA_SYSINFO_CHECKIN, status),
                           exit_code, &error);
  }

 private:
  TesseraSysinfo* model_;
};

class SysinfoShapeTest : public ::testing::TestWithParam<TesseraShape> {};

TEST_P(SysinfoShapeTest, MachineWideRegistersDescribeTheShape) {
  const TesseraShape shape = GetParam();
  Sysinfo sysinfo(ConfigFor(shape));
  ASSERT_NE(sysinfo.get(), nullptr);
  const uint32_t any = AllThreadIds(shape).back();
  EXPECT_EQ(sysinfo.Read(any, TESSERA_SYSINFO_MAGIC), TESSERA_SYSINFO_MAGIC_VALUE);
  EXPECT_EQ(sysinfo.Read(any, TESSERA_SYSINFO_VERSION), TESSERA_SYSINFO_VERSION_VALUE);
  EXPECT_EQ(sysinfo.Read(any, TESSERA_SYSINFO_BOARDS_X), shape.boards_x);
  EXPECT_EQ(sysinfo.Read(any, TESSERA_SYSINFO_BOARDS_Y), shape.boards_y);
  EXPECT_EQ(sysinfo.Read(any, TESSERA_SYSINFO_TILES_X), shape.tiles_x);
  EXPECT_EQ(sysinfo.Read(any, TESSERA_SYSINFO_TILES_Y), shape.tiles_y);
  EXPECT_EQ(sysinfo.Read(any, TESSERA_SYSINFO_CORES_PER_TILE), shape.cores_per_tile);
  EXPECT_EQ(sysinfo.Read(any, TESSERA_SYSINFO_THREADS_PER_CORE), shape.threads_per_core);
  EXPECT_EQ(sysinfo.Read(any, TESSERA_SYSINFO_CLOCK_MHZ), 250u);
  EXPECT_EQ(sysinfo.Read(any, TESSERA_SYSINFO_DRAM_SIZE), kDramSize);
  EXPECT_EQ(sysinfo.Read(any, TESSERA_SYSINFO_PARTITION_SIZE), kPartitionSize);
  EXPECT_EQ(sysinfo.Read(any, TESSERA_SYSINFO_NUM_HARTS), AllThreadIds(shape).size());
  EXPECT_EQ(sysinfo.Read(any, TESSERA_SYSINFO_CHECKIN), 0u);
}

TEST_P(SysinfoShapeTest, PerHartRegistersAnswerForTheReadingHart) {
  const TesseraShape shape = GetParam();
  Sysinfo sysinfo(ConfigFor(shape));
  ASSERT_NE(sysinfo.get(), nullptr);
  const std::vector<uint32_t> ids = AllThreadIds(shape);
  const uint32_t per_board = static_cast<uint32_t>(ids.size()) / (shape.boards_x * shape.boards_y);
  const uint32_t host_id = sysinfo.Read(ids[0], TESSERA_SYSINFO_HOST_ID);

  std::set<uint32_t> indices;
  std::vector<uint32_t> leaders_per_board(shape.boards_x * shape.boards_y, 0);
  for (const uint32_t id : ids) {
    SCOPED_TRACE(::testing::Message() << "hart id " << id);
    const uint32_t index = sysinfo.Read(id, TESSERA_SYSINFO_HART_INDEX);
    indices.insert(index);
    const uint32_t board = index / per_board;
    const uint32_t local = index % per_board;
    // ids are generated board by board in row-major order, like dense indices
    EXPECT_EQ(index, indices.size() - 1);
    EXPECT_EQ(sysinfo.Read(id, TESSERA_SYSINFO_PARTITION_BASE),
              TESSERA_DRAM_BASE + TESSERA_CODE_SIZE + local * kPartitionSize);
    EXPECT_EQ(tessera_sysinfo_partition_base(sysinfo.get(), id),
              TESSERA_DRAM_BASE + TESSERA_CODE_SIZE + local * kPartitionSize);
    const uint32_t leader = sysinfo.Read(id, TESSERA_SYSINFO_BOARD_LEADER);
    EXPECT_EQ(leader, local == 0 ? 1u : 0u);
    leaders_per_board[board] += leader;
    EXPECT_EQ(sysinfo.Read(id, TESSERA_SYSINFO_HOST_ID), host_id);
    EXPECT_GT(host_id, id);
    EXPECT_EQ(sysinfo.Read(id, TESSERA_SYSINFO_REFLEX_BUFFER_FLITS), kReflexBufferFlits);
    EXPECT_EQ(sysinfo.Read(id, TESSERA_SYSINFO_CPI), kTiming.cpi);
    EXPECT_EQ(sysinfo.Read(id, TESSERA_SYSINFO_TILE_HOP_CYCLES), kTiming.tile_hop_cycles);
    EXPECT_EQ(sysinfo.Read(id, TESSERA_SYSINFO_BOARD_HOP_CYCLES), kTiming.board_hop_cycles);
    EXPECT_EQ(sysinfo.Read(id, TESSERA_SYSINFO_OCBUS_SETTLE_CYCLES), kTiming.ocbus_settle_cycles);
    EXPECT_EQ(sysinfo.Read(id, TESSERA_SYSINFO_REFLEX_HOP_CYCLES), kTiming.reflex_hop_cycles);
    EXPECT_EQ(sysinfo.Read(id, TESSERA_SYSINFO_BARRIER_TILE_X), kTiming.barrier_tile_x);
    EXPECT_EQ(sysinfo.Read(id, TESSERA_SYSINFO_BARRIER_TILE_Y), kTiming.barrier_tile_y);
  }
  EXPECT_EQ(indices.size(), ids.size());
  EXPECT_EQ(*indices.rbegin(), ids.size() - 1);
  for (const uint32_t leaders : leaders_per_board) {
    EXPECT_EQ(leaders, 1u);
  }
}

TEST_P(SysinfoShapeTest, RunEndsOnlyWhenTheLastHartChecksIn) {
  const TesseraShape shape = GetParam();
  Sysinfo sysinfo(ConfigFor(shape));
  ASSERT_NE(sysinfo.get(), nullptr);
  const std::vector<uint32_t> ids = AllThreadIds(shape);
  for (size_t i = 0; i + 1 < ids.size(); i++) {
    int exit_code = -1;
    ASSERT_FALSE(tessera_sysinfo_checked_in(sysinfo.get(), ids[i]));
    ASSERT_EQ(sysinfo.CheckIn(ids[i], 0, &exit_code), TESSERA_ACCESS_DONE);
    ASSERT_EQ(sysinfo.Read(ids[i], TESSERA_SYSINFO_CHECKIN), i + 1);
    ASSERT_TRUE(tessera_sysinfo_checked_in(sysinfo.get(), ids[i]));
  }
  // Ids the machine does not have never count as checked in.
  EXPECT_FALSE(tessera_sysinfo_checked_in(sysinfo.get(), tessera_host_id(&shape)));
  int exit_code = -1;
  EXPECT_EQ(sysinfo.CheckIn(ids.back(), 0, &exit_code), kRunEnds);
  EXPECT_EQ(exit_code, 0);
  EXPECT_EQ(sysinfo.Read(ids[0], TESSERA_SYSINFO_CHECKIN), ids.size());
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SysinfoShapeTest,
    ::testing::Values(TesseraShape{1, 1, 1, 1, 1, 1},    // a single hart
                      TesseraShape{3, 2, 2, 2, 2, 2},    // 3x2 boards: board ids are sparse
                      TesseraShape{1, 3, 1, 2, 1, 4},    // 1x3 boards
                      TesseraShape{2, 1, 4, 4, 4, 16}),  // two boards of the reference hardware
    tessera::testing::ShapeTestName);

// Four harts on one board: ids 0..3.
constexpr TesseraShape kFourHarts{1, 1, 1, 1, 2, 2};

TEST(SysinfoCheckIn, ExitCodeIsTheFirstNonZeroStatusInCheckInOrder) {
  Sysinfo sysinfo(ConfigFor(kFourHarts));
  int exit_code = -1;
  EXPECT_EQ(sysinfo.CheckIn(2, 0, &exit_code), TESSERA_ACCESS_DONE);
  EXPECT_EQ(sysinfo.CheckIn(0, 5, &exit_code), TESSERA_ACCESS_DONE);
  EXPECT_EQ(sysinfo.CheckIn(3, 7, &exit_code), TESSERA_ACCESS_DONE);
  EXPECT_EQ(exit_code, -1);
  EXPECT_EQ(sysinfo.CheckIn(1, 0, &exit_code), kRunEnds);
  EXPECT_EQ(exit_code, 5);
}

TEST(SysinfoCheckIn, SecondCheckInOfAHartIsAGuestErrorAndDoesNotCount) {
  Sysinfo sysinfo(ConfigFor(kFourHarts));
  int exit_code = -1;
  const char* error = nullptr;
  ASSERT_EQ(sysinfo.CheckIn(1, 0, &exit_code), TESSERA_ACCESS_DONE);
  EXPECT_EQ(StatusOrRunEnds(tessera_sysinfo_write(sysinfo.get(), 1, TESSERA_SYSINFO_CHECKIN, 9),
                            &exit_code, &error),
            TESSERA_ACCESS_GUEST_ERROR);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("twice"), std::string::npos) << error;
  EXPECT_EQ(sysinfo.Read(1, TESSERA_SYSINFO_CHECKIN), 1u);

  // Three more distinct harts are still needed, and the ignored status 9
  // does not become the exit code.
  EXPECT_EQ(sysinfo.CheckIn(0, 0, &exit_code), TESSERA_ACCESS_DONE);
  EXPECT_EQ(sysinfo.CheckIn(3, 0, &exit_code), TESSERA_ACCESS_DONE);
  EXPECT_EQ(sysinfo.CheckIn(2, 0, &exit_code), kRunEnds);
  EXPECT_EQ(exit_code, 0);
  EXPECT_EQ(sysinfo.CheckIn(2, 0, &exit_code), TESSERA_ACCESS_GUEST_ERROR);
}

// A machine reset forgets every check-in: the next boot's harts check in
// as on the first.
TEST(SysinfoCheckIn, ResetForgetsEveryCheckIn) {
  Sysinfo sysinfo(ConfigFor(kFourHarts));
  int exit_code = -1;
  ASSERT_EQ(sysinfo.CheckIn(0, 5, &exit_code), TESSERA_ACCESS_DONE);
  ASSERT_EQ(sysinfo.CheckIn(1, 0, &exit_code), TESSERA_ACCESS_DONE);
  tessera_sysinfo_reset(sysinfo.get());
  EXPECT_EQ(sysinfo.Read(0, TESSERA_SYSINFO_CHECKIN), 0u);
  for (uint32_t id = 0; id < 3; id++) {
    ASSERT_EQ(sysinfo.CheckIn(id, 0, &exit_code), TESSERA_ACCESS_DONE) << id;
  }
  EXPECT_EQ(sysinfo.CheckIn(3, 0, &exit_code), kRunEnds);
  EXPECT_EQ(exit_code, 0);  // the 5 of before the reset is forgotten too
}

// With time windows CHECKIN reads the machine's count at the last window's
// end (over ranks, every rank's): a check-in shows at the next end, and a
// reset starts again from 0.
TEST(SysinfoCheckIn, WithWindowsCheckInReadsTheCountOfTheLastWindowsEnd) {
  Sysinfo sysinfo(ConfigFor(kFourHarts));
  tessera_sysinfo_use_windows(sysinfo.get());
  int exit_code = -1;
  ASSERT_EQ(sysinfo.CheckIn(0, 0, &exit_code), TESSERA_ACCESS_DONE);
  EXPECT_EQ(sysinfo.Read(1, TESSERA_SYSINFO_CHECKIN), 0u);
  EXPECT_EQ(tessera_sysinfo_check_ins(sysinfo.get()), 1u);
  tessera_sysinfo_end_window(sysinfo.get(), 3);  // two more on other ranks
  EXPECT_EQ(sysinfo.Read(1, TESSERA_SYSINFO_CHECKIN), 3u);
  tessera_sysinfo_reset(sysinfo.get());
  EXPECT_EQ(sysinfo.Read(1, TESSERA_SYSINFO_CHECKIN), 0u);
}

TEST(SysinfoAccess, UnknownRegisterReadsZeroAsAGuestError) {
  Sysinfo sysinfo(ConfigFor(kFourHarts));
  uint32_t value = 0xdeadbeef;
  const char* error = nullptr;
  EXPECT_EQ(
      tessera_access_unpack(tessera_sysinfo_read(sysinfo.get(), 0, 0x800), &value, nullptr, &error),
      TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_EQ(value, 0u);
  EXPECT_NE(error, nullptr);
}

TEST(SysinfoAccess, UnalignedOffsetIsAGuestError) {
  Sysinfo sysinfo(ConfigFor(kFourHarts));
  uint32_t value = 0;
  const char* error = nullptr;
  EXPECT_EQ(
      tessera_access_unpack(tessera_sysinfo_read(sysinfo.get(), 0, TESSERA_SYSINFO_BOARDS_X + 1),
                            &value, nullptr, &error),
      TESSERA_ACCESS_GUEST_ERROR);
}

TEST(SysinfoAccess, WritesToReadOnlyRegistersAreGuestErrors) {
  Sysinfo sysinfo(ConfigFor(kFourHarts));
  int exit_code = -1;
  const char* error = nullptr;
  EXPECT_EQ(StatusOrRunEnds(tessera_sysinfo_write(sysinfo.get(), 0, TESSERA_SYSINFO_NUM_HARTS, 1),
                            &exit_code, &error),
            TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_EQ(sysinfo.Read(0, TESSERA_SYSINFO_NUM_HARTS), 4u);
}

TEST(SysinfoAccess, HartIdOutsideTheShapeIsAGuestError) {
  Sysinfo sysinfo(ConfigFor(kFourHarts));
  uint32_t value = 0;
  int exit_code = -1;
  const char* error = nullptr;
  const uint32_t host_id = tessera_host_id(&kFourHarts);
  EXPECT_EQ(tessera_access_unpack(
                tessera_sysinfo_read(sysinfo.get(), host_id, TESSERA_SYSINFO_HART_INDEX), &value,
                nullptr, &error),
            TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_EQ(
      StatusOrRunEnds(tessera_sysinfo_write(sysinfo.get(), host_id, TESSERA_SYSINFO_CHECKIN, 0),
                      &exit_code, &error),
      TESSERA_ACCESS_GUEST_ERROR);
}

TEST(SysinfoConfig, RejectsShapesTheIdSchemeCannotHold) {
  const auto rejected = [](TesseraShape shape, uint32_t dram, uint32_t partition) {
    const TesseraSysinfoConfig config{shape, 100, dram, partition, kReflexBufferFlits, kTiming};
    TesseraSysinfo* s = tessera_sysinfo_new(&config);
    tessera_sysinfo_free(s);
    return s == nullptr;
  };
  EXPECT_FALSE(rejected({3, 2, 2, 2, 2, 2}, kDramSize, kPartitionSize));
  EXPECT_TRUE(rejected({0, 1, 1, 1, 1, 1}, kDramSize, kPartitionSize));
  EXPECT_TRUE(rejected({1, 1, 1, 1, 1, 0}, kDramSize, kPartitionSize));
  EXPECT_TRUE(rejected({1, 1, 3, 1, 1, 1}, kDramSize, kPartitionSize));   // tiles_x not 2^n
  EXPECT_TRUE(rejected({1, 1, 1, 1, 1, 12}, kDramSize, kPartitionSize));  // threads not 2^n
  // Partitions of one 1,024-thread board past the end of 8 MiB of DRAM.
  EXPECT_TRUE(rejected({1, 1, 4, 4, 4, 16}, 8u << 20, kPartitionSize));
  // DRAM past the top of the 32-bit address space.
  EXPECT_TRUE(rejected({1, 1, 1, 1, 1, 1}, 0x80000000u + 0x1000u, kPartitionSize));
  // Thread ids (with the host id above them) wider than 32 bits.
  EXPECT_TRUE(rejected({256, 256, 256, 256, 1, 1}, kDramSize, 0));
}

}  // namespace
