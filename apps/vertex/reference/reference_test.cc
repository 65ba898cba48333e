// The fixed-point references of the vertex apps against the same iterations in double
// precision: the apps' fixed point computes PageRank and heat transfer, to within the stated
// tolerances.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "heat_reference.h"
#include "pagerank_reference.h"
#include "test_graphs.h"

namespace {

TEST(VertexReference, PageRankFixedPointIsWithinATenMillionthOfAScoreOfOne) {
  const uint32_t n = 3000;
  const EdgePairs edges = SymmetricRandomGraph(n, 7);
  const std::vector<uint32_t> fixed = PageRankReference(n, edges, 20);
  const std::vector<double> exact = PageRankExact(n, edges, 20);
  double worst = 0, total = 0;
  for (uint32_t v = 0; v < n; v++) {
    const double score = static_cast<double>(fixed[v]) / kPageRankOne;
    worst = std::max(worst, std::fabs(score - exact[v]));
    total += score;
  }
  printf("PageRank: worst error %g (a score of 1 is 1.0)\n", worst);
  EXPECT_LT(worst, 1e-7);
  EXPECT_LE(total, 1.0);
  EXPECT_GT(total, 0.999);
}

TEST(VertexReference, PageRankOfNoIterationsIsTheInitialScore) {
  const EdgePairs edges = {{0, 1}, {1, 2}, {2, 0}};
  EXPECT_EQ(PageRankReference(3, edges, 0), std::vector<uint32_t>(3, kPageRankOne / 3));
}

TEST(VertexReference, HeatFixedPointIsWithinAHundredthOfADegree) {
  const uint32_t width = 60, height = 50;
  const EdgePairs edges = GridGraph(width, height);
  std::vector<int32_t> initial(width * height);
  std::vector<uint8_t> isSource(width * height, 0);
  std::mt19937 rng(11);
  for (uint32_t v = 0; v < width * height; v++) {
    initial[v] = static_cast<int32_t>(rng() % (255u << 16));
    isSource[v] = v % width == 0;
  }
  const std::vector<int32_t> fixed = HeatReference(initial, isSource, edges, 200);
  const std::vector<double> exact = HeatExact(initial, isSource, edges, 200);
  double worst = 0;
  for (uint32_t v = 0; v < width * height; v++) {
    worst = std::max(worst, std::fabs(static_cast<double>(fixed[v]) / kHeatOne - exact[v]));
    if (isSource[v]) {
      EXPECT_EQ(fixed[v], initial[v]);
    }
  }
  printf("Heat: worst error %g degrees\n", worst);
  EXPECT_LT(worst, 0.01);
}

}  // namespace
