// idle_flood: termination detection under back-pressure. Thread 0 computes first, while every
// other thread sends it kPerSender messages and as many to its successor (i+1), interleaved.
// Thread 0's receive slots and its mailbox's network buffer fill up, so the senders wait for
// can-send with messages arriving for them meanwhile: a software detector keeps receiving then
// (into copies) so that no cycle of full mailboxes can form. Every thread then receives what it
// was sent (checked per sender, in order) and every thread must be released with 3. Thread 0
// prints the totals, and how many times the senders waited and (software) kept copies.
#include "idle_app.h"

using namespace idle_app;

namespace {
constexpr uint32_t kPerSender = 12;  // within 15 receive slots: a sender blocked on can-send must
                                      // still hold what its predecessor sends it (hardware)
constexpr uint32_t kHold = 200000;
constexpr uint32_t kData = 0x46000000, kStats = 0x47000000;
constexpr uint32_t kMaxThreads = 256;

// Copies a software detector kept while waiting for can-send (0 for the hardware).
template <typename D>
uint32_t copies_kept(const D& det) {
  if constexpr (requires { det.copies_kept(); }) {
    return det.copies_kept();
  } else {
    return 0;
  }
}
}  // namespace

int main() {
  Det det;
  const Machine m;
  if (m.n < 3 || m.n > kMaxThreads) {
    fail("needs 3..256 threads", m.n);
  }
  const uint32_t next = (m.me + 1) % m.n;
  const uint32_t prev = (m.me + m.n - 1) % m.n;
  uint32_t waits = 0;
  if (m.me == 0) {
    compute(kHold);
  } else {
    for (uint32_t k = 0; k < kPerSender; k++) {
      waits += tinselCanSend() ? 0 : 1;
      send_msg(det, m.thread_at(0), kData | m.me, k, 0);
      if (next != 0) {
        waits += tinselCanSend() ? 0 : 1;
        send_msg(det, m.thread_at(next), kData | m.me, k, 1);
      }
    }
  }
  // What I get: thread 0 from everyone (kPerSender each); others from their predecessor.
  const uint32_t expected = m.me == 0 ? (m.n - 1) * kPerSender : (prev == 0 ? 0 : kPerSender);
  uint32_t received = 0;
  uint32_t next_seq[kMaxThreads];  // per sender, the seq expected next
  for (uint32_t i = 0; i < kMaxThreads; i++) {
    next_seq[i] = 0;
  }
  int r;
  while ((r = det.idle(true)) == 0) {
    const Msg got = recv_msg(det);
    const uint32_t from = got.a & 0xffffff;
    if ((got.a & 0xff000000) != kData || from >= m.n) {
      fail("unexpected message", got.a);
    }
    if ((m.me != 0 && from != prev) || got.b != next_seq[from]) {
      fail("a message out of order or from the wrong thread", from, got.b);
    }
    next_seq[from]++;
    received++;
  }
  if (r != tessera::termination::kTerminatedAllVoted) {
    fail("expected release with every vote true", static_cast<uint32_t>(r));
  }
  if (received != expected) {
    fail("wrong number received", received, expected);
  }
  const uint32_t kept = copies_kept(det);
  // Totals to thread 0 in the next episode.
  if (m.me != 0) {
    send_msg(det, m.thread_at(0), kStats, waits, kept);
  } else {
    uint32_t all_waits = waits, all_kept = kept;
    for (uint32_t i = 1; i < m.n; i++) {
      const Msg got = recv_msg(det);
      if (got.a != kStats) {
        fail("unexpected report", got.a);
      }
      all_waits += got.b;
      all_kept += got.c;
    }
    tessera::printf("flood (%s): %" PRIu32 " messages to thread 0 and %" PRIu32
                    " along the ring delivered in order, senders found can-send 0 %" PRIu32
                    " times, kept %" PRIu32 " copies while waiting\n",
                    Det::kName, received, (m.n - 2) * kPerSender, all_waits, all_kept);
  }
  r = det.idle(true);
  if (r != tessera::termination::kTerminatedAllVoted) {
    fail("expected the report episode to end with every vote true", static_cast<uint32_t>(r));
  }
  return 0;
}
