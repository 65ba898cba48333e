// MCS tree barrier (Mellor-Crummey and Scott 1991), as messages: arrival on a 4-ary tree in
// heap order (rank r's parent is (r - 1) / 4), wake-up on a binary tree (rank r wakes 2r + 1 and
// 2r + 2). The fan-in of 4 keeps the arrival tree shallow; the fan-out of 2 keeps each waker's
// sends few. Messages: 2(P - 1). Critical path: ceil(log4 P) levels up (up to 4 receives each),
// ceil(log2 P) levels down.
#include <stdint.h>

#include "slots.h"
#include "tessera/barrier/algorithms.h"

namespace tessera::barrier {

namespace {
constexpr uint32_t kArrive = 0;
}  // namespace

void plan_mcs(const Group& group, uint32_t rank, uint32_t /*param*/, Schedule& out) {
  const uint64_t p = group.size();
  uint32_t children = 0;
  for (uint64_t c = 4 * uint64_t{rank} + 1; c <= 4 * uint64_t{rank} + 4 && c < p; c++) {
    children++;
  }
  out.recv(kArrive, children);
  if (rank != 0) {
    out.send((rank - 1) / 4, kArrive);
    out.recv(slots::kRelease, 1);
  }
  for (uint64_t c = 2 * uint64_t{rank} + 1; c <= 2 * uint64_t{rank} + 2 && c < p; c++) {
    out.send(static_cast<uint32_t>(c), slots::kRelease);
  }
}

}  // namespace tessera::barrier
