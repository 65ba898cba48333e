#include "tessera/graph/partition.h"

#include <metis.h>

#include <algorithm>
#include <numeric>

namespace tessera::graph {

namespace {

using Adjacency = std::vector<std::vector<uint32_t>>;

// Splits `members` (vertex ids) into `parts` parts, returning each member's part. The subgraph's
// links are those of `adjacency` between members.
std::vector<uint32_t> split(const std::vector<uint32_t>& members, const Adjacency& adjacency,
                            std::vector<int64_t>& localOf, uint32_t parts) {
  const uint32_t n = static_cast<uint32_t>(members.size());
  std::vector<uint32_t> part(n, 0);
  if (parts <= 1 || n == 0) return part;
  if (n <= parts) {
    // No split to optimise: one vertex a part.
    std::iota(part.begin(), part.end(), 0u);
    return part;
  }
  for (uint32_t i = 0; i < n; i++) localOf[members[i]] = i;
  std::vector<idx_t> xadj(n + 1, 0), adjncy;
  for (uint32_t i = 0; i < n; i++) {
    for (uint32_t u : adjacency[members[i]]) {
      if (localOf[u] >= 0) adjncy.push_back(static_cast<idx_t>(localOf[u]));
    }
    xadj[i + 1] = static_cast<idx_t>(adjncy.size());
  }
  for (uint32_t m : members) localOf[m] = -1;

  idx_t nvtxs = static_cast<idx_t>(n), ncon = 1, nparts = static_cast<idx_t>(parts), cut = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;
  options[METIS_OPTION_NUMBERING] = 0;
  real_t imbalance = 1.03f;
  std::vector<idx_t> result(n, 0);
  idx_t* const adj = adjncy.empty() ? nullptr : adjncy.data();
  const int status =
      parts <= 8
          ? METIS_PartGraphRecursive(&nvtxs, &ncon, xadj.data(), adj, nullptr, nullptr, nullptr,
                                     &nparts, nullptr, &imbalance, options, &cut, result.data())
          : METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(), adj, nullptr, nullptr, nullptr, &nparts,
                                nullptr, &imbalance, options, &cut, result.data());
  if (status != METIS_OK) {
    // METIS could not split it: fall back to contiguous blocks, which keep the ids' locality.
    for (uint32_t i = 0; i < n; i++) part[i] = static_cast<uint32_t>(uint64_t{i} * parts / n);
    return part;
  }
  for (uint32_t i = 0; i < n; i++) part[i] = static_cast<uint32_t>(result[i]);
  return part;
}

void place(const std::vector<uint32_t>& members, const Adjacency& adjacency,
           std::vector<int64_t>& localOf, const std::vector<uint32_t>& levels, size_t level,
           uint32_t firstLeaf, std::vector<uint32_t>& leafOf) {
  if (level == levels.size()) {
    for (uint32_t v : members) leafOf[v] = firstLeaf;
    return;
  }
  uint32_t below = 1;
  for (size_t l = level + 1; l < levels.size(); l++) below *= levels[l];
  const std::vector<uint32_t> part = split(members, adjacency, localOf, levels[level]);
  std::vector<std::vector<uint32_t>> groups(levels[level]);
  for (size_t i = 0; i < members.size(); i++) groups[part[i]].push_back(members[i]);
  for (uint32_t p = 0; p < levels[level]; p++) {
    place(groups[p], adjacency, localOf, levels, level + 1, firstLeaf + p * below, leafOf);
  }
}

}  // namespace

std::vector<uint32_t> partitionHierarchically(
    uint32_t vertices, const std::vector<std::pair<uint32_t, uint32_t>>& edges,
    const std::vector<uint32_t>& levels) {
  Adjacency adjacency(vertices);
  for (const auto& [from, to] : edges) {
    if (from == to || from >= vertices || to >= vertices) continue;
    adjacency[from].push_back(to);
    adjacency[to].push_back(from);
  }
  for (auto& list : adjacency) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  std::vector<uint32_t> all(vertices);
  std::iota(all.begin(), all.end(), 0u);
  std::vector<int64_t> localOf(vertices, -1);
  std::vector<uint32_t> leafOf(vertices, 0);
  place(all, adjacency, localOf, levels, 0, 0, leafOf);
  return leafOf;
}

}  // namespace tessera::graph
