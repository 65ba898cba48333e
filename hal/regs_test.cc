// The thread-id helpers of tessera/hw/regs.h, which firmware, models and
// the QEMU machine all rely on.
#include "tessera/hw/regs.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/testing/shapes.h"

namespace {

bool operator==(const TesseraCoords& a, const TesseraCoords& b) {
  return a.board_x == b.board_x && a.board_y == b.board_y && a.tile_x == b.tile_x &&
         a.tile_y == b.tile_y && a.core == b.core && a.thread == b.thread;
}

using tessera::testing::AllCoords;

TEST(RegsLog2Ceil, RoundsUp) {
  EXPECT_EQ(tessera_log2_ceil(1), 0u);
  EXPECT_EQ(tessera_log2_ceil(2), 1u);
  EXPECT_EQ(tessera_log2_ceil(3), 2u);
  EXPECT_EQ(tessera_log2_ceil(4), 2u);
  EXPECT_EQ(tessera_log2_ceil(5), 3u);
  EXPECT_EQ(tessera_log2_ceil(1024), 10u);
}

TEST(RegsThreadId, ReferenceLayoutPutsFieldsMostSignificantFirst) {
  // 6x8 boards of 4x4 tiles, 4 cores, 16 threads: from the bottom 4 bits
  // of thread, 2 of core, 2 of tile x, 2 of tile y, 3 of board x, board y.
  const TesseraShape s{6, 8, 4, 4, 4, 16};
  const TesseraCoords c{5, 7, 3, 2, 1, 9};  // board x/y, tile x/y, core, thread
  EXPECT_EQ(tessera_thread_id(&s, &c),
            (7u << 13) | (5u << 10) | (2u << 8) | (3u << 6) | (1u << 4) | 9u);
  EXPECT_EQ(tessera_threads_per_board(&s), 1024u);
  EXPECT_EQ(tessera_num_threads(&s), 49152u);
  EXPECT_EQ(tessera_tile_shift(&s), 6u);  // mailbox id = thread id >> 6
  EXPECT_EQ(tessera_board_shift(&s), 10u);
}

class RegsShapeTest : public ::testing::TestWithParam<TesseraShape> {};

TEST_P(RegsShapeTest, CoordsRoundTripThroughTheThreadId) {
  const TesseraShape s = GetParam();
  for (const TesseraCoords& c : AllCoords(s)) {
    const uint32_t id = tessera_thread_id(&s, &c);
    const TesseraCoords back = tessera_coords(&s, id);
    EXPECT_TRUE(back == c) << "id " << id;
    EXPECT_TRUE(tessera_thread_exists(&s, id)) << "id " << id;
    EXPECT_EQ(tessera_thread_id(&s, &back), id);
  }
}

TEST_P(RegsShapeTest, DenseIndexIsABijectionOntoZeroToN) {
  const TesseraShape s = GetParam();
  const uint32_t n = tessera_num_threads(&s);
  std::vector<int> seen(n, 0);
  for (const TesseraCoords& c : AllCoords(s)) {
    const uint32_t index = tessera_dense_index(&s, tessera_thread_id(&s, &c));
    ASSERT_LT(index, n);
    seen[index]++;
  }
  for (uint32_t i = 0; i < n; i++) {
    EXPECT_EQ(seen[i], 1) << "dense index " << i;
  }
}

TEST_P(RegsShapeTest, ThreadAtInvertsTheDenseIndex) {
  const TesseraShape s = GetParam();
  for (const TesseraCoords& c : AllCoords(s)) {
    const uint32_t id = tessera_thread_id(&s, &c);
    EXPECT_EQ(tessera_thread_at(&s, tessera_dense_index(&s, id)), id);
  }
}

TEST_P(RegsShapeTest, HostIdIsAboveEveryThreadIdAndIsNoThread) {
  const TesseraShape s = GetParam();
  const uint32_t host = tessera_host_id(&s);
  for (const TesseraCoords& c : AllCoords(s)) {
    EXPECT_LT(tessera_thread_id(&s, &c), host);
  }
  EXPECT_FALSE(tessera_thread_exists(&s, host));
}

TEST_P(RegsShapeTest, ThreadExistsAcceptsExactlyTheShapesThreads) {
  const TesseraShape s = GetParam();
  uint32_t existing = 0;
  // Every id up to well past the host id: the in-shape ones are exactly the
  // ones built from coordinates.
  const uint32_t limit = 4 * tessera_host_id(&s) + 64;
  for (uint32_t id = 0; id < limit; id++) {
    if (tessera_thread_exists(&s, id)) {
      existing++;
      const TesseraCoords c = tessera_coords(&s, id);
      EXPECT_LT(c.board_x, s.boards_x);
      EXPECT_LT(c.board_y, s.boards_y);
    }
  }
  EXPECT_EQ(existing, tessera_num_threads(&s));
}

INSTANTIATE_TEST_SUITE_P(Shapes, RegsShapeTest,
                         ::testing::Values(TesseraShape{1, 1, 1, 1, 1, 1},  // a single hart
                                           TesseraShape{3, 2, 2, 2, 2, 2},  // 3x2 boards
                                           TesseraShape{5, 3, 1, 2, 1, 4},  // 5x3 boards
                                           TesseraShape{2, 2, 4, 4, 4, 16}),
                         tessera::testing::ShapeTestName);

TEST(RegsThreadExists, RejectsBoardColumnsPastANonPowerOfTwoMesh) {
  const TesseraShape s{3, 2, 1, 1, 1, 1};  // board x takes 2 bits; x = 3 is no board
  EXPECT_TRUE(tessera_thread_exists(&s, 2));
  EXPECT_FALSE(tessera_thread_exists(&s, 3));
  EXPECT_TRUE(tessera_thread_exists(&s, 4));  // board (0, 1)
  EXPECT_FALSE(tessera_thread_exists(&s, 7));
  EXPECT_FALSE(tessera_thread_exists(&s, 8));  // board row 2 does not exist
  EXPECT_EQ(tessera_host_id(&s), 8u);
  EXPECT_EQ(tessera_dense_index(&s, 4), 3u);
}

}  // namespace
