// Single-source shortest paths on the host: Dijkstra's algorithm, the reference for both SSSP
// versions (sssp.h, sssp_sync.h). Unreachable vertices keep INT32_MAX.
#ifndef TESSERA_APPS_VERTEX_REFERENCE_SSSP_H
#define TESSERA_APPS_VERTEX_REFERENCE_SSSP_H

#include <climits>
#include <functional>
#include <queue>

#include "graph.h"

namespace vertex_reference {

inline std::vector<int32_t> ssspDistances(const Graph& g, uint32_t source) {
  const auto out = g.outEdges();
  std::vector<int32_t> dist(g.vertices, INT32_MAX);
  using Item = std::pair<int32_t, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  dist[source] = 0;
  queue.push({0, source});
  while (!queue.empty()) {
    const auto [d, v] = queue.top();
    queue.pop();
    if (d != dist[v]) continue;
    for (const Edge& e : out[v]) {
      if (d + e.weight < dist[e.to]) {
        dist[e.to] = d + e.weight;
        queue.push({dist[e.to], e.to});
      }
    }
  }
  return dist;
}

}  // namespace vertex_reference

#endif
