// A directed graph with weighted edges, as the vertex apps, their host references and the graph
// generators and readers (geometric.h, read.h) exchange it. Host code.
#ifndef TESSERA_GRAPH_GRAPH_H
#define TESSERA_GRAPH_GRAPH_H

#include <cstdint>
#include <vector>

namespace tessera::graph {

struct Edge {
  uint32_t from, to;
  int32_t weight;
};

struct Graph {
  uint32_t vertices = 0;
  std::vector<Edge> edges;

  // Each vertex's out-edges, in the order of `edges`.
  std::vector<std::vector<Edge>> outEdges() const {
    std::vector<std::vector<Edge>> out(vertices);
    for (const Edge& e : edges) out[e.from].push_back(e);
    return out;
  }
};

}  // namespace tessera::graph

#endif
