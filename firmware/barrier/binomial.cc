// Binomial spanning tree, the one MPI libraries use for gathers and broadcasts: rank r's
// parent is r without its highest set bit, and its children are r + 2^j for every 2^j above r
// (below P). Arrivals climb the tree, each rank taking all its children's arrivals in any
// order; releases descend it, largest subtree first. Messages: 2(P - 1). Critical path:
// ceil(log2 P) levels each way, rank 0 taking ceil(log2 P) arrivals.
//
// tournament.cc builds the other binomial tree, of the lowest set bit: the same number of
// messages and levels, with leaves and partners placed differently.
#include <stdint.h>

#include "slots.h"
#include "tessera/barrier/algorithms.h"

namespace tessera::barrier {

namespace {
constexpr uint32_t kArrive = 0;

// The smallest power of two above r (1 for r = 0).
uint64_t first_child_offset(uint32_t rank) {
  return rank == 0 ? 1 : uint64_t{1} << (slots::log2_floor(rank) + 1);
}
}  // namespace

void plan_binomial(const Group& group, uint32_t rank, uint32_t /*param*/, Schedule& out) {
  const uint64_t p = group.size();
  uint32_t children = 0;
  for (uint64_t d = first_child_offset(rank); rank + d < p; d *= 2) {
    children++;
  }
  out.recv(kArrive, children);
  if (rank != 0) {
    out.send(rank - (1u << slots::log2_floor(rank)), kArrive);
    out.recv(slots::kRelease, 1);
  }
  for (uint64_t d = first_child_offset(rank); rank + d < p; d *= 2) {
    out.send(static_cast<uint32_t>(rank + d), slots::kRelease);
  }
}

}  // namespace tessera::barrier
