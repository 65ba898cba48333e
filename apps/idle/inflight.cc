// idle_inflight: no termination while a message is in flight between boards and every other
// thread is idle.
//
// A message is relayed kHops times, each hop between the first board and the last one; each
// relay thread passes it on from inside its idle loop, and every other thread sits in idle the
// whole time. No thread may be released before the last hop has been received: the final
// receiver must have seen all kHops hops in the first episode, and every thread's release
// (modelled cycle) must come after that receipt. After the release every thread reports its
// release cycle to thread 0, which checks.
#include "idle_app.h"

using namespace idle_app;

namespace {
constexpr uint32_t kHops = 8;
constexpr uint32_t kHop = 0x1f000000;     // a = kHop | hop number
constexpr uint32_t kReport = 0x2e000000;  // a = kReport | dense index; b, c = release cycle
constexpr uint32_t kFinal = 0x3d000000;   // a = kFinal | hops seen; b, c = receipt cycle

// Relay thread of hop h: alternately on the first board and the last one.
uint32_t relay(const Machine& m, uint32_t h) {
  const uint32_t board = h % 2 == 0 ? 0 : m.boards() - 1;
  return board * m.per_board() + (h * 7 + 1) % m.per_board();
}
}  // namespace

int main() {
  Det det;
  const Machine m;
  if (m.boards() < 2) {
    fail("needs at least 2 boards", m.boards());
  }
  const uint32_t last = relay(m, kHops);
  if (m.me == relay(m, 0)) {
    send_msg(det, m.thread_at(relay(m, 1)), kHop | 1, 0, 0);
  }
  uint32_t hops_seen = 0;
  uint64_t final_at = 0;
  int r;
  while ((r = det.idle(true)) == 0) {
    const Msg got = recv_msg(det);
    const uint32_t hop = got.a & 0xffffff;
    if ((got.a & 0xff000000) != kHop || hop < 1 || hop > kHops || relay(m, hop) != m.me) {
      fail("unexpected message", got.a);
    }
    if (hop < kHops) {
      send_msg(det, m.thread_at(relay(m, hop + 1)), kHop | (hop + 1), 0, 0);
    } else {
      hops_seen = hop;
      final_at = cycles();
    }
  }
  const uint64_t released = cycles();
  if (r != tessera::termination::kTerminatedAllVoted) {
    fail("expected release with every vote true", static_cast<uint32_t>(r));
  }

  // Second episode: reports to thread 0.
  if (m.me != 0) {
    send_msg(det, m.thread_at(0), kReport | m.me, static_cast<uint32_t>(released),
             static_cast<uint32_t>(released >> 32));
    if (m.me == last) {
      send_msg(det, m.thread_at(0), kFinal | hops_seen, static_cast<uint32_t>(final_at),
               static_cast<uint32_t>(final_at >> 32));
    }
  } else {
    uint64_t first_release = released;
    uint32_t first_thread = 0;
    uint32_t expect = m.n - 1 + (last != 0 ? 1 : 0);
    for (uint32_t i = 0; i < expect; i++) {
      const Msg got = recv_msg(det);
      const uint64_t at = static_cast<uint64_t>(got.c) << 32 | got.b;
      if ((got.a & 0xff000000) == kReport) {
        if (at < first_release) {
          first_release = at;
          first_thread = got.a & 0xffffff;
        }
      } else if ((got.a & 0xff000000) == kFinal) {
        hops_seen = got.a & 0xffffff;
        final_at = at;
      } else {
        fail("unexpected report", got.a);
      }
    }
    if (hops_seen != kHops) {
      fail("released before the message reached its last hop", hops_seen, kHops);
    }
    if (first_release < final_at) {
      fail("a thread was released before the last hop was received", first_thread,
           static_cast<uint32_t>(final_at - first_release));
    }
    tessera::printf("inflight (%s): %" PRIu32 " hops between boards 0 and %" PRIu32
                    ", last received at cycle %" PRIu64 "; first release (thread %" PRIu32
                    ") at cycle %" PRIu64 ", after it\n",
                    Det::kName, kHops, m.boards() - 1, final_at, first_thread, first_release);
  }
  r = det.idle(true);
  if (r != tessera::termination::kTerminatedAllVoted) {
    fail("expected the report episode to end with every vote true", static_cast<uint32_t>(r));
  }
  return 0;
}
