// Multi-source shortest paths on the host: a breadth-first search from each source, the
// reference for both MSSP versions (mssp.h). Per vertex: the sum of its hop distances to the
// sources that reach it, and how many do.
#ifndef TESSERA_APPS_VERTEX_REFERENCE_MSSP_H
#define TESSERA_APPS_VERTEX_REFERENCE_MSSP_H

#include <queue>

#include "graph.h"

namespace vertex_reference {

struct MSSPResult {
  uint32_t sum = 0;
  uint32_t reached = 0;
};

// Source i (i < sources) is vertex i * vertices / sources: spread over the graph.
inline uint32_t msspSource(uint32_t i, uint32_t sources, uint32_t vertices) {
  return static_cast<uint32_t>(uint64_t{i} * vertices / sources);
}

inline std::vector<MSSPResult> msspDistances(const Graph& g, uint32_t sources) {
  const auto out = g.outEdges();
  std::vector<MSSPResult> result(g.vertices);
  std::vector<uint32_t> hops(g.vertices);
  for (uint32_t i = 0; i < sources; i++) {
    const uint32_t source = msspSource(i, sources, g.vertices);
    std::fill(hops.begin(), hops.end(), UINT32_MAX);
    std::queue<uint32_t> frontier;
    hops[source] = 0;
    frontier.push(source);
    while (!frontier.empty()) {
      const uint32_t v = frontier.front();
      frontier.pop();
      result[v].sum += hops[v];
      result[v].reached++;
      for (const Edge& e : out[v]) {
        if (hops[e.to] == UINT32_MAX) {
          hops[e.to] = hops[v] + 1;
          frontier.push(e.to);
        }
      }
    }
  }
  return result;
}

}  // namespace vertex_reference

#endif
