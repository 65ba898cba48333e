// The host's half of a parallel SHAKE run on the machine (docs/shake.md, "On the machine"):
// the image of each ring thread, written before boot, and the run put back together from the
// threads' messages afterwards.
#ifndef TESSERA_SHAKE_RING_RUN_H
#define TESSERA_SHAKE_RING_RUN_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tessera/shake/reference.h"
#include "tessera/shake/ring.h"
#include "tessera/shake/ring_image.h"

namespace tessera::shake {

const char* methodName(ring::Method method);  // ring2, ringp, ocbus
std::optional<ring::Method> methodNamed(const std::string& name);

// A molecule made ready for a ring: renumbered by reverse Cuthill-McKee, laid on the ring, in
// fixed point, with initial steps drawn from [-maxStep, maxStep] Å.
struct RingProblem {
  Molecule molecule;  // renumbered
  uint32_t bandwidthBefore = 0, bandwidthAfter = 0;
  RingLayout layout;
  FixedMolecule fixed;
  State initial;
  std::string error;  // one line naming the file (and line) of the first problem
  bool ok() const { return error.empty(); }
};

RingProblem prepareRing(const Molecule& m, uint32_t threads, double tolerance, uint64_t seed,
                        double maxStep);

// The host reference over `steps` steps, stopping at the first that fails.
struct ReferenceRun {
  State state;
  uint32_t stepsDone = 0, iterations = 0;
  std::string error;
  bool ok() const { return error.empty(); }
};

ReferenceRun runReference(const FixedMolecule& m, State state, const Dynamics& dynamics,
                          uint32_t steps);

struct RunSpec {
  ring::Method method = ring::Method::kRing2;
  uint32_t steps = 1;
  Dynamics dynamics;
  uint32_t timings = 512;  // iterations whose times each thread keeps, as far as its heap allows
};

struct ThreadImage {
  std::vector<uint8_t> bytes;           // the Header and its arrays
  std::vector<uint32_t> constraintIds;  // the molecule's index of each local constraint
};

struct RingImages {
  std::vector<ThreadImage> threads;  // by ring position
  uint32_t largest = 0;              // bytes of the largest image
  std::string error;                 // one line, naming the molecule; no image then
  bool ok() const { return error.empty(); }
};

// The images of a ring of layout.threads.size() threads running `spec` from `state`, each at
// most `capacity` bytes (the thread's SRAM heap): a molecule that needs more on some thread is
// refused ("more particles than the machine can hold"), as is one with a particle held by so
// many constraints that a summed displacement might not fit a message's int32.
RingImages buildRingImages(const FixedMolecule& m, const RingLayout& layout, const State& state,
                           const RunSpec& spec, uint32_t capacity);

// The run as the threads reported it.
struct RingRun {
  State state;              // every particle's final position and step
  uint32_t stepsDone = 0;   // completed by every thread
  uint32_t iterations = 0;  // SHAKE iterations, all steps (thread 0's; every thread agrees)
  // Modelled cycles summed over the threads: SHAKE iterations up to each thread's vote
  // (compute), in the ACWT (check), and in the unconstrained updates.
  uint64_t compute = 0, check = 0, update = 0;
  // The critical path of the first `timed` iterations, summed: from the last thread to begin an
  // iteration to the last vote (compute), and from the last vote to the last thread to know
  // the verdict (check).
  uint32_t timed = 0;
  uint64_t pathCompute = 0, pathCheck = 0;
  uint64_t messages = 0;  // thread to thread
  std::string error;      // a thread's error, or a report missing or inconsistent
  bool ok() const { return error.empty(); }
};

// Collects the threads' messages (ring::Kind::kFinalPositions, kFinalSteps, kReport).
class RingCollector {
 public:
  RingCollector(const FixedMolecule& m, const RingLayout& layout, const RingImages& images);

  // Takes one message from a thread; false when it is not one this run expects.
  bool add(const ring::Message& message);
  // Whether every particle and every report has arrived.
  bool complete() const;
  // The run; an error if incomplete or if a thread reported one.
  RingRun result() const;

 private:
  const FixedMolecule& m_;
  const RingImages& images_;
  RingRun run_;
  std::vector<uint8_t> havePosition_, haveStep_;
  std::vector<std::optional<ring::Report>> reports_;
  std::vector<std::vector<ring::Timing>> timings_;  // by thread, by iteration
  std::vector<uint32_t> timingsIn_;
  uint32_t positions_ = 0, steps_ = 0, reportsIn_ = 0;
  std::string unexpected_;
};

}  // namespace tessera::shake

#endif
