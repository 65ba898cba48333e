// Deterministic graphs for the tests of the vertex apps (and the benchmarks that follow them):
// neighbours have nearby ids, so most edges stay within a thread, a tile or a board (PGraph
// places consecutive ids together). Every edge has one back, as the GALS versions need
// (gals_round.h). Edges are (from, to) pairs.
#ifndef TESSERA_APPS_VERTEX_REFERENCE_TEST_GRAPHS_H
#define TESSERA_APPS_VERTEX_REFERENCE_TEST_GRAPHS_H

#include <stdint.h>

#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

using EdgePairs = std::vector<std::pair<uint32_t, uint32_t>>;

// Every vertex linked both ways with 1..3 others, mostly within the next 8 ids, one link in five
// to anywhere; no self-loops, no pair linked twice, except that one pair in eight has a second
// edge one way, so that in- and out-degrees differ.
inline EdgePairs SymmetricRandomGraph(uint32_t numVertices, uint32_t seed) {
  std::mt19937 rng(seed);
  std::set<std::pair<uint32_t, uint32_t>> pairs;  // (lower id, higher id)
  for (uint32_t v = 0; v < numVertices; v++) {
    const uint32_t links = 1 + rng() % 3;
    for (uint32_t k = 0; k < links; k++) {
      const uint32_t to = rng() % 5 == 0 ? rng() % numVertices : (v + 1 + rng() % 8) % numVertices;
      if (to != v) pairs.insert({std::min(v, to), std::max(v, to)});
    }
  }
  EdgePairs edges;
  for (const auto& [a, b] : pairs) {
    edges.push_back({a, b});
    edges.push_back({b, a});
    if (rng() % 8 == 0) edges.push_back(rng() % 2 ? std::make_pair(a, b) : std::make_pair(b, a));
  }
  return edges;
}

// A width x height grid, each cell linked both ways with its (up to 4) neighbours; the cell at
// (x, y) is vertex y * width + x.
inline EdgePairs GridGraph(uint32_t width, uint32_t height) {
  EdgePairs edges;
  for (uint32_t y = 0; y < height; y++) {
    for (uint32_t x = 0; x < width; x++) {
      const uint32_t v = y * width + x;
      if (x + 1 < width) {
        edges.push_back({v, v + 1});
        edges.push_back({v + 1, v});
      }
      if (y + 1 < height) {
        edges.push_back({v, v + width});
        edges.push_back({v + width, v});
      }
    }
  }
  return edges;
}

#endif
