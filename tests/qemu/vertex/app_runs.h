// Runs of the vertex apps on -M tessera, shared by their tests and the benchmark: each builds the
// app's PGraph from a graph, writes it through HostLink, boots the app's image for this
// program's shape (TESSERA_VERTEX_SHAPE, whose config.h it is compiled with), collects every
// vertex's result and every thread's report, runs the app's host reference and compares.
#ifndef TESSERA_TESTS_QEMU_VERTEX_APP_RUNS_H
#define TESSERA_TESTS_QEMU_VERTEX_APP_RUNS_H

#include <HostLink.h>
#include <POLite.h>

#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "heat.h"
#include "mssp.h"
#include "pagerank.h"
#include "reference/heat_reference.h"
#include "reference/mssp_reference.h"
#include "reference/pagerank_reference.h"
#include "reference/snn_reference.h"
#include "reference/sssp_reference.h"
#include "snn.h"
#include "sssp.h"
#include "sssp_sync.h"

namespace vertex_runs {

using vertex_reference::Edge;
using vertex_reference::Graph;

struct AppRun {
  std::string image;
  uint32_t vertices = 0;
  uint64_t edges = 0;  // as PGraph holds them (back-edges included)
  PRunTotals totals;
  uint64_t placement[4] = {0, 0, 0, 0};  // edges within a thread, a tile, a board, across boards
  uint32_t devicesReported = 0;          // by the threads' reports
  double hostSeconds = 0;                // from boot to the last report
  double referenceSeconds = 0;           // the host reference, single-threaded
  uint32_t mismatches = 0;  // vertices whose result differs, or that reported twice or never
  std::string firstMismatch;

  void mismatch(const std::string& what) {
    if (mismatches++ == 0) firstMismatch = what;
  }
};

inline double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The path of image vertex_<app>-<shape> without its .code.v / .data.v.
inline std::string imagePath(const std::string& app) {
  return std::string(TESSERA_TEST_APPS) + "/vertex_" + app + "-" + TESSERA_VERTEX_SHAPE;
}

template <typename G>
void addVertices(G& graph, const Graph& g) {
  for (uint32_t v = 0; v < g.vertices; v++) graph.newDevice();
}

// Called as results arrive (collectResults), if set: the demo shows progress.
inline void (*progress)(uint32_t received, uint32_t results) = nullptr;

// Writes the graph, boots the image and returns every finish message, in the order they came.
template <typename G, typename M>
std::vector<M> runOnMachine(G& graph, AppRun& run) {
  HostLink hostLink;
  graph.write(&hostLink);
  const auto start = std::chrono::steady_clock::now();
  hostLink.boot((imagePath(run.image) + ".code.v").c_str(),
                (imagePath(run.image) + ".data.v").c_str());
  hostLink.go();
  const PRunResults<M> results =
      collectResults<M>(&hostLink, graph.numDevices, graph.numThreads(), progress);
  run.hostSeconds = secondsSince(start);
  hostLink.dumpStdOut();  // waits for the end: status 0, or HostLink reports it and exits
  run.totals = results.totals();
  for (const PThreadReport& r : results.reports) run.devicesReported += r.devices;
  return results.results;
}

// Each vertex's result, by the id it reports; an id out of range or reported twice is a mismatch.
template <typename M, typename Id>
std::vector<const M*> byVertex(const std::vector<M>& results, AppRun& run, Id id) {
  std::vector<const M*> by(run.vertices, nullptr);
  for (const M& r : results) {
    const uint32_t v = id(r);
    if (v >= run.vertices || by[v] != nullptr) {
      run.mismatch("vertex " + std::to_string(v) + " reported twice, or does not exist");
    } else {
      by[v] = &r;
    }
  }
  return by;
}

template <typename G>
void countEdges(const G& graph, AppRun& run) {
  run.vertices = graph.numDevices;
  for (int level = 0; level < 4; level++) run.placement[level] = graph.placement.edges[level];
  for (PDeviceId v = 0; v < graph.numDevices; v++) run.edges += graph.fanOut(v);
}

constexpr uint32_t kSSSPSource = 5;

// SSSP from vertex kSSSPSource: "sssp" (asynchronous) or "sssp_sync" and its detector variants.
inline AppRun runSSSP(const Graph& g, const std::string& image) {
  AppRun run;
  run.image = image;
  std::vector<SSSPMessage> results;
  const auto distance = [](uint32_t v) { return v == kSSSPSource ? 0 : INT32_MAX; };
  if (image.rfind("sssp_sync", 0) == 0) {
    PGraph<SSSPSyncVertex, SSSPSyncState, int32_t, SSSPMessage> graph;
    addVertices(graph, g);
    for (const Edge& e : g.edges) graph.addLabelledEdge(e.weight, e.from, 0, e.to);
    graph.map();
    for (uint32_t v = 0; v < g.vertices; v++) {
      graph.devices[v]->state = SSSPSyncState{v, distance(v), distance(v), v == kSSSPSource};
    }
    countEdges(graph, run);
    results = runOnMachine<decltype(graph), SSSPMessage>(graph, run);
  } else {
    PGraph<SSSPVertex, SSSPState, int32_t, SSSPMessage> graph;
    addVertices(graph, g);
    for (const Edge& e : g.edges) graph.addLabelledEdge(e.weight, e.from, 0, e.to);
    graph.map();
    for (uint32_t v = 0; v < g.vertices; v++) {
      graph.devices[v]->state = SSSPState{v, distance(v), v == kSSSPSource};
    }
    countEdges(graph, run);
    results = runOnMachine<decltype(graph), SSSPMessage>(graph, run);
  }
  const auto start = std::chrono::steady_clock::now();
  const std::vector<int32_t> expected = vertex_reference::ssspDistances(g, kSSSPSource);
  run.referenceSeconds = secondsSince(start);
  const auto by = byVertex(results, run, [](const SSSPMessage& m) { return m.id; });
  for (uint32_t v = 0; v < g.vertices; v++) {
    if (by[v] == nullptr || by[v]->dist != expected[v]) {
      run.mismatch("vertex " + std::to_string(v) + ": distance " +
                   (by[v] ? std::to_string(by[v]->dist) : "missing") + ", expected " +
                   std::to_string(expected[v]));
    }
  }
  return run;
}

// MSSP from kMSSPSources sources on an undirected graph: "mssp_sync" (and its detector variants)
// or "mssp_async".
template <typename Vertex, typename State>
AppRun runMSSPWith(const Graph& g, const std::string& image) {
  AppRun run;
  run.image = image;
  PGraph<Vertex, State, None, MSSPMessage> graph;
  addVertices(graph, g);
  for (const Edge& e : g.edges) graph.addEdge(e.from, 0, e.to);
  graph.map();
  std::vector<uint32_t> fanIn(g.vertices, 0);
  for (const Edge& e : g.edges) fanIn[e.to]++;
  for (uint32_t v = 0; v < g.vertices; v++) {
    State& s = graph.devices[v]->state;
    s.id = v;
    if constexpr (requires { s.fanIn; }) s.fanIn = fanIn[v];
  }
  for (uint32_t i = 0; i < kMSSPSources; i++) {
    const uint32_t source = vertex_reference::msspSource(i, kMSSPSources, g.vertices);
    graph.devices[source]->state.reaching[i / 32] |= 1u << (i % 32);
  }
  countEdges(graph, run);
  const auto results = runOnMachine<decltype(graph), MSSPMessage>(graph, run);
  const auto start = std::chrono::steady_clock::now();
  const auto expected = vertex_reference::msspDistances(g, kMSSPSources);
  run.referenceSeconds = secondsSince(start);
  const auto by = byVertex(results, run, [](const MSSPMessage& m) { return m.time; });
  for (uint32_t v = 0; v < g.vertices; v++) {
    if (by[v] == nullptr || by[v]->reaching[0] != expected[v].sum ||
        by[v]->reaching[1] != expected[v].reached) {
      run.mismatch("vertex " + std::to_string(v) + ": sum " +
                   (by[v] ? std::to_string(by[v]->reaching[0]) : "missing") + " of " +
                   (by[v] ? std::to_string(by[v]->reaching[1]) : "-") + " sources, expected " +
                   std::to_string(expected[v].sum) + " of " + std::to_string(expected[v].reached));
    }
  }
  return run;
}

inline AppRun runMSSP(const Graph& g, const std::string& image) {
  return image == "mssp_async" ? runMSSPWith<MSSPGalsVertex, MSSPGalsState>(g, image)
                               : runMSSPWith<MSSPSyncVertex, MSSPSyncState>(g, image);
}

// The SNN on the graph's edges as synapses (snnNetwork, seed): "snn_sync" (and its detector
// variants) or "snn_async", which adds the zero-weight back-edges. Every raster must equal the
// reference's; spikes counts them.
template <typename Vertex, typename State>
AppRun runSNNWith(const Graph& g, uint32_t seed, const std::string& image, uint32_t* spikes) {
  AppRun run;
  run.image = image;
  const vertex_reference::SNNNetwork net = vertex_reference::snnNetwork(g, seed);
  const bool gals = image == "snn_async";
  PGraph<Vertex, State, Q16, SNNMessage> graph;
  addVertices(graph, g);
  std::vector<uint32_t> fanIn(g.vertices, 0);
  for (const Edge& e : net.synapses.edges) {
    graph.addLabelledEdge(e.weight, e.from, 0, e.to);
    fanIn[e.to]++;
  }
  if (gals) {
    for (const Edge& e : vertex_reference::snnBackEdges(net.synapses)) {
      graph.addLabelledEdge(0, e.from, 0, e.to);
      fanIn[e.to]++;
    }
  }
  graph.map();
  for (uint32_t v = 0; v < g.vertices; v++) {
    State& s = graph.devices[v]->state;
    s.id = v;
    s.neuron = net.neurons[v];
    if constexpr (requires { s.fanIn; }) s.fanIn = fanIn[v];
  }
  countEdges(graph, run);
  const auto results = runOnMachine<decltype(graph), SNNMessage>(graph, run);
  const auto start = std::chrono::steady_clock::now();
  const auto expected = vertex_reference::snnRasters(net);
  run.referenceSeconds = secondsSince(start);
  const auto by = byVertex(results, run, [](const SNNMessage& m) { return m.id; });
  *spikes = 0;
  for (uint32_t v = 0; v < g.vertices; v++) {
    for (uint32_t w = 0; w < kSNNRasterWords; w++) {
      *spikes += static_cast<uint32_t>(__builtin_popcount(expected[v][w]));
      if (by[v] == nullptr || by[v]->raster[w] != expected[v][w]) {
        run.mismatch("neuron " + std::to_string(v) + ", steps " + std::to_string(32 * w) + ".." +
                     std::to_string(32 * w + 31) + ": raster differs");
      }
    }
  }
  return run;
}

inline AppRun runSNN(const Graph& g, uint32_t seed, const std::string& image, uint32_t* spikes) {
  return image == "snn_async" ? runSNNWith<SNNGalsVertex, SNNGalsState>(g, seed, image, spikes)
                              : runSNNWith<SNNSyncVertex, SNNSyncState>(g, seed, image, spikes);
}

// The graph's edges as (from, to) pairs, for the PageRank and heat references.
inline std::vector<std::pair<uint32_t, uint32_t>> edgePairs(const Graph& g) {
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (const Edge& e : g.edges) pairs.push_back({e.from, e.to});
  return pairs;
}

// PageRank for `iterations` iterations on a graph whose every edge has one back (GALS needs
// it): "pagerank_sync" (and its detector variants) or "pagerank_async".
template <typename Vertex, typename State>
AppRun runPageRankWith(const Graph& g, const std::string& image, uint32_t iterations) {
  AppRun run;
  run.image = image;
  PGraph<Vertex, State, None, PageRankMessage> graph;
  addVertices(graph, g);
  std::vector<uint32_t> fanIn(g.vertices, 0), fanOut(g.vertices, 0);
  for (const Edge& e : g.edges) {
    graph.addEdge(e.from, 0, e.to);
    fanIn[e.to]++;
    fanOut[e.from]++;
  }
  graph.map();
  for (uint32_t v = 0; v < g.vertices; v++) {
    State& s = graph.devices[v]->state;
    s = State{};
    s.id = v;
    s.fanOut = fanOut[v];
    s.iterations = iterations;
    if constexpr (requires { s.fanIn; }) s.fanIn = fanIn[v];
  }
  countEdges(graph, run);
  const auto results = runOnMachine<decltype(graph), PageRankMessage>(graph, run);
  const auto start = std::chrono::steady_clock::now();
  const auto expected = PageRankReference(g.vertices, edgePairs(g), iterations);
  run.referenceSeconds = secondsSince(start);
  const auto by = byVertex(results, run, [](const PageRankMessage& m) { return m.id; });
  for (uint32_t v = 0; v < g.vertices; v++) {
    if (by[v] == nullptr || by[v]->iteration != iterations || by[v]->value != expected[v]) {
      run.mismatch("vertex " + std::to_string(v) + ": score " +
                   (by[v] ? std::to_string(by[v]->value) : "missing") + ", expected " +
                   std::to_string(expected[v]));
    }
  }
  return run;
}

inline AppRun runPageRank(const Graph& g, const std::string& image, uint32_t iterations = 10) {
  return image == "pagerank_async"
             ? runPageRankWith<PageRankGalsVertex, PageRankGalsState>(g, image, iterations)
             : runPageRankWith<PageRankSyncVertex, PageRankSyncState>(g, image, iterations);
}

// Heat transfer for `iterations` steps on a graph whose every edge has one back: one vertex in
// fifty held at 200 degrees, one in fifty at 10, the rest starting anywhere in [0, 255) (seeded):
// "heat_sync" (and its detector variants) or "heat_async".
template <typename Vertex, typename State>
AppRun runHeatWith(const Graph& g, const std::string& image, uint32_t iterations, uint32_t seed) {
  AppRun run;
  run.image = image;
  std::mt19937 rng(seed);
  std::vector<int32_t> initial(g.vertices);
  std::vector<uint8_t> isSource(g.vertices);
  for (uint32_t v = 0; v < g.vertices; v++) {
    isSource[v] = v % 50 == 0 || v % 50 == 25;
    initial[v] = v % 50 == 0    ? 200 * kHeatOne
                 : v % 50 == 25 ? 10 * kHeatOne
                                : static_cast<int32_t>(rng() % (255u << 16));
  }
  PGraph<Vertex, State, None, HeatMessage> graph;
  addVertices(graph, g);
  std::vector<uint32_t> fanIn(g.vertices, 0);
  for (const Edge& e : g.edges) {
    graph.addEdge(e.from, 0, e.to);
    fanIn[e.to]++;
  }
  graph.map();
  for (uint32_t v = 0; v < g.vertices; v++) {
    State& s = graph.devices[v]->state;
    s = State{};
    s.id = v;
    s.fanIn = fanIn[v];
    s.iterations = iterations;
    s.temperature = initial[v];
    s.isSource = isSource[v];
  }
  countEdges(graph, run);
  const auto results = runOnMachine<decltype(graph), HeatMessage>(graph, run);
  const auto start = std::chrono::steady_clock::now();
  const auto expected = HeatReference(initial, isSource, edgePairs(g), iterations);
  run.referenceSeconds = secondsSince(start);
  const auto by = byVertex(results, run, [](const HeatMessage& m) { return m.id; });
  for (uint32_t v = 0; v < g.vertices; v++) {
    if (by[v] == nullptr || by[v]->iteration != iterations || by[v]->temperature != expected[v]) {
      run.mismatch("vertex " + std::to_string(v) + ": temperature " +
                   (by[v] ? std::to_string(by[v]->temperature) : "missing") + ", expected " +
                   std::to_string(expected[v]));
    }
  }
  return run;
}

inline AppRun runHeat(const Graph& g, const std::string& image, uint32_t seed,
                      uint32_t iterations = 16) {
  return image == "heat_async"
             ? runHeatWith<HeatGalsVertex, HeatGalsState>(g, image, iterations, seed)
             : runHeatWith<HeatSyncVertex, HeatSyncState>(g, image, iterations, seed);
}

}  // namespace vertex_runs

#endif
