// Reverse edges. GALS programs (a vertex moves to its next round once all fanIn messages of this
// one are in) count on every edge having one back, b -> a for each a -> b; on a graph without
// them a vertex can stop short or compute a result that depends on timing (docs/vertex-api.md).
#ifndef TESSERA_GRAPH_REVERSE_H
#define TESSERA_GRAPH_REVERSE_H

#include <cstdint>

#include "tessera/graph/graph.h"

namespace tessera::graph {

// Edges a -> b with no edge b -> a in the graph (a self-loop is its own reverse).
uint64_t edgesWithoutReverse(const Graph& g);

// The graph with a b -> a added, of a -> b's weight, for every such edge: its edges, then the
// added ones in the order of the edges they mirror.
Graph withReverseEdges(const Graph& g);

}  // namespace tessera::graph

#endif
