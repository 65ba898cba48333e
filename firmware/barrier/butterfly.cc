// Butterfly barrier (Brooks 1986): log2 rounds of pairwise exchange, rank r with r XOR 2^k in
// round k; after round k each rank has heard from its 2^(k+1)-rank block. P not a power of two:
// the butterfly runs over m = 2^ceil(log2 P) virtual ranks, and virtual rank v >= P is played by
// real rank v - m/2 (below m/2, so it exists), which thus plays two virtual ranks. In each round
// a rank sends for every virtual rank it plays and waits for all their partners' messages
// before the next round; the pair (v, v + m/2) of the last round is one rank talking to itself,
// and needs no message. Playing two virtual ranks in step only adds waiting, so the barrier
// stays correct. Messages: P log2 P for a power of two, up to 2(m - P) more otherwise.
// Critical path: ceil(log2 P) rounds.
#include <stdint.h>

#include "slots.h"
#include "tessera/barrier/algorithms.h"

namespace tessera::barrier {

void plan_butterfly(const Group& group, uint32_t rank, uint32_t /*param*/, Schedule& out) {
  const uint32_t p = group.size();
  const uint32_t rounds = slots::log2_ceil(p);
  const uint64_t m = uint64_t{1} << rounds;
  const uint64_t half = m / 2;
  // The virtual ranks this rank plays: itself, and rank + m/2 if that is no real rank.
  uint64_t virtuals[2] = {rank, rank + half};
  const uint32_t count = (rounds > 0 && rank + half >= p && rank + half < m) ? 2 : 1;
  auto player = [&](uint64_t v) { return static_cast<uint32_t>(v < p ? v : v - half); };
  for (uint32_t k = 0; k < rounds; k++) {
    uint32_t expected = 0;
    for (uint32_t i = 0; i < count; i++) {
      const uint32_t partner = player(virtuals[i] ^ (uint64_t{1} << k));
      if (partner != rank) {
        out.send(partner, k);
        expected++;
      }
    }
    out.recv(k, expected);
  }
}

}  // namespace tessera::barrier
