// The termination detection model on its own: guest events (sends,
// receives, threads entering and leaving idle) and protocol steps (tokens,
// release, enable), in the eager order the integration uses and in
// adversarial orders, against an omniscient checker.
#include "tessera/models/termdet.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

constexpr uint32_t kL = 150;
constexpr TesseraTermdetMaster kOrigin = TESSERA_TERMDET_MASTER_ORIGIN;
constexpr TesseraTermdetMaster kCentre = TESSERA_TERMDET_MASTER_CENTRE;
constexpr uint32_t kVoted = TESSERA_TERMDET_RESULT_VOTED;
constexpr uint32_t kReleased = TESSERA_TERMDET_RESULT_RELEASED;

const char* MasterName(TesseraTermdetMaster m) {
  return m == kOrigin ? "origin" : "centre";
}

// Hops of board (x, y) from the master, written out independently of the
// model.
uint32_t ExpectedHops(uint32_t bx, uint32_t by, TesseraTermdetMaster master, uint32_t x,
                      uint32_t y) {
  if (master == kOrigin) {
    return x + y + 1;
  }
  const uint32_t cx = bx / 2, cy = by / 2;
  return (x > cx ? x - cx : cx - x) + (y > cy ? y - cy : cy - y);
}

// One model with a wake callback that records the harts it names.
class Rig {
 public:
  Rig(uint32_t boards_x, uint32_t boards_y, uint32_t threads_per_board, TesseraTermdetMaster master,
      uint32_t board_hop = kL, bool windows = false)
      : bx_(boards_x), by_(boards_y), tpb_(threads_per_board), master_(master), l_(board_hop) {
    const TesseraTermdetConfig config{TesseraShape{boards_x, boards_y, 1, 1, 1, threads_per_board},
                                      board_hop, master, windows};
    TesseraTermdetHost host{};
    host.opaque = this;
    host.wake = [](void* self, uint32_t hart) { static_cast<Rig*>(self)->wakes.push_back(hart); };
    td_ = tessera_termdet_new(&config, &host);
  }
  ~Rig() { tessera_termdet_free(td_); }
  Rig(const Rig&) = delete;
  Rig& operator=(const Rig&) = delete;

  TesseraTermdet* td() const { return td_; }
  uint32_t boards() const { return bx_ * by_; }
  uint32_t harts() const { return boards() * tpb_; }
  uint32_t board_of(uint32_t hart) const { return hart / tpb_; }
  uint32_t l() const { return l_; }
  uint32_t hops(uint32_t board) const {
    return ExpectedHops(bx_, by_, master_, board % bx_, board / bx_);
  }
  uint64_t rtt() const {
    uint32_t max = 0;
    for (uint32_t b = 0; b < boards(); b++) {
      max = std::max(max, hops(b));
    }
    return 2ull * l_ * max;
  }

  bool Enter(uint32_t hart, bool vote, uint64_t now) {
    return tessera_termdet_idle_enter(td_, hart, vote, now);
  }
  void EnterAll(uint64_t now, bool vote = true) {
    for (uint32_t h = 0; h < harts(); h++) {
      EXPECT_TRUE(Enter(h, vote, now)) << "hart " << h;
    }
  }
  bool Leave(uint32_t hart, uint64_t now) { return tessera_termdet_idle_leave(td_, hart, now); }
  void Send(uint32_t hart, uint64_t t) { tessera_termdet_sent(td_, board_of(hart), t); }
  void Free(uint32_t hart, uint64_t t) { tessera_termdet_received(td_, board_of(hart), t); }
  size_t Process() { return tessera_termdet_process(td_); }

  TesseraTermdetHartState State(uint32_t hart, uint32_t* result = nullptr,
                                uint64_t* resume_at = nullptr) const {
    return tessera_termdet_hart_state(td_, hart, result, resume_at);
  }
  TesseraTermdetStats Stats() const {
    TesseraTermdetStats s;
    tessera_termdet_stats(td_, &s);
    return s;
  }
  // Index of the pending step of `kind` for `board`, or -1.
  int FindStep(TesseraTermdetStepKind kind, uint32_t board) const {
    for (size_t i = 0; i < tessera_termdet_pending(td_); i++) {
      TesseraTermdetStep s;
      EXPECT_TRUE(tessera_termdet_pending_step(td_, i, &s));
      if (s.kind == kind && s.board == board) {
        return static_cast<int>(i);
      }
    }
    return -1;
  }
  // Runs the pending step of `kind` for `board`; fails the test if none.
  void RunStep(TesseraTermdetStepKind kind, uint32_t board) {
    const int i = FindStep(kind, board);
    ASSERT_GE(i, 0) << "no step " << kind << " for board " << board;
    ASSERT_TRUE(tessera_termdet_run_step(td_, static_cast<size_t>(i)));
  }
  // With windows: this process's part of the window, and the window's end
  // with it alone (one process).
  std::vector<TesseraTermdetReturn> Returns(TesseraTermdetNews* news) const {
    const TesseraTermdetReturn* r = nullptr;
    const size_t n = tessera_termdet_window(td_, &r, news);
    return std::vector<TesseraTermdetReturn>(r, r + n);
  }
  bool EndWindow() {
    TesseraTermdetNews news{};
    const std::vector<TesseraTermdetReturn> returns = Returns(&news);
    return tessera_termdet_window_end(td_, returns.data(), returns.size(), &news);
  }
  bool Woken(uint32_t hart) const {
    return std::find(wakes.begin(), wakes.end(), hart) != wakes.end();
  }

  std::vector<uint32_t> wakes;

 private:
  uint32_t bx_, by_, tpb_;
  TesseraTermdetMaster master_;
  uint32_t l_;
  TesseraTermdet* td_ = nullptr;
};

// ---- configuration and geometry -----------------------------------------

TEST(TermdetConfig, RejectsBadConfigurations) {
  const TesseraTermdetConfig ok{TesseraShape{2, 2, 1, 1, 1, 2}, kL, kOrigin, false};
  TesseraTermdet* td = tessera_termdet_new(&ok, nullptr);  // no host: no wakes
  ASSERT_NE(td, nullptr);
  tessera_termdet_free(td);
  EXPECT_EQ(tessera_termdet_new(nullptr, nullptr), nullptr);

  TesseraTermdetConfig bad = ok;
  bad.shape.boards_x = 0;
  EXPECT_EQ(tessera_termdet_new(&bad, nullptr), nullptr);
  bad = ok;
  bad.shape.threads_per_core = 0;
  EXPECT_EQ(tessera_termdet_new(&bad, nullptr), nullptr);
  bad = ok;
  bad.master = static_cast<TesseraTermdetMaster>(7);
  EXPECT_EQ(tessera_termdet_new(&bad, nullptr), nullptr);
  // More than UINT32_MAX threads per board, whose 64-bit product wraps to 16
  // (found by tests/fuzz/termdet_fuzz.cc's configuration probe).
  bad = ok;
  bad.shape = TesseraShape{1, 1, 0x3fffffff, 16, 0x3fffffff, 0x80000001};
  EXPECT_EQ(tessera_termdet_new(&bad, nullptr), nullptr);
  bad = ok;
  bad.shape = TesseraShape{65536, 65536, 1, 1, 1, 2};  // more than 2^32 threads
  EXPECT_EQ(tessera_termdet_new(&bad, nullptr), nullptr);
  tessera_termdet_free(nullptr);
}

TEST(TermdetConfig, HopsAndRoundTripAtTheOrigin) {
  Rig rig(2, 3, 1, kOrigin);
  // Board (x, y) is x + y + 1 hops from a master one link off (0,0).
  EXPECT_EQ(tessera_termdet_hops(rig.td(), 0), 1u);  // (0,0)
  EXPECT_EQ(tessera_termdet_hops(rig.td(), 1), 2u);  // (1,0)
  EXPECT_EQ(tessera_termdet_hops(rig.td(), 5), 4u);  // (1,2): far corner, X+Y-1
  EXPECT_EQ(tessera_termdet_hops(rig.td(), 6), UINT32_MAX);
  EXPECT_EQ(tessera_termdet_rtt(rig.td()), 1200u);  // 2 * 150 * 4
}

TEST(TermdetConfig, HopsAndRoundTripAtTheCentre) {
  Rig rig(2, 3, 1, kCentre);                         // centre (1, 1)
  EXPECT_EQ(tessera_termdet_hops(rig.td(), 3), 0u);  // (1,1): the master's own board
  EXPECT_EQ(tessera_termdet_hops(rig.td(), 0), 2u);  // (0,0)
  EXPECT_EQ(tessera_termdet_hops(rig.td(), 5), 1u);  // (1,2)
  EXPECT_EQ(tessera_termdet_rtt(rig.td()), 600u);    // 2 * 150 * 2

  Rig big(6, 8, 1, kCentre);                              // the reference cluster: centre (3, 4)
  EXPECT_EQ(tessera_termdet_rtt(big.td()), 2u * kL * 7);  // (0,0): 3 + 4
  Rig big_origin(6, 8, 1, kOrigin);
  EXPECT_EQ(tessera_termdet_rtt(big_origin.td()), 2u * kL * 13);  // 6 + 8 - 1

  Rig one(1, 1, 1, kCentre);
  EXPECT_EQ(tessera_termdet_rtt(one.td()), 0u);
}

// ---- tinselIdle semantics -------------------------------------------------

TEST(Termdet, AllIdleReleasesEveryThreadWithTheVote) {
  Rig rig(2, 2, 3, kOrigin);
  rig.EnterAll(0);
  rig.Process();
  for (uint32_t h = 0; h < rig.harts(); h++) {
    uint32_t result = 0;
    EXPECT_EQ(rig.State(h, &result), TESSERA_TERMDET_RELEASED) << h;
    EXPECT_EQ(result, kVoted) << h;
    EXPECT_TRUE(rig.Woken(h)) << h;
  }
  EXPECT_EQ(rig.Stats().detections, 1u);
}

TEST(Termdet, OneFalseVoteGivesOne) {
  Rig rig(2, 2, 3, kCentre);
  for (uint32_t h = 0; h < rig.harts(); h++) {
    ASSERT_TRUE(rig.Enter(h, h != 7, 0));
  }
  rig.Process();
  for (uint32_t h = 0; h < rig.harts(); h++) {
    uint32_t result = 0;
    ASSERT_EQ(rig.State(h, &result), TESSERA_TERMDET_RELEASED) << h;
    EXPECT_EQ(result, kReleased) << h;
  }
}

TEST(Termdet, TheVoteIsThatOfTheLatestIdleCall) {
  Rig rig(2, 1, 2, kOrigin);
  ASSERT_TRUE(rig.Enter(0, false, 0));
  // A message wakes hart 0 (it returns 0) ...
  rig.Send(3, 5);
  ASSERT_TRUE(rig.Leave(0, 10));
  EXPECT_EQ(rig.State(0), TESSERA_TERMDET_ACTIVE);
  rig.Free(0, 12);
  // ... and it calls idle again, voting true this time.
  ASSERT_TRUE(rig.Enter(0, true, 20));
  for (uint32_t h = 1; h < rig.harts(); h++) {
    ASSERT_TRUE(rig.Enter(h, true, 0));
  }
  rig.Process();
  uint32_t result = 0;
  ASSERT_EQ(rig.State(0, &result), TESSERA_TERMDET_RELEASED);
  EXPECT_EQ(result, kVoted);
}

TEST(Termdet, IdleReturnsZeroWhenAMessageArrives) {
  Rig rig(2, 1, 1, kOrigin);
  ASSERT_TRUE(rig.Enter(0, true, 0));
  rig.Process();
  rig.Send(1, 3);  // hart 1 sends to the idle hart 0
  rig.Process();
  EXPECT_EQ(rig.State(0), TESSERA_TERMDET_IDLE);
  ASSERT_TRUE(rig.Leave(0, 153));  // the integration: message available, return 0
  EXPECT_EQ(rig.State(0), TESSERA_TERMDET_ACTIVE);
  EXPECT_FALSE(rig.Leave(0, 153));  // not in idle any more
  rig.Free(0, 160);
  ASSERT_TRUE(rig.Enter(0, true, 170));
  ASSERT_TRUE(rig.Enter(1, true, 10));
  rig.Process();
  EXPECT_EQ(rig.State(0), TESSERA_TERMDET_RELEASED);
  EXPECT_EQ(rig.State(1), TESSERA_TERMDET_RELEASED);
  EXPECT_EQ(rig.Stats().detections, 1u);
}

TEST(Termdet, EnterIsRefusedWhileIdle) {
  Rig rig(1, 1, 2, kOrigin);
  ASSERT_TRUE(rig.Enter(0, true, 0));
  EXPECT_FALSE(rig.Enter(0, false, 5));
  EXPECT_FALSE(rig.Enter(2, true, 5));  // no such hart
  EXPECT_FALSE(rig.Leave(2, 5));
  EXPECT_EQ(rig.State(2), TESSERA_TERMDET_ACTIVE);
  ASSERT_TRUE(rig.Enter(1, true, 0));
  rig.Process();
  uint32_t result = 0;
  ASSERT_EQ(rig.State(0, &result), TESSERA_TERMDET_RELEASED);
  EXPECT_EQ(result, kVoted);  // the refused call changed nothing
}

TEST(Termdet, NoTerminationWhileAMessageIsInFlight) {
  Rig rig(3, 2, 2, kOrigin);
  rig.Send(4, 0);  // to hart 9, which never gets to receive it
  rig.EnterAll(10);
  const size_t ran = rig.Process();
  EXPECT_GT(ran, 0u);
  for (uint32_t h = 0; h < rig.harts(); h++) {
    EXPECT_EQ(rig.State(h), TESSERA_TERMDET_IDLE) << h;
  }
  const TesseraTermdetStats s = rig.Stats();
  EXPECT_EQ(s.detections, 0u);
  EXPECT_GE(s.failed_rounds, 1u);
  EXPECT_EQ(s.stalled_rounds, 1u);  // waits for an event rather than looping
  EXPECT_EQ(tessera_termdet_pending(rig.td()), 0u);
  EXPECT_EQ(rig.Process(), 0u);

  // Received but not yet freed: still in flight.
  ASSERT_TRUE(rig.Leave(9, 400));
  ASSERT_TRUE(rig.Enter(9, true, 410));
  rig.Process();
  EXPECT_EQ(rig.Stats().detections, 0u);
  ASSERT_TRUE(rig.Leave(9, 420));
  rig.Free(9, 430);
  rig.Process();
  EXPECT_EQ(rig.Stats().detections, 0u);  // hart 9 is active
  ASSERT_TRUE(rig.Enter(9, true, 440));
  rig.Process();
  EXPECT_EQ(rig.Stats().detections, 1u);
  for (uint32_t h = 0; h < rig.harts(); h++) {
    EXPECT_EQ(rig.State(h), TESSERA_TERMDET_RELEASED) << h;
  }
}

TEST(Termdet, NoTerminationWhileOneThreadNeverCallsIdle) {
  Rig rig(2, 2, 2, kCentre);
  for (uint32_t h = 0; h + 1 < rig.harts(); h++) {
    ASSERT_TRUE(rig.Enter(h, true, 0));
  }
  rig.Process();
  for (int i = 0; i < 3; i++) {
    rig.Process();
  }
  EXPECT_EQ(rig.Stats().detections, 0u);
  EXPECT_EQ(rig.Stats().rounds, 0u);  // the busy board holds its token
  EXPECT_EQ(tessera_termdet_pending(rig.td()), 0u);
  ASSERT_TRUE(rig.Enter(rig.harts() - 1, true, 1000));
  rig.Process();
  EXPECT_EQ(rig.Stats().detections, 1u);
}

// The classic counter-example for counting without colours: board A is
// sampled idle with count 0; then B sends to A, A wakes, receives and sends
// back to B, B receives it and goes idle. The counts sum to zero but A is
// busy; B's colour (it received a message) makes the round fail.
TEST(Termdet, AReceiveAfterTheRoundStartedBlackensIt) {
  Rig rig(2, 1, 1, kOrigin);
  const uint32_t a = 0, b = 1;
  ASSERT_TRUE(rig.Enter(a, true, 0));
  rig.RunStep(TESSERA_TERMDET_STEP_DELIVER, 0);
  rig.RunStep(TESSERA_TERMDET_STEP_RETURN, 0);   // A: idle, count 0, white
  rig.RunStep(TESSERA_TERMDET_STEP_DELIVER, 1);  // B is busy: holds it
  rig.Send(b, 10);
  ASSERT_TRUE(rig.Leave(a, 20));
  rig.Free(a, 30);
  rig.Send(a, 40);
  rig.Free(b, 50);
  ASSERT_TRUE(rig.Enter(b, true, 60));
  rig.RunStep(TESSERA_TERMDET_STEP_RETURN, 1);  // B: idle, count 0, black
  const TesseraTermdetStats s = rig.Stats();
  EXPECT_EQ(s.rounds, 1u);
  EXPECT_EQ(s.failed_rounds, 1u);
  EXPECT_EQ(s.detections, 0u);
  rig.Process();
  EXPECT_EQ(rig.Stats().detections, 0u);  // A is still busy
  EXPECT_EQ(rig.State(b), TESSERA_TERMDET_IDLE);
}

// The same with the host: A is sampled, B sends to A (B +1), A wakes and
// sends to the host, the host takes it (host -1). Counts sum to zero while
// A is busy; the host link's colour makes the round fail.
TEST(Termdet, AHostReceiveDuringTheRoundBlackensIt) {
  Rig rig(2, 1, 1, kOrigin);
  const uint32_t a = 0, b = 1;
  ASSERT_TRUE(rig.Enter(a, true, 0));
  rig.RunStep(TESSERA_TERMDET_STEP_DELIVER, 0);
  rig.RunStep(TESSERA_TERMDET_STEP_RETURN, 0);
  rig.RunStep(TESSERA_TERMDET_STEP_DELIVER, 1);
  rig.Send(b, 10);
  ASSERT_TRUE(rig.Leave(a, 20));
  rig.Send(a, 30);  // to the host
  tessera_termdet_received(rig.td(), TESSERA_TERMDET_HOST, 200);
  ASSERT_TRUE(rig.Enter(b, true, 60));
  rig.RunStep(TESSERA_TERMDET_STEP_RETURN, 1);
  EXPECT_EQ(rig.Stats().failed_rounds, 1u);
  EXPECT_EQ(rig.Stats().detections, 0u);
  rig.Free(a, 300);
  ASSERT_TRUE(rig.Enter(a, true, 310));
  rig.Process();
  EXPECT_EQ(rig.Stats().detections, 1u);
}

// A thread may leave idle without a message: the mailbox lets an interrupt
// handler or a debugger end a tinselIdle call with another CSR (mailbox.h).
// B's board is sampled idle, then B abandons idle and runs; A goes idle.
// Counts and colours are all clean, yet B is busy: the round must not detect
// (found by tests/fuzz/mailbox_fuzz.cc).
TEST(Termdet, AbandoningIdleAfterTheSampleSpoilsTheRound) {
  Rig rig(2, 1, 1, kOrigin);
  const uint32_t a = 0, b = 1;
  ASSERT_TRUE(rig.Enter(b, true, 0));
  rig.RunStep(TESSERA_TERMDET_STEP_DELIVER, 1);
  rig.RunStep(TESSERA_TERMDET_STEP_RETURN, 1);                  // B: idle, count 0, white
  ASSERT_TRUE(tessera_termdet_idle_abandon(rig.td(), b, 10));   // no message
  EXPECT_FALSE(tessera_termdet_idle_abandon(rig.td(), b, 11));  // not idle now
  ASSERT_TRUE(rig.Enter(a, true, 20));
  rig.Process();
  EXPECT_EQ(rig.Stats().detections, 0u);
  EXPECT_EQ(rig.State(a), TESSERA_TERMDET_IDLE);
  EXPECT_TRUE(rig.wakes.empty());
  // Once B is idle again, termination is detected as usual.
  ASSERT_TRUE(rig.Enter(b, true, 30));
  rig.Process();
  EXPECT_EQ(rig.Stats().detections, 1u);
  EXPECT_EQ(rig.State(a), TESSERA_TERMDET_RELEASED);
  EXPECT_EQ(rig.State(b), TESSERA_TERMDET_RELEASED);
}

TEST(Termdet, HostMessagesCountAndHostSendsPauseDuringRelease) {
  Rig rig(2, 2, 1, kOrigin);
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), TESSERA_TERMDET_HOST, 7), 7u);
  tessera_termdet_sent(rig.td(), TESSERA_TERMDET_HOST, 0);  // to hart 3
  rig.EnterAll(0);
  rig.Process();
  EXPECT_EQ(rig.Stats().detections, 0u);
  ASSERT_TRUE(rig.Leave(3, 500));
  rig.Free(3, 500);
  ASSERT_TRUE(rig.Enter(3, true, 510));
  // Step by step up to detection: the host may not send from then on.
  while (rig.Stats().detections == 0) {
    ASSERT_GT(tessera_termdet_pending(rig.td()), 0u);
    ASSERT_TRUE(tessera_termdet_run_step(rig.td(), 0));
  }
  const uint64_t d = rig.Stats().last_detection;
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), TESSERA_TERMDET_HOST, 0),
            TESSERA_TERMDET_SEND_DISABLED);
  while (rig.Stats().episodes == 0) {
    EXPECT_EQ(tessera_termdet_send_at(rig.td(), TESSERA_TERMDET_HOST, 0),
              TESSERA_TERMDET_SEND_DISABLED);
    ASSERT_TRUE(tessera_termdet_run_step(rig.td(), 0));
  }
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), TESSERA_TERMDET_HOST, 0), d + 2 * rig.rtt());
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), TESSERA_TERMDET_HOST, d + 5 * rig.rtt()),
            d + 5 * rig.rtt());
}

// Phase 2 with sends disabled: a released thread that sends at once does
// not make a thread of the same episode return 0.
TEST(Termdet, AReleasedThreadsSendDoesNotWakeAnotherWithZero) {
  Rig rig(2, 1, 1, kOrigin);
  rig.EnterAll(0);
  rig.Process();
  uint64_t resume0 = 0, resume1 = 0;
  ASSERT_EQ(rig.State(0, nullptr, &resume0), TESSERA_TERMDET_RELEASED);
  ASSERT_EQ(rig.State(1, nullptr, &resume1), TESSERA_TERMDET_RELEASED);
  // Hart 0 resumes and sends to hart 1 at once.
  const uint64_t t = tessera_termdet_send_at(rig.td(), 0, resume0);
  EXPECT_GT(t, resume1);  // in modelled time it arrives after 1's release
  rig.Send(0, t);
  // Hart 1 is woken by the message (and by the release): the release wins.
  EXPECT_FALSE(rig.Leave(1, t + 150));
  uint32_t result = 0;
  EXPECT_EQ(rig.State(1, &result), TESSERA_TERMDET_RELEASED);
  EXPECT_EQ(result, kVoted);
}

// The same, steps one at a time: until phase 3 reaches a board, its sends
// are disabled, and phase 3 starts only when phase 2 has reached every
// board, so no message of a released thread can reach an unreleased one.
TEST(Termdet, SendsStayDisabledUntilEveryBoardIsReleased) {
  Rig rig(3, 1, 1, kOrigin);
  rig.EnterAll(0);
  while (rig.Stats().detections == 0) {
    ASSERT_TRUE(tessera_termdet_run_step(rig.td(), 0));
  }
  rig.RunStep(TESSERA_TERMDET_STEP_RELEASE, 0);
  EXPECT_EQ(rig.State(0), TESSERA_TERMDET_RELEASED);
  EXPECT_EQ(rig.State(2), TESSERA_TERMDET_IDLE);
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), 0, 0), TESSERA_TERMDET_SEND_DISABLED);
  EXPECT_EQ(rig.FindStep(TESSERA_TERMDET_STEP_ENABLE, 0), -1);
  rig.RunStep(TESSERA_TERMDET_STEP_RELEASE, 2);
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), 0, 0), TESSERA_TERMDET_SEND_DISABLED);
  rig.RunStep(TESSERA_TERMDET_STEP_RELEASE, 1);
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), 0, 0), TESSERA_TERMDET_SEND_DISABLED);
  rig.RunStep(TESSERA_TERMDET_STEP_ENABLE, 0);
  const uint64_t d = rig.Stats().last_detection;
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), 0, 0), d + rig.rtt() + rig.l() * 1);
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), 1, 0), TESSERA_TERMDET_SEND_DISABLED);
  rig.Process();
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), 1, 0), d + rig.rtt() + rig.l() * 2);
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), 2, 0), d + rig.rtt() + rig.l() * 3);
  EXPECT_EQ(rig.Stats().episodes, 1u);
}

TEST(Termdet, ARoundThatSawOnlyColoursRunsAgainWithoutAnEvent) {
  // The last guest event blackens a board before the round that sees it
  // starts; no event follows. The black round must not stall the master.
  Rig rig(2, 1, 1, kOrigin);
  rig.Send(1, 0);
  ASSERT_TRUE(rig.Enter(1, true, 0));
  rig.Process();     // board 0 busy: round 0 waits for it
  rig.Free(0, 200);  // hart 0 receives: board 0 black
  ASSERT_TRUE(rig.Enter(0, true, 210));
  rig.Process();
  const TesseraTermdetStats s = rig.Stats();
  EXPECT_EQ(s.detections, 1u);
  EXPECT_EQ(s.failed_rounds, 1u);
  EXPECT_EQ(s.stalled_rounds, 0u);
}

TEST(Termdet, EveryReleasedThreadIsWoken) {
  Rig rig(3, 3, 4, kCentre);
  rig.EnterAll(0, false);
  rig.Process();
  std::set<uint32_t> woken(rig.wakes.begin(), rig.wakes.end());
  EXPECT_EQ(woken.size(), rig.harts());
  for (uint32_t h = 0; h < rig.harts(); h++) {
    uint32_t result = 0;
    EXPECT_EQ(rig.State(h, &result), TESSERA_TERMDET_RELEASED);
    EXPECT_EQ(result, kReleased);
  }
}

TEST(Termdet, ReleaseIsLatchedUntilTheNextIdle) {
  Rig rig(1, 1, 2, kOrigin);
  rig.EnterAll(0);
  rig.Process();
  uint32_t r1 = 0, r2 = 0;
  uint64_t t1 = 0, t2 = 0;
  ASSERT_EQ(rig.State(0, &r1, &t1), TESSERA_TERMDET_RELEASED);
  ASSERT_EQ(rig.State(0, &r2, &t2), TESSERA_TERMDET_RELEASED);  // idempotent
  EXPECT_EQ(r1, r2);
  EXPECT_EQ(t1, t2);
  EXPECT_FALSE(rig.Leave(0, t1));
  ASSERT_TRUE(rig.Enter(0, false, t1 + 5));  // next episode
  EXPECT_EQ(rig.State(0, &r1, &t1), TESSERA_TERMDET_IDLE);
  EXPECT_EQ(r1, 0u);
  EXPECT_EQ(t1, 0u);
}

// ---- modelled time ----------------------------------------------------------

TEST(TermdetTime, TwoByThreeAtTheOrigin) {
  Rig rig(2, 3, 2, kOrigin);
  ASSERT_EQ(rig.rtt(), 1200u);  // h_max = 2 + 3 - 1 = 4
  rig.EnterAll(0);
  rig.Process();
  const TesseraTermdetStats s = rig.Stats();
  EXPECT_EQ(s.last_detection, 1200u);  // one round trip
  for (uint32_t h = 0; h < rig.harts(); h++) {
    uint64_t at = 0;
    ASSERT_EQ(rig.State(h, nullptr, &at), TESSERA_TERMDET_RELEASED);
    EXPECT_EQ(at, 1200u + 150u * rig.hops(rig.board_of(h))) << h;
  }
  uint64_t far = 0;
  rig.State(rig.harts() - 1, nullptr, &far);
  EXPECT_EQ(far, 1800u);
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), 5, 0), 1200u + 1200u + 600u);
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), 5, 5000), 5000u);
  EXPECT_EQ(s.last_round_start, 3600u);  // D + 2 rtt
  EXPECT_EQ(s.round_trips, 3u);
  EXPECT_EQ(s.episodes, 1u);
}

TEST(TermdetTime, LateBoardsAndFailedRoundsFollowTheRules) {
  Rig rig(2, 1, 1, kOrigin, 100);  // hops 1 and 2, rtt 400
  rig.Send(0, 0);                  // to hart 1
  ASSERT_TRUE(rig.Enter(0, true, 10));
  ASSERT_TRUE(rig.Enter(1, true, 0));  // before the message shows
  rig.Process();
  // Round 0 from 0: board 0 back at max(100, 10) + 100 = 200, board 1 at
  // max(200, 0) + 200 = 400; count 1: fails. Round 1 starts at 400 at
  // once (events happened during round 0), back at 800, fails, and the
  // master stalls: nothing has happened since round 1 started.
  TesseraTermdetStats s = rig.Stats();
  EXPECT_EQ(s.rounds, 2u);
  EXPECT_EQ(s.stalled_rounds, 1u);
  EXPECT_EQ(s.last_round_start, 400u);
  // Hart 1 sees the message, frees it at 300, idles at 400. Round 2 starts
  // at 800 (the end of round 1): board 0 back at 1000, board 1 at
  // max(1000, 400) + 200 = 1200, black: fails. Round 3 from 1200: board 0
  // back at 1400, board 1 at 1600: detection at 1600.
  ASSERT_TRUE(rig.Leave(1, 250));
  rig.Free(1, 300);
  ASSERT_TRUE(rig.Enter(1, true, 400));
  rig.Process();
  s = rig.Stats();
  EXPECT_EQ(s.rounds, 4u);
  EXPECT_EQ(s.failed_rounds, 3u);
  EXPECT_EQ(s.detections, 1u);
  EXPECT_EQ(s.last_detection, 1600u);
  uint64_t at0 = 0, at1 = 0;
  rig.State(0, nullptr, &at0);
  rig.State(1, nullptr, &at1);
  EXPECT_EQ(at0, 1700u);
  EXPECT_EQ(at1, 1800u);
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), 0, 0), 1600u + 400u + 100u);
  EXPECT_EQ(s.last_round_start, 1600u + 800u);
}

TEST(TermdetTime, ABoardThatIdlesLateDelaysDetection) {
  Rig rig(2, 1, 1, kOrigin, 100);
  ASSERT_TRUE(rig.Enter(0, true, 0));
  ASSERT_TRUE(rig.Enter(1, true, 1000));
  rig.Process();
  EXPECT_EQ(rig.Stats().last_detection, 1200u);  // max(200, 1000) + 200
  uint64_t at0 = 0;
  rig.State(0, nullptr, &at0);
  EXPECT_EQ(at0, 1300u);
}

struct TimingCase {
  uint32_t bx, by;
  TesseraTermdetMaster master;
};

class TermdetTimeShapes : public ::testing::TestWithParam<TimingCase> {};

// All boards idle at 0: detection after one round trip, each board
// released L * h_b later, sending back L * h_b after a second round trip,
// the next round 2 rtt after detection; with every thread idle again at
// once, detections come 3 rtt apart.
TEST_P(TermdetTimeShapes, AllIdleAtZero) {
  const TimingCase c = GetParam();
  Rig rig(c.bx, c.by, 2, c.master);
  const uint64_t rtt = rig.rtt();
  ASSERT_EQ(tessera_termdet_rtt(rig.td()), rtt);
  rig.EnterAll(0);
  rig.Process();
  EXPECT_EQ(rig.Stats().last_detection, rtt);
  for (uint32_t h = 0; h < rig.harts(); h++) {
    const uint32_t b = rig.board_of(h);
    uint64_t at = 0;
    ASSERT_EQ(rig.State(h, nullptr, &at), TESSERA_TERMDET_RELEASED);
    EXPECT_EQ(at, rtt + uint64_t{kL} * rig.hops(b));
    EXPECT_EQ(tessera_termdet_send_at(rig.td(), b, at), 2 * rtt + uint64_t{kL} * rig.hops(b));
  }
  EXPECT_EQ(rig.Stats().last_round_start, 3 * rtt);
  for (uint32_t h = 0; h < rig.harts(); h++) {
    uint64_t at = 0;
    rig.State(h, nullptr, &at);
    ASSERT_TRUE(rig.Enter(h, true, at));
  }
  rig.Process();
  EXPECT_EQ(rig.Stats().last_detection, 4 * rtt);
}

std::vector<TimingCase> AllTimingCases() {
  std::vector<TimingCase> cases;
  for (uint32_t by = 1; by <= 3; by++) {
    for (uint32_t bx = 1; bx <= 4; bx++) {
      cases.push_back({bx, by, kOrigin});
      cases.push_back({bx, by, kCentre});
    }
  }
  cases.push_back({6, 8, kOrigin});
  cases.push_back({6, 8, kCentre});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Shapes, TermdetTimeShapes, ::testing::ValuesIn(AllTimingCases()),
                         [](const ::testing::TestParamInfo<TimingCase>& info) {
                           return "boards" + std::to_string(info.param.bx) + "x" +
                                  std::to_string(info.param.by) + "_" +
                                  MasterName(info.param.master);
                         });

// ---- many episodes, eager processing as in the integration -----------------

TEST(TermdetEpisodes, TenThousandEpisodesWithTrafficBetween) {
  Rig rig(3, 2, 2, kOrigin);
  const uint32_t n = rig.harts();
  const uint64_t rtt = rig.rtt();
  std::mt19937 rng(12345);
  std::vector<uint64_t> clock(n, 0);
  std::vector<uint32_t> inbox(n, 0);
  uint64_t previous_d = 0;
  bool first = true;

  for (int episode = 0; episode < 10000; episode++) {
    uint64_t sent = 0, received = 0;
    // Random traffic among the (active) threads, each event followed by
    // the protocol as the integration runs it.
    const int messages = static_cast<int>(rng() % 9);
    for (int m = 0; m < messages; m++) {
      const uint32_t src = rng() % n, dst = rng() % n;
      const uint64_t t = tessera_termdet_send_at(rig.td(), rig.board_of(src), clock[src]);
      ASSERT_NE(t, TESSERA_TERMDET_SEND_DISABLED);
      clock[src] = t + 1 + rng() % 20;
      rig.Send(src, t);
      inbox[dst]++;
      sent++;
      rig.Process();
    }
    // Threads go idle in a random order; a thread with mail receives it
    // first.
    std::vector<uint32_t> order(n);
    for (uint32_t h = 0; h < n; h++) {
      order[h] = h;
    }
    std::shuffle(order.begin(), order.end(), rng);
    bool vote_all = true;
    for (uint32_t h : order) {
      while (inbox[h] > 0) {
        inbox[h]--;
        clock[h] += 1 + rng() % 30;
        rig.Free(h, clock[h]);
        received++;
        rig.Process();
      }
      const bool vote = rng() % 8 != 0;
      vote_all = vote_all && vote;
      clock[h] += rng() % 50;
      ASSERT_TRUE(rig.Enter(h, vote, clock[h]));
      rig.Process();
    }
    ASSERT_EQ(sent, received);
    const TesseraTermdetStats s = rig.Stats();
    ASSERT_EQ(s.detections, static_cast<uint64_t>(episode) + 1) << "episode " << episode;
    ASSERT_EQ(s.episodes, static_cast<uint64_t>(episode) + 1);
    const uint64_t d = s.last_detection;
    if (!first) {
      ASSERT_GE(d, previous_d + 3 * rtt) << "episode " << episode;
    }
    for (uint32_t h = 0; h < n; h++) {
      uint32_t result = 0;
      uint64_t at = 0;
      ASSERT_EQ(rig.State(h, &result, &at), TESSERA_TERMDET_RELEASED) << "episode " << episode;
      ASSERT_EQ(result, vote_all ? kVoted : kReleased);
      ASSERT_EQ(at, d + uint64_t{kL} * rig.hops(rig.board_of(h)));
      clock[h] = std::max(clock[h], at);
    }
    previous_d = d;
    first = false;
  }
  // At most a few rounds per episode: no looping.
  EXPECT_LE(rig.Stats().rounds, 10000u * 3);
}

// ---- adversarial orders against an omniscient checker -----------------------

struct World {
  enum Mode { kActive, kWaiting };

  World(uint32_t bx, uint32_t by, uint32_t tpb, TesseraTermdetMaster master, uint32_t seed)
      : rig(bx, by, tpb, master), rng(seed) {
    const uint32_t n = rig.harts();
    mode.assign(n, kActive);
    vote.assign(n, true);
    clock.assign(n, 0);
    inbox.assign(n, 0);
    budget.assign(n, 0);
    in_episode.assign(n, false);
    for (uint32_t h = 0; h < n; h++) {
      budget[h] = rng() % 4;
    }
    host_budget = rng() % 4;
  }

  uint32_t Rand(uint32_t n) { return static_cast<uint32_t>(rng() % n); }

  uint64_t InFlight() const {
    uint64_t total = host_inbox;
    for (uint32_t m : inbox) {
      total += m;
    }
    return total;
  }

  // Every thread blocked in idle and nothing undelivered. A thread whose
  // episode was detected but whose release has not reached it yet is as
  // good as released: it will return non-zero and run.
  bool Terminated() const {
    for (uint32_t h = 0; h < rig.harts(); h++) {
      if (mode[h] != kWaiting || in_episode[h] || rig.State(h) != TESSERA_TERMDET_IDLE) {
        return false;
      }
    }
    return InFlight() == 0;
  }

  std::string Dump() const {
    std::ostringstream os;
    for (uint32_t h = 0; h < rig.harts(); h++) {
      os << "\n hart " << h << " mode " << mode[h] << " state " << rig.State(h) << " inbox "
         << inbox[h];
    }
    os << "\n host inbox " << host_inbox;
    return os.str();
  }

  // After anything that may have run protocol steps: a new detection must
  // be a true one.
  void CheckDetection() {
    const TesseraTermdetStats s = rig.Stats();
    if (s.detections == detections) {
      return;
    }
    ASSERT_EQ(s.detections, detections + 1);
    detections = s.detections;
    ASSERT_TRUE(Terminated()) << "false detection" << Dump();
    bool all = true;
    for (uint32_t h = 0; h < rig.harts(); h++) {
      all = all && vote[h];
      in_episode[h] = true;
    }
    expected_result = all ? kVoted : kReleased;
    detected_at = s.last_detection;
    ASSERT_GE(detected_at, s.last_round_start);
  }

  void RunRandomStep() {
    const size_t n = tessera_termdet_pending(rig.td());
    if (n == 0) {
      return;
    }
    ASSERT_TRUE(tessera_termdet_run_step(rig.td(), Rand(static_cast<uint32_t>(n))));
    CheckDetection();
  }

  // As tessera_termdet_process, checking after every step.
  void ProcessAll() {
    while (tessera_termdet_pending(rig.td()) > 0 && !HasFatalFailure()) {
      ASSERT_TRUE(tessera_termdet_run_step(rig.td(), tessera_termdet_pending(rig.td()) - 1));
      CheckDetection();
    }
  }

  // A waiting thread is woken (by a release or a message) or not.
  void Wake(uint32_t h) {
    uint32_t result = 0;
    uint64_t at = 0;
    const TesseraTermdetHartState st = rig.State(h, &result, &at);
    if (st == TESSERA_TERMDET_RELEASED) {
      ASSERT_TRUE(in_episode[h]);
      ASSERT_TRUE(rig.Woken(h)) << "released without a wake";
      ASSERT_EQ(result, expected_result);
      ASSERT_EQ(at, detected_at + uint64_t{rig.l()} * rig.hops(rig.board_of(h)));
      clock[h] = std::max(clock[h], at);
      mode[h] = kActive;
      in_episode[h] = false;
      budget[h] = Rand(4);
      return;
    }
    ASSERT_EQ(st, TESSERA_TERMDET_IDLE);
    if (inbox[h] > 0) {
      // A message is available: idle returns 0. Never for a thread whose
      // episode has been detected.
      ASSERT_FALSE(in_episode[h]) << "hart " << h << " would return 0 after detection";
      ASSERT_TRUE(rig.Leave(h, clock[h]));
      mode[h] = kActive;
    }
  }

  void Act(uint32_t h) {
    if (mode[h] == kWaiting) {
      Wake(h);
      return;
    }
    clock[h] += 1 + Rand(40);
    const uint32_t choice = Rand(3);
    if (choice == 0 && inbox[h] > 0) {
      inbox[h]--;
      rig.Free(h, clock[h]);
      return;
    }
    if (choice == 1 && budget[h] > 0) {
      const uint32_t b = rig.board_of(h);
      const uint64_t t = tessera_termdet_send_at(rig.td(), b, clock[h]);
      if (t == TESSERA_TERMDET_SEND_DISABLED) {
        return;  // a real sender would stall here
      }
      ASSERT_GE(t, clock[h]);
      ASSERT_GE(t, board_enable(b));
      clock[h] = t;
      budget[h]--;
      rig.Send(h, t);
      if (Rand(8) == 0) {
        host_inbox++;
      } else {
        inbox[Rand(rig.harts())]++;
      }
      return;
    }
    if (inbox[h] == 0 && (choice == 2 || budget[h] == 0)) {
      vote[h] = Rand(6) != 0;
      ASSERT_TRUE(rig.Enter(h, vote[h], clock[h]));
      mode[h] = kWaiting;
    }
  }

  // Modelled time sending is re-enabled at on board b after the latest
  // detection (0 before any).
  uint64_t board_enable(uint32_t b) const {
    if (detections == 0) {
      return 0;
    }
    return detected_at + rig.rtt() + uint64_t{rig.l()} * rig.hops(b);
  }

  void HostAct() {
    if (Rand(2) == 0 && host_inbox > 0) {
      host_inbox--;
      tessera_termdet_received(rig.td(), TESSERA_TERMDET_HOST, host_clock);
      return;
    }
    if (host_budget > 0) {
      const uint64_t t = tessera_termdet_send_at(rig.td(), TESSERA_TERMDET_HOST, host_clock);
      if (t == TESSERA_TERMDET_SEND_DISABLED) {
        return;
      }
      if (detections > 0) {
        ASSERT_GE(t, detected_at + 2 * rig.rtt());
      }
      host_clock = t + Rand(100);
      host_budget--;
      tessera_termdet_sent(rig.td(), TESSERA_TERMDET_HOST, t);
      inbox[Rand(rig.harts())]++;
    }
  }

  // Liveness: once truly terminated, running the protocol releases all.
  void CheckLiveness() {
    if (!Terminated()) {
      return;
    }
    ProcessAll();
    for (uint32_t h = 0; h < rig.harts(); h++) {
      ASSERT_EQ(rig.State(h), TESSERA_TERMDET_RELEASED) << "missed detection, hart " << h;
    }
  }

  // Everybody stops sending, drains its mail and idles: must terminate and
  // be detected.
  void Drain() {
    host_budget = 0;
    for (int sweep = 0; sweep < 100 && !Terminated(); sweep++) {
      std::fill(budget.begin(), budget.end(), 0);
      while (host_inbox > 0) {
        host_inbox--;
        tessera_termdet_received(rig.td(), TESSERA_TERMDET_HOST, host_clock);
      }
      for (uint32_t h = 0; h < rig.harts(); h++) {
        Act(h);
        if (HasFatalFailure()) {
          return;
        }
      }
      RunRandomStep();
      if (HasFatalFailure()) {
        return;
      }
    }
    ASSERT_TRUE(Terminated());
    CheckLiveness();
  }

  static bool HasFatalFailure() { return ::testing::Test::HasFatalFailure(); }

  Rig rig;
  std::mt19937 rng;
  std::vector<Mode> mode;
  std::vector<bool> vote;
  std::vector<uint64_t> clock;
  std::vector<uint32_t> inbox;
  std::vector<uint32_t> budget;
  std::vector<bool> in_episode;  // waiting in an episode that was detected
  uint32_t host_inbox = 0;
  uint32_t host_budget = 0;
  uint64_t host_clock = 0;
  uint64_t detections = 0;
  uint32_t expected_result = 0;
  uint64_t detected_at = 0;
};

struct AdversarialCase {
  uint32_t bx, by;
  TesseraTermdetMaster master;
};

class TermdetAdversarial : public ::testing::TestWithParam<AdversarialCase> {};

TEST_P(TermdetAdversarial, NeverFalseNeverMissed) {
  const AdversarialCase c = GetParam();
  constexpr int kSeeds = 100;
  constexpr int kActions = 2000;
  uint64_t detections = 0;
  for (int seed = 0; seed < kSeeds; seed++) {
    const uint32_t tpb = 1u << (static_cast<uint32_t>(seed) % 3);  // 1, 2, 4
    World w(c.bx, c.by, tpb, c.master, static_cast<uint32_t>(seed) * 7919u + c.bx * 31 + c.by);
    SCOPED_TRACE("seed " + std::to_string(seed) + ", threads per board " + std::to_string(tpb));
    for (int i = 0; i < kActions; i++) {
      const uint32_t what = w.Rand(100);
      if (what < 40) {
        w.RunRandomStep();
      } else if (what < 90) {
        w.Act(w.Rand(w.rig.harts()));
      } else if (what < 96) {
        w.HostAct();
      } else if (what < 98) {
        w.CheckLiveness();
      } else {
        w.ProcessAll();
      }
      if (::testing::Test::HasFatalFailure()) {
        return;
      }
      // Every thread has stopped for good now and then: refill.
      if (i % 300 == 299) {
        for (uint32_t h = 0; h < w.rig.harts(); h++) {
          w.budget[h] += w.Rand(3);
        }
        w.host_budget += w.Rand(2);
      }
    }
    w.Drain();
    if (::testing::Test::HasFatalFailure()) {
      return;
    }
    detections += w.detections;
  }
  // The schedules do reach termination, many times over.
  EXPECT_GT(detections, static_cast<uint64_t>(kSeeds));
}

std::vector<AdversarialCase> AllAdversarialCases() {
  std::vector<AdversarialCase> cases;
  for (uint32_t by = 1; by <= 3; by++) {
    for (uint32_t bx = 1; bx <= 4; bx++) {
      cases.push_back({bx, by, kOrigin});
      cases.push_back({bx, by, kCentre});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Shapes, TermdetAdversarial, ::testing::ValuesIn(AllAdversarialCases()),
                         [](const ::testing::TestParamInfo<AdversarialCase>& info) {
                           return "boards" + std::to_string(info.param.bx) + "x" +
                                  std::to_string(info.param.by) + "_" +
                                  MasterName(info.param.master);
                         });

// ---- reset ------------------------------------------------------------------

// The pending steps as (kind, board, time), for comparing two detectors.
std::vector<std::tuple<int, uint32_t, uint64_t>> PendingSteps(const Rig& rig) {
  std::vector<std::tuple<int, uint32_t, uint64_t>> steps;
  for (size_t i = 0; i < tessera_termdet_pending(rig.td()); i++) {
    TesseraTermdetStep s;
    EXPECT_TRUE(tessera_termdet_pending_step(rig.td(), i, &s));
    steps.emplace_back(s.kind, s.board, s.time);
  }
  return steps;
}

TEST(TermdetReset, AResetDetectorIsANewOne) {
  Rig used(3, 1, 2, kCentre), fresh(3, 1, 2, kCentre);
  // Mid-episode: a message in flight, some harts idle, one detection done.
  used.EnterAll(0);
  used.Process();
  used.Send(0, 5000);
  ASSERT_TRUE(used.Enter(3, false, 5100));
  used.Process();
  ASSERT_GT(used.Stats().rounds_started, 0u);

  tessera_termdet_reset(used.td());
  const TesseraTermdetStats zero = used.Stats();
  EXPECT_EQ(zero.rounds, 0u);
  EXPECT_EQ(zero.detections, 0u);
  EXPECT_EQ(zero.rounds_started, fresh.Stats().rounds_started);
  EXPECT_EQ(PendingSteps(used), PendingSteps(fresh));
  for (uint32_t h = 0; h < used.harts(); h++) {
    EXPECT_EQ(used.State(h), fresh.State(h)) << h;
  }

  // The message of before is forgotten: all idle terminates as on a new
  // detector, at the same modelled time.
  used.wakes.clear();
  used.EnterAll(10);
  fresh.EnterAll(10);
  used.Process();
  fresh.Process();
  EXPECT_EQ(used.Stats().detections, 1u);
  EXPECT_EQ(used.Stats().last_detection, fresh.Stats().last_detection);
  for (uint32_t h = 0; h < used.harts(); h++) {
    uint64_t used_at = 0, fresh_at = 0;
    EXPECT_EQ(used.State(h, nullptr, &used_at), TESSERA_TERMDET_RELEASED) << h;
    (void)fresh.State(h, nullptr, &fresh_at);
    EXPECT_EQ(used_at, fresh_at) << h;
  }
}

// ---- time windows (termdet.h): the master hears at window ends ------------

// Ends the window of several processes' detectors, each a replica of the
// master with its own boards: every part to every one, as MPI would.
void EndWindowAcross(const std::vector<Rig*>& parts) {
  std::vector<TesseraTermdetReturn> all;
  TesseraTermdetNews sum{};
  for (const Rig* p : parts) {
    TesseraTermdetNews news{};
    const std::vector<TesseraTermdetReturn> r = p->Returns(&news);
    all.insert(all.end(), r.begin(), r.end());
    tessera_termdet_news_add(&sum, &news);
  }
  for (Rig* p : parts) {
    ASSERT_TRUE(tessera_termdet_window_end(p->td(), all.data(), all.size(), &sum));
  }
}

TEST(TermdetWindows, TheMasterDecidesAtTheWindowsEndWithTheSameTimes) {
  Rig rig(2, 3, 2, kOrigin, kL, true);
  rig.EnterAll(0);
  rig.Process();
  // Every token came back, but the master has not heard yet.
  EXPECT_EQ(rig.Stats().detections, 0u);
  EXPECT_TRUE(tessera_termdet_window_pending(rig.td()));
  EXPECT_EQ(rig.State(0), TESSERA_TERMDET_IDLE);
  ASSERT_TRUE(rig.EndWindow());
  // As TermdetTime.TwoByThreeAtTheOrigin without windows.
  const TesseraTermdetStats s = rig.Stats();
  EXPECT_EQ(s.detections, 1u);
  EXPECT_EQ(s.last_detection, 1200u);
  for (uint32_t h = 0; h < rig.harts(); h++) {
    uint64_t at = 0;
    ASSERT_EQ(rig.State(h, nullptr, &at), TESSERA_TERMDET_RELEASED);
    EXPECT_EQ(at, 1200u + 150u * rig.hops(rig.board_of(h))) << h;
    EXPECT_TRUE(rig.Woken(h)) << h;
  }
  EXPECT_EQ(tessera_termdet_send_at(rig.td(), 5, 0), 1200u + 1200u + 600u);
  EXPECT_EQ(s.last_round_start, 3600u);
  EXPECT_FALSE(tessera_termdet_window_pending(rig.td()));
}

TEST(TermdetWindows, HostMessagesAndAbandonsReachTheMasterAtTheWindowsEnd) {
  Rig rig(2, 1, 1, kOrigin, kL, true);
  tessera_termdet_sent(rig.td(), TESSERA_TERMDET_HOST, 0);  // a message for hart 1
  rig.Enter(0, true, 10);
  rig.Process();
  ASSERT_TRUE(rig.EndWindow());  // board 0's token back: the round waits for board 1
  // Hart 1 takes the host's message, then idles: the round fails on the host's count.
  rig.Free(1, 20);
  rig.Enter(1, true, 30);
  rig.Process();
  ASSERT_TRUE(rig.EndWindow());
  EXPECT_EQ(rig.Stats().detections, 0u);
  EXPECT_GE(rig.Stats().failed_rounds, 1u);
  // The next round detects.
  rig.Process();
  ASSERT_TRUE(rig.EndWindow());
  EXPECT_EQ(rig.Stats().detections, 1u);

  // An idle call abandoned after its board's token came back fails the round.
  Rig ab(2, 1, 1, kOrigin, kL, true);
  ab.Enter(0, true, 0);
  ab.Process();
  ASSERT_TRUE(tessera_termdet_idle_abandon(ab.td(), 0, 5));
  ASSERT_TRUE(ab.Enter(0, true, 6));
  ab.Enter(1, true, 7);
  ab.Process();
  ASSERT_TRUE(ab.EndWindow());
  EXPECT_EQ(ab.Stats().detections, 0u);
  EXPECT_EQ(ab.Stats().failed_rounds, 1u);
}

TEST(TermdetWindows, ReturnsThatDoNotFitTheRoundAreRefused) {
  Rig rig(2, 1, 1, kOrigin, kL, true);
  TesseraTermdetNews none{};
  TesseraTermdetReturn r{};
  r.round = rig.Stats().rounds_started;
  r.board = 2;  // no such board
  EXPECT_FALSE(tessera_termdet_window_end(rig.td(), &r, 1, &none));
  r.board = 1;
  r.round += 1;  // a round not started
  EXPECT_FALSE(tessera_termdet_window_end(rig.td(), &r, 1, &none));
  r.round -= 1;
  const TesseraTermdetReturn twice[2] = {r, r};
  EXPECT_FALSE(tessera_termdet_window_end(rig.td(), twice, 2, &none));
  ASSERT_TRUE(tessera_termdet_window_end(rig.td(), &r, 1, &none));
  EXPECT_FALSE(tessera_termdet_window_end(rig.td(), &r, 1, &none));  // counted already
  // Nothing of the refused ones was applied: board 0 completes the round.
  rig.Enter(0, true, 0);
  rig.Process();
  ASSERT_TRUE(rig.EndWindow());
  EXPECT_EQ(rig.Stats().rounds, 1u);
  // Without windows there is no window to end.
  Rig plain(2, 1, 1, kOrigin);
  EXPECT_FALSE(tessera_termdet_window_end(plain.td(), nullptr, 0, &none));
}

// One detector over every board, and the same machine's boards split over
// three processes' detectors, each told only of its own boards' events:
// after every window's end, every thread stands alike in both, with the same
// modelled times, and the statistics agree. Random traffic, votes and
// abandons, then every thread idle until all are released.
TEST(TermdetWindows, SplitOverProcessesDecidesAsOne) {
  for (uint32_t seed = 1; seed <= 40; seed++) {
    std::mt19937 rng(seed);
    const TesseraTermdetMaster master = seed % 2 ? kOrigin : kCentre;
    Rig whole(3, 2, 3, master, kL, true);
    Rig p0(3, 2, 3, master, kL, true), p1(3, 2, 3, master, kL, true), p2(3, 2, 3, master, kL, true);
    Rig* owner_of_board[6] = {&p0, &p0, &p1, &p1, &p2, &p2};
    const uint32_t harts = whole.harts();
    std::vector<uint64_t> now(harts, 0);
    std::vector<uint32_t> inbox(harts, 0);  // messages sent to it, not yet freed
    std::vector<bool> idle(harts, false);
    auto owner = [&](uint32_t h) { return owner_of_board[whole.board_of(h)]; };
    auto both = [&](uint32_t h, auto&& fn) {
      fn(whole);
      fn(*owner(h));
      whole.Process();
      owner(h)->Process();
    };
    auto run_windows = [&](int windows, bool traffic) {
      for (int w = 0; w < windows; w++) {
        for (int op = 0; op < 12; op++) {
          const uint32_t h = rng() % harts;
          now[h] += 1 + rng() % 40;
          if (idle[h]) {
            if (inbox[h] != 0) {  // a message wakes it
              both(h, [&](Rig& r) { r.Leave(h, now[h]); });
              idle[h] = false;
            } else if (traffic && rng() % 8 == 0) {
              both(h, [&](Rig& r) { tessera_termdet_idle_abandon(r.td(), h, now[h]); });
              idle[h] = false;
            }
            continue;
          }
          if (inbox[h] != 0) {
            both(h, [&](Rig& r) { r.Free(h, now[h]); });
            inbox[h]--;
          } else if (traffic && rng() % 3 == 0) {
            const uint32_t to = rng() % harts;
            both(h, [&](Rig& r) { r.Send(h, now[h]); });
            inbox[to]++;
          } else if (tessera_termdet_hart_state(whole.td(), h, nullptr, nullptr) !=
                     TESSERA_TERMDET_IDLE) {
            const bool vote = rng() % 4 != 0;
            both(h, [&](Rig& r) { r.Enter(h, vote, now[h]); });
            idle[h] = true;
          }
        }
        ASSERT_TRUE(whole.EndWindow());
        EndWindowAcross({&p0, &p1, &p2});
        for (uint32_t h = 0; h < harts; h++) {
          uint32_t wr = 0, pr = 0;
          uint64_t wat = 0, pat = 0;
          const TesseraTermdetHartState ws = whole.State(h, &wr, &wat);
          ASSERT_EQ(ws, owner(h)->State(h, &pr, &pat)) << "seed " << seed << " hart " << h;
          ASSERT_EQ(wr, pr) << "seed " << seed << " hart " << h;
          ASSERT_EQ(wat, pat) << "seed " << seed << " hart " << h;
          if (ws == TESSERA_TERMDET_RELEASED) {
            idle[h] = false;  // tinselIdle returned
          }
        }
        const TesseraTermdetStats ws = whole.Stats();
        for (const Rig* p : {&p0, &p1, &p2}) {
          const TesseraTermdetStats ps = p->Stats();
          ASSERT_EQ(ws.rounds_started, ps.rounds_started) << "seed " << seed;
          ASSERT_EQ(ws.rounds, ps.rounds) << "seed " << seed;
          ASSERT_EQ(ws.detections, ps.detections) << "seed " << seed;
          ASSERT_EQ(ws.last_detection, ps.last_detection) << "seed " << seed;
          ASSERT_EQ(ws.last_round_start, ps.last_round_start) << "seed " << seed;
        }
      }
    };
    run_windows(30, true);
    // The end: every message taken, every thread idle; it must terminate.
    auto settled = [&] {
      return std::count(idle.begin(), idle.end(), false) == 0 &&
             std::count(inbox.begin(), inbox.end(), 0u) == harts &&
             !tessera_termdet_window_pending(whole.td());
    };
    for (int w = 0; w < 60 && !settled(); w++) {
      run_windows(1, false);
    }
    ASSERT_GE(whole.Stats().detections, 1u)
        << "seed " << seed << " rounds " << whole.Stats().rounds << " failed "
        << whole.Stats().failed_rounds << " stalled " << whole.Stats().stalled_rounds << " active "
        << std::count(idle.begin(), idle.end(), false) << " pending "
        << tessera_termdet_window_pending(whole.td());
  }
}

}  // namespace
