// backpressure: thread 0 sends kMessages four-flit messages to the last
// thread, which starts receiving late (after a long computation). The
// network must hold what it can, stall the sender (can-send 0) when full,
// and lose nothing: the receiver checks every sequence number in order.
// Exit status: 0 ok; 2 a message lost or out of order; 3 the sender never
// saw back-pressure (the test would prove nothing).
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/print.h"
#include "tinsel.h"

namespace {

constexpr uint32_t kMessages = 200;
constexpr uint32_t kLateWork = 200000;

uint32_t busy_work(uint32_t rounds) {
  uint32_t x = 1;
  for (uint32_t i = 0; i < rounds; i++) {
    x = x * 1664525u + 1013904223u;
    asm volatile("" : "+r"(x));
  }
  return x;
}

}  // namespace

int main() {
  const tessera::drivers::Sysinfo sysinfo;
  const uint32_t n = sysinfo.num_harts();
  const uint32_t me = sysinfo.hart_index();
  const TesseraShape shape = sysinfo.shape();
  const TesseraCoords last = {shape.boards_x - 1,       shape.boards_y - 1,
                              shape.tiles_x - 1,        shape.tiles_y - 1,
                              shape.cores_per_tile - 1, shape.threads_per_core - 1};
  const uint32_t receiver = tessera_thread_id(&shape, &last);
  if (n < 2) {
    tessera::printf("backpressure: needs two threads\n");
    return 0;
  }

  if (me == 0) {
    uint32_t stalls = 0;
    for (uint32_t seq = 0; seq < kMessages; seq++) {
      if (!tinselCanSend()) {
        stalls++;
        tinselWaitUntil(TINSEL_CAN_SEND);
      }
      volatile uint32_t* slot = static_cast<volatile uint32_t*>(tinselSendSlot());
      for (uint32_t k = 0; k < 16; k++) {
        slot[k] = seq * 16 + k;
      }
      tinselSetLen(3);
      tinselSend(receiver, slot);
    }
    tessera::printf("backpressure: sender stalled %" PRIu32 " times sending %" PRIu32
                    " messages\n",
                    stalls, kMessages);
    return stalls > 0 ? 0 : 3;
  }
  if (tinselId() == receiver) {
    const uint32_t work = busy_work(kLateWork);
    for (uint32_t seq = 0; seq < kMessages; seq++) {
      tinselWaitUntil(TINSEL_CAN_RECV);
      volatile uint32_t* msg = static_cast<volatile uint32_t*>(tinselRecv());
      for (uint32_t k = 0; k < 16; k++) {
        if (msg[k] != seq * 16 + k) {
          tessera::printf("FAIL backpressure: message %" PRIu32 " word %" PRIu32 " is %" PRIu32
                          "\n",
                          seq, k, msg[k]);
          return 2;
        }
      }
      tinselFree(msg);
    }
    tessera::printf("backpressure: receiver got all %" PRIu32 " messages in order (work 0x%" PRIx32
                    ")\n",
                    kMessages, work);
  }
  return 0;
}
