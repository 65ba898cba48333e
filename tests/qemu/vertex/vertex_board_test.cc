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

class VertexOnBoard : public testing::Test {
 protected:
  void SetUp() override { setenv("TESSERA_HOSTLINK_BOARD", TESSERA_VERTEX_SHAPE, 1); }
  void TearDown() override { unsetenv("TESSERA_HOSTLINK_BOARD"); }
};

TEST_F(VertexOnBoard, AsyncSSSPEqualsDijkstra) {
  ExpectResultsAgree(vertex_runs::runSSSP(testGraph(400, 2026), "sssp"));
}

TEST_F(VertexOnBoard, PageRankSyncEqualsTheReference) {
  ExpectResultsAgree(
      vertex_runs::runPageRank(testGraph(300, 2032, /*undirected=*/true), "pagerank_sync", 8));
}

TEST_F(VertexOnBoard, HeatSyncEqualsTheReference) {
  ExpectResultsAgree(
      vertex_runs::runHeat(testGraph(300, 2033, /*undirected=*/true), "heat_sync", 2026, 5));
}

}  // namespace
