// Generated molecules of any size (docs/shake.md, "Generated molecules"): a chain, a ring, or a
// branched comb, laid out compactly on a jittered zigzag lattice so that a million particles stay
// within a few hundred Å of the origin. Each constraint's length is the distance between its
// particles as placed, and masses are carbon, nitrogen or oxygen. The same shape, size and seed
// give the same molecule on every host.
#ifndef TESSERA_SHAKE_GENERATE_H
#define TESSERA_SHAKE_GENERATE_H

#include <cstdint>

#include "tessera/shake/molecule.h"

namespace tessera::shake {

enum class Shape {
  kChain,     // particles 0..n-1, each bonded to the next
  kRing,      // a chain whose last particle is bonded to its first (n >= 3)
  kBranched,  // a comb: side chains off a backbone, branch points of three or four bonds
};

// A molecule of `particles` particles (a chain or comb needs 2, a ring 3) with bonds of about
// `bond` Å; an error for fewer particles or a bond length not above 0.
MoleculeResult generate(Shape shape, uint32_t particles, uint64_t seed, double bond = 1.5);

const char* shapeName(Shape shape);

}  // namespace tessera::shake

#endif
