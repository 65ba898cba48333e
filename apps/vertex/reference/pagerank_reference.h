// PageRank on the host, single-threaded: the synchronous iteration of pagerank.h, one vertex at a
// time, with the same fixed-point operations, so the machine's scores (synchronous and GALS)
// equal it exactly.
#ifndef TESSERA_APPS_VERTEX_REFERENCE_PAGERANK_REFERENCE_H
#define TESSERA_APPS_VERTEX_REFERENCE_PAGERANK_REFERENCE_H

#include <stdint.h>

#include <utility>
#include <vector>

#include "pagerank.h"

// The scores after `iterations` iterations on a graph of numVertices vertices (at least one)
// whose edges are (from, to) pairs; an edge given twice counts twice.
inline std::vector<uint32_t> PageRankReference(
    uint32_t numVertices, const std::vector<std::pair<uint32_t, uint32_t>>& edges,
    uint32_t iterations) {
  std::vector<uint32_t> fanOut(numVertices, 0);
  for (const auto& [from, to] : edges) fanOut[from]++;
  std::vector<uint32_t> score(numVertices, PageRankInitialScore(numVertices));
  std::vector<uint32_t> sum(numVertices);
  for (uint32_t i = 0; i < iterations; i++) {
    sum.assign(numVertices, 0);
    for (const auto& [from, to] : edges) sum[to] += PageRankShare(score[from], fanOut[from]);
    for (uint32_t v = 0; v < numVertices; v++) score[v] = PageRankNextScore(sum[v], numVertices);
  }
  return score;
}

// The same iteration in double precision, without rounding: what the fixed-point scores
// approximate (a score of 1 is 1.0).
inline std::vector<double> PageRankExact(uint32_t numVertices,
                                         const std::vector<std::pair<uint32_t, uint32_t>>& edges,
                                         uint32_t iterations) {
  std::vector<uint32_t> fanOut(numVertices, 0);
  for (const auto& [from, to] : edges) fanOut[from]++;
  std::vector<double> score(numVertices, 1.0 / numVertices);
  std::vector<double> sum(numVertices);
  for (uint32_t i = 0; i < iterations; i++) {
    sum.assign(numVertices, 0.0);
    for (const auto& [from, to] : edges) sum[to] += score[from] / fanOut[from];
    for (uint32_t v = 0; v < numVertices; v++) score[v] = 0.15 / numVertices + 0.85 * sum[v];
  }
  return score;
}

#endif
