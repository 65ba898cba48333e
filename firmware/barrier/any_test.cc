// Selection by name: every name builds its barrier, "auto" builds the model's choice, an unknown
// name is NotFound; and every barrier class satisfies the Barrier concept.
#include "tessera/barrier/any.h"

#include <gtest/gtest.h>
#include <stdint.h>

#include <atomic>
#include <string>
#include <vector>

#include "tessera/barrier/algorithms.h"
#include "tessera/barrier/barrier.h"
#include "tessera/barrier/endpoint.h"
#include "tessera/barrier/hardware.h"
#include "tessera/barrier/model.h"
#include "tessera/drivers/mailbox.h"
#include "tessera/host/machine.h"

namespace {

using namespace tessera::barrier;
using tessera::Status;
using tessera::StatusCode;
using tessera::host::Hart;
using tessera::host::Machine;

#define TESSERA_CHECK_CONCEPT_(Class, name, planner, param) static_assert(Barrier<Class>);
TESSERA_SOFTWARE_BARRIERS(TESSERA_CHECK_CONCEPT_)
#undef TESSERA_CHECK_CONCEPT_
static_assert(Barrier<SoftwareBarrier> || true);  // its kName comes from the named classes
static_assert(Barrier<IdleBarrier>);
static_assert(Barrier<OcBusBarrier>);
static_assert(Barrier<ReflexRingBarrier>);
static_assert(Barrier<ControllerBarrier>);

TEST(AnyBarrier, EveryNameBuildsItsBarrierAndAutoTheModelsChoice) {
  const TesseraShape shape{2, 1, 2, 1, 1, 2};  // 8 threads
  Machine machine(shape);
  machine.run_on_all_harts([&](Hart&) {
    ASSERT_TRUE(tessera::drivers::Mailbox().give_receive_slots().ok());
    Endpoint endpoint;
    for (uint32_t i = 0; i < kBarrierCount; i++) {
      AnyBarrier b;
      ASSERT_TRUE(b.init(barrier_name(i), endpoint, Group::all(shape, i % Group::kMaxTags)).ok())
          << barrier_name(i);
      EXPECT_STREQ(b.name(), barrier_name(i));
      for (int k = 0; k < 5; k++) b.barrier();
      EXPECT_EQ(b.episode(), 5u);
      b.finish();
    }
    AnyBarrier chosen;
    ASSERT_TRUE(chosen.init("auto", endpoint, Group::all(shape, 1)).ok());
    EXPECT_STREQ(chosen.name(), choose_barrier(Group::all(shape)));
    EXPECT_NE(find_software_algorithm(chosen.name()), nullptr) << "auto picks software";
    chosen.barrier();
  });
  for (const auto& line : machine.console_lines()) ADD_FAILURE() << line.text;
  EXPECT_FALSE(machine.exit_code().has_value());
}

// finish() gives back what a barrier holds: here the reflex ring's flits, so that rings of other
// members can follow one another on the same switches.
TEST(AnyBarrier, RingsOfOtherMembersFollowOneAnotherAfterFinish) {
  const TesseraShape shape{2, 1, 1, 1, 1, 4};  // 8 threads
  Machine machine(shape);
  const std::vector<uint32_t> all = machine.thread_ids();
  std::atomic<uint32_t> done{0};
  machine.run_on_all_harts([&](Hart& hart) {
    Endpoint endpoint;
    for (uint32_t p : {8u, 5u, 2u}) {
      // The last p threads, in reverse order: a new root and new neighbours each time.
      std::vector<uint32_t> ids(all.rbegin(), all.rbegin() + p);
      const Group group = Group::of(shape, ids.data(), p);
      if (group.rank_of(hart.id()) == Group::kNotMember) continue;
      AnyBarrier b;
      ASSERT_TRUE(b.init("reflex", endpoint, group).ok());
      for (int k = 0; k < 10; k++) b.barrier();
      b.finish();
      done++;
    }
  });
  EXPECT_FALSE(machine.exit_code().has_value());
  EXPECT_EQ(done.load(), 8u + 5u + 2u);
}

TEST(AnyBarrier, AnUnknownNameIsNotFoundAndAnUnfitGroupIsRefused) {
  const TesseraShape shape{1, 1, 1, 1, 1, 4};
  Machine machine(shape);
  const std::vector<uint32_t> ids = machine.thread_ids();
  machine.run_on_harts(std::vector<uint32_t>{ids[0]}, [&](Hart&) {
    Endpoint endpoint;
    AnyBarrier b;
    EXPECT_EQ(b.init("no-such-barrier", endpoint, Group::all(shape)).code(), StatusCode::kNotFound);
    EXPECT_EQ(b.name(), nullptr);
    // tinselIdle synchronises the whole machine: a part of it is refused.
    EXPECT_EQ(b.init("idle", endpoint, Group::of(shape, ids.data(), 1)), Status::InvalidArgument());
    // A thread outside the group is refused by every barrier.
    for (uint32_t i = 0; i < kBarrierCount; i++) {
      EXPECT_EQ(b.init(barrier_name(i), endpoint, Group::of(shape, ids.data() + 1, 2)),
                Status::InvalidArgument())
          << barrier_name(i);
    }
  });
}

}  // namespace
