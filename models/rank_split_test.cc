// The board-to-rank split (models/rank_split.c). The machine's meshes are at
// most 8x8 boards, so every mesh, rank count and grid it can be asked for is
// checked here, not a sample: the rectangles tile the mesh, every rank has
// boards, rank 0 holds board (0,0), and the automatic split is balanced.
#include "tessera/models/rank_split.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tessera/hw/machine_params.h"

namespace {

constexpr uint32_t kMax = TESSERA_MAX_BOARDS_XY;

std::vector<TesseraRankRect> Split(uint32_t bx, uint32_t by, uint32_t ranks, uint32_t cols = 0,
                                   uint32_t rows = 0) {
  std::vector<TesseraRankRect> rects(ranks);
  EXPECT_EQ(tessera_rank_split(bx, by, ranks, cols, rows, rects.data()), TESSERA_RANK_SPLIT_OK)
      << bx << "x" << by << " on " << ranks;
  return rects;
}

std::string Describe(const TesseraRankRect& r) {
  char text[48];
  tessera_rank_rect_describe(&r, text, sizeof text);
  return text;
}

// Each board in exactly one rectangle, each rectangle inside the mesh.
void ExpectTiling(uint32_t bx, uint32_t by, const std::vector<TesseraRankRect>& rects) {
  std::vector<int> owners(bx * by, 0);
  for (const TesseraRankRect& r : rects) {
    ASSERT_LE(r.x0, r.x1);
    ASSERT_LE(r.y0, r.y1);
    ASSERT_LT(r.x1, bx);
    ASSERT_LT(r.y1, by);
    for (uint32_t y = r.y0; y <= r.y1; y++) {
      for (uint32_t x = r.x0; x <= r.x1; x++) {
        owners[y * bx + x]++;
      }
    }
  }
  for (uint32_t b = 0; b < bx * by; b++) {
    EXPECT_EQ(owners[b], 1) << "board " << b << " of " << bx << "x" << by << " on "
                            << rects.size() << " ranks";
  }
  EXPECT_EQ(rects[0].x0, 0u);
  EXPECT_EQ(rects[0].y0, 0u);
}

uint32_t Boards(const TesseraRankRect& r) { return (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1); }

TEST(RankSplit, EveryAutomaticSplitTilesTheMeshInBalance) {
  for (uint32_t bx = 1; bx <= kMax; bx++) {
    for (uint32_t by = 1; by <= kMax; by++) {
      for (uint32_t ranks = 1; ranks <= bx * by; ranks++) {
        const std::vector<TesseraRankRect> rects = Split(bx, by, ranks);
        ExpectTiling(bx, by, rects);
        uint32_t most = 0;
        for (const TesseraRankRect& r : rects) {
          most = std::max(most, Boards(r));
        }
        // Bisection by rectangles cannot always share exactly; it stays within twice the
        // fair share (2x on 3 boards for 2 ranks, the worst a tiling of a 3x1 mesh can do).
        const uint32_t fair = (bx * by + ranks - 1) / ranks;
        EXPECT_LE(most, 2 * fair) << bx << "x" << by << " on " << ranks;
      }
    }
  }
}

TEST(RankSplit, EveryGridThatFitsTilesTheMeshAsAGrid) {
  for (uint32_t bx = 1; bx <= kMax; bx++) {
    for (uint32_t by = 1; by <= kMax; by++) {
      for (uint32_t cols = 1; cols <= bx; cols++) {
        for (uint32_t rows = 1; rows <= by; rows++) {
          const std::vector<TesseraRankRect> rects = Split(bx, by, cols * rows, cols, rows);
          ExpectTiling(bx, by, rects);
          // Rank j * cols + i: column i, row j of the grid.
          for (uint32_t j = 0; j < rows; j++) {
            for (uint32_t i = 1; i < cols; i++) {
              EXPECT_EQ(rects[j * cols + i].x0, rects[j * cols + i - 1].x1 + 1);
              EXPECT_EQ(rects[j * cols + i].y0, rects[j * cols].y0);
            }
          }
        }
      }
    }
  }
}

TEST(RankSplit, CutsWhereTheFewestBoardsPerRankAreAndKeepsRunsOfARow) {
  // One row: runs, the first the longer (as floor(b * ranks / boards) gave).
  auto rects = Split(3, 1, 2);
  EXPECT_EQ(Describe(rects[0]), "boards (0,0)..(1,0)");
  EXPECT_EQ(Describe(rects[1]), "board (2,0)");
  // 3x2 on 2: the rows (3 boards each), not a column against four boards.
  rects = Split(3, 2, 2);
  EXPECT_EQ(Describe(rects[0]), "boards (0,0)..(2,0)");
  EXPECT_EQ(Describe(rects[1]), "boards (0,1)..(2,1)");
  // 4x4 on 4: quadrants, the shortest cuts for the same balance.
  rects = Split(4, 4, 4);
  EXPECT_EQ(Describe(rects[0]), "boards (0,0)..(1,1)");
  EXPECT_EQ(Describe(rects[1]), "boards (0,2)..(1,3)");
  EXPECT_EQ(Describe(rects[2]), "boards (2,0)..(3,1)");
  EXPECT_EQ(Describe(rects[3]), "boards (2,2)..(3,3)");
  // 6x8 on 48: a board each.
  rects = Split(6, 8, 48);
  for (const TesseraRankRect& r : rects) {
    EXPECT_EQ(Boards(r), 1u);
  }
}

TEST(RankSplit, BoardRanksFollowTheRectangles) {
  const auto rects = Split(3, 2, 3, 3, 1);
  std::vector<uint32_t> board_rank(6, 99);
  tessera_rank_split_boards(rects.data(), 3, 3, board_rank.data());
  EXPECT_EQ(board_rank, (std::vector<uint32_t>{0, 1, 2, 0, 1, 2}));
}

TEST(RankSplit, RefusesWhatDoesNotTileTheMeshAndSaysWhy) {
  std::vector<TesseraRankRect> rects(8);
  EXPECT_EQ(tessera_rank_split(3, 2, 7, 0, 0, rects.data()), TESSERA_RANK_SPLIT_TOO_MANY);
  EXPECT_EQ(tessera_rank_split(0, 2, 1, 0, 0, rects.data()), TESSERA_RANK_SPLIT_NO_BOARDS);
  EXPECT_EQ(tessera_rank_split(3, 2, 0, 0, 0, rects.data()), TESSERA_RANK_SPLIT_NO_BOARDS);
  EXPECT_EQ(tessera_rank_split(3, 2, 3, 2, 2, rects.data()), TESSERA_RANK_SPLIT_GRID_COUNT);
  EXPECT_EQ(tessera_rank_split(3, 2, 4, 4, 0, rects.data()), TESSERA_RANK_SPLIT_GRID_COUNT);
  EXPECT_EQ(tessera_rank_split(3, 2, 4, 4, 1, rects.data()), TESSERA_RANK_SPLIT_GRID_TOO_WIDE);
  EXPECT_EQ(tessera_rank_split(3, 2, 3, 1, 3, rects.data()), TESSERA_RANK_SPLIT_GRID_TOO_WIDE);
  EXPECT_NE(std::string(tessera_rank_split_why(TESSERA_RANK_SPLIT_GRID_TOO_WIDE))
                .find("does not tile the mesh"),
            std::string::npos);
}

}  // namespace
