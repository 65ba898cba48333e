// xorshift32 (Marsaglia, 2003): a pseudo-random sequence a program can replay from its seed, so
// that its random choices are the same on every run, on every host and on every machine shape.
// Header-only and free of the C++ library, for the harts and for host tests alike; each program
// keeps its own way of forming the seed, which fixes its sequence (and its modelled results).
#pragma once

#include <stdint.h>

namespace tessera {

class Xorshift32 {
 public:
  // A state of 0 would stay 0 for ever: it is replaced by a fixed odd constant.
  constexpr explicit Xorshift32(uint32_t seed) : state_(seed != 0 ? seed : 0x6d2b79f5u) {}

  constexpr uint32_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return state_;
  }

  // A value in 0..n-1 (0 when n is 0), by remainder: the slight bias is of no concern here.
  constexpr uint32_t below(uint32_t n) { return n == 0 ? 0 : next() % n; }

 private:
  uint32_t state_;
};

// The seed of episode `episode`'s sender `sender`: the idle soak test and its host twin
// (firmware/termination/detector_test.cc) draw the same traffic from it.
constexpr uint32_t episode_seed(uint32_t episode, uint32_t sender) {
  return (episode + 1) * 0x9e3779b1u ^ (sender + 1) * 0x85ebca77u;
}

}  // namespace tessera
