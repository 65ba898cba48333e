// PageRank and heat transfer end to end on -M tessera, each synchronous and GALS: a host program
// builds the graph with PGraph, writes it through HostLink, boots the app's image and reads every
// vertex's result back from the finish messages, and each thread's message counts from its
// report (TESSERA_POLITE_REPORT). Built once per test shape (apps/vertex/mesh-<shape>.props)
// with that shape's config.h; TESSERA_VERTEX_SHAPE names it.
//
// Both apps compute in fixed point, so the tolerance is zero: the synchronous run equals the
// host's reference (apps/vertex/reference/) exactly, and the GALS run equals the synchronous one
// exactly, with the same number of iterations at every vertex and the same message counts.
#include <HostLink.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "heat.h"
#include "heat_reference.h"
#include "pagerank.h"
#include "pagerank_reference.h"
#include "test_graphs.h"

namespace {

std::string Image(const std::string& app, const char* part) {
  return std::string(TESSERA_TEST_APPS) + "/vertex_" + app + "-" + TESSERA_VERTEX_SHAPE + part;
}

// The runtime's counts over all threads, from their reports: multicasts sent (one per
// destination tile of a send), messages received (one per receiving vertex), and the most
// cycles any thread ran.
struct RunStatistics {
  uint64_t sent = 0;
  uint64_t received = 0;
  uint64_t cycles = 0;
};

// What a run on the machine gave: each vertex's finish message and thread, by id, and the counts.
template <typename M>
struct MachineRun {
  std::vector<M> results;
  std::vector<PThreadId> threadOf;
  RunStatistics counts;
};

// Runs `app`'s image on the graph: setState(v, state) gives vertex v its initial state.
template <typename Vertex, typename S, typename M, typename SetState>
MachineRun<M> RunOnMachine(const std::string& app, uint32_t numVertices, const EdgePairs& edges,
                           SetState setState) {
  HostLink hostLink;
  PGraph<Vertex, S, None, M> graph;
  for (uint32_t v = 0; v < numVertices; v++) EXPECT_EQ(graph.newDevice(), v);
  for (const auto& [from, to] : edges) graph.addEdge(from, 0, to);
  graph.map();
  MachineRun<M> run;
  for (uint32_t v = 0; v < numVertices; v++) {
    setState(v, graph.devices[v]->state);
    run.threadOf.push_back(graph.threadOf(v));
  }
  graph.write(&hostLink);
  hostLink.boot(Image(app, ".code.v").c_str(), Image(app, ".data.v").c_str());
  hostLink.go();

  const PRunResults<M> collected =
      collectResults<M>(&hostLink, graph.numDevices, graph.numThreads());
  const PRunTotals totals = collected.totals();
  EXPECT_EQ(totals.threads, graph.numThreads()) << "one report a thread";
  run.counts = RunStatistics{totals.sent, totals.delivered, totals.cycles};
  run.results.resize(numVertices);
  std::vector<int> seen(numVertices, 0);
  for (const M& payload : collected.results) {
    if (payload.id >= numVertices) {
      ADD_FAILURE() << "a finish message from vertex " << payload.id;
      continue;
    }
    seen[payload.id]++;
    run.results[payload.id] = payload;
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(numVertices))
      << "one finish message a vertex";
  hostLink.dumpStdOut();  // the run ends with status 0
  return run;
}

// Multicasts in a run of `iterations` sends from every vertex: per vertex and iteration, one per
// tile that holds any of its out-neighbours.
template <typename M>
uint64_t ExpectedMulticasts(const MachineRun<M>& run, const EdgePairs& edges, uint32_t iterations) {
  const TesseraShape shape = {TesseraConfigBoardsX,      TesseraConfigBoardsY,
                              TesseraConfigTilesX,       TesseraConfigTilesY,
                              TesseraConfigCoresPerTile, TesseraConfigThreadsPerCore};
  std::vector<std::set<uint32_t>> tiles(run.threadOf.size());
  for (const auto& [from, to] : edges) {
    tiles[from].insert(run.threadOf[to] >> tessera_tile_shift(&shape));
  }
  uint64_t multicasts = 0;
  for (const auto& t : tiles) multicasts += t.size();
  return multicasts * iterations;
}

// A graph of about 30 vertices a thread on 3x1 boards (96 threads), 94 on 2x2 (32 threads).
constexpr uint32_t kPageRankVertices = 3000;
constexpr uint32_t kPageRankIterations = 12;

TEST(VertexApps, PageRankSyncEqualsTheReferenceAndGalsEqualsSync) {
  const uint32_t n = kPageRankVertices;
  const EdgePairs edges = SymmetricRandomGraph(n, 2026);
  std::vector<uint32_t> fanIn(n, 0), fanOut(n, 0);
  for (const auto& [from, to] : edges) {
    fanOut[from]++;
    fanIn[to]++;
  }
  const uint32_t iterations = kPageRankIterations;
  const MachineRun<PageRankMessage> synchronous =
      RunOnMachine<PageRankSyncVertex, PageRankSyncState, PageRankMessage>(
          "pagerank_sync", n, edges, [&](uint32_t v, PageRankSyncState& state) {
            state = PageRankSyncState{};
            state.id = v;
            state.fanOut = fanOut[v];
            state.iterations = iterations;
          });
  const MachineRun<PageRankMessage> gals =
      RunOnMachine<PageRankGalsVertex, PageRankGalsState, PageRankMessage>(
          "pagerank_async", n, edges, [&](uint32_t v, PageRankGalsState& state) {
            state = PageRankGalsState{};
            state.id = v;
            state.fanIn = fanIn[v];
            state.fanOut = fanOut[v];
            state.iterations = iterations;
          });

  EXPECT_EQ(synchronous.counts.received, uint64_t{iterations} * edges.size());
  EXPECT_EQ(synchronous.counts.sent, ExpectedMulticasts(synchronous, edges, iterations));
  EXPECT_EQ(gals.counts.received, synchronous.counts.received);
  EXPECT_EQ(gals.counts.sent, synchronous.counts.sent);
  // The first vertex that differs stops the test (rather than thousands of lines).
  const std::vector<uint32_t> expected = PageRankReference(n, edges, iterations);
  for (uint32_t v = 0; v < n; v++) {
    ASSERT_EQ(synchronous.results[v].iteration, iterations) << "vertex " << v;
    ASSERT_EQ(synchronous.results[v].value, expected[v]) << "vertex " << v;
    ASSERT_EQ(gals.results[v].iteration, iterations) << "vertex " << v;
    ASSERT_EQ(gals.results[v].value, synchronous.results[v].value) << "vertex " << v;
  }
  printf(
      "PageRank: %u vertices, %zu edges, %u iterations: %llu multicasts, %llu received; "
      "%llu cycles synchronous, %llu GALS\n",
      n, edges.size(), iterations, static_cast<unsigned long long>(synchronous.counts.sent),
      static_cast<unsigned long long>(synchronous.counts.received),
      static_cast<unsigned long long>(synchronous.counts.cycles),
      static_cast<unsigned long long>(gals.counts.cycles));
}

// A 60x50 grid (3,000 vertices): the left column held at 200 degrees and the right one at 10,
// the rest starting anywhere in [0, 255).
constexpr uint32_t kHeatWidth = 60;
constexpr uint32_t kHeatHeight = 50;
constexpr uint32_t kHeatIterations = 16;

TEST(VertexApps, HeatSyncEqualsTheReferenceAndGalsEqualsSync) {
  const uint32_t n = kHeatWidth * kHeatHeight;
  const EdgePairs edges = GridGraph(kHeatWidth, kHeatHeight);
  std::vector<uint32_t> fanIn(n, 0);
  for (const auto& [from, to] : edges) fanIn[to]++;
  std::vector<int32_t> initial(n);
  std::vector<uint8_t> isSource(n, 0);
  std::mt19937 rng(2026);
  for (uint32_t v = 0; v < n; v++) {
    const uint32_t x = v % kHeatWidth;
    isSource[v] = x == 0 || x == kHeatWidth - 1;
    initial[v] = x == 0                ? 200 * kHeatOne
                 : x == kHeatWidth - 1 ? 10 * kHeatOne
                                       : static_cast<int32_t>(rng() % (255u << 16));
  }
  const uint32_t iterations = kHeatIterations;
  const MachineRun<HeatMessage> synchronous =
      RunOnMachine<HeatSyncVertex, HeatSyncState, HeatMessage>(
          "heat_sync", n, edges, [&](uint32_t v, HeatSyncState& state) {
            state = HeatSyncState{};
            state.id = v;
            state.fanIn = fanIn[v];
            state.iterations = iterations;
            state.temperature = initial[v];
            state.isSource = isSource[v];
          });
  const MachineRun<HeatMessage> gals = RunOnMachine<HeatGalsVertex, HeatGalsState, HeatMessage>(
      "heat_async", n, edges, [&](uint32_t v, HeatGalsState& state) {
        state = HeatGalsState{};
        state.id = v;
        state.fanIn = fanIn[v];
        state.iterations = iterations;
        state.temperature = initial[v];
        state.isSource = isSource[v];
      });

  EXPECT_EQ(synchronous.counts.received, uint64_t{iterations} * edges.size());
  EXPECT_EQ(synchronous.counts.sent, ExpectedMulticasts(synchronous, edges, iterations));
  EXPECT_EQ(gals.counts.received, synchronous.counts.received);
  EXPECT_EQ(gals.counts.sent, synchronous.counts.sent);
  // The first vertex that differs stops the test (rather than thousands of lines).
  const std::vector<int32_t> expected = HeatReference(initial, isSource, edges, iterations);
  uint32_t moved = 0;
  for (uint32_t v = 0; v < n; v++) {
    ASSERT_EQ(synchronous.results[v].iteration, iterations) << "vertex " << v;
    ASSERT_EQ(synchronous.results[v].temperature, expected[v]) << "vertex " << v;
    ASSERT_EQ(gals.results[v].iteration, iterations) << "vertex " << v;
    ASSERT_EQ(gals.results[v].temperature, synchronous.results[v].temperature) << "vertex " << v;
    moved += expected[v] != initial[v];
  }
  EXPECT_EQ(moved, n - 2 * kHeatHeight) << "every vertex but the sources changed temperature";
  printf(
      "Heat: %u vertices, %zu edges, %u iterations: %llu multicasts, %llu received; "
      "%llu cycles synchronous, %llu GALS\n",
      n, edges.size(), iterations, static_cast<unsigned long long>(synchronous.counts.sent),
      static_cast<unsigned long long>(synchronous.counts.received),
      static_cast<unsigned long long>(synchronous.counts.cycles),
      static_cast<unsigned long long>(gals.counts.cycles));
}

}  // namespace
