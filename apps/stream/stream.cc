// stream: every thread of tile (0,0) on board (0,0) streams kMessages
// four-flit messages to the same thread of tile (0,0) on board (1,0), so all
// of them share the one link between the boards. Each receiver reports the
// modelled cycles of its first and last arrival; ./tessera bench mailbox
// derives the link's throughput from them.
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/print.h"
#include "tinsel.h"

namespace {
constexpr uint32_t kMessages = 200;
}

int main() {
  const tessera::drivers::Sysinfo sysinfo;
  const TesseraShape shape = sysinfo.shape();
  const TesseraCoords me = tessera_coords(&shape, tinselId());
  const bool on_first_tile = me.tile_x == 0 && me.tile_y == 0 && me.board_y == 0;
  if (shape.boards_x < 2 || !on_first_tile || me.board_x > 1) {
    return 0;
  }
  if (me.board_x == 0) {
    TesseraCoords peer = me;
    peer.board_x = 1;
    const uint32_t dest = tessera_thread_id(&shape, &peer);
    for (uint32_t seq = 0; seq < kMessages; seq++) {
      tinselWaitUntil(TINSEL_CAN_SEND);
      volatile uint32_t* slot = static_cast<volatile uint32_t*>(tinselSendSlot());
      slot[0] = seq;
      tinselSetLen(3);
      tinselSend(dest, slot);
    }
    return 0;
  }
  uint32_t first = 0, last = 0;
  for (uint32_t seq = 0; seq < kMessages; seq++) {
    tinselWaitUntil(TINSEL_CAN_RECV);
    volatile uint32_t* msg = static_cast<volatile uint32_t*>(tinselRecv());
    last = tinselCycleCount();
    if (seq == 0) first = last;
    if (msg[0] != seq) {
      tessera::printf("FAIL stream: got %" PRIu32 ", expected %" PRIu32 "\n", msg[0], seq);
      return 2;
    }
    tinselFree(msg);
  }
  tessera::printf("stream thread 0x%" PRIx32 " flits %" PRIu32 " first %" PRIu32 " last %" PRIu32
                  "\n",
                  tinselId(), kMessages * 4, first, last);
  return 0;
}
