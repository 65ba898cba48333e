// The reflex driver and barrier on the host machine, against the reflex switch model (threads
// stand in for harts): the barrier property over 1,000 episodes with a late thread, split-phase
// use, two disjoint rings at once, sizes that are no power of two, buffers of 1..4 flits, the
// credit rules seen through the driver, and the modelled cost of one hop per extra hart.
#include "tessera/drivers/reflex.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "tessera/host/machine.h"

namespace tessera::drivers {
namespace {

using host::BlockedOn;
using host::Hart;
using host::HartScope;
using host::Machine;
using host::MachineParams;

MachineParams Params(uint32_t buffer_flits, uint32_t hop_cycles = 1) {
  MachineParams params;
  params.reflex_buffer_flits = buffer_flits;
  params.reflex_hop_cycles = hop_cycles;
  return params;
}

// For each episode, how many members have notified in it.
class Arrivals {
 public:
  explicit Arrivals(uint32_t episodes)
      : counts_(std::make_unique<std::atomic<uint32_t>[]>(episodes)) {}
  void notified(uint32_t episode) { counts_[episode].fetch_add(1); }
  uint32_t count(uint32_t episode) const { return counts_[episode].load(); }

 private:
  std::unique_ptr<std::atomic<uint32_t>[]> counts_;
};

// Runs `episodes` barriers on a ring of `members` (root first). In each, one member (a different
// one each time) is late: it waits until every other member is asleep in the switches before it
// notifies, and its modelled clock jumps ahead. Every member checks on leaving that all members
// notified in that episode.
void RunEpisodesWithALateMember(Machine& machine, const std::vector<uint32_t>& members,
                                uint32_t episodes) {
  Arrivals arrivals(episodes);
  const auto n = static_cast<uint32_t>(members.size());
  machine.run_on_harts(members, [&](Hart& hart) {
    ReflexRing ring;
    ASSERT_TRUE(ReflexRing::of(members.data(), n, &ring).ok());
    ReflexBarrier barrier(ring);
    ASSERT_TRUE(barrier.init().ok());
    for (uint32_t e = 0; e < episodes; e++) {
      const uint32_t late = members[(e * 7 + e / n) % n];
      if (hart.id() == late) {
        for (const uint32_t other : members) {
          if (other != late) {
            machine.wait_until_blocked(other, BlockedOn::kReflexRecv);
          }
        }
        hart.advance_cycles(1000 + e % 17);
      }
      arrivals.notified(e);
      ASSERT_TRUE(barrier.notify().ok());
      ASSERT_TRUE(barrier.wait().ok());
      ASSERT_EQ(arrivals.count(e), n)
          << "thread " << hart.id() << " left episode " << e << " before every member notified";
    }
    EXPECT_EQ(barrier.episode(), episodes);
  });
  EXPECT_TRUE(machine.reflex_guest_errors().empty());
}

std::vector<uint32_t> FirstThreads(Machine& machine, uint32_t n) {
  std::vector<uint32_t> ids = machine.thread_ids();
  ids.resize(n);
  return ids;
}

// 2 boards of 2x1 tiles of 1 core x 2 threads: 8 harts, ids not dense across boards.
constexpr TesseraShape kEight{2, 1, 2, 1, 1, 2};

TEST(ReflexBarrier, NoThreadLeavesBeforeAllNotifiedOver1000EpisodesWithALateThread) {
  Machine machine(kEight);
  RunEpisodesWithALateMember(machine, machine.thread_ids(), 1000);
}

class ReflexBarrierSizes : public ::testing::TestWithParam<std::tuple<uint32_t, uint32_t>> {};

TEST_P(ReflexBarrierSizes, HoldsForRingsOfAnySizeAndBuffersOfAnySize) {
  const auto [size, buffer_flits] = GetParam();
  Machine machine(kEight, Params(buffer_flits));
  RunEpisodesWithALateMember(machine, FirstThreads(machine, size), 100);
}

INSTANTIATE_TEST_SUITE_P(NonPowerOfTwo, ReflexBarrierSizes,
                         ::testing::Combine(::testing::Values(1u, 2u, 3u, 5u, 7u),
                                            ::testing::Values(1u, 2u, 4u)));

TEST(ReflexBarrier, AllHartsOfAMachineOfThreeBoards) {
  Machine machine(TesseraShape{3, 1, 1, 1, 1, 2});  // 6 harts
  std::atomic<uint32_t> notified{0};
  machine.run_on_all_harts([&](Hart&) {
    ReflexBarrier barrier(ReflexRing::all_harts());
    ASSERT_TRUE(barrier.init().ok());
    for (uint32_t e = 0; e < 200; e++) {
      notified.fetch_add(1);
      ASSERT_TRUE(barrier.barrier().ok());
      ASSERT_GE(notified.load(), 6 * (e + 1));
    }
  });
}

TEST(ReflexBarrier, SplitPhaseWithComputationBetweenNotifyAndWait) {
  Machine machine(kEight);
  constexpr uint32_t kEpisodes = 300;
  const std::vector<uint32_t> ids = machine.thread_ids();
  std::vector<std::atomic<uint32_t>> written(ids.size());
  machine.run_on_all_harts([&](Hart& hart) {
    ReflexBarrier barrier(ReflexRing::all_harts());
    ASSERT_TRUE(barrier.init().ok());
    for (uint32_t e = 1; e <= kEpisodes; e++) {
      written[hart.index()].store(e, std::memory_order_relaxed);
      ASSERT_TRUE(barrier.notify().ok());
      // Work that needs no one else, of a length that differs between harts.
      uint64_t sum = 0;
      for (uint32_t i = 0; i < (hart.index() + e) % 5 * 50; i++) {
        sum += i * e;
      }
      hart.advance_cycles(sum % 97);
      ASSERT_TRUE(barrier.wait().ok());
      for (size_t h = 0; h < ids.size(); h++) {
        ASSERT_GE(written[h].load(std::memory_order_relaxed), e) << "hart " << h;
      }
    }
  });
}

TEST(ReflexBarrier, TwoDisjointRingsAtOnce) {
  Machine machine(kEight);
  const std::vector<uint32_t> all = machine.thread_ids();
  // Interleaved members, roots on different boards.
  const std::vector<uint32_t> even{all[0], all[2], all[4], all[6]};
  const std::vector<uint32_t> odd{all[7], all[1], all[5]};  // 3 members; all[3] in neither
  constexpr uint32_t kEpisodes = 300;
  Arrivals even_arrivals(kEpisodes), odd_arrivals(kEpisodes);
  std::vector<uint32_t> both = even;
  both.insert(both.end(), odd.begin(), odd.end());
  machine.run_on_harts(both, [&](Hart& hart) {
    const bool in_even = std::find(even.begin(), even.end(), hart.id()) != even.end();
    const std::vector<uint32_t>& members = in_even ? even : odd;
    Arrivals& arrivals = in_even ? even_arrivals : odd_arrivals;
    ReflexRing ring;
    ASSERT_TRUE(ReflexRing::of(members.data(), static_cast<uint32_t>(members.size()), &ring).ok());
    ReflexBarrier barrier(ring);
    ASSERT_TRUE(barrier.init().ok());
    for (uint32_t e = 0; e < kEpisodes; e++) {
      arrivals.notified(e);
      ASSERT_TRUE(barrier.barrier().ok());
      ASSERT_EQ(arrivals.count(e), members.size());
    }
  });
  EXPECT_TRUE(machine.reflex_guest_errors().empty());
}

TEST(ReflexDriver, AMulticastStallsWhileAnyOutputHasNoCredit) {
  constexpr uint32_t kB = 2;
  Machine machine(kEight, Params(kB));
  const std::vector<uint32_t> ids = FirstThreads(machine, 3);  // root, a, b
  const auto on = [&](uint32_t i, const auto& action) {
    HartScope scope(machine, ids[i]);
    action();
  };
  for (uint32_t i = 0; i < 3; i++) {
    on(i, [&] {
      ReflexRing ring;
      ASSERT_TRUE(ReflexRing::of(ids.data(), 3, &ring).ok());
      ASSERT_TRUE(ring.join().ok());
    });
  }
  const ReflexSwitch sw;
  // B flits from the root fill both members' inbound buffers and come back to the root.
  on(0, [&] {
    for (uint32_t i = 0; i < kB; i++) {
      ASSERT_TRUE(sw.send(i).ok());
    }
  });
  on(1, [&] { EXPECT_EQ(sw.status().inbound, kB); });
  on(2, [&] { EXPECT_EQ(sw.status().inbound, kB); });
  on(0, [&] {
    EXPECT_EQ(sw.status().inbound, kB);
    EXPECT_EQ(sw.receive(), 0u);  // the root has credit again
    ASSERT_TRUE(sw.send(7).ok());
    EXPECT_EQ(sw.status().outbound_room, kB - 1);  // every switch is off: the flit waits
  });
  on(1, [&] { EXPECT_EQ(sw.receive(), 0u); });  // a has credit, b has none
  on(0, [&] { EXPECT_EQ(sw.status().outbound_room, kB - 1); });
  on(1, [&] { EXPECT_EQ(sw.status().inbound, kB - 1); });
  on(2, [&] { EXPECT_EQ(sw.receive(), 0u); });  // now every output has credit: it moves
  on(0, [&] { EXPECT_EQ(sw.status().outbound_room, kB); });
  on(1, [&] { EXPECT_EQ(sw.status().inbound, kB); });
  on(2, [&] { EXPECT_EQ(sw.status().inbound, kB); });
  on(0, [&] {
    EXPECT_EQ(sw.receive(), 1u);
    EXPECT_EQ(sw.receive(), 7u);
  });
}

TEST(ReflexDriver, BadArgumentsAndRefusedConfigurations) {
  Machine machine(kEight);
  HartScope scope(machine, 0);
  const ReflexSwitch sw;
  EXPECT_EQ(sw.configure(0x999, ReflexRoute::kBoth), Status::InvalidArgument());
  EXPECT_EQ(sw.configure(1, static_cast<ReflexRoute>(9)), Status::InvalidArgument());
  EXPECT_EQ(sw.send(1), Status::FailedPrecondition());  // no next switch: refused
  ReflexRing ring;
  const uint32_t others[] = {1, 2};
  EXPECT_EQ(ReflexRing::of(others, 2, &ring), Status::InvalidArgument());  // not a member
  const uint32_t twice[] = {0, 1, 0};
  EXPECT_EQ(ReflexRing::of(twice, 3, &ring), Status::InvalidArgument());
  EXPECT_EQ(ReflexRing::of(others, 0, &ring), Status::InvalidArgument());
  EXPECT_EQ(ReflexRing().join(), Status::FailedPrecondition());
  ReflexBarrier barrier(ReflexRing::all_harts());
  EXPECT_EQ(barrier.notify(), Status::FailedPrecondition());  // before init
  EXPECT_EQ(barrier.wait(), Status::FailedPrecondition());
  EXPECT_EQ(machine.reflex_guest_errors().size(), 1u);  // the refused send
}

// One barrier with every member arriving at the same modelled cycle ends one hop later per
// extra member: the root's flit travels the whole ring. (Exactly so once that trip takes longer
// than the root's reading of its B waiting flits, one access each: hops of 5 cycles and up here.)
uint64_t SimultaneousBarrierCycles(uint32_t members, uint32_t hop_cycles) {
  Machine machine(TesseraShape{1, 1, 2, 2, 1, 4}, Params(4, hop_cycles));  // 16 harts
  const std::vector<uint32_t> ids = FirstThreads(machine, members);
  constexpr uint64_t kStart = 1'000'000;
  uint64_t root_left = 0;
  machine.run_on_harts(ids, [&](Hart& hart) {
    ReflexRing ring;
    ASSERT_TRUE(ReflexRing::of(ids.data(), members, &ring).ok());
    ReflexBarrier barrier(ring);
    ASSERT_TRUE(barrier.init().ok());
    ASSERT_TRUE(barrier.barrier().ok());  // a first episode: the steady state
    (void)hart.wait_until(kStart);
    ASSERT_TRUE(barrier.barrier().ok());
    if (ring.root()) {
      root_left = hart.cycles();
    }
  });
  return root_left - kStart;
}

TEST(ReflexBarrier, CostGrowsByOneHopPerExtraHart) {
  for (const uint32_t hop : {5u, 25u}) {
    const uint64_t two = SimultaneousBarrierCycles(2, hop);
    for (uint32_t n = 3; n <= 16; n++) {
      EXPECT_EQ(SimultaneousBarrierCycles(n, hop), two + (n - 2) * hop)
          << n << " members, " << hop << " cycles per hop";
    }
  }
}

}  // namespace
}  // namespace tessera::drivers
