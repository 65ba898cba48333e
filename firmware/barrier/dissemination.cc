// Dissemination barrier (Hensgen, Finkel and Manber 1988): ceil(log2 P) rounds; in round k rank
// r tells (r + 2^k) mod P that it has arrived and waits to hear from (r - 2^k) mod P. After
// round k a rank has heard, directly or through others, from the 2^(k+1) ranks before it, so
// after the last round from everyone. Correct for every P, no extra rounds when P is not a power
// of two. Messages: P ceil(log2 P). Critical path: ceil(log2 P) rounds of one send and one
// receive.
#include <stdint.h>

#include "slots.h"
#include "tessera/barrier/algorithms.h"

namespace tessera::barrier {

void plan_dissemination(const Group& group, uint32_t rank, uint32_t /*param*/, Schedule& out) {
  const uint32_t p = group.size();
  const uint32_t rounds = slots::log2_ceil(p);
  for (uint32_t k = 0; k < rounds; k++) {
    out.send(static_cast<uint32_t>((uint64_t{rank} + (uint64_t{1} << k)) % p), k);
    out.recv(k, 1);
  }
}

}  // namespace tessera::barrier
