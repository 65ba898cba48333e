// alltoall: every thread sends kMessages messages of random length (1..4
// flits) to random threads, while receiving. Every payload word is checked,
// messages from each sender must arrive in order, and each thread must
// receive exactly what the others' (reproducible) choices sent it.
// Exit status: 0 ok; 1 machine too large for the per-thread table;
// 2 a corrupt payload; 3 out of order; 4 wrong number received.
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/print.h"
#include "tessera/util/xorshift.h"
#include "tinsel.h"

namespace {

constexpr uint32_t kMessages = 16;
constexpr uint32_t kMaxThreads = 2048;
constexpr uint32_t kWordsPerFlit = 4;

// Each sender's choices, replayable by every receiver from the sender's id.
struct Random : tessera::Xorshift32 {
  explicit Random(uint32_t sender) : Xorshift32(sender * 2654435761u + 0x9e3779b9u) {}
};

struct Choice {
  uint32_t dest_index;
  uint32_t flits;
};

Choice choose(Random& r, uint32_t n) {
  const uint32_t x = r.next();
  return {x % n, 1 + (x >> 24) % 4};
}

uint32_t payload_word(uint32_t src, uint32_t seq, uint32_t k) {
  return (src * 0x01000193u) ^ (seq << 16) ^ (k * 0x5bd1e995u);
}

}  // namespace

int main() {
  const tessera::drivers::Sysinfo sysinfo;
  const TesseraShape shape = sysinfo.shape();
  const uint32_t n = tessera_num_threads(&shape);
  const uint32_t me = sysinfo.hart_index();
  if (n > kMaxThreads) {
    tessera::printf("FAIL alltoall: %" PRIu32 " threads, at most %" PRIu32 "\n", n, kMaxThreads);
    return 1;
  }

  // What everyone will send me: replay every sender's choices.
  uint32_t expected = 0;
  for (uint32_t src = 0; src < n; src++) {
    Random r(src);
    for (uint32_t seq = 0; seq < kMessages; seq++) {
      expected += choose(r, n).dest_index == me ? 1 : 0;
    }
  }

  int16_t last_seq[kMaxThreads];
  for (uint32_t i = 0; i < n; i++) {
    last_seq[i] = -1;
  }
  Random mine(me);
  uint32_t sent = 0, received = 0;
  while (sent < kMessages || received < expected) {
    bool progressed = false;
    if (sent < kMessages && tinselCanSend()) {
      const Choice c = choose(mine, n);
      volatile uint32_t* slot = static_cast<volatile uint32_t*>(tinselSendSlot());
      slot[0] = me;
      slot[1] = sent;
      slot[2] = c.flits;
      for (uint32_t k = 3; k < c.flits * kWordsPerFlit; k++) {
        slot[k] = payload_word(me, sent, k);
      }
      tinselSetLen(c.flits - 1);
      tinselSend(tessera_thread_at(&shape, c.dest_index), slot);
      sent++;
      progressed = true;
    }
    if (tinselCanRecv()) {
      volatile uint32_t* msg = static_cast<volatile uint32_t*>(tinselRecv());
      const uint32_t src = msg[0], seq = msg[1], flits = msg[2];
      bool intact = src < n && seq < kMessages && flits >= 1 && flits <= 4;
      for (uint32_t k = 3; intact && k < flits * kWordsPerFlit; k++) {
        intact = msg[k] == payload_word(src, seq, k);
      }
      tinselFree(msg);
      if (!intact) {
        tessera::printf("FAIL alltoall: thread %" PRIu32 " got a corrupt message (src %" PRIu32
                        " seq %" PRIu32 ")\n",
                        me, src, seq);
        return 2;
      }
      if (static_cast<int32_t>(seq) <= last_seq[src]) {
        tessera::printf("FAIL alltoall: thread %" PRIu32 " got seq %" PRIu32 " from %" PRIu32
                        " after seq %d\n",
                        me, seq, src, last_seq[src]);
        return 3;
      }
      last_seq[src] = static_cast<int16_t>(seq);
      received++;
      progressed = true;
    }
    if (!progressed) {
      tinselWaitUntil(sent < kMessages ? (TINSEL_CAN_SEND | TINSEL_CAN_RECV) : TINSEL_CAN_RECV);
    }
  }
  if (received != expected) {
    tessera::printf("FAIL alltoall: thread %" PRIu32 " received %" PRIu32 ", expected %" PRIu32
                    "\n",
                    me, received, expected);
    return 4;
  }
  tessera::printf("alltoall: thread %" PRIu32 " sent %" PRIu32 " received %" PRIu32
                  " (all verified) at cycle %" PRIu32 "\n",
                  me, sent, received, tinselCycleCount());
  return 0;
}
