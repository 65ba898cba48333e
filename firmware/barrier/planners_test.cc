// Every planner's schedules, checked without a machine for every P from 1 to 200, on a mesh
// whose tiles and boards split the ranks (so gather-broadcast's multicasts and board leaders are
// exercised), placed as the whole machine and as a scattered list:
//  - no schedule overflows, and a group of one sends nothing;
//  - every message sent has its receive: per rank and slot, messages sent to it equal the
//    count it waits for;
//  - played out (sends never block; a receive waits for its count), every rank finishes, and
//    each knows, through the messages it received, that every rank had arrived: the barrier
//    property of the schedule itself;
//  - messages per episode equal the formula in the planner's comment.
#include <gtest/gtest.h>
#include <stdint.h>

#include <bitset>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "barrier_names_test.h"
#include "slots.h"
#include "tessera/barrier/algorithms.h"
#include "tessera/barrier/group.h"
#include "tessera/barrier/schedule.h"

namespace {

using tessera::barrier::find_software_algorithm;
using tessera::barrier::Group;
using tessera::barrier::Op;
using tessera::barrier::Schedule;
using tessera::barrier::SoftwareAlgorithm;
using tessera::barrier::Step;
namespace slots = tessera::barrier::slots;

constexpr uint32_t kMaxP = 200;
using Knowledge = std::bitset<kMaxP>;

// 4 boards of 4 tiles of 16 threads: 256 threads.
constexpr TesseraShape kShape{2, 2, 2, 2, 4, 4};

// Messages per episode, as the planners' comments state them.
uint64_t ExpectedMessages(const std::string& name, uint32_t p) {
  const uint64_t log_ceil = slots::log2_ceil(p);
  const uint64_t m_floor = uint64_t{1} << slots::log2_floor(p);
  const uint64_t m_ceil = uint64_t{1} << log_ceil;
  if (name == "dissemination") return p * log_ceil;
  if (name == "butterfly") return m_ceil * log_ceil - 2 * (m_ceil - p);
  if (name == "pairwise") return m_floor * slots::log2_floor(p) + 2 * (p - m_floor);
  return 2 * (uint64_t{p} - 1);  // every tree, the central counter, gather-broadcast
}

class Playout {
 public:
  Playout(const SoftwareAlgorithm& a, const Group& group) : group_(group), p_(group.size()) {
    schedules_.resize(p_);
    for (uint32_t r = 0; r < p_; r++) {
      a.planner(group, r, a.param, schedules_[r]);
    }
  }

  const Schedule& schedule(uint32_t rank) const { return schedules_[rank]; }

  // The ranks one step sends to.
  std::vector<uint32_t> Destinations(const Step& step) const {
    std::vector<uint32_t> out;
    switch (step.op) {
      case Op::kSend:
        out.push_back(step.a);
        break;
      case Op::kSendRanks:
        for (uint32_t r = step.a; r < step.a + step.b; r++) out.push_back(r);
        break;
      case Op::kMulticast: {
        const uint64_t mask = uint64_t{step.b} << 32 | step.c;
        const uint32_t shift = tessera_tile_shift(&group_.shape());
        for (uint32_t k = 0; k < 64; k++) {
          if (mask >> k & 1) out.push_back(group_.rank_of(step.a << shift | k));
        }
        break;
      }
      case Op::kRecv:
        break;
    }
    return out;
  }

  // Plays every schedule to the end; false if some rank is stuck for ever.
  bool Run(uint64_t* messages) {
    std::vector<uint32_t> pc(p_, 0);
    std::vector<Knowledge> known(p_);
    std::map<std::pair<uint32_t, uint32_t>, std::vector<Knowledge>> in_flight;  // (rank, slot)
    for (uint32_t r = 0; r < p_; r++) known[r].set(r);
    *messages = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (uint32_t r = 0; r < p_; r++) {
        while (pc[r] < schedules_[r].size()) {
          const Step& step = schedules_[r][pc[r]];
          if (step.op == Op::kRecv) {
            auto& queue = in_flight[{r, step.slot}];
            if (queue.size() < step.a) break;
            for (uint32_t i = 0; i < step.a; i++) known[r] |= queue[i];
            queue.erase(queue.begin(), queue.begin() + step.a);
          } else {
            for (uint32_t d : Destinations(step)) {
              in_flight[{d, step.slot}].push_back(known[r]);
              (*messages)++;
            }
          }
          pc[r]++;
          moved = true;
        }
      }
    }
    for (uint32_t r = 0; r < p_; r++) {
      if (pc[r] != schedules_[r].size()) return false;
    }
    for (const auto& [where, queue] : in_flight) {
      EXPECT_TRUE(queue.empty()) << queue.size() << " message(s) to rank " << where.first
                                 << " slot " << where.second << " nobody waits for";
    }
    for (uint32_t r = 0; r < p_; r++) {
      EXPECT_EQ(known[r].count(), p_) << "rank " << r << " leaves without hearing from all";
    }
    return true;
  }

 private:
  Group group_;
  uint32_t p_;
  std::vector<Schedule> schedules_;
};

class PlannerTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PlannerTest, EverySizeUpTo200IsABarrier) {
  const SoftwareAlgorithm* a = find_software_algorithm(GetParam().c_str());
  ASSERT_NE(a, nullptr);
  std::vector<uint32_t> all;
  for (uint32_t i = 0; i < tessera_num_threads(&kShape); i++) {
    all.push_back(tessera_thread_at(&kShape, i));
  }
  std::vector<uint32_t> scattered;  // every seventh thread first
  for (uint32_t start = 0; start < 7; start++) {
    for (uint32_t i = start; i < all.size(); i += 7) scattered.push_back(all[i]);
  }
  ASSERT_GE(all.size(), kMaxP);
  for (uint32_t p = 1; p <= kMaxP; p++) {
    for (const std::vector<uint32_t>* ids : {&all, &scattered}) {
      SCOPED_TRACE("p " + std::to_string(p) + (ids == &all ? " in order" : " scattered"));
      const Group group = Group::of(kShape, ids->data(), p);
      Playout playout(*a, group);
      for (uint32_t r = 0; r < p; r++) {
        ASSERT_FALSE(playout.schedule(r).overflowed()) << "rank " << r;
        for (const Step& step : playout.schedule(r)) {
          ASSERT_LT(step.slot, Schedule::kSlots);
          for (uint32_t d : playout.Destinations(step)) {
            ASSERT_LT(d, p) << "rank " << r << " sends outside the group";
            ASSERT_NE(d, r) << "rank " << r << " sends to itself";
          }
        }
      }
      if (p == 1) {
        EXPECT_EQ(playout.schedule(0).size(), 0u);
      }
      uint64_t messages = 0;
      ASSERT_TRUE(playout.Run(&messages)) << "some rank waits for ever";
      EXPECT_EQ(messages, ExpectedMessages(GetParam(), p));
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// The pairwise exchange's step count: floor(log2 P) + 2 steps (receive-and-send rounds) on the
// longest path, the first and the last only when P is not a power of two.
TEST(PairwisePlanner, FloorLog2PPlusTwoSteps) {
  const SoftwareAlgorithm* a = find_software_algorithm("pairwise");
  ASSERT_NE(a, nullptr);
  for (uint32_t p = 2; p <= kMaxP; p++) {
    uint32_t longest = 0;
    std::vector<uint32_t> ids(p);
    for (uint32_t i = 0; i < p; i++) ids[i] = tessera_thread_at(&kShape, i);
    const Group g = Group::of(kShape, ids.data(), p);
    for (uint32_t r = 0; r < p; r++) {
      Schedule rs;
      a->planner(g, r, 0, rs);
      uint32_t receives = 0;
      for (const Step& step : rs) receives += step.op == Op::kRecv ? 1 : 0;
      longest = receives > longest ? receives : longest;
    }
    const bool power_of_two = (p & (p - 1)) == 0;
    const uint32_t steps = slots::log2_floor(p) + (power_of_two ? 0 : 2);
    // Rank 0 of a non-power of two receives from group b, in log2 m rounds, and then sends the
    // release: its receives are floor(log2 P) + 1 and the release is the last step.
    EXPECT_EQ(longest + (power_of_two ? 0 : 1), steps) << "p " << p;
  }
}

// A dev board's machine (one tile of at most kBoardMaxThreads threads) builds its schedules with
// room for Schedule::kBoardSteps: every planner fits there, for every group on such a machine.
TEST_P(PlannerTest, EveryGroupOfABoardFitsTheBoardsSchedule) {
  const SoftwareAlgorithm* a = find_software_algorithm(GetParam().c_str());
  ASSERT_NE(a, nullptr);
  constexpr TesseraShape kBoard{1, 1, 1, 1, 1, tessera::barrier::kBoardMaxThreads};
  std::vector<uint32_t> ids;
  for (uint32_t i = 0; i < tessera_num_threads(&kBoard); i++) {
    ids.push_back(tessera_thread_at(&kBoard, i));
  }
  uint32_t most = 0;
  for (uint32_t p = 1; p <= ids.size(); p++) {
    const Group group = Group::of(kBoard, ids.data(), p);
    for (uint32_t r = 0; r < p; r++) {
      Schedule s;
      a->planner(group, r, a->param, s);
      ASSERT_FALSE(s.overflowed());
      most = s.size() > most ? s.size() : most;
    }
  }
  EXPECT_LE(most, Schedule::kBoardSteps) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(All, PlannerTest,
                         ::testing::ValuesIn(tessera::barrier::testing::SoftwareNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return tessera::barrier::testing::TestName(info.param);
                         });

}  // namespace
