#include "tessera/shake/reference.h"

#include <cmath>
#include <cstdio>
#include <random>

namespace tessera::shake {

using fixed::Vec;

namespace {

int32_t toQ20(double angstrom) {
  return static_cast<int32_t>(std::llround(std::ldexp(angstrom, fixed::kPositionBits)));
}

std::string number(double v) {
  char text[32];
  snprintf(text, sizeof text, "%g", v);
  return text;
}

std::string describe(const FixedMolecule& m, uint32_t k) {
  return "constraint " + std::to_string(k) + " (particles " + std::to_string(m.constraints[k].i) +
         " and " + std::to_string(m.constraints[k].j) + ")";
}

}  // namespace

double toAngstrom(int32_t q20) {
  return std::ldexp(static_cast<double>(q20), -fixed::kPositionBits);
}

FixedResult toFixed(const Molecule& m, double tolerance) {
  FixedResult r;
  r.molecule.name = m.name;
  if (!(tolerance >= kFinestTolerance) || !std::isfinite(tolerance)) {
    r.error = "tolerance " + number(tolerance) + " is not at least " + number(kFinestTolerance) +
              " (tolerances must be above 0, and Q20 positions resolve no finer)";
    return r;
  }
  for (const Particle& p : m.particles) {
    for (double v : {p.x, p.y, p.z}) {
      if (!(std::fabs(v) <= kCoordinateLimit)) {
        r.error = errorAt(m.name, p.line,
                          "coordinate " + number(v) + " is beyond the fixed-point range of +-" +
                              number(kCoordinateLimit) + " Å");
        return r;
      }
    }
    r.molecule.positions.push_back({toQ20(p.x), toQ20(p.y), toQ20(p.z)});
  }
  for (const Constraint& c : m.constraints) {
    if (!(c.length > 0) || !(c.length < kLengthLimit) || c.i >= m.particles.size() ||
        c.j >= m.particles.size() || c.i == c.j) {
      r.error = errorAt(m.name, c.line,
                        "constraint of length " + number(c.length) + " between particles " +
                            std::to_string(c.i) + " and " + std::to_string(c.j) +
                            " is not one the fixed-point form holds (lengths in (0, " +
                            number(kLengthLimit) + ") Å between two particles)");
      return r;
    }
    fixed::Constraint f{};
    f.i = c.i, f.j = c.j;
    const double length2 = std::ldexp(c.length * c.length, 2 * fixed::kPositionBits);
    f.length2 = std::llround(length2);
    f.tolerance = static_cast<int64_t>(std::floor(tolerance * length2));
    const double mi = m.particles[c.i].mass, mj = m.particles[c.j].mass;
    f.shareI = static_cast<int32_t>(std::llround(std::ldexp(mj / (mi + mj), fixed::kShareBits)));
    f.shareJ = (int32_t{1} << fixed::kShareBits) - f.shareI;
    r.molecule.constraints.push_back(f);
  }
  return r;
}

State initialState(const FixedMolecule& m, uint64_t seed, double maxStep) {
  State s;
  s.positions = m.positions;
  std::mt19937_64 random(seed);
  auto draw = [&] {
    const double unit = static_cast<double>(random() >> 11) * 0x1p-53;  // [0, 1)
    return toQ20((2 * unit - 1) * maxStep);
  };
  for (size_t p = 0; p < m.positions.size(); p++) {
    const int32_t x = draw(), y = draw(), z = draw();
    s.steps.push_back({x, y, z});
  }
  return s;
}

std::vector<uint32_t> dampingDivisors(const FixedMolecule& m) {
  std::vector<uint32_t> held(m.positions.size(), 0);
  for (const fixed::Constraint& c : m.constraints) held[c.i]++, held[c.j]++;
  for (uint32_t& h : held) h = fixed::dampingDivisor(h);
  return held;
}

ShakeResult shake(const FixedMolecule& m, const std::vector<Vec>& reference,
                  std::vector<Vec>* positions, uint32_t maxIterations) {
  ShakeResult r;
  std::vector<Vec> x = *positions;
  std::vector<fixed::Sum> sums(x.size());
  const std::vector<uint32_t> divisors = dampingDivisors(m);
  while (r.iterations < maxIterations) {
    r.iterations++;
    sums.assign(x.size(), fixed::Sum{0, 0, 0});
    for (uint32_t k = 0; k < m.constraints.size(); k++) {
      const fixed::Constraint& c = m.constraints[k];
      fixed::Displacements d{};
      const fixed::Outcome outcome =
          fixed::constraintDisplacements(c, fixed::difference(reference[c.i], reference[c.j]),
                                         fixed::difference(x[c.i], x[c.j]), &d);
      if (outcome != fixed::Outcome::kOk) {
        const char* why = outcome == fixed::Outcome::kStretched ? "is stretched beyond 32 Å"
                          : outcome == fixed::Outcome::kTurned
                              ? "turned by 90° or more"
                              : "needs a correction as long as itself";
        r.error = errorAt(m.name, 0,
                          describe(m, k) + " " + why + " in SHAKE iteration " +
                              std::to_string(r.iterations) + ": the step diverges");
        return r;
      }
      sums[c.i].add(d.i);
      sums[c.j].subtract(d.j);
    }
    for (size_t p = 0; p < x.size(); p++) {
      const uint32_t d = divisors[p];
      if (!fixed::moveBy(&x[p], fixed::damped(sums[p].x, d), fixed::damped(sums[p].y, d),
                         fixed::damped(sums[p].z, d))) {
        r.error = errorAt(m.name, 0,
                          "particle " + std::to_string(p) +
                              " left the fixed-point range in SHAKE iteration " +
                              std::to_string(r.iterations));
        return r;
      }
    }
    bool all = true;
    for (const fixed::Constraint& c : m.constraints) {
      all = all && fixed::satisfied(c, fixed::difference(x[c.i], x[c.j]));
    }
    if (all) {
      *positions = std::move(x);
      return r;
    }
  }
  r.error = errorAt(m.name, 0,
                    "SHAKE did not bring every constraint within tolerance in " +
                        std::to_string(maxIterations) + " iterations");
  return r;
}

ShakeResult step(const FixedMolecule& m, const Dynamics& dynamics, State* state) {
  ShakeResult r;
  if (!(dynamics.tether >= 0) || !(dynamics.tether < 1.0 / 16)) {
    r.error = "tether " + number(dynamics.tether) + " is not in [0, 1/16)";
    return r;
  }
  const int64_t tether = std::llround(std::ldexp(dynamics.tether, fixed::kTetherBits));
  std::vector<Vec> x = state->positions, steps = state->steps;
  auto leftRange = [&](size_t p) {
    ShakeResult e;
    e.error = errorAt(m.name, 0, "particle " + std::to_string(p) + " left the fixed-point range");
    return e;
  };
  for (size_t p = 0; p < x.size(); p++) {
    const Vec kick = fixed::halfKick(tether, x[p]);
    steps[p] = {steps[p].x - kick.x, steps[p].y - kick.y, steps[p].z - kick.z};
    if (!fixed::moveBy(&x[p], steps[p].x, steps[p].y, steps[p].z)) return leftRange(p);
  }
  const std::vector<Vec> unconstrained = x;
  r = shake(m, state->positions, &x, dynamics.maxIterations);
  if (!r.ok()) return r;
  for (size_t p = 0; p < x.size(); p++) {
    const Vec kick = fixed::halfKick(tether, x[p]);
    const Vec& u = unconstrained[p];
    if (!fixed::moveBy(&steps[p], int64_t{x[p].x} - u.x - kick.x, int64_t{x[p].y} - u.y - kick.y,
                       int64_t{x[p].z} - u.z - kick.z)) {
      return leftRange(p);
    }
  }
  state->positions = std::move(x);
  state->steps = std::move(steps);
  return r;
}

}  // namespace tessera::shake
