// The graphs the vertex apps' references take: a vertex count and directed edges.
#ifndef TESSERA_APPS_VERTEX_REFERENCE_GRAPH_H
#define TESSERA_APPS_VERTEX_REFERENCE_GRAPH_H

#include <cstdint>
#include <vector>

namespace vertex_reference {

struct Edge {
  uint32_t from, to;
  int32_t weight;
};

struct Graph {
  uint32_t vertices = 0;
  std::vector<Edge> edges;

  std::vector<std::vector<Edge>> outEdges() const {
    std::vector<std::vector<Edge>> out(vertices);
    for (const Edge& e : edges) out[e.from].push_back(e);
    return out;
  }
};

}  // namespace vertex_reference

#endif
