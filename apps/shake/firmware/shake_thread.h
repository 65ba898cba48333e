// One thread of the parallel SHAKE ring (docs/shake.md, "On the machine"). Each time step:
// the unconstrained velocity Verlet update of its own particles, then SHAKE iterations, each:
//
//   compute the displacements of its LCI and PCCI constraints, summed per particle;
//   send its ghosts' sums to the next thread, add the previous thread's sums for its exports;
//   apply the damped sums to its own particles;
//   send its exports' positions to the previous thread, take the next thread's for its ghosts;
//   check its LCI and PCCI constraints against their tolerances;
//   decide with the whole ring whether every constraint holds (ACWT, by the image's method).
//
// The arithmetic is tessera/shake/kernel.h, operation for operation as the host reference does
// it, so the positions agree with the reference bit for bit.
#ifndef TESSERA_SHAKE_SHAKE_THREAD_H
#define TESSERA_SHAKE_SHAKE_THREAD_H

#include <stdint.h>

#include "ring_link.h"
#include "tessera/drivers/ocbus.h"
#include "tessera/shake/ring_image.h"

namespace tessera::shake::ring {

class ShakeThread {
 public:
  // `h` is the thread's image, already checked (imageError).
  explicit ShakeThread(Header& h);

  // Runs every step, or up to the first that fails (then every thread stops at the same one).
  void run();
  // The thread's particles, their steps and its Report, to the host.
  void sendResults();

  uint32_t stepsDone() const { return stepsDone_; }
  uint32_t iterations() const { return round_; }
  Error error() const { return error_; }

 private:
  template <typename T>
  T* at(uint32_t offset) {
    return reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(&h_) + offset);
  }

  [[nodiscard]] bool step();
  void computeSums();
  void sendGhostSums();
  void applySums();
  [[nodiscard]] bool localConstraintsHold() const;
  [[nodiscard]] bool agree(bool vote);
  void sendExports(Kind kind);
  void takeGhosts(Kind kind);
  void fail(Error error, uint32_t constraint = 0);
  void record(uint64_t begin, uint64_t vote, uint64_t done);

  Header& h_;
  fixed::Vec* x_;
  fixed::Vec* start_;
  fixed::Vec* unconstrained_;
  fixed::Vec* steps_;
  const uint32_t* divisors_;
  const fixed::Constraint* constraints_;
  const uint32_t* exports_;
  Sum* sums_;
  fixed::Vec* incoming_;
  Timing* timings_;
  RingLink link_;
  drivers::OcBusProtocols bus_;

  uint32_t round_ = 0;  // SHAKE iterations begun
  uint32_t stepsDone_ = 0;
  uint64_t compute_ = 0, check_ = 0, update_ = 0;
  Error error_ = Error::kNone;
  uint32_t errorConstraint_ = 0, errorRound_ = 0;
};

// Why the image at `h` cannot be run here (Error::kNone if it can): wrong magic or version, or
// a ring that is not this machine (every hart, in dense order).
Error imageError(const Header& h, uint32_t harts, uint32_t position);

}  // namespace tessera::shake::ring

#endif
