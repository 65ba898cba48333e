#include "tessera/shake/reference.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tessera/shake/generate.h"
#include "tessera/shake/read.h"

namespace tessera::shake {
namespace {

struct Point {
  double x, y, z;
};

std::vector<Point> inAngstrom(const std::vector<fixed::Vec>& v) {
  std::vector<Point> out;
  for (const fixed::Vec& p : v) out.push_back({toAngstrom(p.x), toAngstrom(p.y), toAngstrom(p.z)});
  return out;
}

double squaredLength(const Point& a, const Point& b) {
  return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z);
}

// The same damped Jacobi SHAKE in double precision, for a fixed number of iterations: what the
// fixed-point reference approximates.
std::vector<Point> shakeInDouble(const Molecule& m, const std::vector<Point>& reference,
                                 std::vector<Point> x, uint32_t iterations) {
  std::vector<uint32_t> held(x.size(), 0);
  for (const Constraint& c : m.constraints) held[c.i]++, held[c.j]++;
  for (uint32_t it = 0; it < iterations; it++) {
    std::vector<Point> sum(x.size(), Point{0, 0, 0});
    for (const Constraint& c : m.constraints) {
      const Point r0{reference[c.i].x - reference[c.j].x, reference[c.i].y - reference[c.j].y,
                     reference[c.i].z - reference[c.j].z};
      const Point r{x[c.i].x - x[c.j].x, x[c.i].y - x[c.j].y, x[c.i].z - x[c.j].z};
      const double g = (c.length * c.length - (r.x * r.x + r.y * r.y + r.z * r.z)) /
                       (2 * (r0.x * r.x + r0.y * r.y + r0.z * r.z));
      const double mi = m.particles[c.i].mass, mj = m.particles[c.j].mass;
      const double si = g * mj / (mi + mj), sj = g * mi / (mi + mj);
      sum[c.i].x += si * r0.x, sum[c.i].y += si * r0.y, sum[c.i].z += si * r0.z;
      sum[c.j].x -= sj * r0.x, sum[c.j].y -= sj * r0.y, sum[c.j].z -= sj * r0.z;
    }
    for (size_t p = 0; p < x.size(); p++) {
      const double d = fixed::dampingDivisor(held[p]);
      x[p].x += sum[p].x / d, x[p].y += sum[p].y / d, x[p].z += sum[p].z / d;
    }
  }
  return x;
}

TEST(ShakeReference, RefusesToleranceAndGeometryTheFixedPointCannotHold) {
  const Molecule chain = generate(Shape::kChain, 10, 1).molecule;
  EXPECT_EQ(toFixed(chain, 0).error,
            "tolerance 0 is not at least 1e-05 (tolerances must be above 0, and Q20 positions "
            "resolve no finer)");
  EXPECT_FALSE(toFixed(chain, -1e-4).ok());
  EXPECT_FALSE(toFixed(chain, NAN).ok());
  EXPECT_FALSE(toFixed(chain, 1e-6).ok());
  EXPECT_TRUE(toFixed(chain, 1e-5).ok());
  const MoleculeResult far =
      readMoleculeText("particles 2\n0 0 0 1\n1025 0 0 1\nconstraints 0\n", "far.mol");
  EXPECT_EQ(toFixed(far.molecule, 1e-4).error,
            "far.mol:3: coordinate 1025 is beyond the fixed-point range of +-1024 Å");
  const MoleculeResult longBond =
      readMoleculeText("particles 2\n0 0 0 1\n16 0 0 1\nconstraints 1\n0 1 16\n", "long.mol");
  EXPECT_EQ(toFixed(longBond.molecule, 1e-4).error,
            "long.mol:5: constraint of length 16 between particles 0 and 1 is not one the "
            "fixed-point form holds (lengths in (0, 16) Å between two particles)");
}

TEST(ShakeReference, ConvergesWithinToleranceAndKeepsBondLengths) {
  for (Shape shape : {Shape::kChain, Shape::kRing, Shape::kBranched}) {
    for (double tolerance : {1e-4, 1e-5}) {
      const Molecule m = generate(shape, 500, 11).molecule;
      const FixedResult f = toFixed(m, tolerance);
      ASSERT_TRUE(f.ok()) << f.error;
      State state = initialState(f.molecule, 12, 0.02);
      Dynamics dynamics;
      uint32_t most = 0;
      for (int s = 0; s < 20; s++) {
        const ShakeResult r = step(f.molecule, dynamics, &state);
        ASSERT_TRUE(r.ok()) << r.error;
        ASSERT_GE(r.iterations, 1u);
        most = std::max(most, r.iterations);
        for (const fixed::Constraint& c : f.molecule.constraints) {
          ASSERT_TRUE(
              fixed::satisfied(c, fixed::difference(state.positions[c.i], state.positions[c.j])));
        }
      }
      const std::vector<Point> x = inAngstrom(state.positions);
      for (const Constraint& c : m.constraints) {
        const double d2 = c.length * c.length;
        EXPECT_LE(std::fabs(squaredLength(x[c.i], x[c.j]) - d2), tolerance * d2 * 1.001)
            << m.name << " constraint " << c.i << "-" << c.j;
      }
      // The particles moved: the steps were not lost to the constraints.
      double moved = 0;
      for (size_t p = 0; p < x.size(); p++) {
        moved +=
            std::sqrt(squaredLength(x[p], {m.particles[p].x, m.particles[p].y, m.particles[p].z}));
      }
      EXPECT_GT(moved / x.size(), 0.02) << m.name;
      RecordProperty(m.name + " tolerance " + std::to_string(tolerance) + " most iterations",
                     static_cast<int>(most));
    }
  }
}

// Without damping, combs stopped converging within 2000 iterations after 44-76 steps (and at
// 1e-5 damping by truncating division stalled): docs/shake.md, "Damping".
TEST(ShakeReference, DampedIterationConvergesOverLongRuns) {
  for (Shape shape : {Shape::kChain, Shape::kRing, Shape::kBranched}) {
    for (double tolerance : {1e-4, 1e-5}) {
      const Molecule m = generate(shape, 500, 11).molecule;
      const FixedResult f = toFixed(m, tolerance);
      ASSERT_TRUE(f.ok()) << f.error;
      State state = initialState(f.molecule, 3, 0.01);
      Dynamics dynamics;
      dynamics.maxIterations = 400;
      for (int s = 0; s < 300; s++) {
        const ShakeResult r = step(f.molecule, dynamics, &state);
        ASSERT_TRUE(r.ok()) << "step " << s << ": " << r.error;
      }
    }
  }
}

TEST(ShakeReference, FixedPointFollowsTheSameIterationInDouble) {
  for (Shape shape : {Shape::kChain, Shape::kRing, Shape::kBranched}) {
    const Molecule m = generate(shape, 300, 21).molecule;
    const FixedResult f = toFixed(m, 1e-5);
    ASSERT_TRUE(f.ok()) << f.error;
    const State start = initialState(f.molecule, 22, 0.05);
    std::vector<fixed::Vec> moved = start.positions;
    for (size_t p = 0; p < moved.size(); p++) {
      moved[p].x += start.steps[p].x, moved[p].y += start.steps[p].y,
          moved[p].z += start.steps[p].z;
    }
    std::vector<fixed::Vec> shaken = moved;
    const ShakeResult r = shake(f.molecule, start.positions, &shaken, 1000);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_GT(r.iterations, 3u);
    const std::vector<Point> expected =
        shakeInDouble(m, inAngstrom(start.positions), inAngstrom(moved), r.iterations);
    const std::vector<Point> got = inAngstrom(shaken);
    double worst = 0;
    for (size_t p = 0; p < got.size(); p++) {
      worst = std::fmax(worst, std::sqrt(squaredLength(got[p], expected[p])));
    }
    // Rounding to 2^-20 Å each iteration, against corrections of hundredths of an Å.
    EXPECT_LT(worst, 2e-5) << m.name;
  }
}

TEST(ShakeReference, AFailedStepLeavesTheStateAsItWas) {
  const Molecule m = generate(Shape::kBranched, 200, 31).molecule;
  const FixedResult f = toFixed(m, 1e-5);
  ASSERT_TRUE(f.ok()) << f.error;
  for (double speed : {0.05, 3.0}) {  // too few iterations; then a step that tears bonds
    State state = initialState(f.molecule, 32, speed);
    const State before = state;
    Dynamics dynamics;
    dynamics.maxIterations = 2;
    const ShakeResult r = step(f.molecule, dynamics, &state);
    EXPECT_FALSE(r.ok());
    EXPECT_NE(r.error.find(m.name + ": "), std::string::npos) << r.error;
    for (size_t p = 0; p < state.positions.size(); p++) {
      ASSERT_EQ(state.positions[p].x, before.positions[p].x);
      ASSERT_EQ(state.steps[p].z, before.steps[p].z);
    }
  }
  State state = initialState(f.molecule, 1, 0.01);
  Dynamics bad;
  bad.tether = 0.1;
  EXPECT_EQ(step(f.molecule, bad, &state).error, "tether 0.1 is not in [0, 1/16)");
}

TEST(ShakeReference, TheTetherPullsAFreeParticleBackLikeAHarmonicOscillator) {
  // One unconstrained particle from 1 Å at rest under ω²Δt² = 0.01: velocity Verlet's positions
  // are cos(ω' n) with cos ω' = 1 - ω²Δt²/2, up to the Q20 rounding.
  const MoleculeResult r = readMoleculeText("particles 1\n1 0 0 12\nconstraints 0\n", "one.mol");
  ASSERT_TRUE(r.ok()) << r.error;
  const FixedResult f = toFixed(r.molecule, 1e-4);
  ASSERT_TRUE(f.ok()) << f.error;
  State state = initialState(f.molecule, 0, 0);
  Dynamics dynamics;
  dynamics.tether = 0.01;
  for (int s = 1; s <= 100; s++) {
    ASSERT_TRUE(step(f.molecule, dynamics, &state).ok());
    EXPECT_NEAR(toAngstrom(state.positions[0].x), std::cos(std::acos(1 - 0.01 / 2) * s), 5e-4)
        << "step " << s;
  }
}

}  // namespace
}  // namespace tessera::shake
