// A molecule for constrained molecular dynamics (docs/shake.md): particles with positions (Å) and
// masses (u), and bond constraints that hold two particles at a fixed distance. The line each
// particle and constraint came from is kept so that later checks (the ring's numbering, the
// fixed-point range) can name it in their errors.
#ifndef TESSERA_SHAKE_MOLECULE_H
#define TESSERA_SHAKE_MOLECULE_H

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::shake {

struct Particle {
  double x = 0, y = 0, z = 0;  // Å
  double mass = 0;             // u, above 0
  size_t line = 0;             // of its source; 0 when generated
};

struct Constraint {
  uint32_t i = 0, j = 0;  // particle indices, i != j
  double length = 0;      // Å, above 0
  size_t line = 0;
};

struct Molecule {
  std::string name;  // its file, or what generated it: the prefix of errors
  std::vector<Particle> particles;
  std::vector<Constraint> constraints;
};

struct MoleculeResult {
  Molecule molecule;
  std::string error;  // empty: the molecule is good
  bool ok() const { return error.empty(); }
};

// "<name>:<line>: <why>", or "<name>: <why>" for line 0.
std::string errorAt(const std::string& name, size_t line, const std::string& why);

}  // namespace tessera::shake

#endif
