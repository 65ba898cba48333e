#include "tessera/graph/geometric.h"

#include <algorithm>
#include <random>

namespace tessera::graph {

namespace {

// Interleaves the bits of x and y (a Z-order curve): points close in the square get close codes.
uint64_t morton(uint32_t x, uint32_t y) {
  uint64_t code = 0;
  for (uint32_t bit = 0; bit < 32; bit++) {
    code |= (uint64_t{x} >> bit & 1) << (2 * bit) | (uint64_t{y} >> bit & 1) << (2 * bit + 1);
  }
  return code;
}

}  // namespace

Graph geometric(const GeometricParams& p) {
  Graph g;
  if (p.vertices == 0 || p.radius == 0 || p.maxWeight < 1 || p.localityPerMille > 1000) return g;
  std::mt19937 rng(p.seed);
  const auto below = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };

  // Half the cells of a square grid hold a vertex.
  uint32_t side = 1;
  while (uint64_t{side} * side < 2ull * p.vertices) side++;
  std::vector<uint32_t> cells(uint64_t{side} * side);
  for (uint32_t i = 0; i < cells.size(); i++) cells[i] = i;
  for (uint32_t i = 0; i < p.vertices; i++) std::swap(cells[i], cells[i + below(cells.size() - i)]);
  cells.resize(p.vertices);
  // Ids follow the Z-order of the cells, so that nearby vertices get nearby ids.
  std::sort(cells.begin(), cells.end(), [&](uint32_t a, uint32_t b) {
    return morton(a % side, a / side) < morton(b % side, b / side);
  });
  std::vector<uint32_t> vertexAt(uint64_t{side} * side, UINT32_MAX);
  for (uint32_t v = 0; v < p.vertices; v++) vertexAt[cells[v]] = v;

  g.vertices = p.vertices;
  const auto add = [&](uint32_t from, uint32_t to) {
    const int32_t weight = 1 + static_cast<int32_t>(below(static_cast<uint32_t>(p.maxWeight)));
    g.edges.push_back({from, to, weight});
    if (p.undirected) g.edges.push_back({to, from, weight});
  };
  // A nearby vertex: a random occupied cell within the radius (a few tries; half the cells
  // are occupied), else any vertex.
  const auto near = [&](uint32_t v) {
    const int64_t x = cells[v] % side, y = cells[v] / side, r = p.radius;
    for (int tries = 0; tries < 16; tries++) {
      const int64_t nx = x - r + below(static_cast<uint32_t>(2 * r + 1));
      const int64_t ny = y - r + below(static_cast<uint32_t>(2 * r + 1));
      if (nx < 0 || ny < 0 || nx >= side || ny >= side) continue;
      const uint32_t u = vertexAt[static_cast<uint64_t>(ny) * side + static_cast<uint64_t>(nx)];
      if (u != UINT32_MAX && u != v) return u;
    }
    return below(p.vertices);
  };
  for (uint32_t v = 0; v < p.vertices; v++) {
    if (p.vertices > 1) add(v, (v + 1) % p.vertices);
    for (uint32_t k = 0; k < p.degree && p.vertices > 1; k++) {
      const uint32_t to = below(1000) < p.localityPerMille ? near(v) : below(p.vertices);
      if (to != v) add(v, to);
    }
  }
  return g;
}

}  // namespace tessera::graph
