// The fiber scheduler of native mode (docs/native.md) on the hosted machine: a thousand harts as
// fibers pass a token round a ring through the mailbox (each sleeps in tinselWaitUntil until its
// turn), on one worker and on two, and over two mailbox parts with a worker each; tinselIdle over
// the parts waits for every message between them; a hart that polls instead of sleeping still
// lets the others run; a hart's failure ends the run and is reported; the partitions are per
// board.
#include "tessera/native/scheduler.h"

#include <gtest/gtest.h>

#include <atomic>

#include "tessera/host/machine.h"
#include "tessera/native/device_program.h"
#include "tinsel.h"

namespace {

using tessera::host::Machine;
using tessera::host::MachineParams;
using tessera::native::Scheduler;
using tessera::native::SchedulerOptions;

// 1x2 boards of 2x2 tiles of 4 cores of 32 threads: 1,024 harts.
constexpr TesseraShape kShape{1, 2, 2, 2, 4, 32};

struct FiberMachine {
  Scheduler scheduler;
  Machine machine;
  // Over `parts` mailbox parts (untimed, as native mode's), a worker each.
  explicit FiberMachine(unsigned workers, uint32_t parts = 1)
      : scheduler(SchedulerOptions{.workers = workers}),
        machine(kShape, Params(scheduler, parts)) {}
  static MachineParams Params(Scheduler& scheduler, uint32_t parts) {
    MachineParams params;
    params.sleeper = &scheduler;
    params.detect_deadlock = false;
    params.mailbox_parts = parts;
    params.untimed_mailbox = parts > 1;
    return params;
  }
};

// Dense hart index -> thread id, and back, for the ring's order.
std::vector<uint32_t> ids;

// Hart 0 starts a token round the ring in dense order; each other hart takes it, adds one and
// passes it on, kLaps times. Hart 0 ends with kLaps x the number of harts.
constexpr uint32_t kLaps = 3;
std::atomic<uint32_t> final_token{0};

uint32_t Receive() {
  tinselWaitUntil(TINSEL_CAN_RECV);
  volatile uint32_t* msg = static_cast<volatile uint32_t*>(tinselRecv());
  const uint32_t token = msg[0];
  tinselFree(msg);
  return token;
}

void Send(uint32_t to, uint32_t token) {
  tinselWaitUntil(TINSEL_CAN_SEND);
  volatile uint32_t* out = static_cast<volatile uint32_t*>(tinselSendSlot());
  out[0] = token;
  tinselSend(to, out);
}

int RingMain() {
  const uint32_t me = tessera::host::current_hart().index();
  const uint32_t next = ids[(me + 1) % ids.size()];
  uint32_t token = 0;
  for (uint32_t lap = 0; lap < kLaps; lap++) {
    if (me == 0) {
      Send(next, token + 1);
      token = Receive();
    } else {
      Send(next, Receive() + 1);
    }
  }
  if (me == 0) final_token = token;
  return 0;
}

// Workers, and mailbox parts (0: one model for the workers).
struct Layout {
  unsigned workers;
  uint32_t parts;
};

class NativeScheduler : public testing::TestWithParam<Layout> {};

TEST_P(NativeScheduler, ATokenGoesRoundAThousandHarts) {
  FiberMachine run(GetParam().workers, GetParam().parts);
  ids = run.machine.thread_ids();
  final_token = 0;
  run.scheduler.start(run.machine,
                      [](tessera::host::Hart&) { tessera::native::run_device_program(&RingMain); });
  EXPECT_FALSE(run.scheduler.wait());
  EXPECT_TRUE(run.scheduler.finished());
  EXPECT_EQ(run.machine.exit_code(), 0);
  EXPECT_EQ(final_token.load(), kLaps * ids.size());
}

INSTANTIATE_TEST_SUITE_P(Workers, NativeScheduler,
                         testing::Values(Layout{1, 1}, Layout{2, 1}, Layout{2, 2}),
                         [](const auto& info) {
                           return std::to_string(info.param.workers) + "Workers" +
                                  std::to_string(info.param.parts) + "Parts";
                         });

// Every hart sends one message to the hart as far on in the other part (board), then receives
// until tinselIdle says the machine is idle: that must not happen before every message between
// the parts has been handed over and received.
std::vector<uint32_t> received;

int AcrossAndIdle() {
  const uint32_t me = tessera::host::current_hart().index();
  Send(ids[(me + ids.size() / 2) % ids.size()], me);
  for (;;) {
    if (tinselCanRecv()) {
      volatile void* msg = tinselRecv();
      tinselFree(msg);
      received[me]++;
    } else if (tinselIdle(false)) {
      return 0;
    }
  }
}

TEST(NativeSchedulerParts, TinselIdleWaitsForEveryMessageBetweenParts) {
  FiberMachine run(2, 2);
  ids = run.machine.thread_ids();
  received.assign(ids.size(), 0);
  // Stuck (a message lost between parts, a release missed): the run ends with status 3 instead
  // of hanging.
  run.scheduler.on_change = [&run] {
    if (run.scheduler.stuck()) run.machine.end_run(3);
  };
  run.scheduler.start(run.machine, [](tessera::host::Hart&) {
    tessera::native::run_device_program(&AcrossAndIdle);
  });
  EXPECT_FALSE(run.scheduler.wait());
  EXPECT_EQ(run.machine.exit_code(), 0);
  for (uint32_t h = 0; h < ids.size(); h++) ASSERT_EQ(received[h], 1u) << "hart " << h;
  EXPECT_GT(run.machine.idle_stats().detections, 0u);
}

TEST(NativeSchedulerParts, PartsNeedTheUntimedMailboxAndABoardEach) {
  Scheduler scheduler;
  MachineParams params = FiberMachine::Params(scheduler, 2);
  params.untimed_mailbox = false;
  EXPECT_THROW(Machine(kShape, params), std::invalid_argument);
  params = FiberMachine::Params(scheduler, 3);  // 2 boards
  EXPECT_THROW(Machine(kShape, params), std::invalid_argument);
}

// Hart 1 polls tinselCanRecv without sleeping; hart 0 sends it one message only once it runs.
TEST(NativeSchedulerPolling, APollingHartLetsTheOthersRun) {
  FiberMachine run(1);
  ids = run.machine.thread_ids();
  run.scheduler.start(run.machine, [](tessera::host::Hart& hart) {
    tessera::native::run_device_program(hart.index() == 1 ? +[] {
      while (!tinselCanRecv()) {
      }
      tinselFree(tinselRecv());
      return 0;
    }
    : hart.index() == 0 ? +[] {
        volatile uint32_t* out = static_cast<volatile uint32_t*>(tinselSendSlot());
        out[0] = 7;
        tinselSend(ids[1], out);
        return 0;
      }
    : +[] { return 0; });
  });
  EXPECT_FALSE(run.scheduler.wait());
  EXPECT_EQ(run.machine.exit_code(), 0);
}

TEST(NativeSchedulerFailure, AHartsExceptionEndsTheRunAndIsReported) {
  FiberMachine run(2);
  run.scheduler.start(run.machine, [](tessera::host::Hart& hart) {
    if (hart.index() == 5) {
      tinselFree(tinselRecv());  // nothing to receive: a mailbox fault
    }
    tinselWaitUntil(TINSEL_CAN_RECV);  // the others sleep until the run ends
  });
  const auto failure = run.scheduler.wait();
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->hart_id, run.machine.hart_at(5).id());
  EXPECT_NE(failure->what.find("mailbox fault"), std::string::npos) << failure->what;
  EXPECT_EQ(run.machine.exit_code(), 1);
}

// Each hart writes its id at its heap base; the boards' DRAMs are apart, the partitions too.
TEST(NativeSchedulerMemory, EachHartHasAPartitionOfItsBoardsDram) {
  FiberMachine run(1);
  run.scheduler.start(run.machine, [](tessera::host::Hart&) {
    *static_cast<volatile uint32_t*>(tinselHeapBaseSRAM()) = tinselId();
    *static_cast<volatile uint32_t*>(tinselHeapBase()) = ~tinselId();
  });
  EXPECT_FALSE(run.scheduler.wait());
  for (const uint32_t id : run.machine.thread_ids()) {
    EXPECT_EQ(*static_cast<uint32_t*>(run.machine.partition_pointer(id, 8u << 10)), id);
    EXPECT_EQ(*static_cast<uint32_t*>(run.machine.partition_pointer(id, 0)), ~id);
  }
}

}  // namespace
