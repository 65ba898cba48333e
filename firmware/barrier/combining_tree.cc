// Combining tree (Yew, Tzeng and Lawrie 1987), as messages. Ranks are grouped in fours (the
// fan-in, param): at level l the ranks that are multiples of 4^l form groups of four
// consecutive ones, and each group's first rank combines its group's arrivals and arrives one
// level up. Rank 0, the root, combines the last level and then releases every rank at once, as
// the shared-memory version flips the global sense flag that all threads spin on: P - 1 direct
// releases. Messages: 2(P - 1). Critical path: ceil(log_f P) arrival levels, each costing up to
// f - 1 receives at the combining rank, then P - 1 sends from the root.
#include <stdint.h>

#include "slots.h"
#include "tessera/barrier/algorithms.h"

namespace tessera::barrier {

void plan_combining_tree(const Group& group, uint32_t rank, uint32_t param, Schedule& out) {
  const uint32_t p = group.size();
  const uint32_t f = param < 2 ? 2 : param;
  uint32_t level = 0;
  for (uint64_t stride = 1; stride < p; stride *= f, level++) {
    const uint64_t span = stride * f;
    if (rank % span != 0) {
      out.send(static_cast<uint32_t>(rank - rank % span), level);
      out.recv(slots::kRelease, 1);
      return;
    }
    uint32_t children = 0;
    for (uint64_t child = rank + stride; child < rank + span && child < p; child += stride) {
      children++;
    }
    out.recv(level, children);
  }
  // Only the root gets here.
  out.send_ranks(1, p - 1, slots::kRelease);
}

}  // namespace tessera::barrier
