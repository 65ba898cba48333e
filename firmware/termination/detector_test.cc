// The termination detectors on the host machine: the same programs on every backend (the
// hardware's tinselIdle, the asynchronous clock tree, Safra's token ring), one host thread per
// hart, over the mailbox model, on several mesh shapes. Each program checks in the harts what
// docs/idle.md promises: idle() ends with a release only once every thread is idle and no
// message is undelivered (never early), it does end then, and the result is the AND of the
// votes (3 if every thread voted true, else 1).
#include "tessera/termination/detector.h"

#include <gtest/gtest.h>
#include <stdint.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "detector_names_test.h"
#include "tessera/drivers/mailbox.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/host/machine.h"
#include "tessera/termination/clock_tree.h"
#include "tessera/termination/hardware.h"
#include "tessera/termination/safra.h"
#include "tessera/testing/shapes.h"
#include "tessera/testing/watchdog.h"
#include "tessera/util/xorshift.h"

namespace {

using tessera::host::BlockedOn;
using tessera::host::Hart;
using tessera::host::Machine;
using tessera::host::MachineParams;
using tessera::termination::ClockTree;
using tessera::termination::DetectorNames;
using tessera::termination::Hardware;
using tessera::termination::kTerminated;
using tessera::termination::kTerminatedAllVoted;
using tessera::termination::Safra;

// One flit: word 0 belongs to the detector.
struct Msg {
  uint32_t reserved;
  uint32_t a;
  uint32_t b;
  uint32_t c;
};

// What a program knows about the machine and itself (read through the drivers, as firmware
// does).
struct Self {
  TesseraShape shape;
  uint32_t n;   // threads
  uint32_t me;  // dense index
  uint32_t id;  // thread id

  uint32_t thread_at(uint32_t i) const { return tessera_thread_at(&shape, i); }
  uint32_t boards() const { return shape.boards_x * shape.boards_y; }
  uint32_t per_board() const { return tessera_threads_per_board(&shape); }
};

Self ReadSelf() {
  const tessera::drivers::Sysinfo sysinfo;
  Self self;
  self.shape = sysinfo.shape();
  self.n = sysinfo.num_harts();
  self.me = sysinfo.hart_index();
  self.id = tessera::drivers::Mailbox().thread_id();
  return self;
}

template <typename Det>
void SendMsg(Det& det, uint32_t dest, uint32_t a, uint32_t b, uint32_t c) {
  volatile Msg* m = static_cast<volatile Msg*>(det.send_slot());
  m->a = a;
  m->b = b;
  m->c = c;
  det.send(dest, m, 1);
}

template <typename Det>
Msg RecvMsg(Det& det) {
  volatile Msg* m = static_cast<volatile Msg*>(det.recv());
  const Msg got = {0, m->a, m->b, m->c};
  det.free(m);
  return got;
}

// A detector that never terminates keeps its protocol running, so the host machine's deadlock
// detection does not see it: the watchdog ends such a run (tessera/testing/watchdog.h).
constexpr std::chrono::seconds kWatchdogLimit{30};
using tessera::testing::kWatchdogExit;
using tessera::testing::Watchdog;

// Runs `program(det, self)` or `program(det, self, machine)` on every hart of a new machine,
// as a v2 program: every receive slot is given to hardware first, then each hart builds its
// own detector. Once a test has failed, its further runs (other shapes) are skipped.
template <typename Det, typename Program>
void RunOnAllHarts(const TesseraShape& shape, const MachineParams& params, Program program) {
  if (::testing::Test::HasFailure()) {
    return;
  }
  Machine machine(shape, params);
  Watchdog watchdog(machine, kWatchdogLimit);
  machine.run_on_all_harts([&](Hart&) {
    ASSERT_TRUE(tessera::drivers::Mailbox().give_receive_slots().ok());
    Det det;
    const Self self = ReadSelf();
    if constexpr (std::is_invocable_v<Program&, Det&, const Self&, Machine&>) {
      program(det, self, machine);
    } else {
      program(det, self);
    }
  });
  EXPECT_FALSE(machine.exit_code().has_value())
      << "the run was ended with " << *machine.exit_code() << " (" << kWatchdogExit
      << ": it had not terminated after " << kWatchdogLimit.count() << " s)";
}

template <typename Det, typename Program>
void RunOnAllHarts(const TesseraShape& shape, Program program) {
  RunOnAllHarts<Det>(shape, MachineParams{}, program);
}

// Where a thread of each backend sleeps: blocked in idle() with nothing to do, and waiting to
// send (a software detector also takes messages in while it waits: can-send or can-recv).
template <typename Det>
constexpr BlockedOn kAsleepInIdle =
    std::is_same_v<Det, Hardware> ? BlockedOn::kIdle : BlockedOn::kCanRecv;
template <typename Det>
constexpr BlockedOn kAsleepInSend =
    std::is_same_v<Det, Hardware> ? BlockedOn::kCanSend : BlockedOn::kCanSendOrRecv;

uint64_t MessagesSent(const Machine& machine, const Self& self) {
  uint64_t sent = 0;
  for (uint32_t b = 0; b < self.boards(); b++) {
    sent += machine.board_counts(b).sent;
  }
  return sent;
}

// Returns once every other thread is asleep in idle() and nothing can happen until the
// calling thread acts: each of them was seen asleep, and no message was sent meanwhile (only a
// message wakes a thread here). Whatever the detector can conclude without the caller, it has.
template <typename Det>
void WaitUntilOthersAreStuck(Machine& machine, const Self& self) {
  for (;;) {
    const uint64_t before = MessagesSent(machine, self);
    for (uint32_t i = 0; i < self.n; i++) {
      if (i != self.me) {
        machine.wait_until_blocked(self.thread_at(i), kAsleepInIdle<Det>);
      }
    }
    if (MessagesSent(machine, self) == before) {
      return;
    }
  }
}

// Boards x/y, tiles x/y, cores per tile, threads per core: from one thread to 32, one board to
// twelve, several threads per tile and one.
std::vector<TesseraShape> Shapes() {
  return {
      {1, 1, 1, 1, 1, 1},  // 1 thread
      {1, 1, 1, 1, 1, 2},  // 2 threads, one tile
      {2, 1, 2, 1, 1, 2},  // 2 boards x 4
      {2, 2, 1, 1, 2, 2},  // 4 boards x 4, one tile each
      {3, 2, 1, 1, 1, 2},  // 6 boards x 2
      {4, 3, 1, 1, 1, 1},  // 12 boards of one thread
      {1, 1, 2, 2, 2, 4},  // one board of 32 threads (clock tree: 3 levels)
  };
}

template <typename Det>
class Detectors : public ::testing::Test {};

using Backends = ::testing::Types<Hardware, ClockTree, Safra>;
TYPED_TEST_SUITE(Detectors, Backends, DetectorNames);

// With no messages at all, every idle() ends with a release carrying the AND of the votes:
// nobody false, the last thread, thread 0, nobody, the middle thread, everyone.
TYPED_TEST(Detectors, EveryEpisodeReleasesEveryThreadWithTheAndOfTheVotes) {
  for (const TesseraShape& shape : Shapes()) {
    SCOPED_TRACE(tessera::testing::ShapeName(shape));
    RunOnAllHarts<TypeParam>(shape, [](TypeParam& det, const Self& self) {
      const uint32_t false_voter[] = {UINT32_MAX, self.n - 1, 0, UINT32_MAX, self.n / 2};
      for (const uint32_t voter : false_voter) {
        EXPECT_EQ(det.idle(self.me != voter), voter < self.n ? kTerminated : kTerminatedAllVoted)
            << "thread " << self.me << ", false voter " << voter;
      }
      EXPECT_EQ(det.idle(false), kTerminated);
      EXPECT_FALSE(det.can_recv());
    });
  }
}

// Rounds of a ring: each thread sends one message to the next, then idles until released,
// receiving what arrives. At every release each thread has received exactly the messages of
// the rounds so far (no release while a message is undelivered), each tagged with its round (a
// released thread's next message never reaches a thread in the episode that has just ended).
TYPED_TEST(Detectors, RingRoundsAreNeverReleasedEarly) {
  for (const TesseraShape& shape : Shapes()) {
    SCOPED_TRACE(tessera::testing::ShapeName(shape));
    RunOnAllHarts<TypeParam>(shape, [](TypeParam& det, const Self& self) {
      constexpr uint32_t kRounds = 20;
      const uint32_t next = self.thread_at((self.me + 1) % self.n);
      uint32_t got = 0;
      for (uint32_t round = 0; round < kRounds; round++) {
        SendMsg(det, next, round, self.me, 0);
        const bool vote = round % 3 != 2 || self.me != self.n - 1;
        int r;
        while ((r = det.idle(vote)) == 0) {
          const Msg m = RecvMsg(det);
          EXPECT_EQ(m.a, round) << "thread " << self.me << ": a message of another round";
          got++;
        }
        EXPECT_EQ(r, round % 3 != 2 ? kTerminatedAllVoted : kTerminated) << "round " << round;
        ASSERT_EQ(got, round + 1) << "thread " << self.me << " released early in round " << round;
      }
    });
  }
}

// A message relayed back and forth between the first and the last board while every other
// thread idles: nobody is released before the last hop has been received.
TYPED_TEST(Detectors, NoReleaseWhileAMessageIsRelayed) {
  for (const TesseraShape& shape : Shapes()) {
    SCOPED_TRACE(tessera::testing::ShapeName(shape));
    if (shape.boards_x * shape.boards_y < 2) {
      continue;
    }
    constexpr uint32_t kHops = 8;
    std::atomic<uint32_t> hops{0};
    RunOnAllHarts<TypeParam>(shape, [&](TypeParam& det, const Self& self) {
      // Relay thread of hop h: alternately on the first board and on the last one.
      const auto relay = [&](uint32_t h) {
        const uint32_t board = h % 2 == 0 ? 0 : self.boards() - 1;
        return board * self.per_board() + (h * 7 + 1) % self.per_board();
      };
      if (self.me == relay(0)) {
        SendMsg(det, self.thread_at(relay(1)), 1, 0, 0);
      }
      int r;
      while ((r = det.idle(true)) == 0) {
        const Msg m = RecvMsg(det);
        EXPECT_EQ(relay(m.a), self.me);
        hops++;
        if (m.a < kHops) {
          SendMsg(det, self.thread_at(relay(m.a + 1)), m.a + 1, 0, 0);
        }
      }
      EXPECT_EQ(r, kTerminatedAllVoted);
      EXPECT_EQ(hops.load(), kHops) << "thread " << self.me << " released before the last hop";
    });
  }
}

// One thread calls idle() only once every other thread is asleep in idle(): nobody is released
// before it. The late thread is the last one, then thread 0 (the software detectors' master),
// then the middle one.
TYPED_TEST(Detectors, AStragglerHoldsEveryoneBack) {
  for (const TesseraShape& shape : Shapes()) {
    SCOPED_TRACE(tessera::testing::ShapeName(shape));
    const uint32_t n = tessera_num_threads(&shape);
    for (const uint32_t late : {n - 1, 0u, n / 2}) {
      std::atomic<bool> late_is_idle{false};
      RunOnAllHarts<TypeParam>(shape, [&](TypeParam& det, const Self& self, Machine& machine) {
        if (self.me == late) {
          for (uint32_t i = 0; i < self.n; i++) {
            if (i != late) {
              machine.wait_until_blocked(self.thread_at(i), kAsleepInIdle<TypeParam>);
            }
          }
          late_is_idle = true;
        }
        EXPECT_EQ(det.idle(true), kTerminatedAllVoted);
        EXPECT_TRUE(late_is_idle.load())
            << "thread " << self.me << " released before thread " << late << " called idle";
      });
    }
  }
}

// Why detectors need colours (docs/idle.md): a thread A that has already been counted as idle
// is woken by B and stays busy, while the message counts add up to zero. Only B's colour (it
// received a message after it was counted) holds termination back. A = 1, counted early (the
// software detectors: right after the master in Safra's ring, a child of the clock tree's
// root).
//  - Round 0, B = 2. B stays out of idle until every other thread is stuck (the protocol
//    waits for B), sends m to A, receives A's answer m', then idles.
//  - Round 1, B = thread 0, the master: W = 3 stays out of idle until the others are stuck,
//    wakes the master with x and idles. The master sends m to A, receives m' and idles: only
//    the master's own colour holds termination back.
// A, woken by m, answers m' and stays busy until every other thread is stuck again: whatever
// the protocol does without A has been done. Nobody may have been released by then.
TYPED_TEST(Detectors, AThreadWokenAfterItWasCountedHoldsTerminationBack) {
  struct Roles {
    uint32_t a, b, w;
  };
  constexpr uint32_t kNone = UINT32_MAX;
  constexpr Roles kRounds[] = {{1, 2, kNone}, {1, 0, 3}};
  constexpr uint32_t kX = 1, kM = 2, kMPrime = 3;
  for (const TesseraShape& shape : Shapes()) {
    if (tessera_num_threads(&shape) < 4) {
      continue;
    }
    SCOPED_TRACE(tessera::testing::ShapeName(shape));
    std::atomic<bool> a_is_idle[2] = {false, false};
    RunOnAllHarts<TypeParam>(shape, [&](TypeParam& det, const Self& self, Machine& machine) {
      for (uint32_t round = 0; round < 2; round++) {
        const Roles& ro = kRounds[round];
        if (self.me == ro.w) {
          WaitUntilOthersAreStuck<TypeParam>(machine, self);
          SendMsg(det, self.thread_at(ro.b), kX, round, 0);
        } else if (self.me == ro.b && ro.w == kNone) {
          WaitUntilOthersAreStuck<TypeParam>(machine, self);
          SendMsg(det, self.thread_at(ro.a), kM, round, 0);
          EXPECT_EQ(RecvMsg(det).a, kMPrime);
        }
        bool woken = false;
        int r;
        while ((r = det.idle(true)) == 0) {
          const Msg m = RecvMsg(det);
          EXPECT_EQ(m.b, round);
          if (self.me == ro.a && m.a == kM) {
            SendMsg(det, self.thread_at(ro.b), kMPrime, round, 0);
            WaitUntilOthersAreStuck<TypeParam>(machine, self);
            woken = true;
            a_is_idle[round] = true;
          } else if (self.me == ro.b && m.a == kX) {
            SendMsg(det, self.thread_at(ro.a), kM, round, 0);
            EXPECT_EQ(RecvMsg(det).a, kMPrime);
          } else {
            ADD_FAILURE() << "thread " << self.me << ": unexpected message " << m.a;
          }
        }
        EXPECT_EQ(r, kTerminatedAllVoted);
        EXPECT_TRUE(a_is_idle[round].load())
            << "round " << round << ": thread " << self.me << " was released while A was busy";
        EXPECT_TRUE(self.me != ro.a || woken) << "round " << round << ": A was never woken";
      }
    });
  }
}

// A released thread that sends at once to its mirror (n-1-i) never makes the mirror return 0
// from the episode that has just ended; the mirror's next idle() returns 0 with the message.
TYPED_TEST(Detectors, AMessageSentAtTheReleaseBelongsToTheNextEpisode) {
  for (const TesseraShape& shape : Shapes()) {
    SCOPED_TRACE(tessera::testing::ShapeName(shape));
    RunOnAllHarts<TypeParam>(shape, [](TypeParam& det, const Self& self) {
      const uint32_t mirror = self.thread_at(self.n - 1 - self.me);
      for (uint32_t round = 0; round < 5; round++) {
        EXPECT_EQ(det.idle(true), kTerminatedAllVoted) << "round " << round;
        SendMsg(det, mirror, round, self.me, 0);
        EXPECT_EQ(det.idle(true), 0) << "round " << round;
        const Msg m = RecvMsg(det);
        EXPECT_EQ(m.a, round);
        EXPECT_EQ(m.b, self.n - 1 - self.me);
      }
      EXPECT_EQ(det.idle(true), kTerminatedAllVoted);
    });
  }
}

// A multicast counts once per receiver: the last thread multicasts to every thread of tile 0
// and to its own tile-mates; each receiver gets exactly one copy, and the episode ends with 3.
TYPED_TEST(Detectors, AMulticastCountsOncePerReceiver) {
  for (const TesseraShape& shape : Shapes()) {
    SCOPED_TRACE(tessera::testing::ShapeName(shape));
    RunOnAllHarts<TypeParam>(shape, [](TypeParam& det, const Self& self) {
      const uint32_t per_tile = tessera_threads_per_tile(&self.shape);
      const uint32_t shift = tessera_tile_shift(&self.shape);
      const uint64_t all = per_tile >= 64 ? ~uint64_t{0} : (uint64_t{1} << per_tile) - 1;
      const uint32_t sender = self.n - 1;
      const uint32_t sender_id = self.thread_at(sender);
      const uint32_t sender_mailbox = sender_id >> shift;
      const bool receiver =
          self.me != sender && ((self.id >> shift) == 0 || (self.id >> shift) == sender_mailbox);
      if (self.me == sender) {
        volatile Msg* m = static_cast<volatile Msg*>(det.send_slot());
        m->a = 0x4d43;
        det.multicast(0, static_cast<uint32_t>(all >> 32), static_cast<uint32_t>(all), m, 1);
        const uint64_t mates = all & ~(uint64_t{1} << (sender_id & (per_tile - 1)));
        if (sender_mailbox != 0 && mates != 0) {
          det.multicast(sender_mailbox, static_cast<uint32_t>(mates >> 32),
                        static_cast<uint32_t>(mates), m, 1);
        }
      }
      // The sender is in tile 0 itself when there is one tile: it gets a copy too.
      const bool own_copy = self.me == sender && sender_mailbox == 0;
      uint32_t got = 0;
      int r;
      while ((r = det.idle(true)) == 0) {
        EXPECT_EQ(RecvMsg(det).a, 0x4d43u);
        got++;
      }
      EXPECT_EQ(r, kTerminatedAllVoted);
      EXPECT_EQ(got, receiver || own_copy ? 1u : 0u) << "thread " << self.me;
    });
  }
}

// Random traffic between episodes: in episode k each thread sends 0..2 messages to threads
// chosen by a generator everyone can replay, then idles, receiving. Each thread works out what
// it should get and votes "my count is right". Every episode must end with 3 (every count
// right) and with exactly the expected messages received, each tagged with its episode.
TYPED_TEST(Detectors, RandomTrafficEpisodesAllBalance) {
  // The traffic of apps/idle/soak.cc: sender `sender`'s draws in episode `episode`.
  struct Random : tessera::Xorshift32 {
    Random(uint32_t episode, uint32_t sender)
        : Xorshift32(tessera::episode_seed(episode, sender)) {
      (void)next();
    }
  };
  for (const TesseraShape& shape : Shapes()) {
    SCOPED_TRACE(tessera::testing::ShapeName(shape));
    RunOnAllHarts<TypeParam>(shape, [](TypeParam& det, const Self& self) {
      constexpr uint32_t kEpisodes = 100;
      for (uint32_t k = 0; k < kEpisodes; k++) {
        uint32_t expected = 0;
        for (uint32_t src = 0; src < self.n; src++) {
          Random rng(k, src);
          const uint32_t count = rng.next() % 3;
          for (uint32_t j = 0; j < count; j++) {
            const uint32_t dest = rng.next() % self.n;
            expected += dest == self.me ? 1 : 0;
            if (src == self.me) {
              SendMsg(det, self.thread_at(dest), k, self.me, j);
            }
          }
        }
        uint32_t received = 0;
        int r;
        while ((r = det.idle(received == expected)) == 0) {
          EXPECT_EQ(RecvMsg(det).a, k) << "thread " << self.me << ": another episode's message";
          received++;
        }
        ASSERT_EQ(received, expected) << "thread " << self.me << ", episode " << k;
        ASSERT_EQ(r, kTerminatedAllVoted) << "thread " << self.me << ", episode " << k;
      }
    });
  }
}

// Back-pressure: on one tile of 64 threads (15 receive slots each) with 4 flits of network
// buffer, thread 1 sends thread 0 24 messages, and thread 2 one after every other, while
// thread 0 waits: 15 fit in thread 0's slots and 4 in the buffer, so thread 1 falls asleep
// waiting for can-send. Only then does thread 0 call idle(). Every message arrives, in order,
// and every thread is released with 3.
//
// The flood is bounded: its 24 messages fit in thread 0's slots, the buffer and the 8 copies a
// software detector keeps while it waits to send, so thread 0 can always send its control
// messages. A larger flood can deadlock the software detectors (not the hardware) when it
// reaches a thread before that thread's control messages are out (docs/idle.md, "Software
// baselines").
TYPED_TEST(Detectors, MessagesUnderBackPressureAreAllCounted) {
  constexpr uint32_t kToZero = 24;
  const TesseraShape shape{1, 1, 1, 1, 4, 16};
  MachineParams params;
  params.buffer_flits = 4;
  RunOnAllHarts<TypeParam>(shape, params, [&](TypeParam& det, const Self& self, Machine& machine) {
    if (self.me == 0) {
      machine.wait_until_blocked(self.thread_at(1), kAsleepInSend<TypeParam>);
    } else if (self.me == 1) {
      for (uint32_t k = 0; k < kToZero; k++) {
        SendMsg(det, self.thread_at(0), 1, k, 0);
        if (k % 2 == 1) {
          SendMsg(det, self.thread_at(2), 1, k / 2, 0);
        }
      }
    }
    const uint32_t expected = self.me == 0 ? kToZero : self.me == 2 ? kToZero / 2 : 0;
    uint32_t received = 0;
    int r;
    while ((r = det.idle(true)) == 0) {
      const Msg m = RecvMsg(det);
      EXPECT_EQ(m.a, 1u);
      EXPECT_EQ(m.b, received) << "thread " << self.me << ": out of order";
      received++;
    }
    EXPECT_EQ(r, kTerminatedAllVoted);
    EXPECT_EQ(received, expected) << "thread " << self.me;
  });
}

}  // namespace
