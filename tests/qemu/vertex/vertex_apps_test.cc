// The vertex apps end to end on -M tessera, for one shape (TESSERA_VERTEX_SHAPE; this file is
// built once per shape with that shape's config.h): the host builds each app's graph with
// PGraph, writes it through HostLink, boots the app's image for the shape and reads every
// vertex's result back from its finish message; results equal the host references exactly.
#include <HostLink.h>
#include <POLite.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mssp.h"
#include "reference/mssp_reference.h"
#include "reference/snn_reference.h"
#include "reference/sssp_reference.h"
#include "snn.h"
#include "sssp.h"
#include "sssp_sync.h"
#include "test_graph.h"

namespace {

using vertex_reference::Edge;
using vertex_reference::Graph;

// Modelled cycles of the last run (RunOnMachine).
uint64_t lastRunCycles = 0;

// Writes the graph, boots vertex_<app>-<shape> and returns every finish message, in the order
// they came. Every thread also reports how its run went: the counts must add up.
template <typename G, typename M>
std::vector<M> RunOnMachine(G& graph, const std::string& app) {
  HostLink hostLink;
  graph.write(&hostLink);
  const std::string image =
      std::string(TESSERA_TEST_APPS) + "/vertex_" + app + "-" + TESSERA_VERTEX_SHAPE;
  hostLink.boot((image + ".code.v").c_str(), (image + ".data.v").c_str());
  hostLink.go();
  const PRunResults<M> run = collectResults<M>(&hostLink, graph.numDevices, graph.numThreads());
  hostLink.dumpStdOut();  // waits for the end: status 0, or HostLink reports it
  const PRunTotals totals = run.totals();
  uint32_t devices = 0;
  for (const PThreadReport& r : run.reports) devices += r.devices;
  EXPECT_EQ(devices, graph.numDevices) << "the reports' devices";
  EXPECT_GT(totals.sent, 0u);
  EXPECT_GE(totals.delivered, totals.sent) << "a message reaches at least one in-edge";
  EXPECT_GT(totals.cycles, 0u);
  lastRunCycles = totals.cycles;
  return run.results;
}

template <typename G>
void AddVertices(G& graph, const Graph& g) {
  for (uint32_t v = 0; v < g.vertices; v++) ASSERT_EQ(graph.newDevice(), v);
}

// Every vertex reports exactly once.
template <typename M, typename Id>
std::vector<const M*> ByVertex(const std::vector<M>& results, uint32_t n, Id id) {
  std::vector<const M*> by(n, nullptr);
  for (const M& r : results) {
    EXPECT_LT(id(r), n);
    if (id(r) >= n) continue;
    EXPECT_EQ(by[id(r)], nullptr) << "vertex " << id(r) << " reported twice";
    by[id(r)] = &r;
  }
  return by;
}

constexpr uint32_t kSource = 5;

// SSSP, asynchronous, on a graph of about 30 vertices per thread.
std::vector<SSSPMessage> RunAsyncSSSP(const Graph& g) {
  PGraph<SSSPVertex, SSSPState, int32_t, SSSPMessage> graph;
  AddVertices(graph, g);
  for (const Edge& e : g.edges) graph.addLabelledEdge(e.weight, e.from, 0, e.to);
  graph.map();
  for (uint32_t v = 0; v < g.vertices; v++) {
    graph.devices[v]->state = SSSPState{v, v == kSource ? 0 : INT32_MAX, v == kSource};
  }
  return RunOnMachine<decltype(graph), SSSPMessage>(graph, "sssp");
}

// HostLink passes timing properties through to the machine: the same run costs more modelled
// cycles when each instruction does.
TEST(VertexApps, ModelledCyclesFollowTheMachinesTiming) {
  const Graph g = testGraph(500, 2030);
  setenv("TESSERA_HOSTLINK_PROPERTIES", "cpi=1", 1);
  RunAsyncSSSP(g);
  const uint64_t cpi1 = lastRunCycles;
  setenv("TESSERA_HOSTLINK_PROPERTIES", "cpi=4", 1);
  RunAsyncSSSP(g);
  unsetenv("TESSERA_HOSTLINK_PROPERTIES");
  const uint64_t cpi4 = lastRunCycles;
  EXPECT_GT(cpi4, 2 * cpi1) << "cpi 1: " << cpi1 << " cycles, cpi 4: " << cpi4;
}

TEST(VertexApps, AsyncSSSPEqualsDijkstra) {
  const Graph g = testGraph(3000, 2026);
  PGraph<SSSPVertex, SSSPState, int32_t, SSSPMessage> graph;
  AddVertices(graph, g);
  for (const Edge& e : g.edges) graph.addLabelledEdge(e.weight, e.from, 0, e.to);
  graph.map();
  for (uint32_t v = 0; v < g.vertices; v++) {
    graph.devices[v]->state = SSSPState{v, v == kSource ? 0 : INT32_MAX, v == kSource};
  }
  const auto results = RunOnMachine<decltype(graph), SSSPMessage>(graph, "sssp");
  const auto expected = vertex_reference::ssspDistances(g, kSource);
  const auto by = ByVertex(results, g.vertices, [](const SSSPMessage& m) { return m.id; });
  for (uint32_t v = 0; v < g.vertices; v++) {
    ASSERT_NE(by[v], nullptr) << "vertex " << v << " did not report";
    EXPECT_EQ(by[v]->dist, expected[v]) << "vertex " << v;
  }
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
  const Graph g = testGraph(3000, 2027);
  PGraph<SSSPSyncVertex, SSSPSyncState, int32_t, SSSPMessage> graph;
  AddVertices(graph, g);
  for (const Edge& e : g.edges) graph.addLabelledEdge(e.weight, e.from, 0, e.to);
  graph.map();
  for (uint32_t v = 0; v < g.vertices; v++) {
    const int32_t dist = v == kSource ? 0 : INT32_MAX;
    graph.devices[v]->state = SSSPSyncState{v, dist, dist, v == kSource};
  }
  const auto results = RunOnMachine<decltype(graph), SSSPMessage>(graph, App("sssp_sync"));
  const auto expected = vertex_reference::ssspDistances(g, kSource);
  const auto by = ByVertex(results, g.vertices, [](const SSSPMessage& m) { return m.id; });
  for (uint32_t v = 0; v < g.vertices; v++) {
    ASSERT_NE(by[v], nullptr) << "vertex " << v << " did not report";
    EXPECT_EQ(by[v]->dist, expected[v]) << "vertex " << v;
  }
}

// MSSP, either version: both start from the same states (sources' own bits) on the same
// undirected graph and must give the BFS sums and counts.
template <typename Vertex, typename State>
void CheckMSSP(const std::string& app, bool gals) {
  const Graph g = testGraph(2500, 2028, /*undirected=*/true);
  PGraph<Vertex, State, None, MSSPMessage> graph;
  AddVertices(graph, g);
  for (const Edge& e : g.edges) graph.addEdge(e.from, 0, e.to);
  graph.map();
  for (uint32_t v = 0; v < g.vertices; v++) {
    State& s = graph.devices[v]->state;
    s.id = v;
    if constexpr (requires { s.fanIn; }) s.fanIn = graph.fanIn(v);
  }
  for (uint32_t i = 0; i < kMSSPSources; i++) {
    const uint32_t source = vertex_reference::msspSource(i, kMSSPSources, g.vertices);
    graph.devices[source]->state.reaching[i / 32] |= 1u << (i % 32);
  }
  const auto results = RunOnMachine<decltype(graph), MSSPMessage>(graph, app);
  const auto expected = vertex_reference::msspDistances(g, kMSSPSources);
  const auto by = ByVertex(results, g.vertices, [](const MSSPMessage& m) { return m.time; });
  for (uint32_t v = 0; v < g.vertices; v++) {
    ASSERT_NE(by[v], nullptr) << "vertex " << v << " did not report";
    EXPECT_EQ(by[v]->reaching[0], expected[v].sum) << "vertex " << v << (gals ? " (GALS)" : "");
    EXPECT_EQ(by[v]->reaching[1], expected[v].reached) << "vertex " << v;
  }
}

TEST_P(VertexSyncApps, MSSPEqualsBreadthFirstSearch) {
  CheckMSSP<MSSPSyncVertex, MSSPSyncState>(App("mssp_sync"), false);
}

TEST(VertexApps, AsyncMSSPEqualsBreadthFirstSearch) {
  CheckMSSP<MSSPGalsVertex, MSSPGalsState>("mssp_async", true);
}

// SNN, either version: the raster of every neuron equals the reference's, bit for bit. The GALS
// version gets the zero-weight back-edges it needs.
template <typename Vertex, typename State>
void CheckSNN(const std::string& app, bool gals) {
  const vertex_reference::SNNNetwork net = vertex_reference::snnNetwork(testGraph(2000, 2029), 7);
  const uint32_t n = net.synapses.vertices;
  PGraph<Vertex, State, Q16, SNNMessage> graph;
  AddVertices(graph, net.synapses);
  for (const Edge& e : net.synapses.edges) graph.addLabelledEdge(e.weight, e.from, 0, e.to);
  if (gals) {
    for (const Edge& e : vertex_reference::snnBackEdges(net.synapses)) {
      graph.addLabelledEdge(0, e.from, 0, e.to);
    }
  }
  graph.map();
  for (uint32_t v = 0; v < n; v++) {
    State& s = graph.devices[v]->state;
    s.id = v;
    s.neuron = net.neurons[v];
    if constexpr (requires { s.fanIn; }) s.fanIn = graph.fanIn(v);
  }
  const auto results = RunOnMachine<decltype(graph), SNNMessage>(graph, app);
  const auto expected = vertex_reference::snnRasters(net);
  const auto by = ByVertex(results, n, [](const SNNMessage& m) { return m.id; });
  uint32_t spikes = 0;
  for (uint32_t v = 0; v < n; v++) {
    ASSERT_NE(by[v], nullptr) << "neuron " << v << " did not report";
    for (uint32_t w = 0; w < kSNNRasterWords; w++) {
      EXPECT_EQ(by[v]->raster[w], expected[v][w])
          << "neuron " << v << ", steps " << 32 * w << ".." << 32 * w + 31;
      spikes += __builtin_popcount(expected[v][w]);
    }
  }
  // A network that never fires, or fires every step, would test nothing. Izhikevich's neurons
  // with this sparse wiring fire about once in 250 steps each.
  EXPECT_GT(spikes, n / 4) << "spikes in " << kSNNSteps << " steps";
  EXPECT_LT(spikes, n * kSNNSteps / 2);
}

TEST_P(VertexSyncApps, SNNRasterEqualsTheReference) {
  CheckSNN<SNNSyncVertex, SNNSyncState>(App("snn_sync"), false);
}

TEST(VertexApps, AsyncSNNRasterEqualsTheReference) {
  CheckSNN<SNNGalsVertex, SNNGalsState>("snn_async", true);
}

}  // namespace
