// token_ring: a token visits every thread of the machine, in dense-index
// order, kLaps times. Each visit adds one hop; thread 0 checks that each
// lap took exactly as many hops as there are threads and prints the
// modelled cycles per lap.
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/print.h"
#include "tinsel.h"

namespace {

constexpr uint32_t kLaps = 3;

struct Token {
  uint32_t lap;
  uint32_t hops;
  uint32_t unused[2];
};

void pass_on(uint32_t next, uint32_t lap, uint32_t hops) {
  volatile Token* t = static_cast<volatile Token*>(tinselSendSlot());
  tinselWaitUntil(TINSEL_CAN_SEND);
  t->lap = lap;
  t->hops = hops;
  tinselSetLen(0);
  tinselSend(next, t);
}

Token take() {
  tinselWaitUntil(TINSEL_CAN_RECV);
  volatile Token* t = static_cast<volatile Token*>(tinselRecv());
  const Token got = {t->lap, t->hops, {0, 0}};
  tinselFree(t);
  return got;
}

}  // namespace

int main() {
  const tessera::drivers::Sysinfo sysinfo;
  const TesseraShape shape = sysinfo.shape();
  const uint32_t n = tessera_num_threads(&shape);
  const uint32_t me = sysinfo.hart_index();
  const uint32_t next = tessera_thread_at(&shape, (me + 1) % n);

  if (n == 1) {
    tessera::printf("token ring: a single thread, nothing to pass\n");
    return 0;
  }
  if (me == 0) {
    uint32_t start = tinselCycleCount();
    for (uint32_t lap = 0; lap < kLaps; lap++) {
      pass_on(next, lap, 1);
      const Token back = take();
      const uint32_t now = tinselCycleCount();
      if (back.lap != lap || back.hops != n) {
        tessera::printf("FAIL token ring: lap %" PRIu32 " came back as lap %" PRIu32
                        " after %" PRIu32 " hops, expected %" PRIu32 "\n",
                        lap, back.lap, back.hops, n);
        return 1;
      }
      tessera::printf("token ring: lap %" PRIu32 " visited all %" PRIu32
                      " threads in %" PRIu32 " cycles\n",
                      lap, n, now - start);
      start = now;
    }
    return 0;
  }
  for (uint32_t lap = 0; lap < kLaps; lap++) {
    const Token t = take();
    pass_on(next, t.lap, t.hops + 1);
  }
  return 0;
}
