// The graphs the vertex apps' references take: the graph library's (host/graph).
#ifndef TESSERA_APPS_VERTEX_REFERENCE_GRAPH_H
#define TESSERA_APPS_VERTEX_REFERENCE_GRAPH_H

#include "tessera/graph/graph.h"

namespace vertex_reference {

using tessera::graph::Edge;
using tessera::graph::Graph;

}  // namespace vertex_reference

#endif
