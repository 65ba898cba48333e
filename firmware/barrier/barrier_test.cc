// Every barrier, chosen by name (AnyBarrier), on the host machine (one host thread per hart, the
// device models underneath), for group sizes 1, 2, 3, 5, 8, 13 and 64, placed as the whole machine
// or as a scattered list of its threads; a barrier that cannot serve a group (idle: only the
// whole machine) must refuse it in init(). What each run checks, in the harts:
//  - nobody leaves episode k before every member has entered it, in host order and in modelled
//    time (a thread's clock on leaving is at least every member's clock on entering);
//  - 1,000 consecutive episodes, one thread late in each (a different one each time);
//  - two disjoint groups at once; overlapping groups told apart by their tags;
//  - split phase: notify never waits for anyone, and work between notify and wait is allowed.
#include <gtest/gtest.h>
#include <stdint.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "barrier_names_test.h"
#include "tessera/barrier/algorithms.h"
#include "tessera/barrier/any.h"
#include "tessera/barrier/endpoint.h"
#include "tessera/barrier/group.h"
#include "tessera/barrier/hardware.h"
#include "tessera/drivers/mailbox.h"
#include "tessera/host/machine.h"
#include "tessera/testing/watchdog.h"

namespace {

using tessera::barrier::AnyBarrier;
using tessera::barrier::Endpoint;
using tessera::barrier::Group;
using tessera::barrier::OcBusBarrier;
using tessera::host::current_hart;
using tessera::host::Hart;
using tessera::host::Machine;

// A barrier that never completes keeps its harts blocked in the mailbox, which the host
// machine's deadlock detection reports (tessera::host::Deadlock fails the run); a protocol that
// kept messages moving for ever is caught by the watchdog (tessera/testing/watchdog.h).
constexpr std::chrono::seconds kWatchdogLimit{120};
using tessera::testing::Watchdog;

// A group of P threads of a machine: the whole machine, or P of its threads listed out of order
// (every third id first), so that ranks and placement differ.
struct Placement {
  TesseraShape shape;
  bool whole_machine;
};

Placement PlacementFor(uint32_t p) {
  switch (p) {
    case 1:
      return {{1, 1, 1, 1, 1, 1}, true};
    case 2:
      return {{2, 1, 1, 1, 1, 1}, true};  // two boards
    case 3:
      return {{3, 1, 1, 1, 1, 1}, true};  // three boards in a row
    case 5:
      return {{2, 1, 1, 1, 1, 4}, false};  // 5 of 8
    case 8:
      return {{2, 1, 2, 1, 1, 2}, true};
    case 13:
      return {{2, 2, 2, 1, 1, 2}, false};  // 13 of 16, on four boards
    case 64:
      return {{2, 2, 2, 2, 1, 4}, true};
    default:
      return {{1, 1, 1, 1, 1, 1}, true};
  }
}

std::vector<uint32_t> ScatteredIds(const Machine& machine, uint32_t p) {
  const std::vector<uint32_t> all = machine.thread_ids();
  std::vector<uint32_t> ids;
  for (uint32_t start = 0; start < 3; start++) {
    for (uint32_t i = start; i < all.size(); i += 3) {
      if (ids.size() < p) ids.push_back(all[i]);
    }
  }
  return ids;
}

// The members of a group of p threads placed as PlacementFor(p) says, and the group.
struct Members {
  std::vector<uint32_t> ids;
  Group group;
};

Members MembersFor(const Machine& machine, uint32_t p) {
  const Placement placement = PlacementFor(p);
  Members m;
  m.ids = placement.whole_machine ? machine.thread_ids() : ScatteredIds(machine, p);
  m.group = placement.whole_machine ? Group::all(placement.shape)
                                    : Group::of(placement.shape, m.ids.data(), p);
  return m;
}

// What the members of one group have done, for the checks; shared by the host threads. Each
// member's latest entry is one atomic word, episode and modelled cycle together, so that a check
// never pairs one episode's number with the next one's cycle.
class Record {
 public:
  explicit Record(uint32_t p) : entry_(p) {}

  void enter(uint32_t rank, uint32_t episode, uint64_t cycle) {
    entry_[rank].store(uint64_t{episode} << kCycleBits | (cycle & kCycleMask));
  }
  // Called on leaving `episode`: every member must have entered it, and entered it no later (in
  // modelled time) than `cycle`.
  void check_leave(uint32_t rank, uint32_t episode, uint64_t cycle) {
    for (uint32_t r = 0; r < entry_.size(); r++) {
      const uint64_t entry = entry_[r].load();
      const uint64_t e = entry >> kCycleBits;
      const uint64_t entered_at = entry & kCycleMask;
      if (e < episode) {
        fail("rank " + std::to_string(rank) + " left episode " + std::to_string(episode) +
             " before rank " + std::to_string(r) + " entered it");
      } else if (e == episode && entered_at > cycle) {
        fail("rank " + std::to_string(rank) + " left episode " + std::to_string(episode) +
             " at cycle " + std::to_string(cycle) + ", before rank " + std::to_string(r) +
             " entered it at cycle " + std::to_string(entered_at));
      }
    }
  }
  std::string first_failure() {
    std::lock_guard lock(mutex_);
    return failure_;
  }

 private:
  static constexpr uint32_t kCycleBits = 44;
  static constexpr uint64_t kCycleMask = (uint64_t{1} << kCycleBits) - 1;

  void fail(const std::string& what) {
    std::lock_guard lock(mutex_);
    if (failure_.empty()) failure_ = what;
  }
  std::vector<std::atomic<uint64_t>> entry_;
  std::mutex mutex_;
  std::string failure_;
};

// Modelled work of a late thread: its clock moves on, and the host thread lets others run.
void BeLate(uint64_t cycles) {
  current_hart().advance_cycles(cycles);
  std::this_thread::yield();
}

// Episodes of one barrier over `group`, run by one member; `late` picks the late rank of each.
void RunEpisodes(AnyBarrier& barrier, uint32_t p, Record& record, uint32_t episodes,
                 bool split_phase) {
  const uint32_t rank = barrier.rank();
  for (uint32_t k = 1; k <= episodes; k++) {
    if (k % p == rank) BeLate(1000);
    record.enter(rank, k, current_hart().cycles());
    if (split_phase) {
      barrier.notify();
      current_hart().advance_cycles(50);  // work that needs nobody
      barrier.wait();
    } else {
      barrier.barrier();
    }
    ASSERT_EQ(barrier.episode(), k);
    record.check_leave(rank, k, current_hart().cycles());
  }
}

// Runs `member(barrier)` on every member of `group` with a barrier `name` over it, and has every
// other thread of the machine stand aside from the open-collector bus. False (nothing run) if
// the barrier refuses the group.
template <typename Member>
bool RunMembers(Machine& machine, const std::string& name, const Group& group, Member member) {
  std::atomic<bool> refused{false};
  Watchdog watchdog(machine, kWatchdogLimit);
  machine.run_on_all_harts([&](Hart& hart) {
    ASSERT_TRUE(tessera::drivers::Mailbox().give_receive_slots().ok());
    if (group.rank_of(hart.id()) == Group::kNotMember) {
      OcBusBarrier::stand_aside();
      return;
    }
    Endpoint endpoint;
    AnyBarrier barrier;
    const tessera::Status status = barrier.init(name.c_str(), endpoint, group);
    if (status == tessera::Status::InvalidArgument()) {
      refused = true;
      return;
    }
    ASSERT_TRUE(status.ok()) << tessera::status_code_name(status.code());
    member(barrier);
  });
  EXPECT_FALSE(machine.exit_code().has_value()) << "run ended with " << *machine.exit_code();
  return !refused;
}

// Barriers that serve only the whole machine, or one group at a time, or one group per thread.
bool WholeMachineOnly(const std::string& name) {
  return name == "idle";
}
bool OneGroupAtATime(const std::string& name) {
  return name == "idle" || name == "ocbus";
}
bool OneGroupPerThread(const std::string& name) {
  return OneGroupAtATime(name) || name == "reflex";
}

class BarrierTest : public ::testing::TestWithParam<std::tuple<std::string, uint32_t>> {
 protected:
  const std::string& name() const { return std::get<0>(GetParam()); }
  uint32_t p() const { return std::get<1>(GetParam()); }

  // Runs `episodes` episodes on each member of one group of p() threads, with the checks.
  void RunGroup(uint32_t episodes, bool split_phase) {
    Machine machine(PlacementFor(p()).shape);
    const Members members = MembersFor(machine, p());
    Record record(p());
    const bool served = RunMembers(machine, name(), members.group, [&](AnyBarrier& barrier) {
      RunEpisodes(barrier, p(), record, episodes, split_phase);
    });
    EXPECT_EQ(record.first_failure(), "");
    EXPECT_EQ(served, !WholeMachineOnly(name()) || members.group.is_all());
  }
};

TEST_P(BarrierTest, AThousandEpisodesWithOneLateThreadEach) {
  RunGroup(1000, false);
}

TEST_P(BarrierTest, SplitPhaseWithWorkBetweenNotifyAndWait) {
  RunGroup(200, true);
}

// notify() never waits for another thread: every member but the last returns from notify
// before the last has entered; only then does the last notify, and everyone's wait completes.
TEST_P(BarrierTest, NotifyReturnsBeforeTheLastMemberArrives) {
  Machine machine(PlacementFor(p()).shape);
  const Members members = MembersFor(machine, p());
  std::mutex mutex;
  std::condition_variable cv;
  uint32_t notified = 0;
  (void)RunMembers(machine, name(), members.group, [&](AnyBarrier& barrier) {
    for (uint32_t k = 1; k <= 3; k++) {
      const bool last = barrier.rank() == (k * 7) % p();
      if (last) {
        std::unique_lock lock(mutex);
        cv.wait(lock, [&] { return notified == k * (p() - 1); });
      }
      barrier.notify();
      if (!last) {
        std::lock_guard lock(mutex);
        notified++;
        cv.notify_all();
      }
      barrier.wait();
    }
  });
}

std::vector<uint32_t> Sizes() {
  return {1, 2, 3, 5, 8, 13, 64};
}

INSTANTIATE_TEST_SUITE_P(
    All, BarrierTest,
    ::testing::Combine(::testing::ValuesIn(tessera::barrier::testing::AllNames()),
                       ::testing::ValuesIn(Sizes())),
    [](const ::testing::TestParamInfo<BarrierTest::ParamType>& info) {
      return tessera::barrier::testing::TestName(std::get<0>(info.param)) + "_p" +
             std::to_string(std::get<1>(info.param));
    });

// Two disjoint groups of one machine (even and odd dense indices, both tag 0) run at once, and
// a thread's barriers over overlapping groups (the whole machine, tag 0, and its part, tag 1)
// alternate: a message of one is never counted in the other.
class BarrierGroupsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(BarrierGroupsTest, TwoDisjointGroupsAtOnce) {
  if (OneGroupAtATime(GetParam())) {
    GTEST_SKIP() << GetParam() << " serves one group at a time";
  }
  const TesseraShape shape{2, 2, 1, 1, 1, 4};  // 16 threads on four boards
  Machine machine(shape);
  const std::vector<uint32_t> all = machine.thread_ids();
  std::vector<uint32_t> halves[2];
  for (uint32_t i = 0; i < all.size(); i++) halves[i % 2].push_back(all[i]);
  const Group groups[2] = {Group::of(shape, halves[0].data(), 8),
                           Group::of(shape, halves[1].data(), 8)};
  Record records[2] = {Record(8), Record(8)};
  {
    Watchdog watchdog(machine, kWatchdogLimit);
    machine.run_on_all_harts([&](Hart& hart) {
      ASSERT_TRUE(tessera::drivers::Mailbox().give_receive_slots().ok());
      Endpoint endpoint;
      const uint32_t g = hart.index() % 2;
      AnyBarrier barrier;
      ASSERT_TRUE(barrier.init(GetParam().c_str(), endpoint, groups[g]).ok());
      RunEpisodes(barrier, 8, records[g], 300, false);
    });
  }
  EXPECT_FALSE(machine.exit_code().has_value());
  EXPECT_EQ(records[0].first_failure(), "");
  EXPECT_EQ(records[1].first_failure(), "");
}

TEST_P(BarrierGroupsTest, OverlappingGroupsToldApartByTag) {
  if (OneGroupPerThread(GetParam())) {
    GTEST_SKIP() << GetParam() << " serves one group per thread";
  }
  const TesseraShape shape{2, 1, 2, 1, 1, 2};  // 8 threads
  Machine machine(shape);
  const std::vector<uint32_t> all = machine.thread_ids();
  const std::vector<uint32_t> low(all.begin(), all.begin() + 5);
  const Group whole = Group::all(shape, 0);
  const Group part = Group::of(shape, low.data(), 5, 1);
  Record whole_record(8);
  Record part_record(5);
  {
    Watchdog watchdog(machine, kWatchdogLimit);
    machine.run_on_all_harts([&](Hart& hart) {
      ASSERT_TRUE(tessera::drivers::Mailbox().give_receive_slots().ok());
      Endpoint endpoint;
      AnyBarrier outer;
      AnyBarrier inner;
      ASSERT_TRUE(outer.init(GetParam().c_str(), endpoint, whole).ok());
      const bool member = hart.index() < 5;
      if (member) {
        ASSERT_TRUE(inner.init(GetParam().c_str(), endpoint, part).ok());
      }
      for (uint32_t k = 1; k <= 200; k++) {
        whole_record.enter(outer.rank(), k, current_hart().cycles());
        outer.barrier();
        whole_record.check_leave(outer.rank(), k, current_hart().cycles());
        if (member) {
          if (k % 5 == inner.rank()) BeLate(500);
          part_record.enter(inner.rank(), k, current_hart().cycles());
          inner.barrier();
          part_record.check_leave(inner.rank(), k, current_hart().cycles());
        }
      }
    });
  }
  EXPECT_FALSE(machine.exit_code().has_value());
  EXPECT_EQ(whole_record.first_failure(), "");
  EXPECT_EQ(part_record.first_failure(), "");
}

INSTANTIATE_TEST_SUITE_P(All, BarrierGroupsTest,
                         ::testing::ValuesIn(tessera::barrier::testing::AllNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return tessera::barrier::testing::TestName(info.param);
                         });

}  // namespace
