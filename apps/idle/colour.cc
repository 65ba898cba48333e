// idle_colour: a thread that has already reported idle, then is woken by a message and stays
// busy, must hold termination back even though the message counts add up to zero (the reason
// the detectors need colours: docs/idle.md, "Why colours are needed").
//
// Roles by dense index, chosen so that the software detectors meet the case: A = 1 is passed
// early (first in Safra's ring, a child of the clock tree's root); C = 2 computes for kHoldC
// instructions, holding the token (Safra: A < C < B round the ring; clock tree: B is C's
// child, so B gets the wave only through C); B = 9 computes briefly, sends m to A, and idles.
// A wakes (idle returns 0), answers m' to B and computes for kBusyA instructions before it
// idles; B receives m' and idles. When C lets the token go, B's count is +1 - 1 = 0 and A's
// reported count was 0: only B's colour (it received m' after its previous report) stops a
// false termination while A is busy. After the release every thread reports its release cycle
// to A, which checks that nobody was released before it entered idle.
#include "idle_app.h"

using namespace idle_app;

namespace {
constexpr uint32_t kA = 1, kC = 2, kB = 9;
constexpr uint32_t kHoldC = 100000;
constexpr uint32_t kBriefB = 20000;
constexpr uint32_t kBusyA = 300000;
constexpr uint32_t kM = 0x6d000001, kMPrime = 0x6d000002;
}  // namespace

int main() {
  Det det;
  const Machine m;
  if (m.per_board() <= kB) {
    fail("needs more than 9 threads per board", m.per_board());
  }
  uint64_t a_entered = 0;
  if (m.me == kC) {
    compute(kHoldC);
  } else if (m.me == kB) {
    compute(kBriefB);
    send_msg(det, m.thread_at(kA), kM, 0, 0);
  }
  int r;
  while ((r = det.idle(true)) == 0) {
    const Msg got = recv_msg(det);
    if (m.me == kA && got.a == kM) {
      send_msg(det, m.thread_at(kB), kMPrime, 0, 0);
      compute(kBusyA);
      a_entered = cycles();
    } else if (!(m.me == kB && got.a == kMPrime)) {
      fail("unexpected message", got.a);
    }
  }
  const uint64_t released = cycles();
  if (r != tessera::termination::kTerminatedAllVoted) {
    fail("expected release with every vote true", static_cast<uint32_t>(r));
  }
  if (m.me != kA) {
    send_msg(det, m.thread_at(kA), m.me, static_cast<uint32_t>(released),
             static_cast<uint32_t>(released >> 32));
  } else {
    if (a_entered == 0) {
      fail("thread A was never woken by B's message");
    }
    uint64_t first = UINT64_MAX;
    uint32_t first_thread = 0;
    for (uint32_t i = 0; i + 1 < m.n; i++) {
      const Msg got = recv_msg(det);
      const uint64_t at = static_cast<uint64_t>(got.c) << 32 | got.b;
      if (at < first) {
        first = at;
        first_thread = got.a;
      }
    }
    if (first < a_entered) {
      fail("a thread was released while thread A was busy", first_thread,
           static_cast<uint32_t>(a_entered - first));
    }
    tessera::printf("colour (%s): thread A (1) busy until cycle %" PRIu64 " after answering B (9)"
                    ". first release of the others (thread %" PRIu32 ") at cycle %" PRIu64
                    ", after it\n",
                    Det::kName, a_entered, first_thread, first);
  }
  r = det.idle(true);
  if (r != tessera::termination::kTerminatedAllVoted) {
    fail("expected the report episode to end with every vote true", static_cast<uint32_t>(r));
  }
  return 0;
}
