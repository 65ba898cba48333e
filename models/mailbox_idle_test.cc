// tinselIdle in the mailbox model: WAIT_UNTIL with the idle bits, driven CSR
// by CSR as the QEMU wrapper and the host backend drive it, over the
// termination detector the mailbox owns (termdet.h, docs/idle.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "tessera/models/mailbox.h"

namespace {

constexpr uint32_t kL = 150;
constexpr uint32_t kIdle = TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE;  // tinselIdle(0)
constexpr uint32_t kIdleVote = kIdle | TESSERA_WAIT_IDLE_VOTE;         // tinselIdle(1)
constexpr uint32_t kReleased = 1u << 2;                                // tinselIdle: 1
constexpr uint32_t kReleasedVoted = (1u << 2) | (1u << 3);             // tinselIdle: 3

// 2x1 boards of 2x1 tiles of 2 cores x 2 threads: 16 harts, 8 per board.
constexpr TesseraShape kSmall{2, 1, 2, 1, 2, 2};

struct Outcome {
  TesseraAccessStatus result;
  uint32_t value;
  uint64_t resume_at;
  TesseraMailboxFault fault;
};

class Rig {
 public:
  explicit Rig(const TesseraShape& shape,
               TesseraTermdetMaster master = TESSERA_TERMDET_MASTER_ORIGIN)
      : shape_(shape) {
    const uint32_t tiles = shape.boards_x * shape.boards_y * shape.tiles_x * shape.tiles_y;
    scratch_.assign(tiles, std::vector<uint8_t>(TESSERA_SCRATCH_SIZE, 0));
    const TesseraMailboxConfig config{shape, 4, kL, 64, master, nullptr, false, nullptr, false};
    TesseraMailboxHost host{};
    host.opaque = this;
    host.scratchpad = [](void* self, uint32_t tile) {
      return static_cast<Rig*>(self)->scratch_.at(tile).data();
    };
    host.wake = [](void* self, uint32_t hart) { static_cast<Rig*>(self)->wakes.push_back(hart); };
    host.to_host = [](void* self, uint32_t, const uint8_t*, uint32_t, uint64_t) {
      auto* r = static_cast<Rig*>(self);
      if (r->host_accepts) {
        r->host_took++;
      }
      return r->host_accepts;
    };
    model_ = tessera_mailbox_new(&config, &host);
    EXPECT_NE(model_, nullptr);
    // Every thread gives all its receive slots, as Tinsel v2 programs start.
    for (uint32_t h = 0; h < harts(); h++) {
      for (uint32_t n = 1; n < SlotsPerThread(); n++) {
        Csr(h, TESSERA_CSR_FREE, Slot(h, n));
      }
    }
  }
  ~Rig() { tessera_mailbox_free(model_); }
  Rig(const Rig&) = delete;
  Rig& operator=(const Rig&) = delete;

  TesseraMailbox* model() const { return model_; }
  uint32_t harts() const { return tessera_num_threads(&shape_); }
  uint32_t Board(uint32_t hart) const { return hart / tessera_threads_per_board(&shape_); }
  uint32_t Hops(uint32_t hart) const {
    return tessera_termdet_hops(tessera_mailbox_termdet(model_), Board(hart));
  }
  uint32_t Id(uint32_t hart) const { return tessera_thread_at(&shape_, hart); }
  uint32_t SlotsPerThread() const {
    return TESSERA_SLOTS_PER_TILE / tessera_threads_per_tile(&shape_);
  }
  uint32_t Slot(uint32_t hart, uint32_t n) const {
    const uint32_t in_tile = hart & (tessera_threads_per_tile(&shape_) - 1);
    return TESSERA_SCRATCH_BASE + (in_tile * SlotsPerThread() + n) * TESSERA_BYTES_PER_SLOT;
  }

  Outcome Csr(uint32_t hart, uint32_t csr, uint32_t value = 0, uint64_t now = 0) {
    Outcome o{};
    const TesseraAccess a = tessera_mailbox_csr(model_, hart, csr, value, now);
    o.result = a.status;
    o.value = a.value;
    o.resume_at = a.resume_at;
    o.fault = static_cast<TesseraMailboxFault>(a.code);
    return o;
  }
  Outcome Idle(uint32_t hart, bool vote, uint64_t now = 0) {
    return Csr(hart, TESSERA_CSR_WAIT_UNTIL, vote ? kIdleVote : kIdle, now);
  }
  Outcome Send(uint32_t hart, uint32_t dest_id, uint64_t now = 0) {
    Csr(hart, TESSERA_CSR_SEND_LEN, 0, now);
    return Csr(hart, TESSERA_CSR_SEND, dest_id, now);
  }
  // Receives and frees the oldest message.
  uint64_t RecvFree(uint32_t hart, uint64_t now = 0) {
    const Outcome r = Csr(hart, TESSERA_CSR_RECV, 0, now);
    EXPECT_EQ(r.result, TESSERA_ACCESS_DONE);
    Csr(hart, TESSERA_CSR_FREE, r.value, r.resume_at);
    return r.resume_at;
  }
  bool Woken(uint32_t hart) const {
    return std::find(wakes.begin(), wakes.end(), hart) != wakes.end();
  }
  TesseraTermdetStats Stats() const {
    TesseraTermdetStats s;
    tessera_mailbox_idle_stats(model_, &s);
    return s;
  }

  std::vector<uint32_t> wakes;
  bool host_accepts = true;
  int host_took = 0;

 private:
  TesseraShape shape_;
  std::vector<std::vector<uint8_t>> scratch_;
  TesseraMailbox* model_ = nullptr;
};

// Every hart calls tinselIdle(vote(h)); all but the last block, the last one's
// call completes termination and returns at once. Returns the last outcome.
template <typename Vote>
Outcome AllIdle(Rig& rig, Vote vote, uint64_t now = 0) {
  Outcome last{};
  for (uint32_t h = 0; h < rig.harts(); h++) {
    last = rig.Idle(h, vote(h), now);
    if (h + 1 < rig.harts()) {
      EXPECT_EQ(last.result, TESSERA_ACCESS_BLOCKED) << "hart " << h;
    }
  }
  return last;
}

TEST(MailboxIdle, AMessageAlreadyWaitingReturnsZeroAtOnce) {
  Rig rig(kSmall);
  ASSERT_EQ(rig.Send(0, rig.Id(5)).result, TESSERA_ACCESS_DONE);
  const Outcome o = rig.Idle(5, true, 10);
  ASSERT_EQ(o.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(o.value, TESSERA_WAIT_CAN_RECV);  // tinselIdle: 0b10 >> 2 = 0
  EXPECT_EQ(o.value >> 2, 0u);
  EXPECT_GE(o.resume_at, 10u);
  EXPECT_EQ(tessera_mailbox_waiting(rig.model(), 5), 0u);
}

TEST(MailboxIdle, EveryThreadIdleReleasesAllWithTheVote) {
  Rig rig(kSmall);
  const Outcome last = AllIdle(rig, [](uint32_t) { return true; });
  // The call that completes termination returns the release itself.
  ASSERT_EQ(last.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(last.value, kReleasedVoted);
  EXPECT_FALSE(rig.Woken(rig.harts() - 1));
  const uint64_t d = rig.Stats().last_detection;
  EXPECT_EQ(d, tessera_mailbox_idle_rtt(rig.model()));  // all idle at 0: one round trip
  for (uint32_t h = 0; h + 1 < rig.harts(); h++) {
    EXPECT_TRUE(rig.Woken(h)) << h;
    const Outcome o = rig.Idle(h, true, 0);  // issued again after the wake
    ASSERT_EQ(o.result, TESSERA_ACCESS_DONE) << h;
    EXPECT_EQ(o.value, kReleasedVoted);
    EXPECT_EQ(o.value >> 2, 3u);
    EXPECT_EQ(o.resume_at, d + uint64_t{kL} * rig.Hops(h)) << h;
  }
  EXPECT_EQ(rig.Stats().detections, 1u);
}

TEST(MailboxIdle, OneFalseVoteReturnsOne) {
  Rig rig(kSmall);
  AllIdle(rig, [](uint32_t h) { return h != 3; });
  for (uint32_t h = 0; h + 1 < rig.harts(); h++) {
    const Outcome o = rig.Idle(h, true);
    ASSERT_EQ(o.result, TESSERA_ACCESS_DONE);
    EXPECT_EQ(o.value, kReleased);
    EXPECT_EQ(o.value >> 2, 1u);
  }
}

TEST(MailboxIdle, IssuingAgainWhileBlockedChangesNothing) {
  Rig rig(kSmall);
  ASSERT_EQ(rig.Idle(0, true).result, TESSERA_ACCESS_BLOCKED);
  for (int i = 0; i < 5; i++) {  // spurious wakes
    ASSERT_EQ(rig.Idle(0, true).result, TESSERA_ACCESS_BLOCKED);
  }
  EXPECT_EQ(tessera_mailbox_waiting(rig.model(), 0),
            TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE);
  const Outcome last = AllIdle(rig, [](uint32_t) { return true; });
  EXPECT_EQ(last.value, kReleasedVoted);
  EXPECT_EQ(rig.Stats().detections, 1u);
  // The release is given once; the next call is a new tinselIdle.
  ASSERT_EQ(rig.Idle(0, true).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(rig.Idle(0, true).result, TESSERA_ACCESS_BLOCKED);
}

TEST(MailboxIdle, AMessageDuringTheWaitWakesItWithZero) {
  Rig rig(kSmall);
  ASSERT_EQ(rig.Idle(9, true, 0).result, TESSERA_ACCESS_BLOCKED);
  ASSERT_EQ(rig.Send(2, rig.Id(9), 100).result, TESSERA_ACCESS_DONE);
  EXPECT_TRUE(rig.Woken(9));
  const Outcome o = rig.Idle(9, true, 0);
  ASSERT_EQ(o.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(o.value >> 2, 0u);
  EXPECT_EQ(o.value, TESSERA_WAIT_CAN_RECV);
  EXPECT_EQ(o.resume_at, 100u + tessera_mailbox_latency(rig.model(), rig.Id(2), rig.Id(9), 1));
  // Everybody else idles: hart 9 is busy, the message not yet freed.
  for (uint32_t h = 0; h < rig.harts(); h++) {
    if (h != 9) {
      ASSERT_EQ(rig.Idle(h, true).result, TESSERA_ACCESS_BLOCKED) << h;
    }
  }
  EXPECT_EQ(rig.Stats().detections, 0u);
  rig.RecvFree(9, o.resume_at);
  const Outcome last = rig.Idle(9, true, o.resume_at + 10);
  ASSERT_EQ(last.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(last.value, kReleasedVoted);
}

TEST(MailboxIdle, NoReleaseWhileAMessageIsNotFreed) {
  Rig rig(kSmall);
  ASSERT_EQ(rig.Send(0, rig.Id(12)).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(rig.Csr(12, TESSERA_CSR_RECV).result, TESSERA_ACCESS_DONE);  // received, not freed
  for (uint32_t h = 0; h < rig.harts(); h++) {
    ASSERT_EQ(rig.Idle(h, true).result, TESSERA_ACCESS_BLOCKED) << h;
  }
  EXPECT_EQ(rig.Stats().detections, 0u);
  EXPECT_TRUE(rig.wakes.empty());
  // Hart 12 gives up its wait (any other mailbox CSR abandons it) and frees
  // the message; then the last idle call completes termination.
  rig.Csr(12, TESSERA_CSR_FREE, rig.Slot(12, 1));
  const Outcome last = rig.Idle(12, true);
  ASSERT_EQ(last.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(last.value, kReleasedVoted);
}

TEST(MailboxIdle, NoReleaseWhileAThreadNeverCallsIdle) {
  Rig rig(kSmall);
  for (uint32_t h = 1; h < rig.harts(); h++) {
    ASSERT_EQ(rig.Idle(h, true).result, TESSERA_ACCESS_BLOCKED) << h;
  }
  EXPECT_EQ(rig.Stats().detections, 0u);
  EXPECT_TRUE(rig.wakes.empty());
}

// A thread blocked in tinselIdle that issues another mailbox CSR (only an
// interrupt handler or a debugger could) has left the call and runs. The
// others must not be released meanwhile, even though its board had already
// been sampled idle (found by tests/fuzz/mailbox_fuzz.cc).
TEST(MailboxIdle, NoReleaseWhileAThreadThatLeftItsIdleCallRuns) {
  constexpr TesseraShape kTwoBoards{2, 1, 1, 1, 1, 1};
  Rig rig(kTwoBoards, TESSERA_TERMDET_MASTER_CENTRE);
  EXPECT_EQ(rig.Idle(1, true).result, TESSERA_ACCESS_BLOCKED);              // board 1 sampled idle
  EXPECT_EQ(rig.Csr(1, TESSERA_CSR_CAN_SEND).result, TESSERA_ACCESS_DONE);  // leaves the call
  EXPECT_EQ(rig.Idle(0, true).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(rig.Stats().detections, 0u);
  EXPECT_FALSE(rig.Woken(0));
  const Outcome last = rig.Idle(1, true);
  EXPECT_EQ(last.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(last.value, kReleasedVoted);
  EXPECT_TRUE(rig.Woken(0));
}

// tinselIdle with the can-send bit ends, without a message, once the
// thread's outbound register drains. The detector learns of it only when the
// woken thread issues the CSR again, which may be a round after the drain
// (here: the host took the message, and that round failed on the host's
// colour). By then no count or colour shows it, so a round that has its
// board's idle sample must fail (found by tests/fuzz/mailbox_fuzz.cc).
TEST(MailboxIdle, NoReleaseWhileAThreadThatIdledForCanSendRuns) {
  constexpr TesseraShape kThreeBoards{3, 1, 1, 1, 1, 1};
  Rig rig(kThreeBoards);
  rig.host_accepts = false;
  ASSERT_EQ(rig.Send(0, tessera_host_id(&kThreeBoards)).result, TESSERA_ACCESS_DONE);  // held
  const uint32_t idle_or_send = kIdle | TESSERA_WAIT_CAN_SEND;
  ASSERT_EQ(rig.Csr(0, TESSERA_CSR_WAIT_UNTIL, idle_or_send).result, TESSERA_ACCESS_BLOCKED);
  // Hart 1's board is sampled idle, then hart 1 leaves its call and runs.
  ASSERT_EQ(rig.Idle(1, true).result, TESSERA_ACCESS_BLOCKED);
  ASSERT_EQ(rig.Csr(1, TESSERA_CSR_CAN_SEND).result, TESSERA_ACCESS_DONE);
  rig.host_accepts = true;
  tessera_mailbox_host_ready(rig.model());
  ASSERT_EQ(rig.host_took, 1);
  EXPECT_TRUE(rig.Woken(0));  // can-send holds; hart 0 has not issued its CSR again yet
  // That round fails (the host took a message); the next one samples
  // boards 0 and 2 idle and waits for hart 1.
  ASSERT_EQ(rig.Idle(2, true).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(rig.Stats().failed_rounds, 1u);
  const Outcome woken = rig.Csr(0, TESSERA_CSR_WAIT_UNTIL, idle_or_send);
  ASSERT_EQ(woken.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(woken.value, TESSERA_WAIT_CAN_SEND);  // tinselIdle returned 0: hart 0 runs
  EXPECT_EQ(rig.Idle(1, true).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(rig.Stats().detections, 0u);
  EXPECT_FALSE(rig.Woken(2));
  // Once hart 0 is idle again, the machine has terminated.
  const Outcome last = rig.Idle(0, true);
  ASSERT_EQ(last.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(last.value, kReleasedVoted);
  EXPECT_TRUE(rig.Woken(1));
  EXPECT_TRUE(rig.Woken(2));
}

// Phase 2 disables sends: the first thread to resume sends at once to one
// that has not run yet; that thread still gets its release, not 0, and the
// message leaves only when phase 3 reaches the sender's board.
TEST(MailboxIdle, AReleasedThreadsSendDoesNotTurnAnotherReleaseIntoZero) {
  Rig rig(kSmall);
  AllIdle(rig, [](uint32_t) { return true; });
  const uint64_t d = rig.Stats().last_detection;
  const uint64_t rtt = tessera_mailbox_idle_rtt(rig.model());
  const Outcome mine = rig.Idle(0, true);
  ASSERT_EQ(mine.result, TESSERA_ACCESS_DONE);
  const Outcome send = rig.Send(0, rig.Id(14), mine.resume_at);
  ASSERT_EQ(send.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(send.resume_at, d + rtt + uint64_t{kL} * rig.Hops(0));  // phase 3 at board 0
  const Outcome theirs = rig.Idle(14, true);
  ASSERT_EQ(theirs.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(theirs.value >> 2, 3u);  // the release, with can-recv beside it
  EXPECT_EQ(theirs.value, kReleasedVoted | TESSERA_WAIT_CAN_RECV);
  // The message arrives after hart 14 resumed.
  const Outcome recv = rig.Csr(14, TESSERA_CSR_RECV, 0, theirs.resume_at);
  ASSERT_EQ(recv.result, TESSERA_ACCESS_DONE);
  EXPECT_GT(recv.resume_at, theirs.resume_at);
  EXPECT_EQ(recv.resume_at,
            send.resume_at + tessera_mailbox_latency(rig.model(), rig.Id(0), rig.Id(14), 1));
  // A send after phase 3 leaves when issued.
  const Outcome later = rig.Send(0, rig.Id(1), send.resume_at + 5000);
  EXPECT_EQ(later.resume_at, send.resume_at + 5000);
}

TEST(MailboxIdle, HostMessagesCount) {
  Rig rig(kSmall);
  const uint8_t bytes[16] = {1};
  ASSERT_TRUE(tessera_mailbox_inject(rig.model(), rig.Id(3), bytes, 1, 0));
  // Hart 3 has the message: its idle returns 0 at once.
  EXPECT_EQ(rig.Idle(3, true).value, TESSERA_WAIT_CAN_RECV);
  rig.RecvFree(3);
  // A message to the host that the host does not take yet keeps it busy.
  rig.host_accepts = false;
  ASSERT_EQ(rig.Send(4, tessera_host_id(&kSmall)).result, TESSERA_ACCESS_DONE);
  for (uint32_t h = 0; h < rig.harts(); h++) {
    ASSERT_EQ(rig.Idle(h, true).result, TESSERA_ACCESS_BLOCKED) << h;
  }
  EXPECT_EQ(rig.Stats().detections, 0u);
  rig.host_accepts = true;
  tessera_mailbox_host_ready(rig.model());
  EXPECT_EQ(rig.host_took, 1);
  EXPECT_EQ(rig.Stats().detections, 1u);
  for (uint32_t h = 0; h < rig.harts(); h++) {
    EXPECT_TRUE(rig.Woken(h)) << h;
    EXPECT_EQ(rig.Idle(h, true).value, kReleasedVoted) << h;
  }
}

TEST(MailboxIdle, HostInjectionDuringTheReleaseWaitsForPhaseThree) {
  Rig rig(kSmall);
  AllIdle(rig, [](uint32_t) { return true; });
  const uint64_t d = rig.Stats().last_detection;
  const uint64_t rtt = tessera_mailbox_idle_rtt(rig.model());
  const uint8_t bytes[16] = {7};
  ASSERT_TRUE(tessera_mailbox_inject(rig.model(), rig.Id(2), bytes, 1, 0));
  const Outcome o = rig.Idle(2, true);
  EXPECT_EQ(o.value >> 2, 3u);  // still the release
  const Outcome recv = rig.Csr(2, TESSERA_CSR_RECV, 0, o.resume_at);
  EXPECT_EQ(
      recv.resume_at,
      d + 2 * rtt + tessera_mailbox_latency(rig.model(), tessera_host_id(&kSmall), rig.Id(2), 1));
}

TEST(MailboxIdle, MulticastCountsEveryReceiver) {
  Rig rig(kSmall);
  rig.Csr(0, TESSERA_CSR_MCAST_LO, 0b1010);  // threads 1 and 3 of mailbox 3 (harts 13, 15)
  rig.Csr(0, TESSERA_CSR_SEND_LEN, 0);
  ASSERT_EQ(rig.Csr(0, TESSERA_CSR_MCAST_SEND, 3).result, TESSERA_ACCESS_DONE);
  rig.RecvFree(13);
  for (uint32_t h = 0; h < rig.harts(); h++) {
    if (h != 15) {
      ASSERT_EQ(rig.Idle(h, true).result, TESSERA_ACCESS_BLOCKED) << h;
    }
  }
  // Hart 15's copy is still unread.
  EXPECT_EQ(rig.Idle(15, true).value, TESSERA_WAIT_CAN_RECV);
  EXPECT_EQ(rig.Stats().detections, 0u);
  rig.RecvFree(15);
  EXPECT_EQ(rig.Idle(15, true).value, kReleasedVoted);
}

TEST(MailboxIdle, TheMasterPositionSetsTheRoundTrip) {
  const TesseraShape shape{3, 3, 1, 1, 1, 2};
  Rig origin(shape, TESSERA_TERMDET_MASTER_ORIGIN);
  Rig centre(shape, TESSERA_TERMDET_MASTER_CENTRE);
  EXPECT_EQ(tessera_mailbox_idle_rtt(origin.model()), 2u * kL * 5);
  EXPECT_EQ(tessera_mailbox_idle_rtt(centre.model()), 2u * kL * 2);
  for (Rig* rig : {&origin, &centre}) {
    AllIdle(*rig, [](uint32_t) { return true; });
    EXPECT_EQ(rig->Stats().last_detection, tessera_mailbox_idle_rtt(rig->model()));
  }
  // The centre board (1,1) is board 4: released at once after detection.
  const Outcome o = centre.Idle(8, true);
  EXPECT_EQ(o.resume_at, tessera_mailbox_idle_rtt(centre.model()));

  const TesseraMailboxConfig bad{
      shape, 4, kL, 64, static_cast<TesseraTermdetMaster>(2), nullptr, false, nullptr, false};
  TesseraMailboxHost host{};
  host.scratchpad = [](void*, uint32_t) -> uint8_t* { return nullptr; };
  host.wake = [](void*, uint32_t) {};
  host.to_host = [](void*, uint32_t, const uint8_t*, uint32_t, uint64_t) { return true; };
  EXPECT_EQ(tessera_mailbox_new(&bad, &host), nullptr);
}

TEST(MailboxIdle, IdleWithCanSendReturnsAtOnceWhenItHolds) {
  Rig rig(kSmall);
  const Outcome o = rig.Csr(0, TESSERA_CSR_WAIT_UNTIL, kIdleVote | TESSERA_WAIT_CAN_SEND);
  ASSERT_EQ(o.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(o.value, TESSERA_WAIT_CAN_SEND);
  // An idle bit alone is tinselIdle too (can-recv implied).
  EXPECT_EQ(rig.Csr(1, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_IDLE).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(rig.Csr(2, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_IDLE_VOTE).result,
            TESSERA_ACCESS_BLOCKED);
}

// Many episodes through the CSRs: a ring passes a token once round per
// episode, then everyone idles; every episode is detected, 3 rtt apart at
// least, with sent = received.
TEST(MailboxIdle, ManyEpisodesWithTrafficBetween) {
  Rig rig(kSmall);
  const uint32_t n = rig.harts();
  const uint64_t rtt = tessera_mailbox_idle_rtt(rig.model());
  std::vector<uint64_t> clock(n, 0);
  uint64_t previous = 0;
  for (uint32_t episode = 0; episode < 200; episode++) {
    for (uint32_t h = 0; h < n; h++) {
      if (h > 0) {
        const uint64_t t = rig.RecvFree(h, clock[h]);
        clock[h] = std::max(clock[h], t) + 3;
      }
      if (h + 1 < n) {
        const Outcome s = rig.Send(h, rig.Id(h + 1), clock[h]);
        ASSERT_EQ(s.result, TESSERA_ACCESS_DONE);
        clock[h] = s.resume_at + 2;
      }
    }
    std::vector<uint32_t> blocked;
    for (uint32_t h = 0; h < n; h++) {
      const Outcome o = rig.Idle(h, episode % 2 == 0, clock[h]);
      if (o.result == TESSERA_ACCESS_DONE) {
        ASSERT_EQ(h, n - 1);
        clock[h] = o.resume_at;
      }
    }
    for (uint32_t h = 0; h + 1 < n; h++) {
      const Outcome o = rig.Idle(h, true, clock[h]);
      ASSERT_EQ(o.result, TESSERA_ACCESS_DONE) << "episode " << episode << " hart " << h;
      ASSERT_EQ(o.value, episode % 2 == 0 ? kReleasedVoted : kReleased);
      clock[h] = o.resume_at;
    }
    const TesseraTermdetStats s = rig.Stats();
    ASSERT_EQ(s.detections, episode + 1u);
    if (episode > 0) {
      ASSERT_GE(s.last_detection, previous + 3 * rtt);
    }
    previous = s.last_detection;
  }
  uint64_t sent = 0, received = 0;
  for (uint32_t b = 0; b < 2; b++) {
    sent += tessera_mailbox_board_counts(rig.model(), b).sent;
    received += tessera_mailbox_board_counts(rig.model(), b).received;
  }
  EXPECT_EQ(sent, 200u * (rig.harts() - 1));
  EXPECT_EQ(sent, received);
}

}  // namespace
