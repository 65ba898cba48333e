// The vertex apps on a dev board's QEMU model (docs/boards.md), for one board
// (TESSERA_VERTEX_SHAPE names it; this file is built with the board's config.h): HostLink writes
// each graph into the image and reads the results from the board's console; the checks are
// those of -M tessera (vertex_apps_test.cc): every vertex's result equals the host reference
// exactly, and the threads' reports add up.
#include <gtest/gtest.h>

#include <cstdlib>

#include "app_runs.h"
#include "expect_agreement.h"
#include "test_graph.h"

namespace {

// Graphs as large as the board's partitions hold: the Unleashed's 64 KiB partitions hold
// hundreds of vertices a thread; the HiFive1's 2 KiB ones, whose graph image has P/4 = 512 bytes
// (tinsel.h's SRAM heap), a few.
constexpr uint32_t vertices(uint32_t on_large_board, uint32_t on_small_board) {
  return TesseraConfigPartitionBytes >= 16 * 1024 ? on_large_board : on_small_board;
}

class VertexOnBoard : public testing::Test {
 protected:
  void SetUp() override { setenv("TESSERA_HOSTLINK_BOARD", TESSERA_VERTEX_SHAPE, 1); }
  void TearDown() override { unsetenv("TESSERA_HOSTLINK_BOARD"); }
};

TEST_F(VertexOnBoard, AsyncSSSPEqualsDijkstra) {
  ExpectResultsAgree(vertex_runs::runSSSP(testGraph(vertices(400, 16), 2026), "sssp"));
}

TEST_F(VertexOnBoard, PageRankSyncEqualsTheReference) {
  ExpectResultsAgree(
      vertex_runs::runPageRank(testGraph(vertices(300, 12), 2032, /*undirected=*/true), "pagerank_sync", 8));
}

TEST_F(VertexOnBoard, HeatSyncEqualsTheReference) {
  ExpectResultsAgree(
      vertex_runs::runHeat(testGraph(vertices(300, 12), 2033, /*undirected=*/true), "heat_sync", 2026, 5));
}

}  // namespace
