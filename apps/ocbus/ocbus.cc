// ocbus: the open-collector bus protocols of DESIGN 1.6 on every hart of the machine
// (docs/ocbus.md). Every hart computes the same pseudo-random inputs, so each checks its own
// results: 100 ACWTs in a row with a random delay before each, arbitration rounds with ties, a
// barrier with a late hart, and data-bus broadcasts from changing senders. Thread 0 prints one
// line per protocol; any hart that sees a wrong result prints it and the run fails.
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/ocbus.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/print.h"

namespace {

uint32_t mix(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t x = a * 0x9e3779b9u ^ (b + 1) * 0x85ebca6bu ^ (c + 7) * 0xc2b2ae35u;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  return x;
}

// Work that the modelled clock counts: a random delay before a call.
void delay(uint32_t call, uint32_t me) {
  volatile uint32_t sum = 0;
  for (uint32_t i = 0; i < mix(call, me, 2) % 200; i++) sum = sum + i;
}

bool input(uint32_t call, uint32_t hart, uint32_t n) {
  return call % 3 == 0 || mix(call, hart, 1) % (n + n / 2) != 0;
}

uint32_t failures = 0;

void fail(const char* what, uint32_t me, uint32_t round, uint32_t got, uint32_t want) {
  failures++;
  tessera::printf("ocbus: FAIL %s: hart %" PRIu32 " round %" PRIu32 " got %" PRIu32
                  " want %" PRIu32 "\n",
                  what, me, round, got, want);
}

}  // namespace

int main() {
  const tessera::drivers::Sysinfo sysinfo;
  const uint32_t n = sysinfo.num_harts(), me = sysinfo.hart_index();
  tessera::drivers::OcBusProtocols bus;

  uint32_t trues = 0;
  for (uint32_t call = 0; call < 100; call++) {
    bool want = true;
    for (uint32_t h = 0; h < n; h++) want = want && input(call, h, n);
    delay(call, me);
    const bool got = bus.all(input(call, me, n));
    trues += got;
    if (got != want) fail("acwt", me, call, got, want);
  }
  if (me == 0) tessera::printf("ocbus: acwt 100 calls on %" PRIu32 " harts, %" PRIu32 " true\n", n, trues);

  for (uint32_t round = 0; round < 8; round++) {
    auto number = [&](uint32_t h) { return round % 2 ? mix(round, h, 4) % 3 : mix(round, h, 4); };
    uint32_t best = 0;
    for (uint32_t h = 1; h < n; h++) {
      if (number(h) >= number(best)) best = h;
    }
    delay(round, me);
    const bool won = bus.arbitrate(number(me));
    if (won != (me == best)) fail("arbitration", me, round, won, me == best);
  }
  if (me == 0) tessera::printf("ocbus: arbitration 8 rounds, one winner each\n");

  for (uint32_t e = 0; e < 20; e++) {
    if (mix(e, 0, 3) % n == me) delay(e, me + 1000);
    bus.barrier();
  }
  if (me == 0) tessera::printf("ocbus: barrier 20 episodes\n");

  for (uint32_t call = 0; call < 10; call++) {
    const uint32_t sender = mix(call, 0, 6) % n;
    const uint32_t value = mix(call, 9, 5);
    const uint32_t got = bus.broadcast(me == sender ? value : 0, me == sender);
    if (got != value) fail("broadcast", me, call, got, value);
  }
  if (me == 0) {
    tessera::printf("ocbus: data bus 10 broadcasts of 32 bits over %" PRIu32 " data lines\n",
                    bus.data_lines());
  }
  return failures == 0 ? 0 : 1;
}
