// Central counter (docs/barriers.md): 2(P - 1) messages, all through rank 0.
#include <stdint.h>

#include "tessera/barrier/algorithms.h"

namespace tessera::barrier {

namespace {
constexpr uint32_t kArrive = 0;
constexpr uint32_t kRelease = 1;
}  // namespace

void plan_central(const Group& group, uint32_t rank, uint32_t /*param*/, Schedule& out) {
  const uint32_t p = group.size();
  if (rank == 0) {
    out.recv(kArrive, p - 1);
    out.send_ranks(1, p - 1, kRelease);
  } else {
    out.send(0, kArrive);
    out.recv(kRelease, 1);
  }
}

}  // namespace tessera::barrier
