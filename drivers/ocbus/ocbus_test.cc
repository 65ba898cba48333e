// The open-collector bus driver on the host machine, against the bus model (threads stand in for
// harts): ACWT equals the AND of the inputs over 100 calls in a row on 64 harts of four boards
// with random delays before each call, from the lines' reset state; one call costs 3 settle
// times plus its own accesses, whatever the number of harts; arbitration has exactly one winner,
// ties included; the barrier; the data bus; and mutants of ACWT that skip a step fail.
#include "tessera/drivers/ocbus.h"

#include <gtest/gtest.h>

#include <stdint.h>

#include <atomic>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "tessera/host/machine.h"

namespace tessera::drivers {
namespace {

using host::Hart;
using host::Machine;
using host::MachineParams;

// 4 boards of 2x2 tiles of 1 core x 4 threads: 64 harts, thread ids not dense across boards.
constexpr TesseraShape kSixtyFour{2, 2, 2, 2, 1, 4};

// The same pseudo-random stream on every hart: inputs every hart can recompute.
uint32_t Mix(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t x = a * 0x9e3779b9u ^ (b + 1) * 0x85ebca6bu ^ (c + 7) * 0xc2b2ae35u;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  return x;
}

// Call c's input of hart h of n: every third call all true; otherwise each hart false with
// chance about 1/n, so the AND is true about a third of the remaining calls too.
bool Input(uint32_t call, uint32_t hart, uint32_t n) {
  return call % 3 == 0 || Mix(call, hart, 1) % (n + n / 2) != 0;
}

// A random delay, in modelled cycles and in host scheduling, before each call.
void Jitter(Hart& hart, uint32_t call) {
  const uint32_t r = Mix(call, hart.index(), 2);
  hart.advance_cycles(r % 200);
  for (uint32_t i = 0; i < r % 4; i++) {
    std::this_thread::yield();
  }
}

TEST(OcbusAcwtDriver, TheResultIsTheAndOfTheInputsWhateverTheDelays) {
  Machine machine(kSixtyFour);
  const uint32_t n = machine.num_harts();
  ASSERT_EQ(n, 64u);
  constexpr uint32_t kCalls = 100;
  std::atomic<uint32_t> wrong{0}, true_results{0};
  machine.run_on_all_harts([&](Hart& hart) {
    OcBusProtocols bus;  // from the lines' reset state: nothing else runs first
    for (uint32_t call = 0; call < kCalls; call++) {
      bool expected = true;
      for (uint32_t h = 0; h < n; h++) expected = expected && Input(call, h, n);
      Jitter(hart, call);
      const bool result = bus.all(Input(call, hart.index(), n));
      if (result != expected) wrong++;
      if (result && hart.index() == 0) true_results++;
    }
  });
  EXPECT_EQ(wrong.load(), 0u);
  EXPECT_GT(true_results.load(), kCalls / 4) << "the inputs must make both answers common";
  EXPECT_LT(true_results.load(), kCalls);
  EXPECT_TRUE(machine.ocbus_guest_errors().empty());
}

// With simultaneous arrival every hart leaves a call at the same cycle, so the next call's cost
// is the same on every hart: 3 settle times (one per wait, each for one change of one line) and
// the call's own 10 accesses at 1 cycle each, minus the 3 accesses that overlap the waits.
TEST(OcbusAcwtDriver, OneCallCostsThreeSettleTimesWhateverTheNumberOfHarts) {
  for (const TesseraShape shape : {TesseraShape{1, 1, 1, 1, 1, 2}, TesseraShape{3, 1, 1, 1, 1, 1},
                                   TesseraShape{1, 1, 2, 2, 1, 4}, kSixtyFour}) {
    MachineParams params;
    params.ocbus_settle_cycles = 25;
    Machine machine(shape, params);
    std::vector<uint64_t> cost(machine.num_harts());
    machine.run_on_all_harts([&](Hart& hart) {
      OcBusProtocols bus;
      bus.barrier();  // aligns every hart's clock
      const uint64_t start = hart.cycles();
      bus.barrier();
      cost[hart.index()] = hart.cycles() - start;
    });
    for (uint64_t c : cost) {
      EXPECT_EQ(c, 3u * 25 + 7) << machine.num_harts() << " harts";
    }
  }
}

TEST(OcbusBarrierDriver, NobodyLeavesBeforeEveryoneArrived) {
  Machine machine(TesseraShape{3, 1, 1, 1, 1, 4});  // 12 harts, three boards
  constexpr uint32_t kEpisodes = 200;
  std::atomic<uint32_t> arrived{0}, early{0};
  machine.run_on_all_harts([&](Hart& hart) {
    OcBusProtocols bus;
    for (uint32_t e = 1; e <= kEpisodes; e++) {
      if (Mix(e, 0, 3) % 12 == hart.index()) {  // one late hart per episode
        for (int i = 0; i < 50; i++) std::this_thread::yield();
        hart.advance_cycles(5000);
      }
      arrived++;
      bus.barrier();
      if (arrived.load() < 12 * e) early++;
    }
  });
  EXPECT_EQ(early.load(), 0u);
}

TEST(OcbusArbitrationDriver, ExactlyOneWinnerTheHighestNumberTiesToTheHighestThread) {
  Machine machine(TesseraShape{3, 1, 2, 1, 1, 2});  // 12 harts, three boards
  const uint32_t n = machine.num_harts();
  constexpr uint32_t kRounds = 30;
  std::vector<std::atomic<uint32_t>> winners(kRounds);
  std::vector<std::atomic<uint32_t>> winner_index(kRounds);
  machine.run_on_all_harts([&](Hart& hart) {
    OcBusProtocols bus;
    for (uint32_t r = 0; r < kRounds; r++) {
      // Small numbers on odd rounds (many ties), any 32-bit number on even ones.
      const uint32_t number = r % 2 ? Mix(r, hart.index(), 4) % 3 : Mix(r, hart.index(), 4);
      Jitter(hart, r);
      if (bus.arbitrate(number)) {
        winners[r]++;
        winner_index[r] = hart.index();
      }
    }
  });
  for (uint32_t r = 0; r < kRounds; r++) {
    ASSERT_EQ(winners[r].load(), 1u) << "round " << r;
    uint32_t best = 0;
    for (uint32_t h = 1; h < n; h++) {
      auto number = [&](uint32_t i) { return r % 2 ? Mix(r, i, 4) % 3 : Mix(r, i, 4); };
      if (number(h) >= number(best)) best = h;  // ties: the later (higher) thread
    }
    EXPECT_EQ(winner_index[r].load(), best) << "round " << r;
  }
}

TEST(OcbusDataBusDriver, BroadcastsAValueFromOneHartToAll) {
  for (const uint32_t lines : {4u, 8u}) {
    MachineParams params;
    params.ocbus_lines = lines;
    Machine machine(TesseraShape{2, 1, 1, 1, 1, 4}, params);  // 8 harts
    std::atomic<uint32_t> wrong{0};
    machine.run_on_all_harts([&](Hart& hart) {
      OcBusProtocols bus;
      EXPECT_EQ(bus.data_lines(), lines - 3);
      for (uint32_t call = 0; call < 20; call++) {
        const uint32_t sender = call % 8;
        const uint32_t bits = call % 4 == 0 ? 32 : 1 + call;
        const uint32_t value = Mix(call, 9, 5);
        const uint32_t want = bits == 32 ? value : value & ((1u << bits) - 1);
        Jitter(hart, call);
        if (bus.broadcast(hart.index() == sender ? value : 0, hart.index() == sender, bits) !=
            want) {
          wrong++;
        }
      }
    });
    EXPECT_EQ(wrong.load(), 0u) << lines << " lines";
  }
}

}  // namespace
}  // namespace tessera::drivers
