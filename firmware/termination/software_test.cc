// The software detectors (clock tree, Safra) on the host machine: what only they have. Their
// counters and round trips, the clock tree's fan-outs, the copies they keep while they wait to
// send, and the report of a broken protocol (one console line, exit status 120), all through
// the drivers. detector_test.cc checks the semantics they share with the hardware.
#include <gtest/gtest.h>

#include <stdint.h>
#include <stdio.h>

#include <atomic>
#include <latch>
#include <string>
#include <type_traits>
#include <vector>

#include "tessera/drivers/mailbox.h"
#include "tessera/drivers/mailbox_core.h"
#include "tessera/host/machine.h"
#include "tessera/termination/clock_tree.h"
#include "tessera/termination/detector.h"
#include "tessera/termination/safra.h"
#include "tessera/termination/software.h"
#include "detector_names_test.h"
#include "tessera/testing/shapes.h"

namespace {

using tessera::host::BlockedOn;
using tessera::host::Hart;
using tessera::host::HartScope;
using tessera::host::Machine;
using tessera::host::MachineExit;
using tessera::host::MachineParams;
using tessera::termination::ClockTree;
using tessera::termination::DetectorNames;
using tessera::termination::kProtocolErrorExit;
using tessera::termination::kTerminatedAllVoted;
using tessera::termination::Safra;
namespace wire = tessera::termination::wire;

struct Msg {
  uint32_t reserved;
  uint32_t a;
  uint32_t b;
  uint32_t c;
};

std::string Hex(uint32_t value) {
  char text[16];
  snprintf(text, sizeof text, "0x%x", value);
  return text;
}

void GiveReceiveSlots() {
  ASSERT_TRUE(tessera::drivers::Mailbox().give_receive_slots().ok());
}

template <typename Det>
void SendMsg(Det& det, uint32_t dest, uint32_t a, uint32_t b) {
  volatile Msg* m = static_cast<volatile Msg*>(det.send_slot());
  m->a = a;
  m->b = b;
  det.send(dest, m, 1);
}

template <typename Det>
Msg RecvMsg(Det& det) {
  volatile Msg* m = static_cast<volatile Msg*>(det.recv());
  const Msg got = {m->reserved, m->a, m->b, m->c};
  det.free(m);
  return got;
}

template <typename Det>
class SoftwareDetectors : public ::testing::Test {};

using SoftwareBackends = ::testing::Types<ClockTree, Safra>;
TYPED_TEST_SUITE(SoftwareDetectors, SoftwareBackends, DetectorNames);

// Episodes, messages sent and received, and round trips: the master (thread 0) completes at
// least one wave or lap per episode, nobody else counts any.
TYPED_TEST(SoftwareDetectors, CountEpisodesMessagesAndRoundTrips) {
  const TesseraShape shape{2, 2, 1, 1, 2, 2};  // 16 threads on 4 boards
  constexpr uint32_t kEpisodes = 10;
  Machine machine(shape);
  const std::vector<uint32_t> ids = machine.thread_ids();
  const uint32_t n = machine.num_harts();
  machine.run_on_all_harts([&](Hart& hart) {
    GiveReceiveSlots();
    TypeParam det;
    EXPECT_EQ(det.episode(), 0u);
    for (uint32_t k = 0; k < kEpisodes; k++) {
      // Thread i sends i % 3 messages to i + 1.
      for (uint32_t j = 0; j < hart.index() % 3; j++) {
        SendMsg(det, ids[(hart.index() + 1) % n], k, j);
      }
      int r;
      while ((r = det.idle(true)) == 0) {
        const Msg m = RecvMsg(det);
        EXPECT_EQ(m.a, k);
        // Word 0 is the detector's header: an application message of this episode.
        EXPECT_EQ(wire::kind(m.reserved), wire::kApp);
        EXPECT_EQ(wire::epoch(m.reserved), k);
      }
      EXPECT_EQ(r, kTerminatedAllVoted);
      EXPECT_EQ(det.episode(), k + 1);
    }
    const uint32_t prev = (hart.index() + n - 1) % n;
    EXPECT_EQ(det.sent(), kEpisodes * (hart.index() % 3));
    EXPECT_EQ(det.received(), kEpisodes * (prev % 3));
    EXPECT_EQ(det.copies_kept(), 0u);
    if (hart.index() == 0) {
      EXPECT_GE(det.round_trips(), kEpisodes);
    } else {
      EXPECT_EQ(det.round_trips(), 0u);
    }
  });
}

// While a software detector waits for can-send it keeps taking messages out of its mailbox
// (into copies, at most kCopies), so that no cycle of full mailboxes can form; the copies are
// handed out later in arrival order and counted like any message.
TYPED_TEST(SoftwareDetectors, KeepReceivingIntoCopiesWhileWaitingToSend) {
  // Threads A (0) and B (1), each alone on its tile, 4 flits of network buffer toward each.
  const TesseraShape shape{1, 1, 2, 1, 1, 1};
  constexpr uint32_t kToB = 3;
  constexpr uint32_t kToA = 20;
  MachineParams params;
  params.buffer_flits = 4;
  Machine machine(shape, params);
  const uint32_t a = machine.thread_ids()[0], b = machine.thread_ids()[1];
  std::latch a_has_sent(1);
  uint32_t kept = 0;
  machine.run_on_all_harts([&](Hart& hart) {
    if (hart.id() == a) {
      TypeParam det;  // A gives no slot yet: what B sends it stays in the network buffer
      for (uint32_t k = 0; k < kToB; k++) {
        SendMsg(det, b, 100 + k, 0);
      }
      a_has_sent.count_down();
      // B fills A's buffer and waits for can-send, taking A's messages out meanwhile (each copy
      // frees a slot: a received message). It falls asleep once there is nothing left to take.
      machine.wait_until_blocked(b, BlockedOn::kCanSendOrRecv);
      EXPECT_EQ(machine.thread_counts(b).received, kToB);
      GiveReceiveSlots();
      uint32_t got = 0;
      int r;
      while ((r = det.idle(true)) == 0) {
        EXPECT_EQ(RecvMsg(det).a, got++);
      }
      EXPECT_EQ(r, kTerminatedAllVoted);
      EXPECT_EQ(got, kToA);
    } else {
      GiveReceiveSlots();
      TypeParam det;
      a_has_sent.wait();
      for (uint32_t k = 0; k < kToA; k++) {
        SendMsg(det, a, k, 0);
      }
      kept = det.copies_kept();
      uint32_t got = 0;
      int r;
      while ((r = det.idle(true)) == 0) {
        EXPECT_EQ(RecvMsg(det).a, 100 + got++);
      }
      EXPECT_EQ(r, kTerminatedAllVoted);
      EXPECT_EQ(got, kToB);
      EXPECT_EQ(det.received(), kToB);
    }
  });
  EXPECT_EQ(kept, kToB);
}

// Every fan-out of the clock tree builds a tree that spans every thread: episodes with ring
// traffic end with the right result and every message received.
TEST(ClockTreeFanout, EveryFanoutSpansEveryThread) {
  for (const TesseraShape& shape : {TesseraShape{3, 2, 1, 1, 1, 4}, TesseraShape{1, 1, 2, 2, 2, 4}}) {
    for (const uint32_t fanout : {1u, 2u, 3u, 4u, 8u, ClockTree::kMaxFanout}) {
      SCOPED_TRACE(tessera::testing::ShapeName(shape) + " fan-out " + std::to_string(fanout));
      Machine machine(shape);
      const std::vector<uint32_t> ids = machine.thread_ids();
      const uint32_t n = machine.num_harts();
      machine.run_on_all_harts([&](Hart& hart) {
        GiveReceiveSlots();
        ClockTree det(fanout);
        for (uint32_t k = 0; k < 4; k++) {
          SendMsg(det, ids[(hart.index() + 1) % n], k, 0);
          uint32_t got = 0;
          int r;
          while ((r = det.idle(k != 2 || hart.index() != n - 1)) == 0) {
            EXPECT_EQ(RecvMsg(det).a, k);
            got++;
          }
          EXPECT_EQ(r, k != 2 ? kTerminatedAllVoted : 1);
          EXPECT_EQ(got, 1u);
        }
        if (hart.index() == 0) {
          EXPECT_GE(det.round_trips(), 4u);
        }
      });
    }
  }
}

// A broken protocol is reported through the drivers: one console line on the thread that saw
// it, and the run ends with exit status 120 (the exit device; on the host machine it throws
// MachineExit on that thread and wakes every other one with it).
TEST(SoftwareProtocolError, AFanoutOutOfRangeEndsTheRunWithOneLine) {
  const TesseraShape shape{1, 1, 1, 1, 1, 4};
  Machine machine(shape);
  {
    HartScope scope(machine, machine.thread_ids()[2]);
    EXPECT_THROW(
        {
          ClockTree det(0);
          (void)det;
        },
        MachineExit);
  }
  EXPECT_EQ(machine.exit_code().value_or(-1), kProtocolErrorExit);
  const auto lines = machine.console_lines();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].hart_index, 2u);
  EXPECT_EQ(lines[0].text,
            "FAIL termination: thread 0x2 (index 2): clock tree fan-out out of range (0x0, 0x10)");
}

TYPED_TEST(SoftwareDetectors, AMessageFromAnUnexpectedEpisodeEndsTheRun) {
  // 2 boards x 4 threads; thread 5 sends thread 3 an application message that claims to come
  // from episode 7, behind the detector's back. Once it is in thread 3's mailbox, thread 3 asks
  // its detector for messages while the others call idle: the detector takes the message first
  // (nothing else is queued before it) and ends the run. (Were thread 3 in idle() too, it could
  // pass the token or acknowledge a wave before it looks at its mailbox; the message, sent
  // uncounted, is no part of the sums, so the others could rightly be released first: the
  // detector counts only what goes through it.)
  const TesseraShape shape{2, 1, 2, 1, 1, 2};
  Machine machine(shape);
  const uint32_t n = machine.num_harts();
  const uint32_t receiver = machine.thread_ids()[3];
  std::latch slots_given(n), sent(1), delivered(1);
  std::atomic<int> exits{0};
  machine.run_on_all_harts([&](Hart& hart) {
    GiveReceiveSlots();
    TypeParam det;
    slots_given.count_down();
    if (hart.index() == 5) {
      slots_given.wait();
      volatile uint32_t* slot = static_cast<volatile uint32_t*>(det.send_slot());
      slot[0] = wire::header(wire::kApp, 7, 3);
      slot[1] = 0xbad;
      tessera_mbox_set_len(0);
      tessera_mbox_send(receiver, tessera_mbox_bus_address(slot));
      sent.count_down();
    }
    sent.wait();
    if (hart.index() == 3) {
      (void)tessera_mbox_wait_until(TESSERA_WAIT_CAN_RECV);
      delivered.count_down();
    }
    delivered.wait();
    try {
      if (hart.index() == 3) {
        (void)det.can_recv();
        ADD_FAILURE() << "thread 3 was handed the message";
      } else {
        (void)det.idle(true);
        ADD_FAILURE() << "thread " << hart.index() << " was released";
      }
    } catch (const MachineExit&) {
      exits++;
      throw;
    }
  });
  EXPECT_EQ(exits.load(), static_cast<int>(n)) << "every thread ends with the run";
  EXPECT_EQ(machine.exit_code().value_or(-1), kProtocolErrorExit);
  const auto lines = machine.console_lines();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].hart_id, receiver);
  EXPECT_EQ(lines[0].text, "FAIL termination: thread " + Hex(receiver) +
                               " (index 3): application message from an unexpected episode (" +
                               Hex(wire::header(wire::kApp, 7, 3)) + ", 0x0)");
}

}  // namespace
