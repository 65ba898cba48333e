// Pairwise exchange with recursive doubling (Hensgen, Finkel and Manber 1988), extended to any P
// by splitting the ranks in two groups: with m = 2^floor(log2 P), group a is ranks 0..m-1 and
// group b ranks m..P-1 (fewer than m). First each rank r of group b reports to r - m; then group
// a runs log2 m rounds of exchange, r with r XOR 2^k; last each rank of group a with a partner in
// b releases it. floor(log2 P) + 2 steps, the first and last only when P is not a power of two.
// Messages: m log2 m + 2(P - m).
#include <stdint.h>

#include "slots.h"
#include "tessera/barrier/algorithms.h"

namespace tessera::barrier {

namespace {
constexpr uint32_t kFromGroupB = 20;
}  // namespace

void plan_pairwise(const Group& group, uint32_t rank, uint32_t /*param*/, Schedule& out) {
  const uint32_t p = group.size();
  const uint32_t rounds = slots::log2_floor(p);
  const uint32_t m = 1u << rounds;
  if (rank >= m) {
    out.send(rank - m, kFromGroupB);
    out.recv(slots::kRelease, 1);
    return;
  }
  const bool has_partner_in_b = rank + m < p;
  if (has_partner_in_b) {
    out.recv(kFromGroupB, 1);
  }
  for (uint32_t k = 0; k < rounds; k++) {
    out.send(rank ^ (1u << k), k);
    out.recv(k, 1);
  }
  if (has_partner_in_b) {
    out.send(rank + m, slots::kRelease);
  }
}

}  // namespace tessera::barrier
