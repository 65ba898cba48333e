#include "tessera/graph/reverse.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace tessera::graph {

namespace {

// Every edge's (from, to), sorted, so that a reverse is a binary search away.
std::vector<std::pair<uint32_t, uint32_t>> sortedPairs(const Graph& g) {
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  pairs.reserve(g.edges.size());
  for (const Edge& e : g.edges) pairs.emplace_back(e.from, e.to);
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

bool hasEdge(const std::vector<std::pair<uint32_t, uint32_t>>& pairs, uint32_t from, uint32_t to) {
  return std::binary_search(pairs.begin(), pairs.end(), std::make_pair(from, to));
}

}  // namespace

uint64_t edgesWithoutReverse(const Graph& g) {
  const auto pairs = sortedPairs(g);
  uint64_t missing = 0;
  for (const Edge& e : g.edges) missing += hasEdge(pairs, e.to, e.from) ? 0 : 1;
  return missing;
}

Graph withReverseEdges(const Graph& g) {
  const auto pairs = sortedPairs(g);
  Graph out = g;
  // Parallel edges a -> b get one b -> a between them, not one each.
  std::set<std::pair<uint32_t, uint32_t>> added;
  for (const Edge& e : g.edges) {
    if (hasEdge(pairs, e.to, e.from) || !added.emplace(e.to, e.from).second) continue;
    out.edges.push_back({e.to, e.from, e.weight});
  }
  return out;
}

}  // namespace tessera::graph
