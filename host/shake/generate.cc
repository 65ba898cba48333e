#include "tessera/shake/generate.h"

#include <cmath>
#include <random>
#include <string>

namespace tessera::shake {

namespace {

// A point of the layout lattice: column along x, row along y, layer along z.
struct Cell {
  uint32_t col, row, layer;
};

// The smallest w with w^dims >= n.
uint32_t sideFor(uint32_t n, int dims) {
  uint32_t w = 1;
  while ((dims == 2 ? uint64_t{w} * w : uint64_t{w} * w * w) < n) w++;
  return w;
}

// The i-th cell of a path that snakes through rows of width w, and through layers of w rows, so
// that consecutive cells are lattice neighbours.
Cell snake(uint32_t i, uint32_t w) {
  const uint32_t perLayer = w * w;
  const uint32_t layer = i / perLayer;
  uint32_t j = i % perLayer;
  if (layer % 2 == 1) j = perLayer - 1 - j;  // odd layers run back through the rows
  const uint32_t row = j / w;
  uint32_t col = j % w;
  if (row % 2 == 1) col = w - 1 - col;
  return {col, row, layer};
}

// Uniform in [0, 1) from the engine's bits alone (the standard distributions differ by library).
double uniform(std::mt19937_64& random) {
  return static_cast<double>(random() >> 11) * 0x1p-53;
}

struct Layout {
  double bond;
  std::mt19937_64 random;

  // A cell's place: neighbouring cells of a layer are a bond apart and zigzag in z, so that
  // bonds between them meet at the tetrahedral angle, never in a straight line (along which the
  // Jacobi iteration converges slowest); layers are two bonds apart, clear of the zigzag. Each
  // coordinate is jittered by up to a tenth of a bond.
  Particle place(Cell c, double zOffset) {
    static const double kHalfAngle = std::acos(-1.0 / 3.0) / 2;
    const double step = bond * std::sin(kHalfAngle), rise = bond * std::cos(kHalfAngle);
    Particle p;
    p.x = c.col * step + jitter();
    p.y = c.row * step + jitter();
    p.z = c.layer * 2 * bond + (c.col + c.row) % 2 * rise + zOffset + jitter();
    static constexpr double kMasses[] = {12.011, 14.007, 15.999};  // C, N, O
    p.mass = kMasses[random() % 3];
    return p;
  }
  double jitter() { return (uniform(random) - 0.5) * 0.2 * bond; }
};

void bondPair(Molecule* m, uint32_t i, uint32_t j) {
  m->constraints.push_back({i, j, 0, 0});
}

// Each constraint's length: the distance between its particles as placed.
void measure(Molecule* m) {
  for (Constraint& c : m->constraints) {
    const Particle &a = m->particles[c.i], &b = m->particles[c.j];
    c.length = std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) +
                         (a.z - b.z) * (a.z - b.z));
  }
}

// Moves the molecule's centre of its extent to the origin.
void centre(Molecule* m) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (const Particle& p : m->particles) {
    const double v[3] = {p.x, p.y, p.z};
    for (int a = 0; a < 3; a++) lo[a] = std::fmin(lo[a], v[a]), hi[a] = std::fmax(hi[a], v[a]);
  }
  for (Particle& p : m->particles) {
    p.x -= (lo[0] + hi[0]) / 2, p.y -= (lo[1] + hi[1]) / 2, p.z -= (lo[2] + hi[2]) / 2;
  }
}

}  // namespace

const char* shapeName(Shape shape) {
  switch (shape) {
    case Shape::kChain:
      return "chain";
    case Shape::kRing:
      return "ring";
    case Shape::kBranched:
      return "branched";
  }
  return "?";
}

MoleculeResult generate(Shape shape, uint32_t particles, uint64_t seed, double bond) {
  MoleculeResult r;
  Molecule& m = r.molecule;
  m.name = std::string(shapeName(shape)) + "(" + std::to_string(particles) + ", seed " +
           std::to_string(seed) + ")";
  const uint32_t least = shape == Shape::kRing ? 3 : 2;
  if (particles < least) {
    r.error = errorAt(m.name, 0,
                      "a " + std::string(shapeName(shape)) + " needs at least " +
                          std::to_string(least) + " particles");
    return r;
  }
  if (!(bond > 0) || !std::isfinite(bond)) {
    r.error = errorAt(m.name, 0, "bond length " + std::to_string(bond) + " is not above 0");
    return r;
  }
  Layout layout{bond, std::mt19937_64(seed)};
  switch (shape) {
    case Shape::kChain: {
      const uint32_t w = sideFor(particles, 3);
      for (uint32_t i = 0; i < particles; i++) m.particles.push_back(layout.place(snake(i, w), 0));
      for (uint32_t i = 1; i < particles; i++) bondPair(&m, i - 1, i);
      break;
    }
    case Shape::kRing: {
      // Out along a flat snake, back along the same snake one and a half bonds above it.
      const uint32_t out = (particles + 1) / 2, back = particles - out;
      const uint32_t w = sideFor(out, 2);
      for (uint32_t i = 0; i < out; i++) m.particles.push_back(layout.place(snake(i, w), 0));
      for (uint32_t i = back; i-- > 0;) {
        m.particles.push_back(layout.place(snake(i, w), 1.5 * bond));
      }
      for (uint32_t i = 1; i < particles; i++) bondPair(&m, i - 1, i);
      bondPair(&m, particles - 1, 0);
      break;
    }
    case Shape::kBranched: {
      // Rows are side chains, bonded through their first column to the row before; a layer's
      // first particle is bonded to the layer before at its second column (odd layers) or its
      // second row (even ones), so that no two bonds out of a layer meet in a straight line.
      // Each particle has one bond to an earlier one: a tree.
      const uint32_t w = sideFor(particles, 3);
      for (uint32_t i = 0; i < particles; i++) {
        const Cell c{i % w, i / w % w, i / (w * w)};
        m.particles.push_back(layout.place(c, 0));
        if (c.col > 0) {
          bondPair(&m, i - 1, i);
        } else if (c.row > 0) {
          bondPair(&m, i - w, i);
        } else if (c.layer > 0) {
          bondPair(&m, c.layer % 2 == 1 ? i - w * w + 1 : i - w * w + w, i);
        }
      }
      break;
    }
  }
  centre(&m);
  measure(&m);
  return r;
}

}  // namespace tessera::shake
