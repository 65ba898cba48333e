// tinselIdle on the host machine: Tinsel-style programs, one host thread per hart, over the
// mailbox model and its termination detector (docs/idle.md), on several mesh shapes with the
// master at the origin and at the centre.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "tessera/host/machine.h"
#include "tinsel.h"

extern "C" void tessera_runtime_prepare_mailbox();  // firmware/tinsel/v2_start.cc

namespace {

using tessera::host::BlockedOn;
using tessera::host::Hart;
using tessera::host::Machine;
using tessera::host::MachineParams;

struct IdleCase {
  TesseraShape shape;
  TesseraTermdetMaster master;
};

std::string CaseName(const ::testing::TestParamInfo<IdleCase>& info) {
  const TesseraShape& s = info.param.shape;
  return "boards" + std::to_string(s.boards_x) + "x" + std::to_string(s.boards_y) + "_threads" +
         std::to_string(tessera_threads_per_board(&s)) + "_" +
         (info.param.master == TESSERA_TERMDET_MASTER_ORIGIN ? "origin" : "centre");
}

// Hops from the master to the board of a dense hart index, written out independently of the
// model.
uint32_t HopsOf(const IdleCase& c, uint32_t hart_index) {
  const TesseraShape& s = c.shape;
  const uint32_t board = hart_index / tessera_threads_per_board(&s);
  const uint32_t x = board % s.boards_x, y = board / s.boards_x;
  if (c.master == TESSERA_TERMDET_MASTER_ORIGIN) {
    return x + y + 1;
  }
  const uint32_t cx = s.boards_x / 2, cy = s.boards_y / 2;
  return (x > cx ? x - cx : cx - x) + (y > cy ? y - cy : cy - y);
}

class TinselIdle : public ::testing::TestWithParam<IdleCase> {
 protected:
  MachineParams Params() const {
    MachineParams p;
    p.idle_master = GetParam().master;
    return p;
  }
};

// Every thread calls tinselIdle at once: each returns 3 (1 with a false vote), at the modelled
// time the release reaches its board.
TEST_P(TinselIdle, EveryThreadIdleReturnsTheVoteAtTheReleaseTime) {
  const IdleCase c = GetParam();
  for (const bool all_true : {true, false}) {
    Machine machine(c.shape, Params());
    const uint32_t n = machine.num_harts();
    std::vector<int> results(n, -1);
    std::vector<uint64_t> entered(n), resumed(n);
    machine.run_on_all_harts([&](Hart& hart) {
      tessera_runtime_prepare_mailbox();
      const bool vote = all_true || hart.index() != n - 1;
      entered[hart.index()] = tinselCycleCount() + 1;  // the idle CSR costs a cycle first
      results[hart.index()] = tinselIdle(vote);
      resumed[hart.index()] = tinselCycleCount() - 1;
    });
    const TesseraTermdetStats stats = machine.idle_stats();
    EXPECT_EQ(stats.detections, 1u);
    const uint64_t l = machine.params().board_hop_cycles;
    // D = max over boards of max(token arrival, board idle) + L * h.
    uint64_t d = 0;
    for (uint32_t h = 0; h < n; h++) {
      d = std::max(d, std::max(l * HopsOf(c, h), entered[h]) + l * HopsOf(c, h));
    }
    EXPECT_EQ(stats.last_detection, d);
    for (uint32_t h = 0; h < n; h++) {
      EXPECT_EQ(results[h], all_true ? 3 : 1) << "hart " << h;
      EXPECT_EQ(resumed[h], d + l * HopsOf(c, h)) << "hart " << h;
    }
  }
}

// Rounds of a ring: each thread sends one message to the next, then idles until released,
// receiving what arrives (tinselIdle returns 0). At every release each thread has received
// exactly the messages of the rounds so far: no release while a message is undelivered, and a
// released thread's next-round message never makes a thread of the same episode return 0.
TEST_P(TinselIdle, RingRoundsSeparatedByIdle) {
  const IdleCase c = GetParam();
  Machine machine(c.shape, Params());
  const std::vector<uint32_t> ids = machine.thread_ids();
  const uint32_t n = machine.num_harts();
  constexpr uint32_t kRounds = 25;
  std::atomic<uint32_t> zeros{0};
  machine.run_on_all_harts([&](Hart& hart) {
    tessera_runtime_prepare_mailbox();
    const uint32_t next = ids[(hart.index() + 1) % n];
    uint32_t got = 0;
    for (uint32_t round = 0; round < kRounds; round++) {
      tinselWaitUntil(TINSEL_CAN_SEND);
      volatile uint32_t* msg = static_cast<volatile uint32_t*>(tinselSendSlot());
      msg[0] = round;
      tinselSetLen(0);
      tinselSend(next, msg);
      for (;;) {
        const int r = tinselIdle(round % 3 != 2);
        if (r == 0) {
          zeros++;
          while (tinselCanRecv()) {
            volatile uint32_t* in = static_cast<volatile uint32_t*>(tinselRecv());
            EXPECT_EQ(in[0], round) << "a message of another round";
            got++;
            tinselFree(in);
          }
          continue;
        }
        EXPECT_EQ(r, round % 3 != 2 ? 3 : 1);
        EXPECT_EQ(got, round + 1) << "hart " << hart.index() << " released early";
        break;
      }
    }
  });
  const TesseraTermdetStats stats = machine.idle_stats();
  EXPECT_EQ(stats.detections, kRounds);
  // Every message is received after a tinselIdle that returned 0.
  EXPECT_GE(zeros.load(), n * kRounds);
  // Consecutive detections are at least the three phases apart.
  EXPECT_GE(stats.last_detection, kRounds * 3 * machine.idle_round_trip() -
                                      2 * machine.idle_round_trip());
}

// A thread that has not called tinselIdle yet holds everybody back.
TEST_P(TinselIdle, NoReleaseBeforeTheLastThreadIdles) {
  const IdleCase c = GetParam();
  Machine machine(c.shape, Params());
  std::atomic<bool> last_is_idle{false};
  machine.run_on_all_harts([&](Hart& hart) {
    if (hart.index() == 0) {
      // Last for certain: every other thread is asleep in tinselIdle first.
      for (const uint32_t id : machine.thread_ids()) {
        if (id != hart.id()) {
          machine.wait_until_blocked(id, BlockedOn::kIdle);
        }
      }
      last_is_idle = true;
    }
    EXPECT_EQ(tinselIdle(1), 3);
    EXPECT_TRUE(last_is_idle.load());
  });
  EXPECT_EQ(machine.idle_stats().detections, 1u);
}

// The host's messages count too: a thread that receives one returns 0 and handles it first.
TEST_P(TinselIdle, AMessageFromTheHostHoldsTheReleaseBack) {
  const IdleCase c = GetParam();
  Machine machine(c.shape, Params());
  const uint32_t target = machine.thread_ids().back();
  const uint8_t bytes[16] = {0x2a};
  ASSERT_TRUE(machine.inject(target, bytes, 0));
  std::atomic<int> from_host{0};
  machine.run_on_all_harts([&](Hart& hart) {
    tessera_runtime_prepare_mailbox();
    for (;;) {
      const int r = tinselIdle(1);
      if (r != 0) {
        EXPECT_EQ(r, 3);
        break;
      }
      EXPECT_EQ(hart.id(), target);
      volatile uint8_t* in = static_cast<volatile uint8_t*>(tinselRecv());
      EXPECT_EQ(in[0], 0x2a);
      from_host++;
      tinselFree(in);
    }
  });
  EXPECT_EQ(from_host.load(), 1);
  EXPECT_EQ(machine.idle_stats().detections, 1u);
}

std::vector<IdleCase> Cases() {
  std::vector<IdleCase> cases;
  for (const TesseraShape& shape : {TesseraShape{1, 1, 1, 1, 1, 2}, TesseraShape{2, 1, 2, 1, 1, 2},
                                    TesseraShape{2, 2, 1, 1, 2, 2}, TesseraShape{3, 2, 1, 1, 1, 2},
                                    TesseraShape{4, 3, 1, 1, 1, 1}}) {
    cases.push_back({shape, TESSERA_TERMDET_MASTER_ORIGIN});
    cases.push_back({shape, TESSERA_TERMDET_MASTER_CENTRE});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Shapes, TinselIdle, ::testing::ValuesIn(Cases()), CaseName);

}  // namespace
