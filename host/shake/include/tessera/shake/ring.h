// Numbering particles for a ring of threads (docs/shake.md, "Numbering and the ring").
//
// The particles are dealt to P threads in contiguous blocks of the numbering (thread t holds
// particles floor(tN/P) up to floor((t+1)N/P)), and the threads form a ring: t talks only to
// t-1 and t+1, modulo P. A constraint's crossing distance is how many threads apart its two ends
// are around the ring; the parallel SHAKE handles distances 0 and 1 only, so a numbering that
// keeps constrained pairs close matters: reverse Cuthill-McKee reduces the bandwidth
// (max |i - j| over constraints), and blocks of at least that many particles keep every
// constraint within neighbouring threads.
#ifndef TESSERA_SHAKE_RING_H
#define TESSERA_SHAKE_RING_H

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/shake/molecule.h"

namespace tessera::shake {

// The reverse Cuthill-McKee numbering of the constraint graph: newIndex[old particle]. Each
// connected part starts from a pseudo-peripheral particle; neighbours are visited by rising
// degree, ties by old index.
std::vector<uint32_t> reverseCuthillMcKee(const Molecule& m);

// `m` with particle p moved to newIndex[p] (a permutation); constraints keep their order.
Molecule renumber(const Molecule& m, const std::vector<uint32_t>& newIndex);

// max |i - j| over the constraints (0 without constraints).
uint32_t bandwidth(const Molecule& m);

// The thread of the ring of `threads` that holds particle p of n.
uint32_t threadOf(uint32_t p, uint32_t n, uint32_t threads);

// One thread's share: particles [first, first + count) and the indices into the molecule's
// constraints of those it takes part in.
struct ThreadConstraints {
  uint32_t first = 0, count = 0;
  std::vector<uint32_t> ncci;  // negative-crossing: the other end is on thread t-1
  std::vector<uint32_t> lci;   // local: both ends here
  std::vector<uint32_t> pcci;  // positive-crossing: the other end is on thread t+1
};

struct RingLayout {
  std::vector<ThreadConstraints> threads;
  uint32_t maxCrossing = 0;  // the largest crossing distance of any constraint
  std::string error;         // empty: every constraint is local or between ring neighbours
  bool ok() const { return error.empty(); }
};

// Deals the molecule (as numbered) to a ring of `threads` threads. Each crossing constraint is in
// the PCCI of one thread and the NCCI of its positive neighbour; with two threads, a constraint
// between them counts as crossing from thread 0 to thread 1. A constraint whose ends are not on
// the same or neighbouring threads is refused, naming its line; maxCrossing is reported then too.
RingLayout layOnRing(const Molecule& m, uint32_t threads);

}  // namespace tessera::shake

#endif
