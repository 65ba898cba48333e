// tinsel.h on the host machine: programs written against the Tinsel API, in both spellings, run
// as host threads over the real mailbox model.
#include "tinsel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <string>
#include <vector>

#include "tessera/host/machine.h"

extern "C" void tessera_runtime_prepare_mailbox();  // firmware/tinsel/v2_start.cc

namespace {

using tessera::host::Hart;
using tessera::host::HartScope;
using tessera::host::Machine;

// 2x2 boards of 2x1 tiles of 2 cores x 4 threads: 64 harts, 8 per tile.
constexpr TesseraShape kShape{2, 2, 2, 1, 2, 4};

struct Ping {
  uint32_t from;
  uint32_t round;
  uint32_t payload[14];
};

TEST(Tinsel, ShapeFunctionsAnswerForTheMachine) {
  Machine machine(kShape);
  HartScope scope(machine, 13);
  EXPECT_EQ(tinselId(), 13u);
  EXPECT_EQ(tinselThreadsPerCore(), 4u);
  EXPECT_EQ(tinselLogThreadsPerCore(), 2u);
  EXPECT_EQ(tinselCoresPerTile(), 2u);
  EXPECT_EQ(tinselThreadsPerTile(), 8u);
  EXPECT_EQ(tinselLogThreadsPerMailbox(), 3u);
  EXPECT_EQ(tinselMsgsPerThread(), TESSERA_SLOTS_PER_TILE / 8);
  EXPECT_EQ(tinselLogMsgsPerThread(), 7u);
  EXPECT_EQ(tinselNumThreads(), 64u);
  EXPECT_EQ(tinselBoardsX() * tinselBoardsY() * tinselTilesX() * tinselTilesY(), 8u);
  EXPECT_EQ(tinselHostId(), tessera_host_id(&kShape));
  EXPECT_EQ(1 << TinselLogBytesPerMsg, TESSERA_BYTES_PER_SLOT);
  EXPECT_EQ(TinselMaxFlitsPerMsg, static_cast<int>(TESSERA_MAX_FLITS));
  // Thread 13 is thread 5 of its tile: its slots start at 5 * 128.
  EXPECT_EQ(tessera::hal::scratch_bus_address(tinselSendSlot()),
            TESSERA_SCRATCH_BASE + 5 * 128 * TESSERA_BYTES_PER_SLOT);
  EXPECT_EQ(tinselSlot(0), tinselSendSlot());
  EXPECT_EQ(tessera::hal::scratch_bus_address(tinselSlot(3)),
            TESSERA_SCRATCH_BASE + (5 * 128 + 3) * TESSERA_BYTES_PER_SLOT);
}

TEST(Tinsel, CycleCountIsTheHartsModelledClock) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  Hart& hart = machine.hart(0);
  hart.advance_cycles(5000);
  const uint32_t seen = tinselCycleCount();
  EXPECT_EQ(seen, static_cast<uint32_t>(hart.cycles()));
  EXPECT_GE(seen, 5000u);
}

// The later API: slots given before main (the v2 runtime hook), tinselSendSlot, tinselFree.
TEST(Tinsel, PingPongWithTheLaterApi) {
  Machine machine(kShape);
  const uint32_t a = 0, b = 63;
  const std::vector<uint32_t> ids{a, b};
  std::vector<uint32_t> rtt;
  machine.run_on_harts(ids, [&](Hart&) {
    tessera_runtime_prepare_mailbox();
    const uint32_t me = tinselId();
    for (uint32_t round = 0; round < 10; round++) {
      if (me == a) {
        volatile Ping* ping = static_cast<volatile Ping*>(tinselSendSlot());
        tinselWaitUntil(TINSEL_CAN_SEND);
        ping->from = me;
        ping->round = round;
        tinselSetLen(0);
        const uint32_t start = tinselCycleCount();
        tinselSend(b, ping);
        tinselWaitUntil(TINSEL_CAN_RECV);
        volatile Ping* pong = static_cast<volatile Ping*>(tinselRecv());
        rtt.push_back(tinselCycleCount() - start);
        EXPECT_EQ(pong->from, b);
        EXPECT_EQ(pong->round, round);
        tinselFree(pong);
      } else {
        tinselWaitUntil(TINSEL_CAN_RECV);
        volatile Ping* got = static_cast<volatile Ping*>(tinselRecv());
        const uint32_t from = got->from;
        const uint32_t r = got->round;
        tinselFree(got);
        volatile Ping* pong = static_cast<volatile Ping*>(tinselSendSlot());
        tinselWaitUntil(TINSEL_CAN_SEND | TINSEL_CAN_RECV);
        pong->from = me;
        pong->round = r;
        tinselSetLen(0);
        tinselSend(from, pong);
      }
    }
  });
  ASSERT_EQ(rtt.size(), 10u);
  // Once the clocks are in step every round trip is the same: two latencies plus the
  // accesses of the echo.
  for (uint32_t round = 2; round < rtt.size(); round++) {
    EXPECT_EQ(rtt[round], rtt[1]) << "round " << round;
  }
  EXPECT_GE(rtt[1], 2 * machine.mailbox_latency(a, b));
}

// The original API: the program allocates its own receive slots with tinselAlloc(tinselSlot(i)).
TEST(Tinsel, RingWithTheOriginalApi) {
  Machine machine(kShape);
  std::atomic<int> tokens{0};
  machine.run_on_all_harts([&](Hart& hart) {
    for (uint32_t i = 1; i < tinselMsgsPerThread(); i++) {
      tinselAlloc(tinselSlot(i));
    }
    const uint32_t n = tinselNumThreads();
    const uint32_t next = machine.hart_at((hart.index() + 1) % n).id();
    volatile uint32_t* msg = static_cast<volatile uint32_t*>(tinselSlot(0));
    if (hart.index() != 0) {
      tinselWaitUntil(TINSEL_CAN_RECV);
      volatile uint32_t* in = static_cast<volatile uint32_t*>(tinselRecv());
      EXPECT_EQ(in[0], hart.index() - 1);
      EXPECT_EQ(in[15], 0xc0ffee00u + hart.index() - 1);  // all four flits arrived
      tinselAlloc(in);
      tokens++;
    }
    if (hart.index() != n - 1) {
      tinselWaitUntil(TINSEL_CAN_SEND);
      msg[0] = hart.index();
      msg[15] = 0xc0ffee00u + hart.index();
      tinselSetLen(3);
      tinselSend(next, msg);
    }
  });
  EXPECT_EQ(tokens.load(), 63);
}

TEST(Tinsel, MulticastToAMailbox) {
  Machine machine(kShape);
  const uint32_t sender = 40;
  const uint32_t mailbox = 16 >> 3;  // threads 16..23
  std::latch ready(9);
  std::atomic<int> got{0};
  std::vector<uint32_t> ids{sender};
  for (uint32_t t = 16; t < 24; t++) {
    ids.push_back(t);
  }
  machine.run_on_harts(ids, [&](Hart& hart) {
    tessera_runtime_prepare_mailbox();
    ready.arrive_and_wait();
    if (hart.id() == sender) {
      volatile uint32_t* msg = static_cast<volatile uint32_t*>(tinselSendSlot());
      msg[0] = 0x600d;
      tinselSetLen(0);
      tinselMulticast(mailbox, 0, 0xff, msg);
      return;
    }
    tinselWaitUntil(TINSEL_CAN_RECV);
    volatile uint32_t* in = static_cast<volatile uint32_t*>(tinselRecv());
    EXPECT_EQ(in[0], 0x600du);
    tinselFree(in);
    got++;
  });
  EXPECT_EQ(got.load(), 8);
}

TEST(Tinsel, MessagesToTheHostId) {
  Machine machine(kShape);
  machine.run_on_all_harts([&](Hart&) {
    volatile uint32_t* msg = static_cast<volatile uint32_t*>(tinselSendSlot());
    tinselWaitUntil(TINSEL_CAN_SEND);
    msg[0] = tinselId();
    msg[1] = tinselId() * tinselId();
    tinselSetLen(0);
    tinselSend(tinselHostId(), msg);
  });
  const auto messages = machine.host_messages();
  ASSERT_EQ(messages.size(), 64u);
  for (const auto& m : messages) {
    const uint32_t id = m.bytes[0] | m.bytes[1] << 8 | m.bytes[2] << 16 | m.bytes[3] << 24;
    EXPECT_EQ(id, m.source);
  }
}

TEST(Tinsel, BackPressureLikeTheReferenceHardware) {
  tessera::host::MachineParams params;
  params.buffer_flits = 16;
  Machine machine(kShape, params);
  const uint32_t sender = 1, receiver = 62;
  constexpr uint32_t kMessages = 60;
  std::atomic<uint32_t> stalls{0};
  std::latch sender_done_sending_first(1);
  const std::vector<uint32_t> ids{sender, receiver};
  machine.run_on_harts(ids, [&](Hart& hart) {
    if (hart.id() == sender) {
      for (uint32_t seq = 0; seq < kMessages; seq++) {
        if (!tinselCanSend()) {
          stalls++;
          if (stalls == 1) {
            sender_done_sending_first.count_down();
          }
          tinselWaitUntil(TINSEL_CAN_SEND);
        }
        volatile uint32_t* slot = static_cast<volatile uint32_t*>(tinselSendSlot());
        for (uint32_t k = 0; k < 16; k++) {
          slot[k] = seq * 16 + k;
        }
        tinselSetLen(3);
        tinselSend(receiver, slot);
      }
      return;
    }
    sender_done_sending_first.wait();  // a receiver that starts late
    tessera_runtime_prepare_mailbox();
    for (uint32_t seq = 0; seq < kMessages; seq++) {
      tinselWaitUntil(TINSEL_CAN_RECV);
      volatile uint32_t* msg = static_cast<volatile uint32_t*>(tinselRecv());
      for (uint32_t k = 0; k < 16; k++) {
        ASSERT_EQ(msg[k], seq * 16 + k);
      }
      tinselFree(msg);
    }
  });
  EXPECT_GE(stalls.load(), 1u);
}

}  // namespace
