// The vertex apps in native mode (docs/native.md), on the 3x1 test shape: the same device code and
// host runs as on -M tessera (tests/qemu/vertex/app_runs.h), built for the host with every app's
// device program in this executable; every vertex's result equals the app's host reference
// exactly, and the threads' reports add up. Modelled cycles are left out: native mode counts
// only the harts' device accesses and waits (docs/native.md).
#include <gtest/gtest.h>

#include "app_runs.h"
#include "expect_agreement.h"
#include "test_graph.h"
#include "test_graphs.h"

namespace {

using vertex_runs::AppRun;
using vertex_runs::Graph;

Graph FromPairs(uint32_t vertices, const EdgePairs& pairs) {
  Graph g;
  g.vertices = vertices;
  for (const auto& [from, to] : pairs) g.edges.push_back({from, to, 1});
  return g;
}

TEST(NativeVertexApps, SSSPAsyncAndSyncEqualDijkstra) {
  const Graph g = testGraph(3000, 2026);
  ExpectResultsAgree(vertex_runs::runSSSP(g, "sssp"));
  ExpectResultsAgree(vertex_runs::runSSSP(g, "sssp_sync"));
}

TEST(NativeVertexApps, MSSPAsyncAndSyncEqualBreadthFirstSearch) {
  const Graph g = testGraph(2500, 2028, /*undirected=*/true);
  ExpectResultsAgree(vertex_runs::runMSSP(g, "mssp_async"));
  ExpectResultsAgree(vertex_runs::runMSSP(g, "mssp_sync"));
}

TEST(NativeVertexApps, SNNAsyncAndSyncRastersEqualTheReference) {
  const Graph g = testGraph(2000, 2029);
  uint32_t spikes = 0;
  ExpectResultsAgree(vertex_runs::runSNN(g, 7, "snn_async", &spikes));
  ExpectResultsAgree(vertex_runs::runSNN(g, 7, "snn_sync", &spikes));
}

// As on the emulator (vertex_apps_test.cc): GALS computes what the synchronous version does, with
// the same messages, each value of each iteration reaching every out-edge once.
void ExpectSameComputation(const AppRun& sync, const AppRun& gals, uint32_t iterations) {
  ExpectResultsAgree(sync);
  ExpectResultsAgree(gals);
  EXPECT_EQ(sync.totals.delivered, uint64_t{iterations} * sync.edges);
  EXPECT_EQ(gals.totals.delivered, sync.totals.delivered);
  EXPECT_EQ(gals.totals.sent, sync.totals.sent);
}

TEST(NativeVertexApps, PageRankSyncAndGalsEqualTheReference) {
  const Graph g = FromPairs(3000, SymmetricRandomGraph(3000, 2026));
  ExpectSameComputation(vertex_runs::runPageRank(g, "pagerank_sync", 12),
                        vertex_runs::runPageRank(g, "pagerank_async", 12), 12);
}

TEST(NativeVertexApps, HeatSyncAndGalsEqualTheReference) {
  const Graph g = FromPairs(60 * 50, GridGraph(60, 50));
  ExpectSameComputation(vertex_runs::runHeat(g, "heat_sync", 2026, 16),
                        vertex_runs::runHeat(g, "heat_async", 2026, 16), 16);
}

}  // namespace
