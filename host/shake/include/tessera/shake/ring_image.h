// What the host and the firmware of the parallel SHAKE agree on (docs/shake.md, "On the
// machine"): the image the host writes at each ring thread's tinselHeapBaseSRAM(), and the
// messages of the ring and of the results. Freestanding (only <stdint.h> and kernel.h), like the
// kernel, so that both sides include this one definition.
//
// Local numbering on thread t: particles 0..owned-1 are its own (global first..first+owned-1),
// owned..owned+ghosts-1 are copies of the particles of t+1 that its positive-crossing
// constraints reach. Thread t computes its local (LCI) and positive-crossing (PCCI) constraints;
// each negative-crossing one (NCCI) is its neighbour t-1's PCCI, and reaches thread t through
// t-1's ghosts of t's "exports".
#ifndef TESSERA_SHAKE_RING_IMAGE_H
#define TESSERA_SHAKE_RING_IMAGE_H

#include <stdint.h>

#include "tessera/shake/kernel.h"

namespace tessera::shake::ring {

inline constexpr uint32_t kMagic = 0x53484b31;  // "SHK1"

// How the ring decides that every constraint is within tolerance (ACWT, the all-reduce).
enum class Method : uint32_t {
  kRing2 = 0,  // one message twice around the ring: the AND, then the verdict
  kRingP = 1,  // P messages, each once around: every thread's vote reaches every other
  kOcBus = 2,  // the open-collector bus (drivers/ocbus): 3 settle times
};
inline constexpr uint32_t kMethods = 3;

// The image: this header, then its arrays at the offsets it gives (bytes from the header, each
// a multiple of 8). The firmware works in place: positions, steps and the scratch arrays are
// the thread's state for the whole run.
struct Header {
  uint32_t magic;
  uint32_t version;        // kVersion
  uint32_t ringSize;       // P, the threads of the ring: every hart of the machine
  uint32_t position;       // this thread's place in the ring (its dense hart index)
  uint32_t method;         // Method
  uint32_t steps;          // time steps to run
  uint32_t maxIterations;  // SHAKE iterations before a step gives up
  uint32_t first;          // global index of own particle 0
  uint32_t owned, ghosts, exports;
  uint32_t constraints;  // LCI then PCCI, in local numbering
  uint32_t local;        // how many of them are LCI
  uint32_t bytes;        // the whole image
  int64_t tether;        // ω²Δt², Q32
  // Offsets.
  uint32_t positionsAt;      // fixed::Vec[owned + ghosts]: now
  uint32_t startAt;          // fixed::Vec[owned + ghosts]: at the start of the step
  uint32_t unconstrainedAt;  // fixed::Vec[owned]: after the unconstrained update
  uint32_t stepsAt;          // fixed::Vec[owned]: velocity times Δt
  uint32_t divisorsAt;       // uint32_t[owned]: fixed::dampingDivisor of each own particle
  uint32_t constraintsAt;    // fixed::Constraint[constraints]
  uint32_t exportsAt;        // uint32_t[exports]: own particles, in t-1's ghost order
  uint32_t sumsAt;           // Sum[owned + ghosts]: this iteration's summed displacements
  uint32_t incomingAt;       // fixed::Vec[ghosts]: the next thread's positions as they come
  uint32_t forwardsAt;       // Forward[2 * ringSize] with ringp, else none
  uint32_t timingsAt;        // Timing[timings]: the first `timings` iterations' times
  uint32_t timings;
};
inline constexpr uint32_t kVersion = 1;

using fixed::Sum;

// When one thread began an iteration, voted, and knew the ring's verdict (modelled cycles, the
// machine's one timeline): the host takes the critical path from these (docs/shake.md).
struct Timing {
  uint64_t begin, vote, done;
};

// A ringp vote waiting to be passed on.
struct Forward {
  uint32_t round;
  uint32_t voterAndValue;  // voter << 1 | value
};

// ---- Messages: 4 flits of 16 bytes ----

enum class Kind : uint32_t {
  // Thread to thread.
  kStartPositions = 1,  // t+1 to t: exports after the unconstrained update, at a step's start
  kPositions,           // t+1 to t: exports after an iteration's displacements
  kDisplacements,       // t to t+1: the sums of t's ghosts, for t+1's exports
  kCollect,             // ring2, first lap: `value` is the AND so far
  kVerdict,             // ring2, second lap: `value` is the AND of every vote
  kVote,                // ringp: `value` is the vote of thread `origin` (in `first`)
  // Thread to host.
  kFinalPositions,  // `first` is the global index of entries[0]
  kFinalSteps,
  kTimings,  // from thread `round`: Timings of iterations `first`.., `count` in `entries`
  kReport,   // a Report
};

inline constexpr uint32_t kEntriesPerMessage = 4;
inline constexpr uint32_t kTimingsPerMessage = 2;

struct Message {
  Kind kind;
  uint32_t round;  // SHAKE iterations begun since the run started, counting this one
  uint32_t first;  // index of entries[0] in the exchange's list; ringp: the voter
  uint32_t count;  // entries; collect, verdict, vote: the value (0 or 1)
  fixed::Vec entries[kEntriesPerMessage];
};
static_assert(sizeof(Message) == 64);
static_assert(sizeof(Timing) * kTimingsPerMessage <= sizeof(Message::entries));

// What went wrong, if anything (Report::error).
enum class Error : uint32_t {
  kNone = 0,
  kStretched,     // fixed::Outcome::kStretched
  kTurned,        // fixed::Outcome::kTurned
  kTooFar,        // fixed::Outcome::kTooFar
  kLeftRange,     // a particle left the fixed-point range
  kSumTooLarge,   // a ghost's summed displacement beyond int32 (too many constraints)
  kNotConverged,  // maxIterations without every constraint within tolerance
  kBadImage,      // the header is not one this firmware reads
  kProtocol,      // a message that fits no exchange in progress
};

// Each thread's account of the run, after its particles.
struct Report {
  Kind kind;  // kReport
  uint32_t position;
  uint32_t stepsDone;             // steps completed
  uint32_t iterations;            // SHAKE iterations, all steps: the same on every thread
  uint32_t computeLo, computeHi;  // modelled cycles in iterations up to the vote
  uint32_t checkLo, checkHi;      // modelled cycles in the ACWT
  uint32_t updateLo, updateHi;    // modelled cycles in the unconstrained updates
  Error error;
  uint32_t errorConstraint;  // local index of the constraint, for the three outcomes
  uint32_t errorRound;       // the round the error happened in
  uint32_t messages;         // thread-to-thread messages sent
  uint32_t unused[2];
};
static_assert(sizeof(Report) == 64);

}  // namespace tessera::shake::ring

#endif
