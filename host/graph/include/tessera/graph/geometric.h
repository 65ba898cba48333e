// Geometric random graphs, as the termination-detection paper evaluated its apps on: vertices at
// random points of a square, each with edges mostly to vertices near it. Locality is what
// placement (PGraph::map) can use: nearby vertices get nearby ids, so consecutive ids share a
// thread, a tile, a board.
//
//   Graph g = geometric({.vertices = 10000, .seed = 3});
//
// The same parameters give the same graph on every host (std::mt19937, integer arithmetic only).
#ifndef TESSERA_GRAPH_GEOMETRIC_H
#define TESSERA_GRAPH_GEOMETRIC_H

#include <cstdint>

#include "tessera/graph/graph.h"

namespace tessera::graph {

struct GeometricParams {
  uint32_t vertices = 1000;
  uint32_t seed = 1;
  // Edges per vertex besides the one to the next vertex (which makes every vertex reach every
  // other: the graph is strongly connected).
  uint32_t degree = 4;
  // Per mille of those edges that go to a vertex within `radius` grid cells; the others go to
  // any vertex. 1000: purely local; 0: a random graph.
  uint32_t localityPerMille = 900;
  uint32_t radius = 3;
  // Weights are drawn from 1..maxWeight.
  int32_t maxWeight = 20;
  // Every edge also in the other direction (the same weight).
  bool undirected = false;
};

// Fails (returns a graph of 0 vertices) only for vertices = 0, radius = 0, maxWeight < 1 or
// localityPerMille > 1000; the tool and callers check parameters first.
Graph geometric(const GeometricParams& params);

}  // namespace tessera::graph

#endif
