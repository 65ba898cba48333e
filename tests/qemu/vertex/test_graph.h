// Graphs for the vertex apps' machine tests: every vertex has an edge to the next (so every
// vertex reaches every other), and 1..4 more, mostly to vertices a few ids away, one in five
// anywhere: locality that placement can use, and some long edges across boards.
#ifndef TESSERA_TESTS_QEMU_VERTEX_TEST_GRAPH_H
#define TESSERA_TESTS_QEMU_VERTEX_TEST_GRAPH_H

#include <random>

#include "reference/graph.h"

inline vertex_reference::Graph testGraph(uint32_t n, uint32_t seed, bool undirected = false) {
  std::mt19937 rng(seed);
  vertex_reference::Graph g;
  g.vertices = n;
  const auto add = [&](uint32_t from, uint32_t to) {
    const int32_t weight = static_cast<int32_t>(1 + rng() % 20);
    g.edges.push_back({from, to, weight});
    if (undirected) g.edges.push_back({to, from, weight});
  };
  for (uint32_t v = 0; v < n; v++) {
    add(v, (v + 1) % n);
    const uint32_t more = 1 + rng() % 4;
    for (uint32_t k = 0; k < more; k++) {
      const uint32_t to = rng() % 5 == 0 ? rng() % n : (v + 2 + rng() % 8) % n;
      if (to != v) add(v, to);
    }
  }
  return g;
}

#endif
