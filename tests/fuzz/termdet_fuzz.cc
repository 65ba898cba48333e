// libFuzzer target: the termination detector (models/termdet.c) on its
// own, as termdet.h allows it to be driven: guest events (sends, receives,
// threads entering and leaving idle, host injections and takes) and protocol
// steps run one at a time in any order (tessera_termdet_run_step), on
// arbitrary shapes and master positions. A shadow of the guest knows which
// threads are idle and how many messages are undelivered, and judges every
// detection and release (docs/fuzzing.md).
//
// Input: a shape (board mesh, threads per board, L, master), then operations
// until the input runs out, then the end: every message is received, every
// thread goes idle, and the protocol must release them all.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/models/termdet.h"

namespace {

using fuzz::FuzzInput;

constexpr uint32_t kMaxHarts = 256;
constexpr int kMaxOperations = 4000;
constexpr uint64_t kDisabled = TESSERA_TERMDET_SEND_DISABLED;

uint64_t distance(uint64_t a, uint64_t b) { return a > b ? a - b : b - a; }

// termdet.h: what tessera_termdet_new refuses, on a raw configuration.
void probe_config(FuzzInput& in) {
  static const uint32_t kEdges[] = {0,          1,          2,          3,          7,
                                    16,         64,         65535,      65536,      65537,
                                    1u << 31,   0x80000001, 0xfffffffe, 0xffffffff, 1u << 16,
                                    3u << 30,   0x3fffffff};
  TesseraTermdetConfig c{};
  uint32_t* fields[] = {&c.shape.boards_x, &c.shape.boards_y,       &c.shape.tiles_x,
                        &c.shape.tiles_y,  &c.shape.cores_per_tile, &c.shape.threads_per_core};
  for (uint32_t* f : fields) {
    const uint8_t b = in.byte();
    *f = b < 0x80 ? b % 5 : b < 0xf0 ? in.pick(kEdges) : in.u32();
  }
  c.board_hop_cycles = in.u32();
  // Written as raw bytes: an enum value the C++ side may not hold.
  const uint32_t master = in.below(4);
  static_assert(sizeof(c.master) == sizeof(master));
  memcpy(&c.master, &master, sizeof(master));

  // The exact thread count, saturated far above UINT32_MAX.
  auto times = [](uint64_t a, uint64_t b) {
    return b != 0 && a > (uint64_t{1} << 40) / b ? uint64_t{1} << 40 : a * b;
  };
  const uint64_t boards = times(c.shape.boards_x, c.shape.boards_y);
  const uint64_t per_board = times(times(times(c.shape.tiles_x, c.shape.tiles_y),
                                         c.shape.cores_per_tile),
                                   c.shape.threads_per_core);
  const uint64_t threads = times(boards, per_board);
  const bool valid = threads >= 1 && threads <= UINT32_MAX && master <= 1;
  if (!valid) {
    TesseraTermdet* td = tessera_termdet_new(&c, nullptr);
    FUZZ_CHECK(td == nullptr,
               "tessera_termdet_new took an invalid configuration: boards %ux%u, %u x %u x %u x "
               "%u threads per board, master %u",
               c.shape.boards_x, c.shape.boards_y, c.shape.tiles_x, c.shape.tiles_y,
               c.shape.cores_per_tile, c.shape.threads_per_core, master);
    tessera_termdet_free(td);
  } else if (threads <= 4096) {
    TesseraTermdet* td = tessera_termdet_new(&c, nullptr);
    FUZZ_CHECK(td != nullptr, "tessera_termdet_new refused %llu threads",
               static_cast<unsigned long long>(threads));
    tessera_termdet_free(td);
  }
}

class Scenario {
 public:
  explicit Scenario(FuzzInput& in);
  ~Scenario() { tessera_termdet_free(td_); }
  Scenario(const Scenario&) = delete;
  Scenario& operator=(const Scenario&) = delete;

  void step(FuzzInput& in);
  void finish(FuzzInput& in);

 private:
  // kReleased: returned from idle with a release, running.
  enum class State : uint8_t { kActive, kIdle, kReleased };
  struct Hart {
    State state = State::kActive;
    bool vote = false;
    bool awaiting_release = false;  // idle at the latest detection, not yet released
    uint64_t now = 0;
    uint64_t since = 0;             // when it entered idle
    uint32_t available = 0;         // messages for it, sent and not yet freed
  };

  uint32_t board_of(uint32_t hart) const { return hart / per_board_; }
  uint32_t hops(uint32_t board) const;
  bool running(uint32_t hart) const { return harts_[hart].state != State::kIdle; }
  TesseraTermdetStats stats() const {
    TesseraTermdetStats s;
    tessera_termdet_stats(td_, &s);
    return s;
  }

  void send(uint32_t hart, FuzzInput& in);
  void host_inject(FuzzInput& in);
  void host_take();
  void receive(uint32_t hart);
  void enter(uint32_t hart, bool vote);
  void interrupt(uint32_t hart);
  bool release_pending(uint32_t board) const;
  void run_step(uint32_t choice);
  void process();
  void misuse(FuzzInput& in);
  void after_op();
  void judge_detection(const TesseraTermdetStats& s);
  void judge_release(uint32_t hart, const TesseraTermdetStats& s);
  void check_send_at(uint32_t board, uint64_t t, uint64_t at, const TesseraTermdetStats& s);

  TesseraShape shape_{};
  uint32_t boards_, per_board_, num_harts_, l_;
  TesseraTermdetMaster master_;
  uint64_t rtt_ = 0;
  TesseraTermdet* td_ = nullptr;
  std::vector<Hart> harts_;
  std::vector<uint32_t> wakes_;
  bool wakes_on_ = true;
  uint32_t idle_ = 0, false_votes_ = 0;
  uint64_t in_flight_ = 0;    // sent, not yet freed or taken by the host
  uint32_t for_host_ = 0;     // of which, for the host
  uint64_t host_now_ = 0;
  uint64_t episode_ = 0;      // detections judged
  uint64_t episodes_done_ = 0;
  uint32_t awaiting_ = 0;     // harts awaiting their release
  uint32_t result_ = 0;       // of the episode under way
};

Scenario::Scenario(FuzzInput& in) {
  const uint8_t flags = in.byte();
  if (flags & 0x80) {
    probe_config(in);
  }
  shape_.boards_x = 1 + in.below(8);
  shape_.boards_y = 1 + in.below(8);
  // Only the number of threads per board matters to the detector; any shape
  // that gives it will do, powers of two or not.
  shape_.tiles_x = 1 + in.below(2);
  shape_.tiles_y = 1;
  shape_.cores_per_tile = 1 + in.below(3);
  shape_.threads_per_core = 1 + in.below(4);
  while (tessera_num_threads(&shape_) > kMaxHarts) {
    shape_.boards_y > 1 ? shape_.boards_y-- : shape_.boards_x--;
  }
  static const uint32_t kHops[] = {0, 1, 7, 150, 1000};
  l_ = in.pick(kHops);
  master_ = (flags & 1) ? TESSERA_TERMDET_MASTER_CENTRE : TESSERA_TERMDET_MASTER_ORIGIN;
  boards_ = shape_.boards_x * shape_.boards_y;
  per_board_ = tessera_threads_per_board(&shape_);
  num_harts_ = boards_ * per_board_;

  const TesseraTermdetConfig config{shape_, l_, master_, false};
  TesseraTermdetHost host{};
  host.opaque = this;
  host.wake = [](void* self, uint32_t hart) {
    static_cast<Scenario*>(self)->wakes_.push_back(hart);
  };
  // Without a host the detector tells nobody: releases are found by state.
  wakes_on_ = (flags & 2) == 0;
  td_ = tessera_termdet_new(&config, wakes_on_ ? &host : nullptr);
  FUZZ_CHECK(td_ != nullptr, "tessera_termdet_new refused %ux%u boards of %u threads",
             shape_.boards_x, shape_.boards_y, per_board_);
  harts_.resize(num_harts_);

  uint32_t farthest = 0;
  for (uint32_t b = 0; b < boards_; b++) {
    FUZZ_CHECK(tessera_termdet_hops(td_, b) == hops(b), "board %u is %u hops away, not %u", b,
               tessera_termdet_hops(td_, b), hops(b));
    farthest = std::max(farthest, hops(b));
  }
  FUZZ_CHECK(tessera_termdet_hops(td_, boards_) == UINT32_MAX, "hops of a missing board");
  rtt_ = 2ull * l_ * farthest;
  FUZZ_CHECK(tessera_termdet_rtt(td_) == rtt_, "round trip %llu, not %llu",
             static_cast<unsigned long long>(tessera_termdet_rtt(td_)),
             static_cast<unsigned long long>(rtt_));
  for (uint32_t h = 0; h < num_harts_; h += 1 + h / 4) {
    FUZZ_CHECK(tessera_termdet_board_of(td_, h) == board_of(h), "board of hart %u", h);
  }
}

// docs/idle.md, "The master", written out again.
uint32_t Scenario::hops(uint32_t board) const {
  const uint32_t x = board % shape_.boards_x, y = board / shape_.boards_x;
  if (master_ == TESSERA_TERMDET_MASTER_ORIGIN) {
    return x + y + 1;
  }
  return static_cast<uint32_t>(distance(x, shape_.boards_x / 2) +
                               distance(y, shape_.boards_y / 2));
}

// TESSERA_FUZZ_TRACE=1: print every operation, to follow a crashing input.
bool tracing() {
  static const bool on = getenv("TESSERA_FUZZ_TRACE") != nullptr;
  return on;
}

void Scenario::step(FuzzInput& in) {
  const uint8_t kind = in.byte();
  const uint32_t hart = in.below(num_harts_);
  if (tracing()) {
    const TesseraTermdetStats s = stats();
    fprintf(stderr, "op %u hart %u (pending %zu, rounds %llu/%llu, detections %llu)\n",
            kind % 12, hart, tessera_termdet_pending(td_),
            static_cast<unsigned long long>(s.rounds),
            static_cast<unsigned long long>(s.rounds_started),
            static_cast<unsigned long long>(s.detections));
  }
  switch (kind % 12) {
    case 0:
    case 1:
      send(hart, in);
      break;
    case 2:
      receive(hart);
      break;
    case 3:
    case 4:
      enter(hart, in.flag());
      break;
    case 5:
      interrupt(hart);
      break;
    case 6:
      host_inject(in);
      break;
    case 7:
      host_take();
      break;
    case 8:
    case 9:
      run_step(in.byte());
      break;
    case 10:
      if (in.flag()) {
        process();
      } else {
        misuse(in);
      }
      break;
    default: {
      static const uint32_t kSpans[] = {1, 10, 200, 5000, 1u << 24};
      const uint32_t span = in.below(in.pick(kSpans));
      if (in.flag()) {
        host_now_ += span;
      } else {
        harts_[hart].now += span;
      }
      break;
    }
  }
  after_op();
}

// A running thread sends to a thread or to the host, once its board may.
void Scenario::send(uint32_t hart, FuzzInput& in) {
  const uint32_t dest = in.below(num_harts_ + 1);  // num_harts_: the host
  Hart& h = harts_[hart];
  if (!running(hart)) {
    return;  // blocked in idle
  }
  const TesseraTermdetStats s = stats();
  const uint64_t at = tessera_termdet_send_at(td_, board_of(hart), h.now);
  check_send_at(board_of(hart), h.now, at, s);
  if (at == kDisabled) {
    return;  // it waits until the steps that enable its board have run
  }
  h.now = at;
  tessera_termdet_sent(td_, board_of(hart), at);
  in_flight_++;
  if (dest == num_harts_) {
    for_host_++;
  } else {
    harts_[dest].available++;
  }
}

void Scenario::check_send_at(uint32_t board, uint64_t t, uint64_t at,
                             const TesseraTermdetStats& s) {
  const bool host = board == TESSERA_TERMDET_HOST;
  const bool releasing = s.detections > s.episodes;
  // Phase 2: no sends until phase 3 reaches the board (the host: until it
  // has completed), or a released thread could wake one not yet released.
  FUZZ_CHECK(awaiting_ == 0 || at == kDisabled,
             "%s may send while %u threads still await their release", host ? "the host" : "a board",
             awaiting_);
  if (host) {
    FUZZ_CHECK((at == kDisabled) == releasing, "host send_at %llu with a release %s",
               static_cast<unsigned long long>(at), releasing ? "under way" : "not under way");
  } else if (!releasing) {
    FUZZ_CHECK(at != kDisabled, "board %u may not send with no release under way", board);
  }
  if (at == kDisabled) {
    return;
  }
  // docs/idle.md, "Timing model": phase 3 reaches board b at D + rtt + L h_b;
  // the host may send from D + 2 rtt.
  uint64_t enabled = 0;
  if (s.detections > 0) {
    enabled = s.last_detection + (host ? 2 * rtt_ : rtt_ + uint64_t{l_} * hops(board));
  }
  FUZZ_CHECK(at == std::max(t, enabled), "%s at %llu may send at %llu, not %llu",
             host ? "the host" : "a board", static_cast<unsigned long long>(t),
             static_cast<unsigned long long>(at),
             static_cast<unsigned long long>(std::max(t, enabled)));
}

void Scenario::host_inject(FuzzInput& in) {
  const uint32_t dest = in.below(num_harts_);
  const uint64_t at = tessera_termdet_send_at(td_, TESSERA_TERMDET_HOST, host_now_);
  check_send_at(TESSERA_TERMDET_HOST, host_now_, at, stats());
  if (at == kDisabled) {
    return;
  }
  host_now_ = at;
  tessera_termdet_sent(td_, TESSERA_TERMDET_HOST, at);
  in_flight_++;
  harts_[dest].available++;
}

void Scenario::host_take() {
  if (for_host_ == 0) {
    return;
  }
  tessera_termdet_received(td_, TESSERA_TERMDET_HOST, host_now_);
  for_host_--;
  in_flight_--;
}

// A thread with a message: woken from idle if it was there (tinselIdle
// returns 0), then it receives and frees it.
void Scenario::receive(uint32_t hart) {
  Hart& h = harts_[hart];
  if (h.available == 0) {
    return;
  }
  if (h.state == State::kIdle) {
    FUZZ_CHECK(!h.awaiting_release,
               "hart %u, idle at the detection, got a message before its release", hart);
    FUZZ_CHECK(tessera_termdet_idle_leave(td_, hart, h.now), "hart %u could not leave idle for "
               "a message", hart);
    h.state = State::kActive;
    idle_--;
    false_votes_ -= h.vote ? 0 : 1;
  }
  tessera_termdet_received(td_, board_of(hart), h.now);
  h.available--;
  in_flight_--;
}

void Scenario::enter(uint32_t hart, bool vote) {
  Hart& h = harts_[hart];
  if (!running(hart) || h.available > 0) {
    return;  // tinselIdle with a message available returns 0 at once
  }
  FUZZ_CHECK(tessera_termdet_idle_enter(td_, hart, vote, h.now), "hart %u could not enter idle",
             hart);
  h.state = State::kIdle;
  h.vote = vote;
  h.since = h.now;
  idle_++;
  false_votes_ += vote ? 0 : 1;
  // A thread interrupted after the detection that is idle again when phase 2
  // reaches its board is released with the others (with the episode's
  // result: the detection's votes).
  const TesseraTermdetStats s = stats();
  if (s.detections > s.episodes && release_pending(board_of(hart))) {
    h.awaiting_release = true;
    awaiting_++;
  }
}

bool Scenario::release_pending(uint32_t board) const {
  TesseraTermdetStep step;
  for (size_t i = 0; tessera_termdet_pending_step(td_, i, &step); i++) {
    if (step.kind == TESSERA_TERMDET_STEP_RELEASE && step.board == board) {
      return true;
    }
  }
  return false;
}

// A thread leaves idle without a message: an interrupt handler or a debugger
// ended its tinselIdle call (mailbox.h; tessera_termdet_idle_abandon).
void Scenario::interrupt(uint32_t hart) {
  Hart& h = harts_[hart];
  if (h.state != State::kIdle) {
    return;
  }
  FUZZ_CHECK(tessera_termdet_idle_abandon(td_, hart, h.now), "hart %u could not abandon idle",
             hart);
  h.state = State::kActive;
  idle_--;
  false_votes_ -= h.vote ? 0 : 1;
  if (h.awaiting_release) {
    // Termination was real when detected; this one just will not be released.
    h.awaiting_release = false;
    awaiting_--;
  }
}

void Scenario::run_step(uint32_t choice) {
  const size_t pending = tessera_termdet_pending(td_);
  FUZZ_CHECK(pending <= boards_, "%zu steps pending for %u boards", pending, boards_);
  if (pending == 0) {
    return;
  }
  // At most one step per board is pending at any time (termdet.c).
  std::vector<bool> seen(boards_, false);
  for (size_t i = 0; i < pending; i++) {
    TesseraTermdetStep step;
    FUZZ_CHECK(tessera_termdet_pending_step(td_, i, &step), "pending step %zu of %zu", i, pending);
    FUZZ_CHECK(step.board < boards_ && !seen[step.board] &&
                   step.kind >= TESSERA_TERMDET_STEP_DELIVER &&
                   step.kind <= TESSERA_TERMDET_STEP_ENABLE,
               "pending step %zu: kind %d board %u", i, step.kind, step.board);
    seen[step.board] = true;
  }
  FUZZ_CHECK(tessera_termdet_run_step(td_, choice % pending), "run_step %zu of %zu",
             choice % pending, pending);
}

void Scenario::process() {
  tessera_termdet_process(td_);
  FUZZ_CHECK(tessera_termdet_pending(td_) == 0, "steps left after process()");
}

// Calls the API forbids or that name nothing: refused, changing nothing.
void Scenario::misuse(FuzzInput& in) {
  const uint32_t hart = in.below(num_harts_);
  const uint32_t beyond = num_harts_ + in.below(1000);
  switch (in.below(6)) {
    case 0:
      if (harts_[hart].state == State::kIdle) {
        FUZZ_CHECK(!tessera_termdet_idle_enter(td_, hart, in.flag(), 0),
                   "hart %u entered idle twice", hart);
      } else {
        FUZZ_CHECK(!tessera_termdet_idle_leave(td_, hart, 0) &&
                       !tessera_termdet_idle_abandon(td_, hart, 0),
                   "hart %u left idle while not idle", hart);
      }
      break;
    case 1:
      FUZZ_CHECK(!tessera_termdet_idle_enter(td_, beyond, true, 0) &&
                     !tessera_termdet_idle_leave(td_, beyond, 0) &&
                     !tessera_termdet_idle_abandon(td_, beyond, 0),
                 "hart %u of %u entered or left idle", beyond, num_harts_);
      break;
    case 2: {
      uint32_t result = 7;
      uint64_t resume = 7;
      FUZZ_CHECK(tessera_termdet_hart_state(td_, beyond, &result, &resume) ==
                         TESSERA_TERMDET_ACTIVE &&
                     result == 0 && resume == 0,
                 "state of hart %u of %u", beyond, num_harts_);
      break;
    }
    case 3: {
      const size_t pending = tessera_termdet_pending(td_);
      TesseraTermdetStep step;
      FUZZ_CHECK(!tessera_termdet_run_step(td_, pending + in.below(4)) &&
                     !tessera_termdet_pending_step(td_, pending + in.below(4), &step),
                 "a step beyond the %zu pending", pending);
      break;
    }
    case 4:
      // Boards that do not exist: ignored (the final check would notice a
      // count that moved).
      tessera_termdet_sent(td_, boards_ + in.below(16), 0);
      tessera_termdet_received(td_, boards_ + in.below(16), 0);
      break;
    default:
      FUZZ_CHECK(tessera_termdet_send_at(td_, boards_ + in.below(16), 42) == 42,
                 "send_at of a missing board");
      break;
  }
}

// DESIGN 1.2: at a detection every thread is blocked in idle and no message
// is undelivered. The release carries 3 only if every one voted true.
void Scenario::judge_detection(const TesseraTermdetStats& s) {
  FUZZ_CHECK(s.detections == episode_ + 1, "detections jumped from %llu to %llu",
             static_cast<unsigned long long>(episode_),
             static_cast<unsigned long long>(s.detections));
  FUZZ_CHECK(idle_ == num_harts_ && in_flight_ == 0,
             "false termination: detected with %u of %u threads idle and %llu messages "
             "undelivered",
             idle_, num_harts_, static_cast<unsigned long long>(in_flight_));
  FUZZ_CHECK(awaiting_ == 0, "a detection before the previous episode's releases");
  episode_ = s.detections;
  result_ = false_votes_ == 0 ? TESSERA_TERMDET_RESULT_VOTED : TESSERA_TERMDET_RESULT_RELEASED;
  for (uint32_t h = 0; h < num_harts_; h++) {
    // Idle, or already released by this very operation.
    FUZZ_CHECK(tessera_termdet_hart_state(td_, h, nullptr, nullptr) != TESSERA_TERMDET_ACTIVE,
               "hart %u is idle, the detector says active", h);
    FUZZ_CHECK(s.last_detection >= harts_[h].since,
               "detected at %llu, before hart %u went idle at %llu",
               static_cast<unsigned long long>(s.last_detection), h,
               static_cast<unsigned long long>(harts_[h].since));
    harts_[h].awaiting_release = true;
  }
  awaiting_ = num_harts_;
}

void Scenario::judge_release(uint32_t hart, const TesseraTermdetStats& s) {
  Hart& h = harts_[hart];
  uint32_t result = 0;
  uint64_t resume = 0;
  tessera_termdet_hart_state(td_, hart, &result, &resume);
  FUZZ_CHECK(result == result_, "hart %u released with %u, every vote says %u", hart, result,
             result_);
  // docs/idle.md, "Timing model": phase 2 reaches board b at D + L h_b.
  const uint64_t expected =
      std::max(s.last_detection + uint64_t{l_} * hops(board_of(hart)), h.since);
  FUZZ_CHECK(resume == expected, "hart %u resumes at %llu, not %llu", hart,
             static_cast<unsigned long long>(resume), static_cast<unsigned long long>(expected));
  h.state = State::kReleased;
  h.awaiting_release = false;
  h.now = std::max(h.now, resume);
  awaiting_--;
  idle_--;
  false_votes_ -= h.vote ? 0 : 1;
}

void Scenario::after_op() {
  const TesseraTermdetStats s = stats();
  if (s.detections != episode_) {
    judge_detection(s);
  }
  // The threads released by this operation: those awaiting a release whose
  // state says RELEASED. Each must have been woken once, and nobody else.
  size_t released = 0;
  for (uint32_t h = 0; awaiting_ > 0 && h < num_harts_; h++) {
    if (!harts_[h].awaiting_release ||
        tessera_termdet_hart_state(td_, h, nullptr, nullptr) != TESSERA_TERMDET_RELEASED) {
      continue;
    }
    FUZZ_CHECK(!wakes_on_ || std::count(wakes_.begin(), wakes_.end(), h) == 1,
               "hart %u released without exactly one wake", h);
    judge_release(h, s);
    released++;
  }
  FUZZ_CHECK(wakes_.size() == (wakes_on_ ? released : 0),
             "%zu wakes for %zu threads released", wakes_.size(), released);
  wakes_.clear();
  FUZZ_CHECK(s.rounds == s.failed_rounds + s.detections && s.rounds <= s.rounds_started &&
                 s.episodes <= s.detections && s.detections <= s.episodes + 1 &&
                 s.stalled_rounds <= s.failed_rounds,
             "inconsistent stats: started %llu rounds %llu failed %llu detections %llu "
             "episodes %llu",
             static_cast<unsigned long long>(s.rounds_started),
             static_cast<unsigned long long>(s.rounds),
             static_cast<unsigned long long>(s.failed_rounds),
             static_cast<unsigned long long>(s.detections),
             static_cast<unsigned long long>(s.episodes));
  if (s.episodes != episodes_done_) {
    // Phase 3 is over: phase 2 released every thread idle at the detection
    // (unless the host was told nothing: no wake callback).
    FUZZ_CHECK(awaiting_ == 0, "episode %llu ended with %u threads never released",
               static_cast<unsigned long long>(s.episodes), awaiting_);
    episodes_done_ = s.episodes;
  }
}

void Scenario::finish(FuzzInput& in) {
  // Every message is received (idle receivers are woken by it) or taken.
  for (uint32_t h = 0; h < num_harts_; h++) {
    while (harts_[h].available > 0) {
      receive(h);
      after_op();
    }
  }
  while (for_host_ > 0) {
    host_take();
  }
  after_op();
  FUZZ_CHECK(in_flight_ == 0, "messages left after the drain");
  // Every thread idle: the pending steps, in the order the input chooses, then
  // all the rest, must release them all.
  for (int attempt = 0;; attempt++) {
    for (uint32_t h = 0; h < num_harts_; h++) {
      enter(h, (in.byte() & 1) == 0);
    }
    after_op();
    const TesseraTermdetStats before = stats();
    for (int i = 0; i < 64 && !in.empty() && tessera_termdet_pending(td_) > 0; i++) {
      run_step(in.byte());
      after_op();
    }
    process();
    after_op();
    bool all_released = true;
    for (const Hart& h : harts_) {
      all_released = all_released && h.state == State::kReleased;
    }
    if (all_released) {
      break;
    }
    // Only the end of an episode already under way may release some threads
    // and leave the others, idle again, for the next one.
    FUZZ_CHECK(attempt == 0 && before.detections > before.episodes,
               "missed termination: every thread idle, nothing in flight, all steps run, "
               "and %u threads are not released",
               idle_);
  }
  const TesseraTermdetStats s = stats();
  FUZZ_CHECK(s.detections == s.episodes && tessera_termdet_pending(td_) == 0,
             "the episode did not complete");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  Scenario scenario(in);
  for (int i = 0; i < kMaxOperations && !in.empty(); i++) {
    scenario.step(in);
  }
  scenario.finish(in);
  return 0;
}
