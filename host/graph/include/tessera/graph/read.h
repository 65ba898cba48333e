// Reading graphs from files, in the formats of SNAP and SuiteSparse:
//
//   edge lists     one edge per line, "src dst" or "src dst weight", ids from 0; lines that
//                  start with # or % and blank lines are comments. The graph has max id + 1
//                  vertices; an edge without a weight weighs 1. (Tinsel's edge files, plain
//                  "src dst" lines, are this; tinselEdgeListText writes them.)
//   Matrix Market  "%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>",
//                  % comments, "rows cols entries", then "i j [value]" from 1. The matrix must be
//                  square: entry (i, j) is the edge i-1 -> j-1 with the value as its weight
//                  (1 for pattern; real values are rounded to the nearest integer). Symmetric
//                  files list one triangle: each off-diagonal entry gives both edges.
//
// Malformed input is refused as a whole, with "<file>:<line>: <reason>".
#ifndef TESSERA_GRAPH_READ_H
#define TESSERA_GRAPH_READ_H

#include <string>

#include "tessera/graph/graph.h"

namespace tessera::graph {

struct ReadResult {
  Graph graph;
  std::string error;  // empty: the graph is good
  bool ok() const { return error.empty(); }
};

// `name` names the input in errors (its path, say).
ReadResult readEdgeList(const std::string& text, const std::string& name);
ReadResult readMatrixMarket(const std::string& text, const std::string& name);

// Reads a file in the format its first line shows (%%MatrixMarket or an edge list).
ReadResult readGraphFile(const std::string& path);

// "src dst weight" lines, with a comment line first.
std::string edgeListText(const Graph& g);

// Tinsel's format, which its EdgeList::read takes: "src dst" lines and nothing else (no comment,
// no weights). readEdgeList reads it back, every edge weighing 1.
std::string tinselEdgeListText(const Graph& g);

}  // namespace tessera::graph

#endif
