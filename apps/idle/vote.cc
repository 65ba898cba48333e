// idle_vote: the vote is an AND over every thread, and it is taken afresh in each episode.
// Round by round: nobody votes false (result > 1), the last thread does (1), thread 0 does (1),
// nobody (> 1), everyone (1), the middle thread (1), nobody (> 1). Every thread checks its own
// result; thread 0 prints each round.
#include "idle_app.h"

using namespace idle_app;

namespace {
constexpr int kNobody = -1;
constexpr int kEveryone = -2;
}  // namespace

int main() {
  Det det;
  const Machine m;
  const int n = static_cast<int>(m.n);
  const int against[] = {kNobody, n - 1, 0, kNobody, kEveryone, n / 2, kNobody};
  const int me = static_cast<int>(m.me);
  for (uint32_t round = 0; round < sizeof(against) / sizeof(against[0]); round++) {
    const int who = against[round];
    const bool vote = !(who == kEveryone || who == me);
    const int expected = who == kNobody ? tessera::termination::kTerminatedAllVoted
                                        : tessera::termination::kTerminated;
    const int r = det.idle(vote);
    if (r != expected) {
      fail("wrong idle result", static_cast<uint32_t>(r), round);
    }
    if (m.me == 0) {
      if (who == kNobody) {
        tessera::printf("vote (%s): round %" PRIu32 ": every thread voted true -> %d\n",
                        Det::kName, round, r);
      } else if (who == kEveryone) {
        tessera::printf("vote (%s): round %" PRIu32 ": every thread voted false -> %d\n",
                        Det::kName, round, r);
      } else {
        tessera::printf("vote (%s): round %" PRIu32 ": thread %d voted false -> %d\n", Det::kName,
                        round, who, r);
      }
    }
  }
  return 0;
}
