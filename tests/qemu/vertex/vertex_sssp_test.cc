// The vertex API end to end on -M tessera: a host program builds a graph with PGraph, writes it
// through HostLink, boots apps/vertex's SSSP image and reads every vertex's distance back from
// the finish messages; the distances equal Dijkstra's. Built with the config.h of
// apps/vertex/mesh-3x1.props, the image's shape.
#include <HostLink.h>
#include <POLite.h>
#include <gtest/gtest.h>

#include <queue>
#include <random>
#include <vector>

#include "sssp.h"

namespace {

std::string App(const std::string& file) {
  return std::string(TESSERA_TEST_APPS) + "/" + file;
}

struct Edge {
  uint32_t from, to;
  int32_t weight;
};

// Every vertex has 1..4 out-edges, mostly to nearby ids, a fifth anywhere.
std::vector<Edge> RandomGraph(uint32_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Edge> edges;
  for (uint32_t v = 0; v < n; v++) {
    const uint32_t out = 1 + rng() % 4;
    for (uint32_t k = 0; k < out; k++) {
      const uint32_t to = rng() % 5 == 0 ? rng() % n : (v + 1 + rng() % 8) % n;
      if (to != v) edges.push_back({v, to, static_cast<int32_t>(1 + rng() % 20)});
    }
  }
  return edges;
}

std::vector<int32_t> Dijkstra(uint32_t n, const std::vector<Edge>& edges, uint32_t source) {
  std::vector<std::vector<std::pair<uint32_t, int32_t>>> out(n);
  for (const Edge& e : edges) out[e.from].push_back({e.to, e.weight});
  std::vector<int32_t> dist(n, INT32_MAX);
  using Item = std::pair<int32_t, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  dist[source] = 0;
  queue.push({0, source});
  while (!queue.empty()) {
    const auto [d, v] = queue.top();
    queue.pop();
    if (d != dist[v]) continue;
    for (const auto& [to, w] : out[v]) {
      if (d + w < dist[to]) {
        dist[to] = d + w;
        queue.push({dist[to], to});
      }
    }
  }
  return dist;
}

TEST(VertexOnTheMachine, SSSPDistancesEqualDijkstra) {
  const uint32_t n = 2000;  // about 21 vertices per thread
  const std::vector<Edge> edges = RandomGraph(n, 2026);
  HostLink hostLink;
  PGraph<SSSPVertex, SSSPState, int32_t, SSSPMessage> graph;
  for (uint32_t v = 0; v < n; v++) ASSERT_EQ(graph.newDevice(), v);
  for (const Edge& e : edges) graph.addLabelledEdge(e.weight, e.from, 0, e.to);
  graph.map();
  for (uint32_t v = 0; v < n; v++) graph.devices[v]->state = SSSPState{v, INT32_MAX, v == 5};
  graph.devices[5]->state.dist = 0;
  graph.write(&hostLink);
  hostLink.boot(App("vertex_sssp.code.v").c_str(), App("vertex_sssp.data.v").c_str());
  hostLink.go();

  const std::vector<int32_t> expected = Dijkstra(n, edges, 5);
  std::vector<int> seen(n, 0);
  for (uint32_t i = 0; i < n; i++) {
    PMessage<SSSPMessage> msg;
    hostLink.recvMsg(&msg, sizeof msg);
    ASSERT_LT(msg.payload.id, n);
    seen[msg.payload.id]++;
    EXPECT_EQ(msg.payload.dist, expected[msg.payload.id]) << "vertex " << msg.payload.id;
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<long>(n)) << "one each";
  hostLink.dumpStdOut();  // the run ends with status 0
}

}  // namespace
