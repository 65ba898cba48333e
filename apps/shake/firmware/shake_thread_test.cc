// The ring threads of apps/shake on the host machine (boards/hosted), over the same mailbox and
// open-collector bus models as QEMU: every method's positions, steps and iteration counts
// equal the host reference's bit for bit, and an image the firmware cannot run is refused.
#include "shake_thread.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "tessera/host/machine.h"
#include "tessera/shake/generate.h"
#include "tessera/shake/ring_run.h"
#include "tinsel.h"

extern "C" void tessera_runtime_prepare_mailbox();  // firmware/tinsel/v2_start.cc

namespace tessera::shake {
namespace {

using host::Hart;
using host::Machine;

struct HostRun {
  State state;
  std::vector<uint32_t> stepsDone, iterations;
  std::vector<ring::Error> errors;
};

// Runs the images on a machine of `shape`, one ring thread per hart, and reads every thread's
// particles back out of its image.
HostRun runOnHost(const RingProblem& p, const RingImages& images, const TesseraShape& shape) {
  const uint32_t P = static_cast<uint32_t>(images.threads.size());
  std::vector<std::vector<uint64_t>> memory(P);  // 8-byte aligned, as the heap is
  for (uint32_t t = 0; t < P; t++) {
    const std::vector<uint8_t>& bytes = images.threads[t].bytes;
    memory[t].assign((bytes.size() + 7) / 8, 0);
    std::memcpy(memory[t].data(), bytes.data(), bytes.size());
  }
  HostRun out;
  out.stepsDone.assign(P, 0);
  out.iterations.assign(P, 0);
  out.errors.assign(P, ring::Error::kNone);
  Machine machine(shape);
  EXPECT_EQ(machine.num_harts(), P);
  machine.run_on_all_harts([&](Hart& hart) {
    tessera_runtime_prepare_mailbox();
    auto* header = reinterpret_cast<ring::Header*>(memory[hart.index()].data());
    const ring::Error refused = ring::imageError(*header, P, hart.index());
    if (refused != ring::Error::kNone) {
      out.errors[hart.index()] = refused;
      return;
    }
    ring::ShakeThread thread(*header);
    thread.run();
    out.stepsDone[hart.index()] = thread.stepsDone();
    out.iterations[hart.index()] = thread.iterations();
    out.errors[hart.index()] = thread.error();
  });
  out.state.positions.resize(p.fixed.positions.size());
  out.state.steps.resize(p.fixed.positions.size());
  for (uint32_t t = 0; t < P; t++) {
    ring::Header h;
    std::memcpy(&h, memory[t].data(), sizeof h);
    const auto* base = reinterpret_cast<const uint8_t*>(memory[t].data());
    std::memcpy(&out.state.positions[h.first], base + h.positionsAt, h.owned * sizeof(fixed::Vec));
    std::memcpy(&out.state.steps[h.first], base + h.stepsAt, h.owned * sizeof(fixed::Vec));
  }
  return out;
}

void expectSame(const std::vector<fixed::Vec>& a, const std::vector<fixed::Vec>& b,
                const char* what) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t q = 0; q < a.size(); q++) {
    ASSERT_TRUE(a[q].x == b[q].x && a[q].y == b[q].y && a[q].z == b[q].z)
        << what << " of particle " << q << " differs";
  }
}

struct Case {
  Shape shape;
  uint32_t particles;
  TesseraShape machine;
};

TEST(ShakeThreadOnHost, EveryMethodEqualsTheReferenceBitForBit) {
  const Case cases[] = {
      {Shape::kChain, 100, {2, 1, 1, 1, 1, 4}},     // 8 threads on 2 boards
      {Shape::kBranched, 300, {3, 1, 1, 1, 2, 2}},  // 12 on 3 boards
      {Shape::kRing, 40, {2, 1, 1, 1, 1, 2}},       // 4 on 2 boards
  };
  for (const Case& c : cases) {
    const uint32_t P = tessera_num_threads(&c.machine);
    const RingProblem p = prepareRing(generate(c.shape, c.particles, 3).molecule, P, 1e-4, 4, 0.01);
    ASSERT_TRUE(p.ok()) << p.error;
    Dynamics dynamics;
    const ReferenceRun reference = runReference(p.fixed, p.initial, dynamics, 3);
    ASSERT_TRUE(reference.ok()) << reference.error;
    for (uint32_t k = 0; k < ring::kMethods; k++) {
      RunSpec spec;
      spec.method = static_cast<ring::Method>(k);
      spec.steps = 3;
      const RingImages images = buildRingImages(p.fixed, p.layout, p.initial, spec, 1 << 16);
      ASSERT_TRUE(images.ok()) << images.error;
      SCOPED_TRACE(std::string(shapeName(c.shape)) + " on " + std::to_string(P) + " threads, " +
                   methodName(spec.method));
      const HostRun run = runOnHost(p, images, c.machine);
      for (uint32_t t = 0; t < P; t++) {
        EXPECT_EQ(run.errors[t], ring::Error::kNone) << "thread " << t;
        EXPECT_EQ(run.stepsDone[t], 3u) << "thread " << t;
        EXPECT_EQ(run.iterations[t], reference.iterations) << "thread " << t;
      }
      expectSame(run.state.positions, reference.state.positions, "the position");
      expectSame(run.state.steps, reference.state.steps, "the step");
    }
  }
}

// Every thread stops at the same round when a step cannot converge, as the reference fails.
TEST(ShakeThreadOnHost, AStepThatDoesNotConvergeStopsEveryThreadAlike) {
  const TesseraShape machine{2, 1, 1, 1, 1, 4};
  const RingProblem p = prepareRing(generate(Shape::kBranched, 120, 3).molecule, 8, 1e-4, 4, 0.01);
  ASSERT_TRUE(p.ok()) << p.error;
  Dynamics dynamics;
  dynamics.maxIterations = 3;
  const ReferenceRun reference = runReference(p.fixed, p.initial, dynamics, 2);
  ASSERT_FALSE(reference.ok());
  for (uint32_t k = 0; k < ring::kMethods; k++) {
    RunSpec spec;
    spec.method = static_cast<ring::Method>(k);
    spec.steps = 2;
    spec.dynamics = dynamics;
    const RingImages images = buildRingImages(p.fixed, p.layout, p.initial, spec, 1 << 16);
    ASSERT_TRUE(images.ok()) << images.error;
    const HostRun run = runOnHost(p, images, machine);
    for (uint32_t t = 0; t < 8; t++) {
      EXPECT_EQ(run.errors[t], ring::Error::kNotConverged) << methodName(spec.method);
      EXPECT_EQ(run.stepsDone[t], reference.stepsDone);
      EXPECT_EQ(run.iterations[t], 3u);
    }
  }
}

TEST(ShakeThreadOnHost, RefusesAnImageForAnotherRing) {
  const RingProblem p = prepareRing(generate(Shape::kChain, 40, 3).molecule, 4, 1e-4, 4, 0.01);
  const RingImages images = buildRingImages(p.fixed, p.layout, p.initial, RunSpec{}, 1 << 16);
  ring::Header h;
  std::memcpy(&h, images.threads[1].bytes.data(), sizeof h);
  EXPECT_EQ(ring::imageError(h, 4, 1), ring::Error::kNone);
  EXPECT_EQ(ring::imageError(h, 8, 1), ring::Error::kBadImage);
  EXPECT_EQ(ring::imageError(h, 4, 2), ring::Error::kBadImage);
  h.method = 7;
  EXPECT_EQ(ring::imageError(h, 4, 1), ring::Error::kBadImage);
  h.method = 0;
  h.magic = 0;
  EXPECT_EQ(ring::imageError(h, 4, 1), ring::Error::kBadImage);
}

}  // namespace
}  // namespace tessera::shake
