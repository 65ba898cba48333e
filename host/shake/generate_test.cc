#include "tessera/shake/generate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "tessera/shake/reference.h"

namespace tessera::shake {
namespace {

double distance(const Particle& a, const Particle& b) {
  return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) +
                   (a.z - b.z) * (a.z - b.z));
}

std::vector<uint32_t> degrees(const Molecule& m) {
  std::vector<uint32_t> d(m.particles.size(), 0);
  for (const Constraint& c : m.constraints) d[c.i]++, d[c.j]++;
  return d;
}

// Whether the constraints join every particle (union-find).
bool connected(const Molecule& m) {
  std::vector<uint32_t> parent(m.particles.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](uint32_t p) {
    while (parent[p] != p) p = parent[p] = parent[parent[p]];
    return p;
  };
  size_t parts = m.particles.size();
  for (const Constraint& c : m.constraints) {
    const uint32_t a = root(c.i), b = root(c.j);
    if (a != b) parent[a] = b, parts--;
  }
  return parts == 1;
}

TEST(ShakeGenerate, ShapesHaveTheirBondsAndMeasuredLengths) {
  for (uint32_t n : {3u, 4u, 27u, 28u, 1000u, 1001u}) {
    for (Shape shape : {Shape::kChain, Shape::kRing, Shape::kBranched}) {
      const MoleculeResult r = generate(shape, n, 7);
      ASSERT_TRUE(r.ok()) << r.error;
      const Molecule& m = r.molecule;
      SCOPED_TRACE(m.name);
      ASSERT_EQ(m.particles.size(), n);
      EXPECT_EQ(m.constraints.size(), shape == Shape::kRing ? n : n - 1);
      EXPECT_TRUE(connected(m));  // with n - 1 constraints: a tree
      const std::vector<uint32_t> d = degrees(m);
      const uint32_t most = *std::max_element(d.begin(), d.end());
      if (shape == Shape::kBranched) {
        EXPECT_LE(most, 4u);
        EXPECT_GE(most, n >= 27 ? 3u : 2u);
      } else {
        EXPECT_EQ(most, 2u);
      }
      if (shape == Shape::kRing) {
        EXPECT_EQ(*std::min_element(d.begin(), d.end()), 2u);
      }
      for (const Constraint& c : m.constraints) {
        EXPECT_EQ(c.length, distance(m.particles[c.i], m.particles[c.j]));
        EXPECT_GT(c.length, 0.7 * 1.5);
        EXPECT_LT(c.length, 2.5 * 1.5);
      }
      for (const Particle& p : m.particles) {
        EXPECT_TRUE(p.mass == 12.011 || p.mass == 14.007 || p.mass == 15.999);
      }
    }
  }
}

TEST(ShakeGenerate, TheSameSeedGivesTheSameMoleculeAndAnotherSeedAnother) {
  const Molecule a = generate(Shape::kBranched, 500, 1).molecule;
  const Molecule b = generate(Shape::kBranched, 500, 1).molecule;
  const Molecule c = generate(Shape::kBranched, 500, 2).molecule;
  size_t same = 0, differ = 0;
  for (size_t p = 0; p < a.particles.size(); p++) {
    same += a.particles[p].x == b.particles[p].x && a.particles[p].z == b.particles[p].z;
    differ += a.particles[p].x != c.particles[p].x;
  }
  EXPECT_EQ(same, a.particles.size());
  EXPECT_EQ(differ, a.particles.size());
}

TEST(ShakeGenerate, AMillionParticlesStayWithinTheFixedPointRange) {
  for (Shape shape : {Shape::kChain, Shape::kRing, Shape::kBranched}) {
    const MoleculeResult r = generate(shape, 1000000, 3);
    ASSERT_TRUE(r.ok()) << r.error;
    double far = 0;
    for (const Particle& p : r.molecule.particles) {
      far = std::fmax(far, std::fmax(std::fabs(p.x), std::fmax(std::fabs(p.y), std::fabs(p.z))));
    }
    EXPECT_LT(far, kCoordinateLimit) << shapeName(shape);
  }
}

TEST(ShakeGenerate, RefusesTooFewParticlesAndABadBond) {
  EXPECT_EQ(generate(Shape::kRing, 2, 0).error,
            "ring(2, seed 0): a ring needs at least 3 particles");
  EXPECT_EQ(generate(Shape::kChain, 1, 0).error,
            "chain(1, seed 0): a chain needs at least 2 particles");
  EXPECT_FALSE(generate(Shape::kChain, 10, 0, 0).ok());
  EXPECT_FALSE(generate(Shape::kChain, 10, 0, NAN).ok());
}

}  // namespace
}  // namespace tessera::shake
