// pingpong: thread 0 bounces a one-flit message off partners at growing
// distance (same tile, far tile of the same board, far corner of the board
// mesh) and prints the modelled round trip of each. Round trips are
// deterministic; a partner is always waiting when the ping arrives, so
// rtt(partner) - rtt(same tile) = 2 * (latency(partner) - latency(same tile)).
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/print.h"
#include "tinsel.h"

namespace {

constexpr uint32_t kRounds = 4;

struct Ping {
  uint32_t from;
  uint32_t round;
  uint32_t unused[2];
};

struct Partner {
  const char* label;
  uint32_t id;
};

uint32_t round_trip(uint32_t partner, uint32_t round) {
  volatile Ping* ping = static_cast<volatile Ping*>(tinselSendSlot());
  tinselWaitUntil(TINSEL_CAN_SEND);
  ping->from = tinselId();
  ping->round = round;
  tinselSetLen(0);
  const uint32_t start = tinselCycleCount();
  tinselSend(partner, ping);
  tinselWaitUntil(TINSEL_CAN_RECV);
  const uint32_t end = tinselCycleCount();
  tinselFree(tinselRecv());
  return end - start;
}

void echo(uint32_t times) {
  for (uint32_t i = 0; i < times; i++) {
    tinselWaitUntil(TINSEL_CAN_RECV);
    volatile Ping* got = static_cast<volatile Ping*>(tinselRecv());
    const uint32_t from = got->from;
    const uint32_t round = got->round;
    tinselFree(got);
    volatile Ping* pong = static_cast<volatile Ping*>(tinselSendSlot());
    tinselWaitUntil(TINSEL_CAN_SEND);
    pong->from = tinselId();
    pong->round = round;
    tinselSetLen(0);
    tinselSend(from, pong);
  }
}

}  // namespace

int main() {
  const tessera::drivers::Sysinfo sysinfo;
  const TesseraShape shape = sysinfo.shape();
  const uint32_t me = tinselId();
  const TesseraCoords far_tile = {0, 0, shape.tiles_x - 1, shape.tiles_y - 1, 0, 0};
  const TesseraCoords far_corner = {shape.boards_x - 1, shape.boards_y - 1, shape.tiles_x - 1,
                                    shape.tiles_y - 1, 0, 0};
  const Partner partners[] = {
      {"same_tile", tessera_threads_per_tile(&shape) > 1 ? 1u : 0u},
      {"same_board", tessera_thread_id(&shape, &far_tile)},
      {"far_corner", tessera_thread_id(&shape, &far_corner)},
  };

  if (me == 0) {
    for (const Partner& p : partners) {
      if (p.id == 0) {
        tessera::printf("rtt %s: no such partner in this shape\n", p.label);
        continue;
      }
      uint32_t rtt = 0;
      for (uint32_t round = 0; round < kRounds; round++) {
        rtt = round_trip(p.id, round);
      }
      tessera::printf("rtt %s thread 0x%" PRIx32 " cycles %" PRIu32 "\n", p.label, p.id, rtt);
    }
    return 0;
  }
  uint32_t times = 0;
  for (const Partner& p : partners) {
    times += p.id == me ? kRounds : 0;
  }
  echo(times);
  return 0;
}
