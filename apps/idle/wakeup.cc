// idle_wakeup: idle returns 0 when a message arrives while the thread waits in it.
//
// Every thread calls idle at once, except the last one (on the far board), which first
// computes for a while and then sends one message to thread 0 and one to the middle thread.
// Those two must return 0 from idle, woken by the message: they entered idle before it was
// sent, and they return no earlier than it was sent (modelled cycles). Everyone then idles
// again, and every thread must be released with "all voted true".
#include "idle_app.h"

using namespace idle_app;

namespace {
constexpr uint32_t kDelay = 100000;
constexpr uint32_t kMagic = 0x3a4e0001;
}  // namespace

int main() {
  Det det;
  const Machine m;
  if (m.n < 3) {
    fail("needs at least 3 threads", m.n);
  }
  const uint32_t sender = m.n - 1;
  const uint32_t targets[2] = {0, m.n / 2};
  const bool target = m.me == targets[0] || m.me == targets[1];
  if (m.me == sender) {
    compute(kDelay);
    for (uint32_t t : targets) {
      const uint64_t now = cycles();
      send_msg(det, m.thread_at(t), kMagic, static_cast<uint32_t>(now),
               static_cast<uint32_t>(now >> 32));
    }
  }
  const uint64_t entered = cycles();
  int r = det.idle(true);
  if (target) {
    const uint64_t woke = cycles();
    if (r != 0) {
      fail("idle did not return 0 for a message sent during the wait", static_cast<uint32_t>(r));
    }
    const Msg got = recv_msg(det);
    const uint64_t sent_at = static_cast<uint64_t>(got.c) << 32 | got.b;
    if (got.a != kMagic) {
      fail("wrong message", got.a);
    }
    if (!(entered < sent_at && sent_at <= woke)) {
      fail("not woken by the message during the wait", static_cast<uint32_t>(entered),
           static_cast<uint32_t>(woke));
    }
    tessera::printf("wakeup: thread 0x%" PRIx32 " woke with 0 at cycle %" PRIu64
                    " for a message sent at cycle %" PRIu64 " (in idle since cycle %" PRIu64
                    ")\n",
                    m.id, woke, sent_at, entered);
    r = det.idle(true);
  }
  if (r != tessera::termination::kTerminatedAllVoted) {
    fail("expected release with every vote true", static_cast<uint32_t>(r));
  }
  if (m.me == 0) {
    tessera::printf("wakeup (%s): all %" PRIu32 " threads released, result %d\n", Det::kName, m.n,
                    r);
  }
  return 0;
}
