// The integer arithmetic of one SHAKE constraint and of the velocity Verlet update, in fixed
// point (docs/shake.md, "Arithmetic"). Freestanding (only <stdint.h>) so that the host reference
// and the RV32IMF firmware compute the same bits: every operation here is an integer add,
// multiply, truncating divide or rounding shift, whose results C++ defines exactly.
//
//   positions, displacements, steps (velocity times the time step)  int32, Q20 Å
//   squared lengths, dot products                                    int64, Q40 Å²
//   a constraint's mass shares m_j/(m_i+m_j), m_i/(m_i+m_j)          int32, Q24
//   the correction ratio (d² - r²) / (2 r0·r)                        int64, Q30
//   the tether ω²Δt²                                                 int64, Q32
#ifndef TESSERA_SHAKE_KERNEL_H
#define TESSERA_SHAKE_KERNEL_H

#include <stdint.h>

namespace tessera::shake::fixed {

inline constexpr int kPositionBits = 20;
inline constexpr int kShareBits = 24;
inline constexpr int kRatioBits = 30;
inline constexpr int kTetherBits = 32;

// Bounds that keep every product within int64 (see the comments at their uses).
inline constexpr int32_t kPositionLimit = 2047 << kPositionBits;  // |coordinate| <= 2047 Å
inline constexpr int32_t kComponentLimit = 32 << kPositionBits;   // |constraint vector| <= 32 Å
inline constexpr int64_t kRatioLimit = int64_t{1} << kRatioBits;  // |correction ratio| < 1
inline constexpr int64_t kTetherLimit = int64_t{1} << 28;         // ω²Δt² < 1/16

struct Vec {
  int32_t x, y, z;
};

// One constraint as the machine holds it: the host turns lengths, masses and the tolerance into
// these integers once, and both sides use them as they are.
struct Constraint {
  uint32_t i, j;
  int64_t length2;    // d², Q40
  int64_t tolerance;  // the largest |r² - d²| accepted, Q40
  int32_t shareI;     // m_j / (m_i + m_j), Q24: i's part of the correction
  int32_t shareJ;     // m_i / (m_i + m_j), Q24
};

// v / 2^s rounded to nearest, halves up (>> of a negative value floors in C++20).
constexpr int64_t roundShift(int64_t v, int s) {
  return (v + (int64_t{1} << (s - 1))) >> s;
}

constexpr Vec difference(Vec a, Vec b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}

constexpr bool withinComponentLimit(Vec v) {
  return v.x >= -kComponentLimit && v.x <= kComponentLimit && v.y >= -kComponentLimit &&
         v.y <= kComponentLimit && v.z >= -kComponentLimit && v.z <= kComponentLimit;
}

// Q40. With components within 2^25 each product is below 2^50.
constexpr int64_t dot(Vec a, Vec b) {
  return int64_t{a.x} * b.x + int64_t{a.y} * b.y + int64_t{a.z} * b.z;
}

enum class Outcome {
  kOk,
  kStretched,  // a component of r beyond 32 Å
  kTurned,     // r0·r <= 0: the bond turned by 90° or more in one step
  kTooFar,     // the correction would be as long as the bond: SHAKE is diverging
};

// The correction ratio g = (d² - r²) / (2 r0·r), Q30, of a constraint whose vector is r0 at the
// start of the step and r now: moving i by g shareI r0 and j by -g shareJ r0 restores d to first
// order. r0 has already been checked within the component limit.
constexpr Outcome correctionRatio(const Constraint& c, Vec r0, Vec r, int64_t* ratio) {
  if (!withinComponentLimit(r)) return Outcome::kStretched;
  // |d²| < 2^48 (d < 16 Å) and r² < 3 * 2^50, so diff * 2^10 stays below 2^63.
  const int64_t diff = c.length2 - dot(r, r);
  const int64_t twiceDot = 2 * roundShift(dot(r0, r), kPositionBits);  // Q20
  if (twiceDot <= 0) return Outcome::kTurned;
  const int64_t g = diff * (int64_t{1} << (kRatioBits - kPositionBits)) / twiceDot;  // Q30
  if (g >= kRatioLimit || g <= -kRatioLimit) return Outcome::kTooFar;
  *ratio = g;
  return Outcome::kOk;
}

// The displacement g share r0, Q20: |g share| < 2^54, then |scaled| <= 2^30 times |r0| <= 2^25.
constexpr Vec displacement(int64_t ratio, int32_t share, Vec r0) {
  const int64_t scaled = roundShift(ratio * share, kShareBits);  // Q30
  return {static_cast<int32_t>(roundShift(scaled * r0.x, kRatioBits)),
          static_cast<int32_t>(roundShift(scaled * r0.y, kRatioBits)),
          static_cast<int32_t>(roundShift(scaled * r0.z, kRatioBits))};
}

// One constraint's two displacements in an iteration: `i` moves particle i (added), `j` moves
// particle j (subtracted). r0 is the constraint's vector at the start of the step, r now.
struct Displacements {
  Vec i, j;
};

constexpr Outcome constraintDisplacements(const Constraint& c, Vec r0, Vec r, Displacements* d) {
  if (!withinComponentLimit(r0)) return Outcome::kStretched;
  int64_t ratio = 0;
  const Outcome outcome = correctionRatio(c, r0, r, &ratio);
  if (outcome != Outcome::kOk) return outcome;
  d->i = displacement(ratio, c.shareI, r0);
  d->j = displacement(ratio, c.shareJ, r0);
  return Outcome::kOk;
}

// A particle's displacements summed over its constraints, exactly (in int64).
struct Sum {
  int64_t x, y, z;

  constexpr void add(Vec v) { x += v.x, y += v.y, z += v.z; }
  constexpr void subtract(Vec v) { x -= v.x, y -= v.y, z -= v.z; }
};

// Whether r² is within the constraint's tolerance of d².
constexpr bool satisfied(const Constraint& c, Vec r) {
  const int64_t diff = c.length2 - dot(r, r);
  return diff <= c.tolerance && -diff <= c.tolerance;
}

// Adds a Q20 change to a coordinate; false, changing nothing, when that leaves the position
// limit.
constexpr bool move(int32_t* coordinate, int64_t change) {
  const int64_t moved = *coordinate + change;
  if (moved > kPositionLimit || moved < -kPositionLimit) return false;
  *coordinate = static_cast<int32_t>(moved);
  return true;
}

// Moves x, then y, then z; false at the first coordinate that would leave the limit (the ones
// before it have moved).
constexpr bool moveBy(Vec* v, int64_t dx, int64_t dy, int64_t dz) {
  return move(&v->x, dx) && move(&v->y, dy) && move(&v->z, dz);
}

// The damping of the summed displacements (docs/shake.md, "Damping"): a particle held by more
// than two constraints moves by its sum divided by ceil(constraints / 2). At a branch point the
// corrections of three or four bonds add up and overshoot, and the undamped iteration diverges
// within tens of steps; chains and rings (two constraints at most) move by the sum unchanged.
constexpr uint32_t dampingDivisor(uint32_t constraints) {
  return constraints > 2 ? (constraints + 1) / 2 : 1;
}

// sum / divisor rounded to nearest, halves away from zero: truncation would stall the
// iteration once the corrections shrink to a few units of Q20.
constexpr int64_t damped(int64_t sum, uint32_t divisor) {
  const int64_t d = divisor, half = d / 2;
  return sum >= 0 ? (sum + half) / d : -((-sum + half) / d);
}

// Half a step's change of a step (velocity times Δt) under the tether force -m ω² x, Q20:
// ω²Δt² x / 2, with ω²Δt² below kTetherLimit (Q32) and |x| below 2^31, a product below 2^59.
constexpr Vec halfKick(int64_t tether, Vec x) {
  return {static_cast<int32_t>(roundShift(tether * x.x, kTetherBits + 1)),
          static_cast<int32_t>(roundShift(tether * x.y, kTetherBits + 1)),
          static_cast<int32_t>(roundShift(tether * x.z, kTetherBits + 1))};
}

}  // namespace tessera::shake::fixed

#endif
