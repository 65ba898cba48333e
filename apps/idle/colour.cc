// idle_colour: a thread that has already been counted as idle, then is woken by a message and
// stays busy, must hold termination back even though the message counts add up to zero: the
// reason the detectors need colours (docs/idle.md, "Why colours are needed").
//
// Roles by dense index, chosen so that the software detectors meet the case. A = 1 is visited
// early (right after the master in Safra's ring; a child of the clock tree's root). C = 2
// computes for kHold instructions first, holding the token back (Safra: A < C < B round the
// ring; clock tree: thread 9 is C's child, and the root waits for C's subtree). B sends m to A
// once A has been visited; A answers m' to B and then computes for kBusy instructions before it
// idles; B receives m' and idles. When C lets the token go, the counts of A (taken before m)
// and of B add up to zero: only B's colour (it received m' after it was last counted) stops a
// false termination while A is busy. Round 0: B = 9 computes briefly and sends m. Round 1: B is
// the master (thread 0), woken by W = 3 (message x) to send m, which makes the master's own
// colour the one that matters.
//
// Busy periods must be real in host order too: under deterministic single-threaded TCG a hart
// runs until it blocks or until the round-robin kick, every 100 ms of virtual time (100M
// instructions at -icount shift=0). kHold and kBusy exceed that, so the other harts, and the
// protocol, run while A is in the middle of its computation.
//
// After each release every thread reports its release cycle to A, which checks that nobody
// was released before it entered idle.
#include "idle_app.h"

using namespace idle_app;

namespace {
constexpr uint32_t kHold = 150000000;
constexpr uint32_t kBusy = 150000000;
constexpr uint32_t kBrief = 20000;
constexpr uint32_t kX = 0x6d000000, kM = 0x6d000001, kMPrime = 0x6d000002;
constexpr uint32_t kNone = UINT32_MAX;

struct Roles {
  uint32_t a, b, c, w;
};
constexpr Roles kRounds[] = {{1, 9, 2, kNone}, {1, 0, 2, 3}};
}  // namespace

int main() {
  Det det;
  const Machine m;
  if (m.per_board() <= 9) {
    fail("needs more than 9 threads per board", m.per_board());
  }
  for (uint32_t round = 0; round < sizeof(kRounds) / sizeof(kRounds[0]); round++) {
    const Roles& ro = kRounds[round];
    uint64_t a_entered = 0;
    if (m.me == ro.c) {
      compute(kHold);
    } else if (m.me == ro.w) {
      compute(kBrief);
      send_msg(det, m.thread_at(ro.b), kX, round, 0);
    } else if (m.me == ro.b && ro.w == kNone) {
      compute(kBrief);
      send_msg(det, m.thread_at(ro.a), kM, round, 0);
    }
    int r;
    while ((r = det.idle(true)) == 0) {
      const Msg got = recv_msg(det);
      if (got.b != round) {
        fail("message from another round", got.a, got.b);
      }
      if (m.me == ro.a && got.a == kM) {
        send_msg(det, m.thread_at(ro.b), kMPrime, round, 0);
        compute(kBusy);
        a_entered = cycles();
      } else if (m.me == ro.b && got.a == kX) {
        send_msg(det, m.thread_at(ro.a), kM, round, 0);
      } else if (!(m.me == ro.b && got.a == kMPrime)) {
        fail("unexpected message", got.a);
      }
    }
    const uint64_t released = cycles();
    if (r != tessera::termination::kTerminatedAllVoted) {
      fail("expected release with every vote true", static_cast<uint32_t>(r));
    }
    if (m.me != ro.a) {
      report_release(det, m.thread_at(ro.a), m.me, released);
    } else {
      if (a_entered == 0) {
        fail("thread A was never woken by B's message", round);
      }
      const FirstRelease earliest = first_release(det, m.n - 1);
      const uint64_t first = earliest.cycle;
      const uint32_t first_thread = earliest.thread;
      if (first < a_entered) {
        fail("a thread was released while thread A was busy", first_thread,
             static_cast<uint32_t>(a_entered - first));
      }
      tessera::printf("colour (%s): round %" PRIu32 ": thread A (%" PRIu32
                      ") busy until cycle %" PRIu64 " after answering B (%" PRIu32
                      "). first release of the others (thread %" PRIu32 ") at cycle %" PRIu64
                      ", after it\n",
                      Det::kName, round, ro.a, a_entered, ro.b, first_thread, first);
    }
    r = det.idle(true);
    if (r != tessera::termination::kTerminatedAllVoted) {
      fail("expected the report episode to end with every vote true", static_cast<uint32_t>(r));
    }
  }
  return 0;
}
