// idle_release_send: a thread released from idle that sends at once to another thread does
// not make that thread return 0 from the same episode; it returns 0 in its next idle call.
//
// Every thread is paired with thread n-1-i (thread 0, which the software detectors release
// first, with the last thread, released last). In each round every thread: is released from
// idle (must not be 0: its partner's message of this round, if already there, belongs to the
// next episode), sends to its partner at once, calls idle again (must be 0: the partner's
// message), receives and checks it. Each thread prints how often the partner's message was
// already waiting when it was released (the case the rule is about).
#include "idle_app.h"

using namespace idle_app;

namespace {
constexpr uint32_t kRounds = 5;
constexpr uint32_t kMagic = 0x5e4d0000;
}  // namespace

int main() {
  Det det;
  const Machine m;
  const uint32_t partner = m.n - 1 - m.me;
  uint32_t early = 0;
  for (uint32_t round = 0; round < kRounds; round++) {
    int r = det.idle(true);
    if (r == 0) {
      fail("returned 0 in the episode that had just ended", round);
    }
    if (r != tessera::termination::kTerminatedAllVoted) {
      fail("expected release with every vote true", static_cast<uint32_t>(r), round);
    }
    if (det.can_recv()) {
      early++;
    }
    send_msg(det, m.thread_at(partner), kMagic | round, m.me, 0);
    r = det.idle(true);
    if (r != 0) {
      fail("the partner's message did not wake idle", static_cast<uint32_t>(r), round);
    }
    const Msg got = recv_msg(det);
    if (got.a != (kMagic | round) || got.b != partner) {
      fail("wrong message", got.a, got.b);
    }
  }
  const int r = det.idle(true);
  if (r != tessera::termination::kTerminatedAllVoted) {
    fail("expected the last release with every vote true", static_cast<uint32_t>(r));
  }
  tessera::printf("release_send (%s): thread %" PRIu32 ": %" PRIu32
                  " rounds, partner's message already waiting at release %" PRIu32 " times\n",
                  Det::kName, m.me, kRounds, early);
  return 0;
}
