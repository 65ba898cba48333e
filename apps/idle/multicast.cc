// idle_multicast: a multicast counts once per receiving thread. The last thread multicasts one
// message to every thread of the first tile (mailbox 0, up to 64 threads) and to every thread
// of its own tile except itself, while everyone else waits in idle. Each receiver must return
// 0 from idle, get exactly one copy, and then every thread must be released with 3 (a detector
// that counted a multicast once would see a negative sum and never terminate, or terminate
// early: the run would time out or the checks fail).
#include "idle_app.h"

using namespace idle_app;

namespace {
constexpr uint32_t kMagic = 0x4d430000;

uint64_t tile_mask(uint32_t threads_per_tile) {
  return threads_per_tile >= 64 ? ~uint64_t{0} : (uint64_t{1} << threads_per_tile) - 1;
}
}  // namespace

int main() {
  Det det;
  const Machine m;
  const uint32_t per_tile = tessera_threads_per_tile(&m.shape);
  const uint32_t sender = m.n - 1;
  const uint32_t sender_id = m.thread_at(sender);
  const uint32_t shift = tessera_tile_shift(&m.shape);
  const uint32_t sender_mailbox = sender_id >> shift;
  // Receivers: tile 0's threads (all < 64) and the sender's tile-mates.
  const bool in_tile0 = (m.id >> shift) == 0 && (m.id & (per_tile - 1)) < 64;
  const bool tile_mate = (m.id >> shift) == sender_mailbox && m.me != sender &&
                         (m.id & (per_tile - 1)) < 64;
  const bool receiver = (in_tile0 || tile_mate) && m.me != sender;
  if (m.me == sender) {
    volatile Msg* msg = static_cast<volatile Msg*>(det.send_slot());
    msg->a = kMagic;
    msg->b = 0;
    msg->c = 0;
    const uint64_t mask0 = tile_mask(per_tile);
    det.multicast(0, static_cast<uint32_t>(mask0 >> 32), static_cast<uint32_t>(mask0), msg, 1);
    if (sender_mailbox != 0) {
      const uint64_t mates = tile_mask(per_tile) & ~(uint64_t{1} << (sender_id & (per_tile - 1)));
      msg->a = kMagic;
      det.multicast(sender_mailbox, static_cast<uint32_t>(mates >> 32),
                    static_cast<uint32_t>(mates), msg, 1);
    }
  }
  uint32_t got = 0;
  int r;
  while ((r = det.idle(true)) == 0) {
    const Msg msg = recv_msg(det);
    if (msg.a != kMagic) {
      fail("wrong message", msg.a);
    }
    got++;
  }
  if (r != tessera::termination::kTerminatedAllVoted) {
    fail("expected release with every vote true", static_cast<uint32_t>(r));
  }
  if (got != (receiver ? 1u : 0u)) {
    fail("wrong number of copies", got, receiver ? 1u : 0u);
  }
  // Everyone agrees on the count: a second episode where each receiver tells thread 0.
  if (m.me != 0 && got > 0) {
    send_msg(det, m.thread_at(0), kMagic | 1, m.me, 0);
  }
  if (m.me == 0) {
    uint32_t total = got;
    uint32_t expect = 0;
    for (uint32_t i = 0; i < m.n; i++) {
      const uint32_t id = m.thread_at(i);
      const bool t0 = (id >> shift) == 0 && (id & (per_tile - 1)) < 64;
      const bool mate = (id >> shift) == sender_mailbox && i != sender && (id & (per_tile - 1)) < 64;
      expect += (t0 || mate) && i != sender ? 1 : 0;
    }
    while (total < expect) {
      if (det.idle(true) != 0) {
        fail("released before every receiver reported", total, expect);
      }
      const Msg msg = recv_msg(det);
      if (msg.a != (kMagic | 1)) {
        fail("wrong report", msg.a);
      }
      total++;
    }
    tessera::printf("multicast (%s): %" PRIu32 " copies delivered, each counted once\n",
                    Det::kName, total);
  }
  r = det.idle(true);
  if (r != tessera::termination::kTerminatedAllVoted) {
    fail("expected the report episode to end with every vote true", static_cast<uint32_t>(r));
  }
  return 0;
}
