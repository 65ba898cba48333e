#include "tessera/shake/ring_run.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "tessera/shake/generate.h"

namespace tessera::shake {
namespace {

ring::Header headerOf(const ThreadImage& image) {
  ring::Header h;
  std::memcpy(&h, image.bytes.data(), sizeof h);
  return h;
}

template <typename T>
std::vector<T> arrayOf(const ThreadImage& image, uint32_t offset, uint32_t count) {
  std::vector<T> out(count);
  if (count > 0) std::memcpy(out.data(), image.bytes.data() + offset, count * sizeof(T));
  return out;
}

RingProblem problem(Shape shape, uint32_t particles, uint32_t threads) {
  const RingProblem p = prepareRing(generate(shape, particles, 5).molecule, threads, 1e-4, 6, 0.01);
  EXPECT_TRUE(p.ok()) << p.error;
  return p;
}

// Every constraint is computed by exactly one thread, with its ends in that thread's local
// numbering; each thread's ghosts are its successor's exports, particle for particle.
TEST(ShakeRingImages, EveryConstraintOnceAndGhostsAreTheNextThreadsExports) {
  for (Shape shape : {Shape::kChain, Shape::kRing, Shape::kBranched}) {
    for (uint32_t threads : {2u, 3u, 8u, 12u}) {
      const RingProblem p = problem(shape, 240, threads);
      RunSpec spec;
      const RingImages images = buildRingImages(p.fixed, p.layout, p.initial, spec, 64 * 1024 / 4);
      ASSERT_TRUE(images.ok()) << images.error;
      ASSERT_EQ(images.threads.size(), threads);
      std::multiset<uint32_t> computed;
      std::vector<std::vector<uint32_t>> ghostsGlobal(threads), exportsGlobal(threads);
      for (uint32_t t = 0; t < threads; t++) {
        const ThreadImage& image = images.threads[t];
        const ring::Header h = headerOf(image);
        EXPECT_EQ(h.magic, ring::kMagic);
        EXPECT_EQ(h.position, t);
        EXPECT_EQ(h.ringSize, threads);
        EXPECT_EQ(h.bytes, image.bytes.size());
        EXPECT_LE(h.bytes, 64u * 1024 / 4);
        EXPECT_EQ(h.first, p.layout.threads[t].first);
        EXPECT_EQ(h.owned, p.layout.threads[t].count);
        ASSERT_EQ(image.constraintIds.size(), h.constraints);
        const auto constraints = arrayOf<fixed::Constraint>(image, h.constraintsAt, h.constraints);
        const auto positions = arrayOf<fixed::Vec>(image, h.positionsAt, h.owned + h.ghosts);
        // Local index -> global particle, from the positions: own are first..., ghosts follow.
        for (uint32_t k = 0; k < h.constraints; k++) {
          const uint32_t id = image.constraintIds[k];
          computed.insert(id);
          const fixed::Constraint& c = constraints[k];
          ASSERT_LT(c.i, h.owned + h.ghosts);
          ASSERT_LT(c.j, h.owned + h.ghosts);
          EXPECT_EQ(c.length2, p.fixed.constraints[id].length2);
          EXPECT_EQ(positions[c.i].x, p.initial.positions[p.fixed.constraints[id].i].x);
          EXPECT_EQ(positions[c.j].y, p.initial.positions[p.fixed.constraints[id].j].y);
          if (k < h.local) {
            EXPECT_TRUE(c.i < h.owned && c.j < h.owned);
          }
        }
        for (uint32_t g = 0; g < h.ghosts; g++) {
          // A ghost's position is its particle's: find which particle by position.
          for (size_t q = 0; q < p.initial.positions.size(); q++) {
            const fixed::Vec& v = p.initial.positions[q];
            const fixed::Vec& w = positions[h.owned + g];
            if (v.x == w.x && v.y == w.y && v.z == w.z) {
              ghostsGlobal[t].push_back(static_cast<uint32_t>(q));
              break;
            }
          }
        }
        for (uint32_t e : arrayOf<uint32_t>(image, h.exportsAt, h.exports)) {
          ASSERT_LT(e, h.owned);
          exportsGlobal[t].push_back(h.first + e);
        }
      }
      EXPECT_EQ(computed.size(), p.fixed.constraints.size());
      EXPECT_EQ(std::set<uint32_t>(computed.begin(), computed.end()).size(), computed.size());
      for (uint32_t t = 0; t < threads; t++) {
        EXPECT_EQ(ghostsGlobal[t], exportsGlobal[(t + 1) % threads])
            << shapeName(shape) << " on " << threads << " threads, thread " << t;
      }
    }
  }
}

TEST(ShakeRingImages, RefusesMoreParticlesThanAThreadHolds) {
  const RingProblem p = problem(Shape::kChain, 4000, 4);
  const RingImages images = buildRingImages(p.fixed, p.layout, p.initial, RunSpec{}, 4096);
  ASSERT_FALSE(images.ok());
  EXPECT_TRUE(images.threads.empty());
  EXPECT_EQ(images.error.find("chain(4000, seed 5): more particles than the machine can hold: "
                              "thread 0 of the ring of 4 needs "),
            0u)
      << images.error;
  EXPECT_NE(images.error.find("its heap holds 4096"), std::string::npos) << images.error;
}

TEST(ShakeRingImages, TimingsTakeOnlyTheRoomLeft) {
  const RingProblem p = problem(Shape::kChain, 64, 4);
  RunSpec spec;
  spec.timings = 1000000;
  const RingImages images = buildRingImages(p.fixed, p.layout, p.initial, spec, 4096);
  ASSERT_TRUE(images.ok()) << images.error;
  for (const ThreadImage& image : images.threads) {
    const ring::Header h = headerOf(image);
    EXPECT_GT(h.timings, 0u);
    EXPECT_LE(h.bytes, 4096u);
    EXPECT_GT(h.bytes + sizeof(ring::Timing), 4096u - 8);
  }
}

TEST(ShakeRingImages, RefusesAParticleHeldByTooManyConstraints) {
  Molecule star;
  star.name = "star.mol";
  star.particles.push_back({0, 0, 0, 12, 2});
  for (int k = 0; k < 64; k++) {
    star.particles.push_back({1.0 + k * 0.01, 0.5, 0, 1, 3u + k});
    star.constraints.push_back({0, static_cast<uint32_t>(k + 1), 1.0, 100u + k});
  }
  const RingProblem p = prepareRing(star, 1, 1e-4, 1, 0.01);
  ASSERT_TRUE(p.ok()) << p.error;
  const RingImages images = buildRingImages(p.fixed, p.layout, p.initial, RunSpec{}, 1 << 20);
  EXPECT_NE(images.error.find("is held by 64 constraints; the ring takes at most 63"),
            std::string::npos)
      << images.error;
}

ring::Message particles(ring::Kind kind, uint32_t first, uint32_t count) {
  ring::Message m{};
  m.kind = kind;
  m.first = first;
  m.count = count;
  for (uint32_t e = 0; e < count; e++) m.entries[e] = {int32_t(first + e), 0, 0};
  return m;
}

ring::Message report(uint32_t position, uint32_t iterations) {
  ring::Report r{};
  r.kind = ring::Kind::kReport;
  r.position = position;
  r.stepsDone = 1;
  r.iterations = iterations;
  ring::Message m;
  std::memcpy(&m, &r, sizeof m);
  return m;
}

ring::Message timings(uint32_t position, uint32_t first, std::vector<ring::Timing> t) {
  ring::Message m{};
  m.kind = ring::Kind::kTimings;
  m.round = position;
  m.first = first;
  m.count = static_cast<uint32_t>(t.size());
  std::memcpy(m.entries, t.data(), t.size() * sizeof(ring::Timing));
  return m;
}

// Two threads of 4 particles each, 2 iterations timed.
TEST(ShakeRingCollector, AssemblesTheRunAndTheCriticalPath) {
  const RingProblem p = problem(Shape::kChain, 8, 2);
  RunSpec spec;
  spec.timings = 2;
  const RingImages images = buildRingImages(p.fixed, p.layout, p.initial, spec, 4096);
  ASSERT_TRUE(images.ok()) << images.error;
  RingCollector c(p.fixed, p.layout, images);
  for (ring::Kind kind : {ring::Kind::kFinalPositions, ring::Kind::kFinalSteps}) {
    EXPECT_TRUE(c.add(particles(kind, 0, 4)));
    EXPECT_FALSE(c.add(particles(kind, 3, 2))) << "particle 3 twice";
    EXPECT_FALSE(c.add(particles(kind, 6, 4))) << "beyond the molecule";
    EXPECT_TRUE(c.add(particles(kind, 4, 4)));
  }
  EXPECT_FALSE(c.complete());
  // Thread 0 begins at 10, votes at 50, knows at 70; thread 1 begins at 20, votes at 60,
  // knows at 65: 40 to the last vote, 10 after it. Then 100/130/140 and 90/150/150.
  EXPECT_TRUE(c.add(timings(0, 0, {{10, 50, 70}, {100, 130, 140}})));
  EXPECT_TRUE(c.add(timings(1, 0, {{20, 60, 65}, {90, 150, 150}})));
  EXPECT_FALSE(c.add(timings(1, 1, {{0, 0, 0}, {0, 0, 0}}))) << "beyond the timings";
  EXPECT_TRUE(c.add(report(0, 2)));
  EXPECT_FALSE(c.add(report(0, 2))) << "a report twice";
  EXPECT_FALSE(c.complete());
  EXPECT_TRUE(c.add(report(1, 2)));
  ASSERT_TRUE(c.complete());
  const RingRun run = c.result();
  ASSERT_TRUE(run.ok()) << run.error;
  EXPECT_EQ(run.iterations, 2u);
  EXPECT_EQ(run.timed, 2u);
  EXPECT_EQ(run.pathCompute, 40u + 50u);
  EXPECT_EQ(run.pathCheck, 10u + 0u);
  for (uint32_t q = 0; q < 8; q++) EXPECT_EQ(run.state.positions[q].x, int32_t(q));
}

TEST(ShakeRingCollector, ReportsAThreadsErrorWithTheMoleculesConstraint) {
  const RingProblem p = problem(Shape::kChain, 8, 2);
  RunSpec spec;
  spec.timings = 0;
  const RingImages images = buildRingImages(p.fixed, p.layout, p.initial, spec, 4096);
  RingCollector c(p.fixed, p.layout, images);
  for (ring::Kind kind : {ring::Kind::kFinalPositions, ring::Kind::kFinalSteps}) {
    EXPECT_TRUE(c.add(particles(kind, 0, 4)));
    EXPECT_TRUE(c.add(particles(kind, 4, 4)));
  }
  ring::Message bad = report(1, 2);
  ring::Report r;
  std::memcpy(&r, &bad, sizeof r);
  r.error = ring::Error::kTurned;
  r.errorConstraint = 0;
  r.errorRound = 2;
  std::memcpy(&bad, &r, sizeof r);
  EXPECT_TRUE(c.add(report(0, 2)));
  EXPECT_TRUE(c.add(bad));
  const RingRun run = c.result();
  const uint32_t k = images.threads[1].constraintIds[0];
  EXPECT_EQ(run.error, "chain(8, seed 5): thread 1 found constraint " + std::to_string(k) +
                           " (particles " + std::to_string(p.fixed.constraints[k].i) + " and " +
                           std::to_string(p.fixed.constraints[k].j) +
                           ") turned by 90° or more in SHAKE iteration 2 of the run, step 2: the "
                           "step diverges");
}

}  // namespace
}  // namespace tessera::shake
