// The host machine's barrier controller: threads block in ENTER until the
// count-th arrives and resume at DESIGN 1.7's times, the command log, bad use
// answered with a status and recorded, deadlock detection, and the
// controller's position.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "tessera/hal/csr.h"
#include "tessera/host/machine.h"
#include "tessera/hw/regs.h"

namespace tessera::host {
namespace {

// One board of 2x2 tiles, one thread each: thread id y:x is tile (x, y).
constexpr TesseraShape kFourTiles{1, 1, 2, 2, 1, 1};

uint32_t Enter(uint32_t uid, uint32_t count) {
  return hal::csr_swap<TESSERA_CSR_BARRIER_ENTER>(TESSERA_BARRIER_VALUE(uid, count));
}

TEST(HostBarrierCtl, FourThreadsResumeAtTheRuleAndLogTheExchange) {
  Machine machine(kFourTiles);                    // controller at (0,0), 4 cycles a tile hop
  const std::vector<uint32_t> order{2, 0, 3, 1};  // tiles (0,1), (0,0), (1,1), (1,0)
  const std::array<uint64_t, 4> lat{0, 4, 4, 8};  // by thread id
  const std::array<uint64_t, 4> delay{400, 100, 300, 200};
  std::array<std::atomic<uint64_t>, 4> src{};
  std::array<uint64_t, 4> resumed{};
  machine.run_on_harts(order, [&](Hart& hart) {
    const uint32_t id = hart.id();
    // Arrive in `order`: each waits until the one before it sleeps in the barrier.
    const auto me = std::find(order.begin(), order.end(), id) - order.begin();
    if (me > 0) {
      machine.wait_until_blocked(order[me - 1], BlockedOn::kBarrier);
    }
    hart.advance_cycles(delay[id]);
    src[id] = hart.cycles() + 1;  // the CSR access retires first
    EXPECT_EQ(Enter(255, 4), uint32_t{TESSERA_BARRIER_OK});
    resumed[id] = hart.cycles();
  });
  uint64_t overflow = 0;
  for (uint32_t id = 0; id < 4; id++) {
    overflow = std::max(overflow, src[id] + lat[id]);
  }
  for (uint32_t id = 0; id < 4; id++) {
    EXPECT_EQ(resumed[id], overflow + lat[id]) << "thread " << id;
  }
  std::vector<BarrierLogLine> expected;
  const char* position[] = {"0 0", "1 0", "0 1", "1 1"};
  for (uint32_t id : order) {
    expected.push_back({id, "BARRIER " + std::string(position[id]) + " 255 4"});
  }
  for (uint32_t id : order) {
    expected.push_back({id, "RESULT 0"});
  }
  for (uint32_t id : order) {
    expected.push_back(
        {id, "WRITE " + std::to_string(src[id]) + " " + position[id] + " 255 0 1 131076"});
  }
  for (uint32_t id : order) {
    expected.push_back({id, "SYNC " + std::to_string(overflow + lat[id])});
  }
  EXPECT_EQ(machine.barrier_log(), expected);
  EXPECT_TRUE(machine.barrier_guest_errors().empty());
}

TEST(HostBarrierCtl, BadUseIsAnsweredWithAStatusAndRecorded) {
  Machine machine(kFourTiles);
  HartScope scope(machine, 3);
  EXPECT_EQ(Enter(9, 0), uint32_t{TESSERA_BARRIER_NO_COUNT});
  EXPECT_EQ(Enter(9, 5), uint32_t{TESSERA_BARRIER_TOO_MANY});
  ASSERT_EQ(machine.barrier_guest_errors().size(), 2u);
  // The line QEMU logs with -d guest_errors (tests/qemu: barrier_ctl.bad_use_*), with the status.
  EXPECT_EQ(machine.barrier_guest_errors()[0],
            "tessera-barrier-ctl: hart 0x3: csrrw 0x81d, 0x9: barrier controller: enter with count "
            "0 and no count registered for the uid; reads 1");
  // Registered, count 1: through at once, a round trip of 2 x 8 cycles later.
  EXPECT_EQ(hal::csr_swap<TESSERA_CSR_BARRIER_COUNT>(TESSERA_BARRIER_VALUE(9, 1)), 0u);
  const uint64_t before = machine.hart(3).cycles();
  EXPECT_EQ(Enter(9, 0), uint32_t{TESSERA_BARRIER_OK});
  EXPECT_EQ(machine.hart(3).cycles(), before + 1 + 16);
}

TEST(HostBarrierCtl, ACountNobodyReachesIsADeadlock) {
  Machine machine(kFourTiles);
  const std::vector<uint32_t> ids{0, 1};
  try {
    machine.run_on_harts(ids, [&](Hart&) {
      (void)Enter(7, 3);
      ADD_FAILURE() << "released with two of three";
    });
    ADD_FAILURE() << "no deadlock reported";
  } catch (const Deadlock& e) {
    EXPECT_NE(std::string(e.what()).find("barrier controller enter"), std::string::npos)
        << e.what();
  }
}

TEST(HostBarrierCtl, TheEndOfTheRunStopsWaitingHarts) {
  Machine machine(kFourTiles);
  const std::vector<uint32_t> ids{0, 1};
  machine.run_on_harts(ids, [&](Hart& hart) {
    if (hart.id() == 0) {
      (void)Enter(7, 3);
      ADD_FAILURE() << "released with one of three";
    }
    machine.wait_until_blocked(0, BlockedOn::kBarrier);
    machine.end_run(0);
  });
  EXPECT_EQ(machine.exit_code(), 0);
}

TEST(HostBarrierCtl, TheControllerSitsWhereTheParametersSay) {
  MachineParams params;
  params.barrier_tile_x = 1;
  params.barrier_tile_y = 1;
  {
    Machine machine(kFourTiles, params);
    HartScope scope(machine, 3);  // on the controller's tile: no latency
    const uint64_t before = machine.hart(3).cycles();
    EXPECT_EQ(Enter(1, 1), uint32_t{TESSERA_BARRIER_OK});
    EXPECT_EQ(machine.hart(3).cycles(), before + 1);
  }
  params.barrier_tile_x = 2;
  EXPECT_THROW(Machine(kFourTiles, params), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::host
