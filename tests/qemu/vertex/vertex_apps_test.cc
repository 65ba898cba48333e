// The vertex apps end to end on -M tessera, for one shape (TESSERA_VERTEX_SHAPE; this file is
// built once per shape with that shape's config.h): every vertex's result equals the app's host
// reference exactly (app_runs.h), and the threads' reports add up.
#include <gtest/gtest.h>

#include <cstdlib>

#include "app_runs.h"
#include "expect_agreement.h"
#include "test_graph.h"
#include "test_graphs.h"

namespace {

using vertex_runs::AppRun;

// The results agree, and modelled time passed.
void ExpectAgreement(const AppRun& run) {
  ExpectResultsAgree(run);
  EXPECT_GT(run.totals.cycles, 0u);
}

TEST(VertexApps, AsyncSSSPEqualsDijkstra) {
  ExpectAgreement(vertex_runs::runSSSP(testGraph(3000, 2026), "sssp"));
}

TEST(VertexApps, AsyncMSSPEqualsBreadthFirstSearch) {
  ExpectAgreement(vertex_runs::runMSSP(testGraph(2500, 2028, /*undirected=*/true), "mssp_async"));
}

TEST(VertexApps, AsyncSNNRasterEqualsTheReference) {
  uint32_t spikes = 0;
  ExpectAgreement(vertex_runs::runSNN(testGraph(2000, 2029), 7, "snn_async", &spikes));
}

// Pairs of ids as a graph of unit weights.
vertex_runs::Graph FromPairs(uint32_t vertices, const EdgePairs& pairs) {
  vertex_runs::Graph g;
  g.vertices = vertices;
  for (const auto& [from, to] : pairs) g.edges.push_back({from, to, 1});
  return g;
}

// PageRank and heat: the GALS version computes what the synchronous one does, iteration for
// iteration, with the same messages: each vertex's value of each iteration reaches every
// out-edge once (deliveries = iterations x edges), in one multicast per tile of out-neighbours.
void ExpectSameComputation(const AppRun& sync, const AppRun& gals, uint32_t iterations) {
  ExpectAgreement(sync);
  ExpectAgreement(gals);
  EXPECT_EQ(sync.totals.delivered, uint64_t{iterations} * sync.edges);
  EXPECT_EQ(gals.totals.delivered, sync.totals.delivered);
  EXPECT_EQ(gals.totals.sent, sync.totals.sent);
  printf("%s: %u vertices, %llu edges, %u iterations: %llu messages; %llu cycles sync, %llu GALS\n",
         sync.image.c_str(), sync.vertices, static_cast<unsigned long long>(sync.edges), iterations,
         static_cast<unsigned long long>(sync.totals.sent),
         static_cast<unsigned long long>(sync.totals.cycles),
         static_cast<unsigned long long>(gals.totals.cycles));
}

// 3,000 vertices: about 30 a thread on 3x1 boards (96 threads), 94 on 2x2 (32 threads). Every
// link goes both ways, some twice one way, so in- and out-degrees differ.
TEST(VertexApps, PageRankSyncAndGalsEqualTheReference) {
  const vertex_runs::Graph g = FromPairs(3000, SymmetricRandomGraph(3000, 2026));
  ExpectSameComputation(vertex_runs::runPageRank(g, "pagerank_sync", 12),
                        vertex_runs::runPageRank(g, "pagerank_async", 12), 12);
}

// A 60x50 grid; one vertex in fifty held hot or cold.
TEST(VertexApps, HeatSyncAndGalsEqualTheReference) {
  const vertex_runs::Graph g = FromPairs(60 * 50, GridGraph(60, 50));
  ExpectSameComputation(vertex_runs::runHeat(g, "heat_sync", 2026, 16),
                        vertex_runs::runHeat(g, "heat_async", 2026, 16), 16);
}

// The synchronous apps run on each termination detector: the hardware's (tinselIdle) and the
// software ones of firmware/termination, built into their own images.
class VertexSyncApps : public testing::TestWithParam<std::string> {
 protected:
  // The image of a synchronous app on this test's detector.
  static std::string App(const std::string& app) {
    return GetParam() == "hw" ? app : app + "_" + GetParam();
  }
};

INSTANTIATE_TEST_SUITE_P(Detectors, VertexSyncApps, testing::Values("hw", "clocktree", "safra"),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

TEST_P(VertexSyncApps, SSSPEqualsDijkstra) {
  ExpectAgreement(vertex_runs::runSSSP(testGraph(3000, 2027), App("sssp_sync")));
}

TEST_P(VertexSyncApps, MSSPEqualsBreadthFirstSearch) {
  ExpectAgreement(
      vertex_runs::runMSSP(testGraph(2500, 2028, /*undirected=*/true), App("mssp_sync")));
}

TEST_P(VertexSyncApps, PageRankEqualsTheReference) {
  ExpectAgreement(
      vertex_runs::runPageRank(testGraph(1500, 2032, /*undirected=*/true), App("pagerank_sync")));
}

TEST_P(VertexSyncApps, HeatEqualsTheReference) {
  ExpectAgreement(
      vertex_runs::runHeat(testGraph(1500, 2033, /*undirected=*/true), App("heat_sync"), 5));
}

// A network that never fires, or fires every step, would test nothing: Izhikevich's neurons with
// this sparse wiring fire about once in 250 steps each.
TEST_P(VertexSyncApps, SNNRasterEqualsTheReference) {
  uint32_t spikes = 0;
  const uint32_t n = 2000;
  ExpectAgreement(vertex_runs::runSNN(testGraph(n, 2029), 7, App("snn_sync"), &spikes));
  EXPECT_GT(spikes, n / 4) << "spikes in " << kSNNSteps << " steps";
  EXPECT_LT(spikes, n * kSNNSteps / 2);
}

// The same sync and async computation, different messages: a GALS neuron sends every step, a
// synchronous one only when it fires.
TEST(VertexApps, AsyncSNNSendsManyTimesWhatSyncSends) {
  uint32_t spikes = 0;
  const auto sync = vertex_runs::runSNN(testGraph(1000, 2031), 3, "snn_sync", &spikes);
  const auto gals = vertex_runs::runSNN(testGraph(1000, 2031), 3, "snn_async", &spikes);
  ExpectAgreement(sync);
  ExpectAgreement(gals);
  EXPECT_GT(gals.totals.sent, 20 * sync.totals.sent);
}

// HostLink passes timing properties through to the machine: the same run costs more modelled
// cycles when each instruction does.
TEST(VertexApps, ModelledCyclesFollowTheMachinesTiming) {
  const auto g = testGraph(500, 2030);
  setenv("TESSERA_HOSTLINK_PROPERTIES", "cpi=1", 1);
  const AppRun cpi1 = vertex_runs::runSSSP(g, "sssp");
  setenv("TESSERA_HOSTLINK_PROPERTIES", "cpi=4", 1);
  const AppRun cpi4 = vertex_runs::runSSSP(g, "sssp");
  unsetenv("TESSERA_HOSTLINK_PROPERTIES");
  ExpectAgreement(cpi1);
  ExpectAgreement(cpi4);
  EXPECT_GT(cpi4.totals.cycles, 2 * cpi1.totals.cycles)
      << "cpi 1: " << cpi1.totals.cycles << " cycles, cpi 4: " << cpi4.totals.cycles;
}

}  // namespace
