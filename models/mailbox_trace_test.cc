// The events of the mailbox model's optional trace hook (TesseraMailboxEvent,
// docs/tracing.md) and of the termination detector's (TesseraTermdetEvent):
// message ids that pair send, deliver, receive and free, thread ids, times,
// waits, the host port and the phases of termination detection.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "tessera/models/mailbox.h"
#include "tessera/models/termdet.h"

namespace {

constexpr uint32_t kL = 150;
constexpr uint32_t kTileHop = 4;
// 3x2 boards of 2x1 tiles of 1 core x 2 threads: 24 harts. Board (0,1)
// starts at dense index 12 with thread id 0x10, so ids and indexes differ.
constexpr TesseraShape kShape{3, 2, 2, 1, 1, 2};
constexpr uint32_t kFar = 12;  // dense index of thread 0x10, on board 3

// The n-th message (from 1) of a source: board b's threads (b), or the host's
// to board b (boards + b); ids are numbered per source, so that every split of
// the machine over processes gives the same ids (mbox_new_msg_id).
constexpr uint64_t MsgId(uint32_t source, uint64_t n) {
  return n * 2 * kShape.boards_x * kShape.boards_y + source;
}
constexpr uint32_t kHostTo(uint32_t board) {
  return kShape.boards_x * kShape.boards_y + board;
}

class Rig {
 public:
  explicit Rig(const TesseraShape& shape = kShape) : shape_(shape) {
    const uint32_t tiles = shape.boards_x * shape.boards_y * shape.tiles_x * shape.tiles_y;
    scratch_.assign(tiles, std::vector<uint8_t>(TESSERA_SCRATCH_SIZE, 0));
    const TesseraMailboxConfig config{
        shape, kTileHop, kL, 64, TESSERA_TERMDET_MASTER_ORIGIN, nullptr, false, nullptr, false};
    TesseraMailboxHost host{};
    host.opaque = this;
    host.scratchpad = [](void* self, uint32_t tile) {
      return static_cast<Rig*>(self)->scratch_.at(tile).data();
    };
    host.wake = [](void* self, uint32_t hart) { static_cast<Rig*>(self)->wakes.push_back(hart); };
    host.to_host = [](void*, uint32_t, const uint8_t*, uint32_t, uint64_t) { return true; };
    host.event = [](void* self, const TesseraMailboxEvent* e) {
      static_cast<Rig*>(self)->events.push_back(*e);
    };
    model_ = tessera_mailbox_new(&config, &host);
    EXPECT_NE(model_, nullptr);
  }
  ~Rig() { tessera_mailbox_free(model_); }
  Rig(const Rig&) = delete;
  Rig& operator=(const Rig&) = delete;

  TesseraMailbox* model() const { return model_; }
  uint32_t harts() const { return tessera_num_threads(&shape_); }
  uint32_t Id(uint32_t hart) const { return tessera_thread_at(&shape_, hart); }
  uint32_t HostId() const { return tessera_host_id(&shape_); }
  uint32_t SlotsPerThread() const {
    return TESSERA_SLOTS_PER_TILE / tessera_threads_per_tile(&shape_);
  }
  uint32_t Slot(uint32_t hart, uint32_t n) const {
    const uint32_t in_tile = hart & (tessera_threads_per_tile(&shape_) - 1);
    return TESSERA_SCRATCH_BASE + (in_tile * SlotsPerThread() + n) * TESSERA_BYTES_PER_SLOT;
  }
  TesseraAccessStatus Csr(uint32_t hart, uint32_t csr, uint32_t value = 0, uint64_t now = 0,
                          uint32_t* result = nullptr, uint64_t* resume_at = nullptr) {
    return tessera_access_unpack(tessera_mailbox_csr(model_, hart, csr, value, now), result,
                                 resume_at, nullptr);
  }
  void GiveAll(uint32_t hart) {
    for (uint32_t n = 1; n < SlotsPerThread(); n++) Csr(hart, TESSERA_CSR_FREE, Slot(hart, n));
  }
  void GiveAllEverywhere() {
    for (uint32_t h = 0; h < harts(); h++) GiveAll(h);
  }
  TesseraAccessStatus Send(uint32_t hart, uint32_t dest_id, uint64_t now = 0) {
    Csr(hart, TESSERA_CSR_SEND_LEN, 0, now);
    return Csr(hart, TESSERA_CSR_SEND, dest_id, now);
  }
  // RECV then FREE; returns the slot.
  uint32_t RecvFree(uint32_t hart, uint64_t now = 0) {
    uint32_t slot = 0;
    uint64_t at = 0;
    EXPECT_EQ(Csr(hart, TESSERA_CSR_RECV, 0, now, &slot, &at), TESSERA_ACCESS_DONE);
    Csr(hart, TESSERA_CSR_FREE, slot, at + 1);
    return slot;
  }
  std::vector<TesseraMailboxEvent> Of(TesseraMailboxEventKind kind) const {
    std::vector<TesseraMailboxEvent> out;
    for (const auto& e : events) {
      if (e.kind == kind) out.push_back(e);
    }
    return out;
  }
  std::vector<TesseraTermdetEvent> Termdet(TesseraTermdetEventKind kind) const {
    std::vector<TesseraTermdetEvent> out;
    for (const auto& e : events) {
      if (e.kind == TESSERA_MAILBOX_EVENT_TERMDET && e.termdet.kind == kind) {
        out.push_back(e.termdet);
      }
    }
    return out;
  }

  std::vector<TesseraMailboxEvent> events;
  std::vector<uint32_t> wakes;

 private:
  TesseraShape shape_;
  std::vector<std::vector<uint8_t>> scratch_;
  TesseraMailbox* model_ = nullptr;
};

TEST(MailboxTrace, TheSlotHandOverIsAFreeOfNoMessage) {
  Rig rig;
  rig.events.clear();
  rig.GiveAll(kFar);
  const auto frees = rig.Of(TESSERA_MAILBOX_EVENT_FREE);
  ASSERT_EQ(frees.size(), rig.SlotsPerThread() - 1);
  for (uint32_t n = 0; n < frees.size(); n++) {
    EXPECT_EQ(frees[n].msg, 0u);
    EXPECT_EQ(frees[n].hart, kFar);
    EXPECT_EQ(frees[n].thread, 0x10u);
    EXPECT_EQ(frees[n].slot, rig.Slot(kFar, n + 1));
  }
  // Nothing else but termination detection's first tokens reaching boards.
  EXPECT_EQ(rig.events.size() - rig.Termdet(TESSERA_TERMDET_EVENT_TOKEN).size(), frees.size());
}

TEST(MailboxTrace, OneIdPairsSendDeliverReceiveAndFree) {
  Rig rig;
  rig.GiveAllEverywhere();
  rig.events.clear();
  ASSERT_EQ(rig.Send(0, rig.Id(kFar), 100), TESSERA_ACCESS_DONE);
  const uint64_t arrival = 100 + tessera_mailbox_latency(rig.model(), 0, rig.Id(kFar), 1);

  const auto sends = rig.Of(TESSERA_MAILBOX_EVENT_SEND);
  ASSERT_EQ(sends.size(), 1u);
  EXPECT_EQ(sends[0].msg, MsgId(0, 1));
  EXPECT_EQ(sends[0].thread, 0u);
  EXPECT_EQ(sends[0].peer, 0x10u);
  EXPECT_EQ(sends[0].copies, 1u);
  EXPECT_EQ(sends[0].mask, 0u);
  EXPECT_EQ(sends[0].flits, 1u);
  EXPECT_EQ(sends[0].time, 100u);
  const auto delivers = rig.Of(TESSERA_MAILBOX_EVENT_DELIVER);
  ASSERT_EQ(delivers.size(), 1u);
  EXPECT_EQ(delivers[0].msg, MsgId(0, 1));
  EXPECT_EQ(delivers[0].hart, kFar);
  EXPECT_EQ(delivers[0].thread, 0x10u);
  EXPECT_EQ(delivers[0].peer, 0u);
  EXPECT_EQ(delivers[0].time, arrival);
  // The send comes first: the model reports it before the network moves it.
  EXPECT_EQ(rig.events.front().kind, TESSERA_MAILBOX_EVENT_SEND);

  const uint32_t slot = rig.RecvFree(kFar, 50);
  const auto receives = rig.Of(TESSERA_MAILBOX_EVENT_RECEIVE);
  ASSERT_EQ(receives.size(), 1u);
  EXPECT_EQ(receives[0].msg, MsgId(0, 1));
  EXPECT_EQ(receives[0].thread, 0x10u);
  EXPECT_EQ(receives[0].slot, slot);
  EXPECT_EQ(receives[0].time, arrival);  // the receiver's clock jumps to it
  const auto frees = rig.Of(TESSERA_MAILBOX_EVENT_FREE);
  ASSERT_EQ(frees.size(), 1u);
  EXPECT_EQ(frees[0].msg, MsgId(0, 1));
  EXPECT_EQ(frees[0].slot, slot);
  EXPECT_EQ(frees[0].time, arrival + 1);
  // The counters say the same.
  EXPECT_EQ(tessera_mailbox_board_counts(rig.model(), 0).sent, sends.size());
  EXPECT_EQ(tessera_mailbox_board_counts(rig.model(), 3).received, frees.size());
}

// Any thread of the tile may free a received message's slot: the FREE names
// that thread, and the message, and counts for it.
TEST(MailboxTrace, AFreeNamesTheThreadThatFrees) {
  Rig rig;
  rig.GiveAllEverywhere();
  rig.Send(0, rig.Id(kFar), 0);
  uint32_t slot = 0;
  ASSERT_EQ(rig.Csr(kFar, TESSERA_CSR_RECV, 0, 0, &slot), TESSERA_ACCESS_DONE);
  rig.events.clear();
  ASSERT_EQ(rig.Csr(kFar + 1, TESSERA_CSR_FREE, slot, 1000), TESSERA_ACCESS_DONE);
  const auto frees = rig.Of(TESSERA_MAILBOX_EVENT_FREE);
  ASSERT_EQ(frees.size(), 1u);
  EXPECT_EQ(frees[0].msg, MsgId(0, 1));
  EXPECT_EQ(frees[0].thread, 0x11u);
  EXPECT_EQ(frees[0].slot, slot);
  EXPECT_EQ(tessera_mailbox_thread_counts(rig.model(), kFar + 1).received, 1u);
}

TEST(MailboxTrace, AMulticastKeepsOneIdAndNamesEachReceiver) {
  Rig rig;
  rig.GiveAllEverywhere();
  rig.events.clear();
  rig.Csr(0, TESSERA_CSR_MCAST_HI, 0);
  rig.Csr(0, TESSERA_CSR_MCAST_LO, 0x3);
  rig.Csr(0, TESSERA_CSR_SEND_LEN, 1);
  ASSERT_EQ(rig.Csr(0, TESSERA_CSR_MCAST_SEND, rig.Id(kFar) >> 1, 20), TESSERA_ACCESS_DONE);
  const auto sends = rig.Of(TESSERA_MAILBOX_EVENT_SEND);
  ASSERT_EQ(sends.size(), 1u);
  EXPECT_EQ(sends[0].peer, 0x10u);  // thread 0 of the mailbox
  EXPECT_EQ(sends[0].mask, 0x3u);
  EXPECT_EQ(sends[0].copies, 2u);
  EXPECT_EQ(sends[0].flits, 2u);
  const auto delivers = rig.Of(TESSERA_MAILBOX_EVENT_DELIVER);
  ASSERT_EQ(delivers.size(), 2u);
  EXPECT_EQ(delivers[0].msg, sends[0].msg);
  EXPECT_EQ(delivers[1].msg, sends[0].msg);
  EXPECT_EQ(delivers[0].thread, 0x10u);
  EXPECT_EQ(delivers[1].thread, 0x11u);
  rig.RecvFree(kFar + 1);
  rig.RecvFree(kFar);
  const auto frees = rig.Of(TESSERA_MAILBOX_EVENT_FREE);
  ASSERT_EQ(frees.size(), 2u);
  EXPECT_EQ(frees[0].thread, 0x11u);
  EXPECT_EQ(frees[1].thread, 0x10u);
  EXPECT_EQ(tessera_mailbox_board_counts(rig.model(), 0).sent, 2u);
  EXPECT_EQ(tessera_mailbox_board_counts(rig.model(), 3).received, 2u);
}

TEST(MailboxTrace, TheHostsMessagesHaveIdsToo) {
  Rig rig;
  rig.GiveAllEverywhere();
  rig.events.clear();
  const uint8_t words[TESSERA_BYTES_PER_FLIT] = {1};
  ASSERT_TRUE(tessera_mailbox_inject(rig.model(), rig.Id(kFar), words, 1, 7));
  const auto from = rig.Of(TESSERA_MAILBOX_EVENT_FROM_HOST);
  ASSERT_EQ(from.size(), 1u);
  EXPECT_EQ(from[0].msg, MsgId(kHostTo(3), 1));
  EXPECT_EQ(from[0].thread, 0x10u);
  EXPECT_EQ(from[0].peer, rig.HostId());
  EXPECT_EQ(from[0].time, 7u);
  const auto delivers = rig.Of(TESSERA_MAILBOX_EVENT_DELIVER);
  ASSERT_EQ(delivers.size(), 1u);
  EXPECT_EQ(delivers[0].msg, MsgId(kHostTo(3), 1));
  EXPECT_EQ(delivers[0].peer, rig.HostId());

  ASSERT_EQ(rig.Send(kFar, rig.HostId(), 300), TESSERA_ACCESS_DONE);
  const auto sends = rig.Of(TESSERA_MAILBOX_EVENT_SEND);
  const auto to = rig.Of(TESSERA_MAILBOX_EVENT_TO_HOST);
  ASSERT_EQ(sends.size(), 1u);
  ASSERT_EQ(to.size(), 1u);
  EXPECT_EQ(sends[0].msg, MsgId(3, 1));
  EXPECT_EQ(sends[0].peer, rig.HostId());
  EXPECT_EQ(to[0].msg, MsgId(3, 1));
  EXPECT_EQ(to[0].thread, 0x10u);
  EXPECT_EQ(to[0].time, 300 + tessera_mailbox_latency(rig.model(), 0x10, rig.HostId(), 1));
}

TEST(MailboxTrace, IdsStartAgainAtReset) {
  Rig rig;
  rig.GiveAllEverywhere();
  rig.Send(0, 1);
  rig.Send(2, 3);
  ASSERT_EQ(rig.Of(TESSERA_MAILBOX_EVENT_SEND).back().msg, MsgId(0, 2));
  tessera_mailbox_reset(rig.model());
  rig.events.clear();
  rig.GiveAllEverywhere();
  rig.Send(0, 1);
  EXPECT_EQ(rig.Of(TESSERA_MAILBOX_EVENT_SEND).back().msg, MsgId(0, 1));
}

// What one board sends does not change the ids of another's messages: a board
// run in another process numbers its messages as it would in one.
TEST(MailboxTrace, EachBoardNumbersItsOwnMessages) {
  Rig rig;
  rig.GiveAllEverywhere();
  rig.events.clear();
  ASSERT_EQ(rig.Send(kFar, rig.Id(kFar + 1), 10), TESSERA_ACCESS_DONE);
  ASSERT_EQ(rig.Send(0, 1, 10), TESSERA_ACCESS_DONE);
  ASSERT_EQ(rig.Send(kFar, rig.Id(kFar + 1), 20), TESSERA_ACCESS_DONE);
  const auto sends = rig.Of(TESSERA_MAILBOX_EVENT_SEND);
  ASSERT_EQ(sends.size(), 3u);
  EXPECT_EQ(sends[0].msg, MsgId(3, 1));
  EXPECT_EQ(sends[1].msg, MsgId(0, 1));
  EXPECT_EQ(sends[2].msg, MsgId(3, 2));
}

TEST(MailboxTrace, AWaitIsOneBlockAndOneResume) {
  Rig rig;
  rig.GiveAllEverywhere();
  rig.events.clear();
  ASSERT_EQ(rig.Csr(kFar, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV, 10),
            TESSERA_ACCESS_BLOCKED);
  // Issued again while nothing changed: still the one wait.
  ASSERT_EQ(rig.Csr(kFar, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV, 10),
            TESSERA_ACCESS_BLOCKED);
  auto blocks = rig.Of(TESSERA_MAILBOX_EVENT_BLOCK);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].thread, 0x10u);
  EXPECT_EQ(blocks[0].time, 10u);
  EXPECT_EQ(blocks[0].value, TESSERA_WAIT_CAN_RECV);
  EXPECT_TRUE(rig.Of(TESSERA_MAILBOX_EVENT_RESUME).empty());

  rig.Send(0, rig.Id(kFar), 500);
  const uint64_t arrival = rig.Of(TESSERA_MAILBOX_EVENT_DELIVER).back().time;
  uint64_t at = 0;
  uint32_t result = 0;
  ASSERT_EQ(rig.Csr(kFar, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV, 10, &result, &at),
            TESSERA_ACCESS_DONE);
  const auto resumes = rig.Of(TESSERA_MAILBOX_EVENT_RESUME);
  ASSERT_EQ(resumes.size(), 1u);
  EXPECT_EQ(resumes[0].time, at);
  EXPECT_EQ(resumes[0].time, arrival);
  EXPECT_EQ(resumes[0].value, result);
  // A wait that holds at once neither blocks nor resumes.
  rig.Csr(kFar, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV, at + 1);
  EXPECT_EQ(rig.Of(TESSERA_MAILBOX_EVENT_BLOCK).size(), 1u);
  EXPECT_EQ(rig.Of(TESSERA_MAILBOX_EVENT_RESUME).size(), 1u);
}

TEST(MailboxTrace, AnAbandonedWaitResumesAtTheNextCsr) {
  Rig rig;
  ASSERT_EQ(rig.Csr(3, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV, 40), TESSERA_ACCESS_BLOCKED);
  rig.Csr(3, TESSERA_CSR_CAN_SEND, 0, 90);  // an interrupt handler, say
  const auto resumes = rig.Of(TESSERA_MAILBOX_EVENT_RESUME);
  ASSERT_EQ(resumes.size(), 1u);
  EXPECT_EQ(resumes[0].time, 90u);
}

// Every thread of the small mesh calls tinselIdle(1); the last call completes
// the whole episode (the detector's steps run inside it).
TEST(MailboxTrace, TerminationDetectionReportsEveryPhase) {
  const TesseraShape shape{2, 1, 1, 1, 1, 2};  // 2 boards of 2 threads
  Rig rig(shape);
  rig.GiveAllEverywhere();
  const auto starts_before = rig.Termdet(TESSERA_TERMDET_EVENT_ROUND_START);
  ASSERT_FALSE(starts_before.empty());  // round 1 starts with the model
  EXPECT_EQ(starts_before.back().round, 1u);
  EXPECT_EQ(starts_before.back().time, 0u);
  rig.events.clear();
  const uint32_t idle = TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE;
  for (uint32_t h = 0; h < rig.harts(); h++) {
    rig.Csr(h, TESSERA_CSR_WAIT_UNTIL, idle, 1000 + 10 * h);
  }
  const auto enters = rig.Termdet(TESSERA_TERMDET_EVENT_IDLE_ENTER);
  ASSERT_EQ(enters.size(), rig.harts());
  EXPECT_EQ(enters[3].hart, 3u);
  EXPECT_EQ(enters[3].time, 1030u);
  EXPECT_EQ(enters[3].value, 1u);
  // The mailbox names the thread of a hart event.
  for (const auto& e : rig.events) {
    if (e.kind == TESSERA_MAILBOX_EVENT_TERMDET && e.termdet.hart == 3) {
      EXPECT_EQ(e.thread, rig.Id(3));
    }
  }
  const uint64_t rtt = tessera_mailbox_idle_rtt(rig.model());
  const auto tokens = rig.Termdet(TESSERA_TERMDET_EVENT_TOKEN);
  const auto returns = rig.Termdet(TESSERA_TERMDET_EVENT_RETURN);
  const auto ends = rig.Termdet(TESSERA_TERMDET_EVENT_ROUND_END);
  const auto releases = rig.Termdet(TESSERA_TERMDET_EVENT_RELEASE);
  const auto enable_start = rig.Termdet(TESSERA_TERMDET_EVENT_ENABLE_START);
  const auto enables = rig.Termdet(TESSERA_TERMDET_EVENT_ENABLE);
  const auto episode = rig.Termdet(TESSERA_TERMDET_EVENT_EPISODE_END);
  const auto leaves = rig.Termdet(TESSERA_TERMDET_EVENT_IDLE_LEAVE);
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_EQ(ends[0].value, TESSERA_TERMDET_OUTCOME_DETECTED);
  EXPECT_EQ(ends[0].round, 1u);
  const uint64_t d = ends[0].time;
  // Round 1's tokens reached the boards at start-up; these are round 2's.
  ASSERT_EQ(tokens.size(), 2u);
  for (const auto& t : tokens) EXPECT_EQ(t.round, 2u);
  ASSERT_EQ(returns.size(), 2u);
  EXPECT_EQ(std::max(returns[0].time, returns[1].time), d);
  ASSERT_EQ(releases.size(), 2u);
  for (const auto& r : releases) {
    EXPECT_EQ(r.time, d + kL * tessera_termdet_hops(tessera_mailbox_termdet(rig.model()), r.board));
  }
  ASSERT_EQ(leaves.size(), rig.harts());
  for (const auto& l : leaves) EXPECT_EQ(l.value, TESSERA_TERMDET_LEAVE_RELEASED);
  ASSERT_EQ(enable_start.size(), 1u);
  EXPECT_EQ(enable_start[0].time, d + rtt);
  ASSERT_EQ(enables.size(), 2u);
  ASSERT_EQ(episode.size(), 1u);
  EXPECT_EQ(episode[0].time, d + 2 * rtt);
  const auto next = rig.Termdet(TESSERA_TERMDET_EVENT_ROUND_START);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].round, 2u);
  EXPECT_EQ(next[0].time, d + 2 * rtt);
  // In host order: release before the harts leave, every enable before the
  // episode ends.
  auto index = [&](TesseraTermdetEventKind kind) {
    return std::find_if(rig.events.begin(), rig.events.end(),
                        [&](const TesseraMailboxEvent& e) {
                          return e.kind == TESSERA_MAILBOX_EVENT_TERMDET && e.termdet.kind == kind;
                        }) -
           rig.events.begin();
  };
  EXPECT_LT(index(TESSERA_TERMDET_EVENT_RELEASE), index(TESSERA_TERMDET_EVENT_IDLE_LEAVE));
  EXPECT_LT(index(TESSERA_TERMDET_EVENT_ENABLE), index(TESSERA_TERMDET_EVENT_EPISODE_END));
}

TEST(MailboxTrace, AMessageEndsAnIdleCall) {
  Rig rig;
  rig.GiveAllEverywhere();
  rig.events.clear();
  ASSERT_EQ(rig.Csr(kFar, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE, 60),
            TESSERA_ACCESS_BLOCKED);
  rig.Send(0, rig.Id(kFar), 70);
  rig.Csr(kFar, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE, 60);
  const auto leaves = rig.Termdet(TESSERA_TERMDET_EVENT_IDLE_LEAVE);
  ASSERT_EQ(leaves.size(), 1u);
  EXPECT_EQ(leaves[0].value, TESSERA_TERMDET_LEAVE_MESSAGE);
  EXPECT_EQ(leaves[0].hart, kFar);
  EXPECT_EQ(rig.Of(TESSERA_MAILBOX_EVENT_BLOCK).size(), 1u);
  EXPECT_EQ(rig.Of(TESSERA_MAILBOX_EVENT_BLOCK)[0].value,
            TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE);
  EXPECT_EQ(rig.Of(TESSERA_MAILBOX_EVENT_RESUME).size(), 1u);
}

// The detector on its own: a round that cannot succeed says so, first as
// failed (something happened meanwhile), then as stalled.
TEST(TermdetTrace, FailedAndStalledRoundsSaySo) {
  std::vector<TesseraTermdetEvent> events;
  const TesseraTermdetConfig config{{1, 1, 1, 1, 1, 2}, kL, TESSERA_TERMDET_MASTER_ORIGIN, false};
  TesseraTermdetHost host{};
  host.opaque = &events;
  host.event = [](void* self, const TesseraTermdetEvent* e) {
    static_cast<std::vector<TesseraTermdetEvent>*>(self)->push_back(*e);
  };
  TesseraTermdet* td = tessera_termdet_new(&config, &host);
  ASSERT_NE(td, nullptr);
  tessera_termdet_sent(td, 0, 5);  // never received: the count stays 1
  tessera_termdet_idle_enter(td, 0, true, 10);
  tessera_termdet_idle_enter(td, 1, true, 20);
  tessera_termdet_process(td);
  std::vector<uint32_t> outcomes;
  for (const auto& e : events) {
    if (e.kind == TESSERA_TERMDET_EVENT_ROUND_END) outcomes.push_back(e.value);
  }
  EXPECT_EQ(outcomes, (std::vector<uint32_t>{TESSERA_TERMDET_OUTCOME_FAILED,
                                             TESSERA_TERMDET_OUTCOME_STALLED}));
  EXPECT_EQ(events.front().kind, TESSERA_TERMDET_EVENT_ROUND_START);
  tessera_termdet_free(td);
}

}  // namespace
