#include "tessera/shake/ring.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "tessera/shake/generate.h"
#include "tessera/shake/read.h"

namespace tessera::shake {
namespace {

std::vector<uint32_t> shuffled(uint32_t n, uint64_t seed) {
  std::vector<uint32_t> order(n);
  for (uint32_t p = 0; p < n; p++) order[p] = p;
  std::mt19937_64 random(seed);
  for (uint32_t p = n - 1; p > 0; p--) std::swap(order[p], order[random() % (p + 1)]);
  return order;
}

bool isPermutation(std::vector<uint32_t> v) {
  std::sort(v.begin(), v.end());
  for (uint32_t k = 0; k < v.size(); k++) {
    if (v[k] != k) return false;
  }
  return true;
}

TEST(ShakeRing, ReverseCuthillMcKeeUndoesAShuffledChain) {
  const Molecule chain = generate(Shape::kChain, 2000, 5).molecule;
  const Molecule mixed = renumber(chain, shuffled(2000, 9));
  EXPECT_GT(bandwidth(mixed), 1000u);
  EXPECT_FALSE(layOnRing(mixed, 8).ok());
  const std::vector<uint32_t> order = reverseCuthillMcKee(mixed);
  ASSERT_TRUE(isPermutation(order));
  const Molecule tidy = renumber(mixed, order);
  EXPECT_EQ(bandwidth(tidy), 1u);
  EXPECT_TRUE(layOnRing(tidy, 1000).ok());
  // Renumbering moves particles, not geometry: each constraint joins the same two places.
  for (size_t k = 0; k < tidy.constraints.size(); k++) {
    EXPECT_EQ(tidy.particles[tidy.constraints[k].i].x, mixed.particles[mixed.constraints[k].i].x);
    EXPECT_EQ(tidy.particles[tidy.constraints[k].j].y, mixed.particles[mixed.constraints[k].j].y);
  }
}

TEST(ShakeRing, ReverseCuthillMcKeeNarrowsRingsCombsAndSeveralParts) {
  const Molecule ring = renumber(generate(Shape::kRing, 1000, 1).molecule, shuffled(1000, 2));
  EXPECT_EQ(bandwidth(renumber(ring, reverseCuthillMcKee(ring))), 2u);
  const Molecule comb = renumber(generate(Shape::kBranched, 1000, 1).molecule, shuffled(1000, 3));
  const uint32_t before = bandwidth(comb);
  const uint32_t after = bandwidth(renumber(comb, reverseCuthillMcKee(comb)));
  EXPECT_LT(after * 10, before) << before << " -> " << after;
  // Two molecules in one and a lone particle: each part numbered on its own.
  Molecule two = generate(Shape::kChain, 50, 1).molecule;
  const Molecule other = generate(Shape::kChain, 30, 2).molecule;
  for (const Constraint& c : other.constraints) {
    two.constraints.push_back({c.i + 50, c.j + 50, c.length, 0});
  }
  two.particles.insert(two.particles.end(), other.particles.begin(), other.particles.end());
  two.particles.push_back({});
  const Molecule mixed = renumber(two, shuffled(81, 4));
  const std::vector<uint32_t> order = reverseCuthillMcKee(mixed);
  ASSERT_TRUE(isPermutation(order));
  EXPECT_EQ(bandwidth(renumber(mixed, order)), 1u);
}

TEST(ShakeRing, ThreadsHoldContiguousBalancedBlocks) {
  for (uint32_t n : {1u, 7u, 64u, 1000u}) {
    for (uint32_t threads : {1u, 2u, 3u, 8u, 64u}) {
      uint32_t expected = 0;
      for (uint32_t p = 0; p < n; p++) {
        while (uint64_t{expected + 1} * n / threads <= p) expected++;
        ASSERT_EQ(threadOf(p, n, threads), expected) << p << " of " << n << " on " << threads;
      }
    }
  }
}

// Every constraint sits in one thread's LCI, or in one PCCI and the next thread's NCCI.
void expectListsCover(const Molecule& m, const RingLayout& layout) {
  const uint32_t threads = static_cast<uint32_t>(layout.threads.size());
  const uint32_t n = static_cast<uint32_t>(m.particles.size());
  std::vector<int> seen(m.constraints.size(), 0);
  for (uint32_t t = 0; t < threads; t++) {
    const ThreadConstraints& tc = layout.threads[t];
    for (uint32_t k : tc.lci) {
      EXPECT_EQ(threadOf(m.constraints[k].i, n, threads), t);
      EXPECT_EQ(threadOf(m.constraints[k].j, n, threads), t);
      seen[k] += 1;
    }
    for (uint32_t k : tc.pcci) {
      const uint32_t a = threadOf(m.constraints[k].i, n, threads);
      const uint32_t b = threadOf(m.constraints[k].j, n, threads);
      EXPECT_TRUE((a == t && b == (t + 1) % threads) || (b == t && a == (t + 1) % threads));
      const auto& next = layout.threads[(t + 1) % threads].ncci;
      EXPECT_NE(std::find(next.begin(), next.end(), k), next.end());
      seen[k] += 1;
    }
    for (uint32_t k : tc.ncci) seen[k] += 10;
  }
  for (size_t k = 0; k < seen.size(); k++) {
    EXPECT_TRUE(seen[k] == 1 || seen[k] == 11) << "constraint " << k << ": " << seen[k];
  }
}

TEST(ShakeRing, ListsSplitConstraintsIntoLocalAndCrossing) {
  const Molecule chain = generate(Shape::kChain, 100, 1).molecule;
  const RingLayout layout = layOnRing(chain, 8);
  ASSERT_TRUE(layout.ok()) << layout.error;
  EXPECT_EQ(layout.maxCrossing, 1u);
  expectListsCover(chain, layout);
  EXPECT_TRUE(layout.threads[0].ncci.empty());  // a chain does not close the ring
  EXPECT_EQ(layout.threads[0].pcci.size(), 1u);
  EXPECT_EQ(layout.threads[7].pcci.size(), 0u);
  EXPECT_EQ(layout.threads[3].first, 37u);
  EXPECT_EQ(layout.threads[3].count, 13u);
  EXPECT_EQ(layout.threads[3].lci.size(), 12u);
  // The ring molecule's closing bond goes round from thread 7 to thread 0.
  const Molecule ring = generate(Shape::kRing, 100, 1).molecule;
  const RingLayout round = layOnRing(ring, 8);
  ASSERT_TRUE(round.ok()) << round.error;
  expectListsCover(ring, round);
  EXPECT_EQ(round.threads[7].pcci, std::vector<uint32_t>{99});
  EXPECT_EQ(round.threads[0].ncci, std::vector<uint32_t>{99});
  // Two threads: both crossings run from thread 0 to thread 1; one thread: all local.
  const RingLayout two = layOnRing(ring, 2);
  ASSERT_TRUE(two.ok()) << two.error;
  expectListsCover(ring, two);
  EXPECT_EQ(two.threads[0].pcci.size(), 2u);
  EXPECT_EQ(two.threads[1].ncci.size(), 2u);
  EXPECT_TRUE(two.threads[1].pcci.empty());
  const RingLayout one = layOnRing(ring, 1);
  ASSERT_TRUE(one.ok()) << one.error;
  EXPECT_EQ(one.threads[0].lci.size(), 100u);
  EXPECT_EQ(one.maxCrossing, 0u);
}

TEST(ShakeRing, RenumberedCombsFitRingsTheirBandwidthAllows) {
  Molecule comb = generate(Shape::kBranched, 4096, 8).molecule;
  comb = renumber(comb, reverseCuthillMcKee(comb));
  const uint32_t width = bandwidth(comb);
  const RingLayout layout = layOnRing(comb, 4096 / width);
  ASSERT_TRUE(layout.ok()) << layout.error;
  EXPECT_EQ(layout.maxCrossing, 1u);
  expectListsCover(comb, layout);
}

TEST(ShakeRing, RefusesAConstraintBetweenThreadsThatAreNotNeighbours) {
  const MoleculeResult r = readMoleculeText(
      "particles 8\n0 0 0 1\n1 0 0 1\n2 0 0 1\n3 0 0 1\n4 0 0 1\n5 0 0 1\n6 0 0 1\n7 0 0 1\n"
      "constraints 2\n0 1 1\n1 5 4\n",
      "far.mol");
  ASSERT_TRUE(r.ok()) << r.error;
  const RingLayout layout = layOnRing(r.molecule, 8);
  EXPECT_EQ(layout.error,
            "far.mol:12: the constraint between particles 1 and 5 joins threads 1 and 5 of a ring "
            "of 8, which are not neighbours (crossing distance 4): renumber the particles or use "
            "fewer threads");
  EXPECT_EQ(layout.maxCrossing, 4u);
  EXPECT_TRUE(layout.threads.empty());
  EXPECT_FALSE(layOnRing(r.molecule, 4).ok());  // threads 0 and 2
  EXPECT_TRUE(layOnRing(r.molecule, 2).ok());
}

}  // namespace
}  // namespace tessera::shake
