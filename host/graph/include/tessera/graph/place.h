// Placing a graph's vertices on the machine's threads, as PGraph::map does (docs/vertex-api.md,
// "Placement"). A placement gives each vertex a thread by its dense index 0..threads-1
// (tessera_thread_at gives the thread id): boards first, then tiles within a board, then threads
// within a tile.
//
//   blocks  consecutive ids on one thread, threads filled in dense order: good when nearby ids
//           are neighbours (as geometric() numbers them), blind otherwise.
//   METIS   hierarchical: the graph is cut into the boards, each board's part into its tiles,
//           each tile's part into its threads, with METIS (METIS_PartGraphRecursive) at every
//           level minimising the edges cut there. Ids do not matter.
//
// Both keep every thread at or below threadCapacity(): METIS's parts are evened out after each
// cut by moving the vertices that cost the fewest cut edges.
#ifndef TESSERA_GRAPH_PLACE_H
#define TESSERA_GRAPH_PLACE_H

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/graph/graph.h"
#include "tessera/hw/regs.h"

namespace tessera::graph {

// The most vertices a thread may get: ceil(n / threads), plus 3 % of n / threads rounded down
// (so nothing extra up to 33 per thread). The slack lets METIS trade a little balance for cuts.
uint32_t threadCapacity(uint32_t vertices, uint32_t threads);

// Vertex v on thread v / ceil(n / threads).
std::vector<uint32_t> placeBlocks(uint32_t vertices, const TesseraShape& shape);

struct PlaceResult {
  std::vector<uint32_t> threadOf;  // dense thread index of each vertex
  std::string error;               // empty: placed
  bool ok() const { return error.empty(); }
};

// METIS sees the graph undirected, without self-loops: a pair of vertices weighs the number of
// edges between them, either way (the messages a cut would send between threads); edge weights
// are the app's and play no part. The result is the same for the same graph and shape.
PlaceResult placeMetis(const Graph& g, const TesseraShape& shape);

// Edges by where a placement leaves them: [0] within a thread, [1] between threads of a tile,
// [2] between tiles of a board, [3] across boards.
struct Cut {
  uint64_t edges[4] = {0, 0, 0, 0};
};
Cut cutOf(const Graph& g, const TesseraShape& shape, const std::vector<uint32_t>& threadOf);

}  // namespace tessera::graph

#endif
