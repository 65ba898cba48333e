// The single-threaded reference of the parallel SHAKE (docs/shake.md, "The reference"): one time
// step is a velocity Verlet update under a weak harmonic tether to the origin, then SHAKE in the
// parallel algorithm's form. Each SHAKE iteration computes every constraint's displacements from
// the same positions, sums them per particle, applies the sums, then checks every constraint:
// Jacobi-style, because the threads of the ring apply summed displacements, and the reference
// must do exactly what they do to be compared with them bit for bit. All of it is integer fixed
// point (tessera/shake/kernel.h), which the RV32IMF firmware computes identically.
#ifndef TESSERA_SHAKE_REFERENCE_H
#define TESSERA_SHAKE_REFERENCE_H

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/shake/kernel.h"
#include "tessera/shake/molecule.h"

namespace tessera::shake {

// Input limits of the fixed-point form.
inline constexpr double kCoordinateLimit = 1024;  // Å, |x|, |y|, |z| of a particle read
inline constexpr double kLengthLimit = 16;        // Å, a constraint's length
inline constexpr double kFinestTolerance = 1e-5;  // Q20 positions resolve no finer

// A molecule as the machine holds it.
struct FixedMolecule {
  std::string name;
  std::vector<fixed::Vec> positions;  // Q20 Å
  std::vector<fixed::Constraint> constraints;
};

struct FixedResult {
  FixedMolecule molecule;
  std::string error;
  bool ok() const { return error.empty(); }
};

// `m` in fixed point, constraints accepted when |r² - d²| <= tolerance d². Refuses a tolerance
// that is not at least kFinestTolerance (naming no line: it is not the file's), and names the
// line of a particle beyond kCoordinateLimit or a constraint not shorter than kLengthLimit.
FixedResult toFixed(const Molecule& m, double tolerance);

double toAngstrom(int32_t q20);

struct Dynamics {
  double tether = 1e-4;           // ω²Δt², in [0, 1/16): the force is -m ω² x
  uint32_t maxIterations = 1000;  // SHAKE iterations before a step gives up
};

// Positions and steps (velocity times Δt, so Δt never appears), both Q20 Å.
struct State {
  std::vector<fixed::Vec> positions, steps;
};

// The molecule's positions, and steps drawn uniformly from [-maxStep, maxStep] Å per
// coordinate, the same for the same seed on every host.
State initialState(const FixedMolecule& m, uint64_t seed, double maxStep);

struct ShakeResult {
  uint32_t iterations = 0;  // SHAKE iterations run, the last of which found all satisfied
  std::string error;
  bool ok() const { return error.empty(); }
};

// Each particle's fixed::dampingDivisor, from the number of constraints that hold it.
std::vector<uint32_t> dampingDivisors(const FixedMolecule& m);

// SHAKE alone: corrects `positions` so that every constraint holds within its tolerance, the
// displacements along the constraint vectors of `reference` (the positions at the step's start),
// each particle moving by its damped sum (fixed::damped).
// At least one iteration runs. On an error `positions` is left as it was.
ShakeResult shake(const FixedMolecule& m, const std::vector<fixed::Vec>& reference,
                  std::vector<fixed::Vec>* positions, uint32_t maxIterations);

// One time step: steps += kick(x)/2; x += steps; SHAKE; steps += SHAKE's correction;
// steps += kick(x)/2. On an error the state is left as it was.
ShakeResult step(const FixedMolecule& m, const Dynamics& dynamics, State* state);

}  // namespace tessera::shake

#endif
