// debug_probe: a small run to look at in gdb (docs/debugging.md, tests/qemu/gdb_check.sh).
//
// A token goes once round the threads in dense-index order. Each thread but 0 waits for it,
// reads its modelled cycle count in read_cycle(), prints what it read, passes the token on and
// then works for a while before it returns. So a stop in the middle finds thread 0 and the
// threads after the token blocked in wait-until can-recv, and the threads before it running.
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/print.h"
#include "tinsel.h"

// Outside any namespace and not inlined, so that `break *read_cycle` stops a thread on the csrr
// that reads the count.
uint32_t read_cycle();
[[gnu::noinline]] uint32_t read_cycle() {
  return tinselCycleCount();
}

namespace {

constexpr uint32_t kWorkRounds = 20000;

void pass_token(uint32_t next, uint32_t hops) {
  volatile uint32_t* msg = static_cast<volatile uint32_t*>(tinselSendSlot());
  tinselWaitUntil(TINSEL_CAN_SEND);
  msg[0] = hops;
  tinselSetLen(0);
  tinselSend(next, msg);
}

uint32_t take_token() {
  tinselWaitUntil(TINSEL_CAN_RECV);
  volatile uint32_t* msg = static_cast<volatile uint32_t*>(tinselRecv());
  const uint32_t hops = msg[0];
  tinselFree(msg);
  return hops;
}

// Something to do that the compiler cannot drop: the hart stays runnable meanwhile.
void work(uint32_t seed) {
  volatile uint32_t x = seed;
  for (uint32_t i = 0; i < kWorkRounds; i++) {
    x = x * 1664525u + 1013904223u;
  }
}

}  // namespace

int main() {
  const tessera::drivers::Sysinfo sysinfo;
  const TesseraShape shape = sysinfo.shape();
  const uint32_t n = tessera_num_threads(&shape);
  const uint32_t me = sysinfo.hart_index();
  const uint32_t next = tessera_thread_at(&shape, (me + 1) % n);

  if (me == 0) {
    const uint32_t cycle = read_cycle();
    tessera::printf("thread 0x0 read cycle %" PRIu32 "\n", cycle);
    if (n == 1) {
      return 0;
    }
    pass_token(next, 1);
    const uint32_t hops = take_token();
    tessera::printf("thread 0x0: the token came back after %" PRIu32 " hops\n", hops);
    return hops == n ? 0 : 1;
  }
  const uint32_t hops = take_token();
  const uint32_t cycle = read_cycle();
  tessera::printf("thread 0x%" PRIx32 " read cycle %" PRIu32 "\n", tinselId(), cycle);
  pass_token(next, hops + 1);
  work(cycle);
  return 0;
}
