// The performance model's closed forms on cases worked by hand, its inputs from sysinfo, and the
// auto choice.
#include "tessera/barrier/model.h"

#include <gtest/gtest.h>
#include <stdint.h>

#include <string>

#include "tessera/barrier/algorithms.h"
#include "tessera/barrier/any.h"
#include "tessera/host/machine.h"

namespace {

using namespace tessera::barrier;
using tessera::host::Hart;
using tessera::host::Machine;
using tessera::host::MachineParams;

MachineTiming Timing(const TesseraShape& shape, uint32_t cpi = 1) {
  return {shape, {cpi, 4, 150, 10, 1, 0, 0}};
}

constexpr uint64_t kS = ModelInstructions::kSend;
constexpr uint64_t kR = ModelInstructions::kReceive;
constexpr uint64_t kE = ModelInstructions::kEpisode;

TEST(BarrierModel, CentralOnOneTileOfTwoThreads) {
  const TesseraShape shape{1, 1, 1, 1, 1, 2};
  // Arrival (send, receive) and release (send, receive), no hop: both threads share a tile.
  EXPECT_EQ(predict_cycles("central", Group::all(shape), Timing(shape)), kE + 2 * (kS + kR));
  EXPECT_EQ(predict_cycles("central", Group::all(shape), Timing(shape, 4)),
            4 * (kE + 2 * (kS + kR)));
}

TEST(BarrierModel, DisseminationAcrossBoards) {
  const TesseraShape shape{4, 1, 1, 1, 1, 1};  // four boards in a row, one thread each
  // Rounds to the next board (150) and to the one two boards away (300).
  EXPECT_EQ(predict_cycles("dissemination", Group::all(shape), Timing(shape)),
            kE + (kS + 150 + kR) + (kS + 300 + kR));
}

TEST(BarrierModel, AGroupOfOneCostsTheEpisodeAlone) {
  const TesseraShape shape{1, 1, 1, 1, 1, 1};
  for (const SoftwareAlgorithm& a : kSoftwareAlgorithms) {
    EXPECT_EQ(predict_cycles(a.name, Group::all(shape), Timing(shape)), kE) << a.name;
  }
}

TEST(BarrierModel, HardwareClosedForms) {
  const TesseraShape shape{2, 2, 2, 2, 1, 4};
  const MachineTiming t = Timing(shape);
  const Group all = Group::all(shape);
  EXPECT_EQ(predict_cycles("ocbus", all, t), 30 + ModelInstructions::kOcBus);
  EXPECT_EQ(predict_cycles("reflex", all, t), 2 * 64 + ModelInstructions::kReflex);
  // Three round trips of the master at board (0,0) to board (1,1): 3 hops.
  EXPECT_EQ(predict_cycles("idle", all, t), 3 * 2 * 150 * 3 + ModelInstructions::kIdle);
  // The controller at tile (0,0); the farthest thread is on tile (3,3): two board crossings and
  // four tile hops.
  EXPECT_EQ(predict_cycles("controller", all, t),
            2 * (2 * 150 + 4 * 4) + ModelInstructions::kController);
  const uint32_t one[] = {tessera_thread_at(&shape, 3)};
  EXPECT_EQ(predict_cycles("idle", Group::of(shape, one, 1), t), 0u) << "the whole machine only";
  EXPECT_EQ(predict_cycles("no-such-barrier", all, t), 0u);
}

TEST(BarrierModel, PredictionsGrowWithTheGroup) {
  const TesseraShape shape{2, 2, 2, 2, 4, 4};  // 256 threads
  const MachineTiming t = Timing(shape);
  std::vector<uint32_t> ids;
  for (uint32_t i = 0; i < 256; i++) ids.push_back(tessera_thread_at(&shape, i));
  for (const SoftwareAlgorithm& a : kSoftwareAlgorithms) {
    uint64_t previous = 0;
    for (uint32_t p : {1u, 2u, 4u, 16u, 64u, 256u}) {
      const uint64_t cycles = predict_cycles(a.name, Group::of(shape, ids.data(), p), t);
      EXPECT_GE(cycles, previous) << a.name << " p " << p;
      previous = cycles;
    }
  }
}

TEST(BarrierModel, AutoPicksTheCheapestPredictionAmongTheSoftwareAlgorithms) {
  for (const TesseraShape& shape : {TesseraShape{1, 1, 1, 1, 1, 2}, TesseraShape{2, 2, 2, 2, 1, 4},
                                    TesseraShape{3, 1, 2, 1, 2, 2}}) {
    const MachineTiming t = Timing(shape);
    const Group all = Group::all(shape);
    const char* chosen = choose_barrier(all, t);
    ASSERT_NE(find_software_algorithm(chosen), nullptr);
    for (const SoftwareAlgorithm& a : kSoftwareAlgorithms) {
      EXPECT_LE(predict_cycles(chosen, all, t), predict_cycles(a.name, all, t)) << a.name;
    }
  }
}

TEST(BarrierModel, TheMachineTimingComesFromSysinfo) {
  const TesseraShape shape{2, 1, 2, 1, 1, 2};
  MachineParams params;
  params.cpi = 3;
  params.tile_hop_cycles = 5;
  params.board_hop_cycles = 170;
  params.ocbus_settle_cycles = 11;
  params.reflex_hop_cycles = 2;
  params.barrier_tile_x = 3;
  Machine machine(shape, params);
  const std::vector<uint32_t> ids = machine.thread_ids();
  machine.run_on_harts(std::vector<uint32_t>{ids[0]}, [&](Hart&) {
    const MachineTiming t = MachineTiming::of_this_machine();
    EXPECT_EQ(t.shape.boards_x, 2u);
    EXPECT_EQ(t.timing.cpi, 3u);
    EXPECT_EQ(t.timing.tile_hop_cycles, 5u);
    EXPECT_EQ(t.timing.board_hop_cycles, 170u);
    EXPECT_EQ(t.timing.ocbus_settle_cycles, 11u);
    EXPECT_EQ(t.timing.reflex_hop_cycles, 2u);
    EXPECT_EQ(t.timing.barrier_tile_x, 3u);
    EXPECT_EQ(t.timing.barrier_tile_y, 0u);
    EXPECT_EQ(mesh_latency(t, ids[0], ids.back()), 170u + 2 * 5u);  // tile 0 to tile 3
  });
}

}  // namespace
