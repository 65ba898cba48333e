// The barrier controller driver on the host machine: many threads entering
// barriers, episode after episode, disjoint groups at once, registered
// counts, and the controller's refusals as statuses.
#include "tessera/drivers/barrier_ctl.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "tessera/host/machine.h"

namespace tessera::drivers {
namespace {

using host::BlockedOn;
using host::Hart;
using host::HartScope;
using host::Machine;

// 2 boards of 2x2 tiles, 1 core x 2 threads: 16 threads.
constexpr TesseraShape kShape{2, 1, 2, 2, 1, 2};

TEST(BarrierCtlDriver, NoThreadLeavesAnEpisodeBeforeAllHaveEntered) {
  Machine machine(kShape);
  const std::vector<uint32_t> ids = machine.thread_ids();
  const uint32_t n = static_cast<uint32_t>(ids.size());
  constexpr int kEpisodes = 50;
  std::vector<std::atomic<int>> entered(kEpisodes);
  machine.run_on_all_harts([&](Hart& hart) {
    const BarrierController barrier;
    for (int e = 0; e < kEpisodes; e++) {
      hart.advance_cycles((hart.index() * 37 + e * 11) % 100);  // jittered arrivals
      entered[e]++;
      ASSERT_TRUE(barrier.enter(42, n).ok());
      EXPECT_EQ(entered[e].load(), static_cast<int>(n)) << "episode " << e;
    }
  });
}

TEST(BarrierCtlDriver, DisjointGroupsSynchroniseIndependently) {
  Machine machine(kShape);
  std::atomic<int> evens{0}, odds{0};
  machine.run_on_all_harts([&](Hart& hart) {
    const BarrierController barrier;
    const bool even = hart.index() % 2 == 0;
    (even ? evens : odds)++;
    ASSERT_TRUE(barrier.enter(even ? 1 : 2, 8).ok());
    EXPECT_EQ((even ? evens : odds).load(), 8);
  });
}

TEST(BarrierCtlDriver, RegisteredCountsLetEntriesLeaveTheCountOut) {
  Machine machine(kShape);
  {
    HartScope scope(machine, 0);
    uint32_t previous = 99;
    ASSERT_TRUE(BarrierController().set_count(5, 4, &previous).ok());
    EXPECT_EQ(previous, 0u);
  }
  const std::vector<uint32_t> ids{0, 1, 2, 3};
  std::atomic<int> entered{0};
  machine.run_on_harts(ids, [&](Hart&) {
    entered++;
    ASSERT_TRUE(BarrierController().enter(5).ok());
    EXPECT_EQ(entered.load(), 4);
  });
}

TEST(BarrierCtlDriver, RefusalsAreStatuses) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  const BarrierController barrier;
  EXPECT_EQ(barrier.enter(BarrierController::kMaxUid + 1, 1), Status::InvalidArgument());
  EXPECT_EQ(barrier.enter(1, BarrierController::kMaxCount + 1), Status::InvalidArgument());
  EXPECT_EQ(barrier.set_count(1, BarrierController::kMaxCount + 1), Status::InvalidArgument());
  EXPECT_EQ(barrier.enter(1), Status::FailedPrecondition());
  EXPECT_EQ(barrier.enter(1, 17), Status::OutOfRange());
  EXPECT_TRUE(barrier.enter(1, 1).ok());
  EXPECT_EQ(machine.barrier_guest_errors().size(), 2u);
}

TEST(BarrierCtlDriver, AUidOpenWithAnotherCountIsRefused) {
  Machine machine(kShape);
  const std::vector<uint32_t> ids{0, 1};
  machine.run_on_harts(ids, [&](Hart& hart) {
    const BarrierController barrier;
    if (hart.id() == 1) {
      machine.wait_until_blocked(0, BlockedOn::kBarrier);
      EXPECT_EQ(barrier.enter(3, 3), Status(StatusCode::kAborted));
    }
    EXPECT_TRUE(barrier.enter(3, 2).ok());
  });
}

TEST(BarrierCtlDriver, StatusesMapEveryControllerAnswer) {
  EXPECT_TRUE(BarrierController::status_of(TESSERA_BARRIER_OK).ok());
  EXPECT_EQ(BarrierController::status_of(TESSERA_BARRIER_BUSY), Status::Unavailable());
  EXPECT_EQ(BarrierController::status_of(TESSERA_BARRIER_FULL),
            Status(StatusCode::kResourceExhausted));
  EXPECT_EQ(BarrierController::status_of(99), Status::Internal());
}

}  // namespace
}  // namespace tessera::drivers
