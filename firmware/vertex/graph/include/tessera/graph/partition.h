// Placement with METIS (Debian's libmetis): vertices onto the machine's threads so that
// neighbours share a thread, a tile or a board where possible. The machine is a hierarchy of
// parts, e.g. {boards, tiles per board, threads per tile}, and threads in the machine's dense
// order fill it level by level: the graph is split into the top level's parts, each of those
// into the next level's, and so on, each split minimising the edges it cuts (METIS k-way, with
// at most 3% imbalance per level). Deterministic: METIS runs with a fixed seed.
#ifndef TESSERA_GRAPH_PARTITION_H
#define TESSERA_GRAPH_PARTITION_H

#include <cstdint>
#include <utility>
#include <vector>

namespace tessera::graph {

// The leaf (thread, in dense order) of every vertex; edges are directed (from, to) pairs and
// count as undirected links, self-loops and repeats ignored. levels: the parts at each level,
// top first; their product is the number of leaves.
std::vector<uint32_t> partitionHierarchically(
    uint32_t vertices, const std::vector<std::pair<uint32_t, uint32_t>>& edges,
    const std::vector<uint32_t>& levels);

}  // namespace tessera::graph

#endif
