// Tinsel's EdgeList, for POLite host programs (host only): a graph read from an edge file, as
// lists of neighbours.
//
//   EdgeList net;
//   net.read("graph.txt");                  // "src dst [weight]" lines (tessera/graph/read.h)
//   net.numNodes, net.numEdges
//   net.neighbours[v][0]                    // the out-degree of v, then its neighbours' ids
//   net.neighbours[v][1 .. degree]          // in Tinsel's order: the file's, reversed
//   net.minFanOut(), net.maxFanOut()
//
// A file that cannot be read or is malformed ends the program with one line,
// "EdgeList: <file>:<line>: <reason>". A Matrix Market file (%%MatrixMarket ...) is read too.
#ifndef TESSERA_POLITE_EDGELIST_H
#define TESSERA_POLITE_EDGELIST_H

// What Tinsel's EdgeList.h includes, so that programs relying on it (an assert in a Run.cpp that
// includes only EdgeList.h and POLite.h) build: docs/tinsel.md, "Headers".
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <fstream>
#include <iostream>
#include <vector>

#include "tessera/graph/read.h"

struct EdgeList {
  uint32_t numNodes = 0;
  uint32_t numEdges = 0;
  uint32_t** neighbours = nullptr;

  void read(const char* filename) {
    const tessera::graph::ReadResult r = tessera::graph::readGraphFile(filename);
    if (!r.ok()) {
      fprintf(stderr, "EdgeList: %s\n", r.error.c_str());
      exit(EXIT_FAILURE);
    }
    numNodes = r.graph.vertices;
    numEdges = static_cast<uint32_t>(r.graph.edges.size());
    std::vector<uint32_t> degree(numNodes, 0);
    for (const auto& e : r.graph.edges) degree[e.from]++;
    // One block: each vertex's count, then its neighbours.
    storage_.assign(numNodes + r.graph.edges.size(), 0);
    rows_.assign(numNodes, nullptr);
    size_t at = 0;
    for (uint32_t v = 0; v < numNodes; v++) {
      rows_[v] = &storage_[at];
      at += 1 + degree[v];
    }
    // Tinsel's reader fills each list from its end, so a vertex's neighbours come in the reverse
    // of the file's order. Programs that draw a random number per edge in list order (the
    // Izhikevich apps' weights) depend on it, so the same file gives Tinsel's results.
    for (uint32_t v = 0; v < numNodes; v++) rows_[v][0] = degree[v];
    for (const auto& e : r.graph.edges) rows_[e.from][degree[e.from]--] = e.to;
    neighbours = rows_.data();
  }

  uint32_t maxFanOut() const {
    uint32_t most = 0;
    for (uint32_t v = 0; v < numNodes; v++)
      most = neighbours[v][0] > most ? neighbours[v][0] : most;
    return most;
  }

  uint32_t minFanOut() const {
    uint32_t least = numNodes == 0 ? 0 : UINT32_MAX;
    for (uint32_t v = 0; v < numNodes; v++) {
      least = neighbours[v][0] < least ? neighbours[v][0] : least;
    }
    return least;
  }

 private:
  std::vector<uint32_t> storage_;
  std::vector<uint32_t*> rows_;
};

#endif
