// The host program of ./tessera bench host's heat workloads (HEAT_VERSION: sync or async): heat
// transfer (apps/vertex/heat.h) on a geometric random graph, as ./tessera demo runs it, on the
// shape this program's config.h has. It writes the graph, boots the image in its folder
// (code.v, data.v), checks every temperature against the host's reference, and prints one line:
//
//   heat <version> vertices V edges E steps S messages M cycles C host_s H
//   heat-host peak_mib P
//
// messages and cycles are modelled (POLite's per-thread reports: every build must agree);
// host_s is the emulator's run from boot to its exit, the graph's generation, placement and
// check left out; P is this program's peak resident memory. The exit status is 0 only if every
// temperature equals the reference.
//
//   run <vertices> <steps> [<degree>]
//
// degree: edges per vertex besides the one to the next (tessera::graph::GeometricParams, 4 by
// default), before each edge gets its reverse: a vertex has about 2 * (degree + 1) edges.
#include <HostLink.h>
#include <POLite.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "heat.h"
#include "reference/heat_reference.h"
#include "tessera/graph/geometric.h"

namespace {

template <typename Vertex, typename State>
int run(const tessera::graph::Graph& g, uint32_t steps) {
  // As the apps' tests and ./tessera demo (tests/qemu/vertex/app_runs.h): one vertex in fifty
  // held at 200 degrees, one in fifty at 10, the rest anywhere in [0, 255), seeded.
  std::mt19937 rng(1);
  std::vector<int32_t> initial(g.vertices);
  std::vector<uint8_t> isSource(g.vertices);
  for (uint32_t v = 0; v < g.vertices; v++) {
    isSource[v] = v % 50 == 0 || v % 50 == 25;
    initial[v] = v % 50 == 0    ? 200 * kHeatOne
                 : v % 50 == 25 ? 10 * kHeatOne
                                : static_cast<int32_t>(rng() % (255u << 16));
  }
  PGraph<Vertex, State, None, HeatMessage> graph;
  for (uint32_t v = 0; v < g.vertices; v++) graph.newDevice();
  std::vector<uint32_t> fanIn(g.vertices, 0);
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  for (const auto& e : g.edges) {
    graph.addEdge(e.from, 0, e.to);
    fanIn[e.to]++;
    edges.push_back({e.from, e.to});
  }
  graph.map();
  for (uint32_t v = 0; v < g.vertices; v++) {
    State& s = graph.devices[v]->state;
    s = State{};
    s.id = v;
    s.fanIn = fanIn[v];
    s.iterations = steps;
    s.temperature = initial[v];
    s.isSource = isSource[v];
  }

  HostLink hostLink;
  graph.write(&hostLink);
  const auto start = std::chrono::steady_clock::now();
  hostLink.boot("code.v", "data.v");
  hostLink.go();
  const PRunResults<HeatMessage> results =
      collectResults<HeatMessage>(&hostLink, graph.numDevices, graph.numThreads());
  hostLink.dumpStdOut();  // waits for the machine's end: status 0, or HostLink exits with it
  const double hostSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const std::vector<int32_t> expected = HeatReference(initial, isSource, edges, steps);
  std::vector<bool> seen(g.vertices, false);
  uint32_t wrong = 0;
  for (const HeatMessage& m : results.results) {
    if (m.id >= g.vertices || seen[m.id] || m.iteration != steps ||
        m.temperature != expected[m.id]) {
      if (wrong++ < 5) fprintf(stderr, "heat: vertex %u differs from the reference\n", m.id);
    } else {
      seen[m.id] = true;
    }
  }
  const PRunTotals totals = results.totals();
  printf("heat %s vertices %u edges %zu steps %u messages %llu cycles %llu host_s %.3f\n",
         HEAT_VERSION, g.vertices, g.edges.size(), totals.steps,
         static_cast<unsigned long long>(totals.sent),
         static_cast<unsigned long long>(totals.cycles), hostSeconds);
  // This program's own peak resident memory (the graph, its placement, the reference).
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  printf("heat-host peak_mib %.0f\n", static_cast<double>(usage.ru_maxrss) / 1024.0);
  if (wrong != 0 || results.results.size() != g.vertices) {
    fprintf(stderr, "heat: %u of %u temperatures differ from the reference or are missing\n",
            wrong + (g.vertices - static_cast<uint32_t>(results.results.size())), g.vertices);
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: run <vertices> <steps> [<degree>]\n");
    return 2;
  }
  tessera::graph::GeometricParams params;
  params.vertices = static_cast<uint32_t>(atoi(argv[1]));
  if (argc == 4) params.degree = static_cast<uint32_t>(atoi(argv[3]));
  params.undirected = true;  // GALS needs every edge to have one back
  const uint32_t steps = static_cast<uint32_t>(atoi(argv[2]));
  const tessera::graph::Graph g = tessera::graph::geometric(params);
  if (std::string(HEAT_VERSION) == "sync") return run<HeatSyncVertex, HeatSyncState>(g, steps);
  return run<HeatGalsVertex, HeatGalsState>(g, steps);
}
