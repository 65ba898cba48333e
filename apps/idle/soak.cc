// idle_soak: kEpisodes consecutive idle episodes with random traffic between them; in every
// episode the messages sent equal the messages received.
//
// In episode k each thread sends 0..2 messages to random threads (xorshift, reproducible by
// everyone), then loops in idle receiving. Each thread works out how many messages it should
// get in episode k by replaying every sender's choices, and votes "my count is right"; a
// message tagged with another episode is a failure. Since the vote is an AND and the expected
// counts add up to the messages sent, a release with "all voted true" (> 1) means that in this
// episode every message sent was received, each by its destination. Thread 0 prints a check
// every 1,000 episodes and a summary.
#include "idle_app.h"
#include "tessera/util/xorshift.h"

using namespace idle_app;

namespace {
constexpr uint32_t kEpisodes = 10000;
constexpr uint32_t kMaxPerThread = 2;

// Sender `sender`'s draws in episode `episode`; the first value is skipped.
struct Random : tessera::Xorshift32 {
  Random(uint32_t episode, uint32_t sender) : Xorshift32(tessera::episode_seed(episode, sender)) {
    (void)next();
  }
};
}  // namespace

int main() {
  Det det;
  const Machine m;
  uint64_t total = 0;
  for (uint32_t k = 0; k < kEpisodes; k++) {
    // What everyone sends in this episode; my part of it.
    uint32_t expected = 0, sent_all = 0;
    for (uint32_t src = 0; src < m.n; src++) {
      Random rng(k, src);
      const uint32_t count = rng.next() % (kMaxPerThread + 1);
      sent_all += count;
      for (uint32_t j = 0; j < count; j++) {
        const uint32_t dest = rng.next() % m.n;
        expected += dest == m.me ? 1 : 0;
        if (src == m.me) {
          send_msg(det, m.thread_at(dest), k, m.me, j);
        }
      }
    }
    uint32_t received = 0;
    int r;
    while ((r = det.idle(received == expected)) == 0) {
      const Msg got = recv_msg(det);
      if (got.a != k) {
        fail("message from another episode", got.a, k);
      }
      received++;
    }
    if (received != expected) {
      fail("received a wrong number of messages", received, expected);
    }
    if (r != tessera::termination::kTerminatedAllVoted) {
      fail("some thread's count was wrong (a vote was false)", static_cast<uint32_t>(r), k);
    }
    total += sent_all;
    if (m.me == 0 && (k + 1) % 1000 == 0) {
      tessera::printf("soak (%s): episode %" PRIu32 ": %" PRIu32 " sent, %" PRIu32
                      " received, every thread's count right\n",
                      Det::kName, k + 1, sent_all, sent_all);
    }
  }
  if (m.me == 0) {
    tessera::printf("soak (%s): %" PRIu32 " episodes on %" PRIu32 " threads, %" PRIu64
                    " messages, sent = received in every episode\n",
                    Det::kName, kEpisodes, m.n, total);
  }
  return 0;
}
