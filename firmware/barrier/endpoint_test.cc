// The endpoint that software barriers share with the program's own messages: application
// messages sent while barriers run reach the program intact and in order, the send slot keeps
// what the program prepared there, and a message from an impossible episode ends the run.
#include "tessera/barrier/endpoint.h"

#include <gtest/gtest.h>
#include <stdint.h>

#include <string>
#include <vector>

#include "tessera/barrier/algorithms.h"
#include "tessera/barrier/group.h"
#include "tessera/drivers/mailbox.h"
#include "tessera/host/machine.h"

namespace {

using tessera::barrier::Central;
using tessera::barrier::Endpoint;
using tessera::barrier::Group;
using tessera::barrier::kProtocolErrorExit;
using tessera::host::Hart;
using tessera::host::Machine;

struct AppMsg {
  uint32_t reserved;  // the endpoint's header
  uint32_t from;
  uint32_t seq;
  uint32_t check;
};

TEST(BarrierEndpoint, ApplicationMessagesSurviveBarriersInOrder) {
  const TesseraShape shape{2, 1, 2, 1, 1, 2};  // 8 threads, two boards
  Machine machine(shape);
  const std::vector<uint32_t> ids = machine.thread_ids();
  constexpr uint32_t kRounds = 100;
  machine.run_on_all_harts([&](Hart& hart) {
    ASSERT_TRUE(tessera::drivers::Mailbox().give_receive_slots().ok());
    Endpoint endpoint;
    Central barrier(endpoint, Group::all(shape));
    ASSERT_TRUE(barrier.init().ok());
    const uint32_t n = static_cast<uint32_t>(ids.size());
    const uint32_t next = ids[(hart.index() + 1) % n];
    const uint32_t previous = ids[(hart.index() + n - 1) % n];
    uint32_t expected = 0;
    for (uint32_t k = 0; k < kRounds; k++) {
      // Two messages to the next thread, a barrier in between: the second may arrive while the
      // receiver still waits in the barrier.
      for (uint32_t m = 0; m < 2; m++) {
        volatile AppMsg* out = static_cast<volatile AppMsg*>(endpoint.send_slot());
        out->from = hart.id();
        out->seq = 2 * k + m;
        out->check = 0xa5a50000u ^ (2 * k + m);
        endpoint.send_application(next, out, 1);
        barrier.barrier();
      }
      for (uint32_t m = 0; m < 2; m++) {
        volatile AppMsg* in = static_cast<volatile AppMsg*>(endpoint.recv());
        ASSERT_EQ(in->from, previous);
        ASSERT_EQ(in->seq, expected);
        ASSERT_EQ(in->check, 0xa5a50000u ^ expected);
        expected++;
        endpoint.free(in);
      }
    }
    EXPECT_FALSE(endpoint.can_recv());
  });
  EXPECT_FALSE(machine.exit_code().has_value());
}

TEST(BarrierEndpoint, TheSendSlotKeepsWhatTheProgramPreparedThere) {
  const TesseraShape shape{1, 1, 1, 1, 1, 4};
  Machine machine(shape);
  machine.run_on_all_harts([&](Hart& hart) {
    ASSERT_TRUE(tessera::drivers::Mailbox().give_receive_slots().ok());
    Endpoint endpoint;
    Central barrier(endpoint, Group::all(shape));
    ASSERT_TRUE(barrier.init().ok());
    volatile uint32_t* slot = static_cast<volatile uint32_t*>(endpoint.send_slot());
    slot[0] = 0x11111111u * hart.index();
    slot[1] = 0x22222222u;
    for (int k = 0; k < 20; k++) barrier.barrier();
    EXPECT_EQ(slot[0], 0x11111111u * hart.index());
    EXPECT_EQ(slot[1], 0x22222222u);
  });
}

TEST(BarrierEndpoint, InitRefusesAThreadOutsideTheGroupAndABadTag) {
  const TesseraShape shape{1, 1, 1, 1, 1, 2};
  Machine machine(shape);
  const std::vector<uint32_t> ids = machine.thread_ids();
  machine.run_on_harts(std::vector<uint32_t>{ids[1]}, [&](Hart&) {
    Endpoint endpoint;
    Central outside(endpoint, Group::of(shape, ids.data(), 1));
    EXPECT_EQ(outside.init(), tessera::Status::InvalidArgument());
    Central bad_tag(endpoint, Group::all(shape, Group::kMaxTags));
    EXPECT_EQ(bad_tag.init(), tessera::Status::InvalidArgument());
  });
}

// A barrier message two episodes ahead of its receiver can only come from a broken protocol
// (here: forged by a thread that skips the barrier's rules).
TEST(BarrierEndpoint, AMessageFromAnImpossibleEpisodeEndsTheRun) {
  const TesseraShape shape{1, 1, 1, 1, 1, 2};
  Machine machine(shape);
  const std::vector<uint32_t> ids = machine.thread_ids();
  machine.run_on_all_harts([&](Hart& hart) {
    ASSERT_TRUE(tessera::drivers::Mailbox().give_receive_slots().ok());
    Endpoint endpoint;
    if (hart.index() == 0) {
      Central barrier(endpoint, Group::all(shape));
      ASSERT_TRUE(barrier.init().ok());
      barrier.barrier();  // waits for a release; gets the forgery
    } else {
      for (int k = 0; k < 3; k++) endpoint.enter(0, static_cast<uint32_t>(k));
      endpoint.enter(0, 3);
      endpoint.send(ids[0], 0, 0);  // an arrival of episode 3
    }
  });
  ASSERT_TRUE(machine.exit_code().has_value());
  EXPECT_EQ(*machine.exit_code(), kProtocolErrorExit);
  bool reported = false;
  for (const auto& line : machine.console_lines()) {
    if (line.text.find("FAIL barrier: thread 0x0 (index 0): barrier message from an episode") ==
        0) {
      reported = true;
    }
  }
  EXPECT_TRUE(reported);
}

}  // namespace
