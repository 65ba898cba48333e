// idle_colour: a thread that has already been counted as idle, then is woken by a message and
// stays busy, must hold termination back even though the message counts add up to zero: the
// reason the detectors need colours (docs/idle.md, "Why colours are needed").
//
// Roles by dense index, chosen so that the software detectors meet the case. A = 1 is visited
// early (right after the master in Safra's ring; a child of the clock tree's root). C = 2 holds
// the token back (Safra: A < C < B round the ring; clock tree: thread 9 is C's child, and the
// root waits for C's subtree). B sends m to A once A has been visited; A answers m' to B and
// stays busy; B receives m' and idles. Only then does C let the token go, and the counts of A
// (taken before m) and of B add up to zero: only B's colour (it received m' after it was last
// counted) stops a false termination while A is busy. Round 0: B = 9 computes briefly and
// sends m. Round 1: B is the master (thread 0), woken by W = 3 (message x) to send m, which
// makes the master's own colour the one that matters.
//
// Holding and being busy are blocking waits, not computations, so the protocol runs in the
// middle of them without a preemption (under deterministic single-threaded TCG a computing hart
// runs until the round-robin kick, every 100M instructions, far more than this whole run):
//  - C sleeps in wfi until B, having received m', wakes it through C's MSWI msip (all roles
//    are on board 0, whose DRAM they share for the flag beside it).
//  - A, with a software detector, sleeps until the detector's next message reaches it. The
//    master sends it one only after it has concluded the lap or wave that counted A before m:
//    the next lap or wave when the colours fail it, the release when a detector ignores them.
//    The hardware sends a busy thread nothing, and cannot conclude anything while A (on board
//    0 with every other role) is busy, so there A only computes.
// Then A computes for kBusy instructions, so that its modelled busy period ends after any
// release a detector could have given while it was busy. That m reaches A only after A has
// been counted follows from the deterministic mode's turns: the harts run in index order, each
// until it blocks, so A and its clock-tree children have run before B or W sends.
//
// After each release every thread reports its release cycle to A, which checks that nobody
// was released before it entered idle.
#include "idle_app.h"
#include "tessera/hal/mmio.h"
#include "tessera/hw/regs.h"

using namespace idle_app;

namespace {
constexpr uint32_t kBusy = 300000;
constexpr uint32_t kBrief = 20000;
constexpr uint32_t kX = 0x6d000000, kM = 0x6d000001, kMPrime = 0x6d000002;
constexpr uint32_t kNone = UINT32_MAX;

struct Roles {
  uint32_t a, b, c, w;
};
constexpr Roles kRounds[] = {{1, 9, 2, kNone}, {1, 0, 2, 3}};

// The software detectors talk to every thread; the hardware talks to none.
constexpr bool kDetectorMessagesReachA = __is_base_of(tessera::termination::SoftwareCore, Det);

// The round (+ 1) in which B has let C go. In board 0's DRAM, shared by every role.
volatile uint32_t hold_released = 0;

constexpr uint32_t kMieMachineSoftware = TESSERA_MIP_MSIP;  // mie.MSIE: msip wakes wfi, untaken

inline void fence() { asm volatile("fence iorw, iorw" : : : "memory"); }

// msip of a thread of board 0.
uint32_t msip_address(uint32_t index) { return TESSERA_MSWI_BASE + 4 * index; }

// C: sleeps until B sets hold_released to `value`.
void hold(uint32_t value, uint32_t me) {
  asm volatile("csrw mie, %0" : : "r"(kMieMachineSoftware));
  while (hold_released != value) {
    asm volatile("wfi" : : : "memory");  // msip is level-triggered: an early wake-up is kept
  }
  fence();
  tessera::hal::mmio_write32(msip_address(me), 0);
  asm volatile("csrw mie, %0" : : "r"(0u));
}

// B: lets C go.
void release_hold(uint32_t value, uint32_t c) {
  fence();
  hold_released = value;
  fence();
  tessera::hal::mmio_write32(msip_address(c), 1);
}
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
      hold(round + 1, m.me);
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
        if constexpr (kDetectorMessagesReachA) {
          tinselWaitUntil(TINSEL_CAN_RECV);  // takes nothing: idle() handles it
        }
        compute(kBusy);
        a_entered = cycles();
      } else if (m.me == ro.b && got.a == kX) {
        send_msg(det, m.thread_at(ro.a), kM, round, 0);
      } else if (m.me == ro.b && got.a == kMPrime) {
        release_hold(round + 1, ro.c);
      } else {
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
