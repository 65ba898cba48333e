// libFuzzer target: a dev board's mailbox in software (boards/services/mailbox_service.cc, on
// the mailbox model's rules, tessera/models/mailbox_rules.h), built for the host with stand-ins
// for what the board supplies (its shape, its console, the threads' wake). Any number of threads of
// one tile, then sends, multicasts, sends to the host, receives, frees (by any thread of the tile),
// waits and tinselIdle calls by any thread in any order, against a shadow of every thread
// (docs/fuzzing.md, docs/boards.md).
//
// Invariants: every CSR answers as the rules give (DONE, BLOCKED, or the fault); every message
// arrives once, intact, in order from each sender to each receiver, and only at its receivers;
// a thread blocked in a wait is woken once what it waits for holds; tinselIdle releases only when
// every thread is in it and no message is undelivered, and then with the AND of the votes.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "mailbox_service.h"
#include "tessera/board/board.h"
#include "tessera/hw/regs.h"
#include "threads.h"

// The board's scratchpad (board.ld reserves it on a board).
extern "C" {
alignas(64) char __tessera_scratch[TESSERA_SCRATCH_SIZE];
}

namespace {

using fuzz::FuzzInput;
// The service's answer (tessera/models/access.h) as the shadow reads it: *result is the value
// read, or the fault's code.
enum class Result { kDone, kBlocked, kFault };
Result Csr(uint32_t t, uint32_t csr, uint32_t value, bool write, uint32_t* result) {
  const TesseraAccess a = tessera::board::mailbox::csr(t, csr, value, write);
  *result = a.status == TESSERA_ACCESS_FAULT ? static_cast<uint32_t>(a.code) : a.value;
  FUZZ_CHECK(
      a.status != TESSERA_ACCESS_FAULT || (a.error != nullptr && a.code != TESSERA_FAULT_NONE),
      "a fault without its name or code");
  switch (a.status) {
    case TESSERA_ACCESS_DONE:
      return Result::kDone;
    case TESSERA_ACCESS_BLOCKED:
      return Result::kBlocked;
    case TESSERA_ACCESS_FAULT:
      return Result::kFault;
    default:
      FUZZ_CHECK(false, "csr 0x%x: status %d", csr, static_cast<int>(a.status));
      return Result::kFault;
  }
}

constexpr int kMaxOperations = 2000;
// Either bit makes a wait a tinselIdle call.
constexpr uint32_t kIdleBits = TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE;

uint32_t g_threads = 1;
std::set<uint32_t> g_woken;
std::vector<std::string> g_console;

}  // namespace

// What the board supplies (tessera/board/board.h, threads.h), for this harness.
namespace tessera::board {
Layout layout() {
  return Layout{TesseraShape{1, 1, 1, 1, 1, g_threads}, 1, 100, 1u << 20, 4096};
}
void console_line(const char* line, size_t length) {
  g_console.emplace_back(line, length);
}
void finish(int status) {
  FUZZ_CHECK(false, "the services ended the run (status %d)", status);
}
namespace threads {
void wake(uint32_t index) {
  g_woken.insert(index);
}
}  // namespace threads
}  // namespace tessera::board

namespace {

struct Shadow {
  bool sending = false;             // an outbound message not yet at every receiver
  std::set<uint32_t> held;          // received slots it has not freed
  uint32_t blocked = 0;             // the conditions of a wait that blocked, 0 if none
  bool idle = false, vote = false;  // in tinselIdle
  uint32_t next_seq = 0;
  uint32_t send_len = 0;  // SEND_LEN's value (flits - 1), 0 at reset
};

class Scenario {
 public:
  explicit Scenario(uint32_t threads) : n_(threads), shadow_(threads) {
    g_threads = threads;
    g_woken.clear();
    g_console.clear();
    memset(__tessera_scratch, 0, sizeof __tessera_scratch);
    tessera::board::mailbox::init();
    slots_ = TESSERA_SLOTS_PER_TILE / n_;
    // Every thread gives its receive slots to hardware, as the runtime does.
    for (uint32_t t = 0; t < n_; t++) {
      for (uint32_t k = 1; k < slots_; k++) Expect(t, TESSERA_CSR_FREE, Slot(t, k), Result::kDone);
    }
  }

  void Send(uint32_t t, uint64_t to, bool multicast, uint32_t flits) {
    Shadow& s = shadow_[t];
    volatile uint32_t* words = Words(Slot(t, 0));
    const uint32_t seq = s.next_seq;
    for (uint32_t k = 0; k < 16; k++) words[k] = t << 24 | seq << 4 | k;
    // csrrw: a register's write reads its old value; SEND_PTR starts at the thread's send slot.
    ExpectRead(t, TESSERA_CSR_SEND_LEN, flits - 1, s.send_len);
    s.send_len = flits - 1;
    ExpectRead(t, TESSERA_CSR_SEND_PTR, Slot(t, 0), Slot(t, 0));
    const uint32_t csr = multicast ? TESSERA_CSR_MCAST_SEND : TESSERA_CSR_SEND;
    uint32_t value;
    if (multicast) {
      Expect(t, TESSERA_CSR_MCAST_HI, static_cast<uint32_t>(to >> 32), Result::kDone);
      Expect(t, TESSERA_CSR_MCAST_LO, static_cast<uint32_t>(to), Result::kDone);
      value = 0;  // mailbox 0: the board's one tile
    } else {
      value = to == 0 ? tessera_host_id(&shape_) : __builtin_ctzll(to);
    }
    if (s.sending) {
      Fault(t, csr, value, TESSERA_FAULT_SEND_BUSY);
      return;
    }
    const size_t lines = g_console.size();
    Expect(t, csr, value, Result::kDone);
    s.next_seq++;
    if (!multicast && to == 0) {
      FUZZ_CHECK(
          g_console.size() == lines + 1 &&
              g_console.back().rfind(
                  "tessera-board: host 0x" + Hex(t) + " " + std::to_string(flits) + " ", 0) == 0,
          "a message to the host is not its console line");
      return;
    }
    for (uint32_t d = 0; d < n_; d++) {
      if ((to >> d & 1) == 0) continue;
      expected_[{t, d}].push_back({seq, flits});
      in_flight_++;
    }
    s.sending = true;  // until the shadow sees every copy out (CheckCanSend)
  }

  void Receive(uint32_t t) {
    uint32_t slot = 0;
    const Result r = Csr(t, TESSERA_CSR_RECV, 0, true, &slot);
    Shadow& s = shadow_[t];
    s.idle = false;
    if (r == Result::kFault) {
      FUZZ_CHECK(slot == TESSERA_FAULT_RECV_EMPTY, "RECV fault %u", slot);
      FUZZ_CHECK(!Waiting(t), "RECV empty while a message waits for %u", t);
      return;
    }
    FUZZ_CHECK(r == Result::kDone, "RECV blocked");
    Took(t, slot);
  }

  // RECV_FREE: frees a slot t holds (or none), then receives if a message waits, and reads
  // can-send in bit 0 as CAN_SEND would.
  void RecvFree(uint32_t t, bool free_one) {
    Shadow& s = shadow_[t];
    const uint32_t freed = free_one && !s.held.empty() ? *s.held.begin() : 0;
    uint32_t got = 0;
    const Result r = Csr(t, TESSERA_CSR_RECV_FREE, freed, true, &got);
    s.idle = false;
    FUZZ_CHECK(r == Result::kDone, "RECV_FREE 0x%x by %u: %d (0x%x)", freed, t, static_cast<int>(r),
               got);
    if (freed != 0) {
      s.held.erase(freed);
      in_flight_--;
    }
    uint32_t can_send = 0;
    FUZZ_CHECK(Csr(t, TESSERA_CSR_CAN_SEND, 0, true, &can_send) == Result::kDone,
               "CAN_SEND refused");
    FUZZ_CHECK((got & TESSERA_RECV_FREE_CAN_SEND) == can_send,
               "RECV_FREE read can-send %u, CAN_SEND %u", got & TESSERA_RECV_FREE_CAN_SEND,
               can_send);
    const uint32_t slot = got & ~uint32_t{TESSERA_BYTES_PER_SLOT - 1};
    if (slot == 0) {
      FUZZ_CHECK(!Waiting(t), "RECV_FREE took nothing while a message waits for %u", t);
      return;
    }
    Took(t, slot);
  }

  // t received the message in `slot`: in order, intact, meant for it.
  void Took(uint32_t t, uint32_t slot) {
    Shadow& s = shadow_[t];
    volatile uint32_t* words = Words(slot);
    const uint32_t from = words[0] >> 24, seq = words[0] >> 4 & 0xfffff;
    auto& queue = expected_[{from, t}];
    FUZZ_CHECK(from < n_ && !queue.empty() && queue.front().seq == seq,
               "thread %u received seq %u from %u out of order or unsent", t, seq, from);
    for (uint32_t k = 0; k < queue.front().flits * 4; k++) {
      FUZZ_CHECK(words[k] == (from << 24 | seq << 4 | k), "word %u of a message changed", k);
    }
    queue.pop_front();
    s.held.insert(slot);
  }

  void Free(uint32_t t, uint32_t owner) {
    Shadow& o = shadow_[owner];
    if (o.held.empty()) {
      // A slot no thread holds is hardware's (empty, or holding a message not yet received):
      // freeing it is a double free.
      const uint32_t slot = Slot(owner, 1);
      for (const Shadow& other : shadow_) {
        if (other.held.count(slot) != 0) return;
      }
      Fault(t, TESSERA_CSR_FREE, slot, TESSERA_FAULT_DOUBLE_FREE);
      return;
    }
    const uint32_t slot = *o.held.begin();
    o.held.erase(o.held.begin());
    Expect(t, TESSERA_CSR_FREE, slot, Result::kDone);
    in_flight_--;
  }

  void Wait(uint32_t t, uint32_t conditions) {
    uint32_t result = 0;
    const Result r = Csr(t, TESSERA_CSR_WAIT_UNTIL, conditions, true, &result);
    Shadow& s = shadow_[t];
    if ((conditions & kIdleBits) == 0) s.idle = false;
    if (conditions == 0 || (conditions & ~0xfu) != 0) {
      FUZZ_CHECK(r == Result::kFault && result == TESSERA_FAULT_BAD_WAIT, "bad wait taken");
      return;
    }
    if (r == Result::kDone) {
      if ((result & TESSERA_WAIT_IDLE) != 0) {
        if (released_.count(t) == 0) {
          // Termination completed inside this call: t was the last to come.
          bool others_idle = true, vote = (conditions & TESSERA_WAIT_IDLE_VOTE) != 0;
          for (uint32_t o = 0; o < n_; o++) {
            if (o == t) continue;
            others_idle = others_idle && shadow_[o].idle;
            vote = vote && shadow_[o].vote;
          }
          FUZZ_CHECK(others_idle && in_flight_ == 0 && !Waiting(t),
                     "thread %u released before termination", t);
          ReleaseAll(vote);
        }
        FUZZ_CHECK(((result & TESSERA_WAIT_IDLE_VOTE) != 0) == release_vote_,
                   "a release's vote is not the AND of the votes");
        released_.erase(t);
        s.idle = false;
      } else {
        FUZZ_CHECK(result != 0, "a wait ended with nothing holding");
        s.idle = false;
      }
      s.blocked = 0;
      return;
    }
    FUZZ_CHECK(r == Result::kBlocked, "WAIT_UNTIL fault %u", result);
    s.blocked = conditions;
    if ((conditions & kIdleBits) != 0 && !s.idle) {
      s.idle = true;
      s.vote = (conditions & TESSERA_WAIT_IDLE_VOTE) != 0;
    }
    g_woken.erase(t);
  }

  // After every operation: the shadow's view of can-send, and every woken wait issued again.
  void Settle() {
    for (uint32_t t = 0; t < n_; t++) {
      if (tessera::board::mailbox::peek(t, TESSERA_CSR_CAN_SEND) != 0) shadow_[t].sending = false;
    }
    // Every thread in tinselIdle and nothing undelivered: the detector must have released.
    bool all_idle = true, all_vote = true;
    for (const Shadow& s : shadow_) {
      all_idle = all_idle && s.idle;
      all_vote = all_vote && s.vote;
    }
    if (all_idle && in_flight_ == 0) {
      for (uint32_t t = 0; t < n_; t++) {
        FUZZ_CHECK(g_woken.count(t) != 0, "terminated, but thread %u was not woken", t);
      }
      ReleaseAll(all_vote);
    }
    for (uint32_t t = 0; t < n_; t++) {
      Shadow& s = shadow_[t];
      if (s.blocked == 0) continue;
      const bool holds = ((s.blocked & TESSERA_WAIT_CAN_SEND) && !s.sending) ||
                         ((s.blocked & (TESSERA_WAIT_CAN_RECV | kIdleBits)) && Waiting(t));
      if (holds || released_.count(t) != 0) {
        FUZZ_CHECK(g_woken.count(t) != 0, "thread %u waits for what holds, unwoken", t);
        Wait(t, s.blocked);
        FUZZ_CHECK(s.blocked == 0, "thread %u woken, and its wait blocks again", t);
      }
    }
  }

  uint32_t threads() const { return n_; }
  // A thread blocked in a wait issues nothing else until it is woken.
  bool blocked(uint32_t t) const { return shadow_[t].blocked != 0; }

 private:
  struct Expected {
    uint32_t seq, flits;
  };

  // Termination: every thread is released with the AND of the votes, and is in idle no more.
  void ReleaseAll(bool vote) {
    for (uint32_t t = 0; t < n_; t++) {
      released_.insert(t);
      shadow_[t].idle = false;
    }
    release_vote_ = vote;
  }

  static std::string Hex(uint32_t x) {
    char text[16];
    snprintf(text, sizeof text, "%x", x);
    return text;
  }

  uint32_t Slot(uint32_t t, uint32_t k) const {
    return TESSERA_SCRATCH_BASE + (t * slots_ + k) * TESSERA_BYTES_PER_SLOT;
  }

  static volatile uint32_t* Words(uint32_t slot) {
    return reinterpret_cast<volatile uint32_t*>(__tessera_scratch + (slot - TESSERA_SCRATCH_BASE));
  }

  // A message waits for t.
  static bool Waiting(uint32_t t) {
    return tessera::board::mailbox::peek(t, TESSERA_CSR_CAN_RECV) != 0;
  }

  void ExpectRead(uint32_t t, uint32_t csr, uint32_t value, uint32_t old) {
    uint32_t result = 0;
    const Result r = Csr(t, csr, value, true, &result);
    FUZZ_CHECK(r == Result::kDone && result == old,
               "CSR 0x%x (0x%x) by thread %u: result %d, read 0x%x, expected the old 0x%x", csr,
               value, t, static_cast<int>(r), result, old);
    shadow_[t].idle = false;  // any other CSR ends a tinselIdle call
  }

  void Expect(uint32_t t, uint32_t csr, uint32_t value, Result expected) {
    uint32_t result = 0;
    const Result r = Csr(t, csr, value, true, &result);
    FUZZ_CHECK(r == expected, "CSR 0x%x (0x%x) by thread %u: result %d, expected %d (value %u)",
               csr, value, t, static_cast<int>(r), static_cast<int>(expected), result);
    shadow_[t].idle = false;  // any other CSR ends a tinselIdle call
  }

  void Fault(uint32_t t, uint32_t csr, uint32_t value, uint32_t fault) {
    uint32_t result = 0;
    const Result r = Csr(t, csr, value, true, &result);
    shadow_[t].idle = false;
    FUZZ_CHECK(r == Result::kFault && result == fault, "CSR 0x%x: expected fault %u, got %d/%u",
               csr, fault, static_cast<int>(r), result);
  }

  const uint32_t n_;
  const TesseraShape shape_{1, 1, 1, 1, 1, n_};
  uint32_t slots_ = 0;
  std::vector<Shadow> shadow_;
  std::map<std::pair<uint32_t, uint32_t>, std::deque<Expected>> expected_;
  uint64_t in_flight_ = 0;
  std::set<uint32_t> released_;
  bool release_vote_ = false;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  Scenario s(1u << in.below(4));  // 1, 2, 4 or 8 threads
  const uint32_t n = s.threads();
  for (int op = 0; op < kMaxOperations && !in.empty(); op++) {
    const uint32_t t = in.below(n);
    const uint32_t what = in.below(8);
    if (s.blocked(t)) {
      s.Settle();
      continue;
    }
    switch (what) {
      case 0:
      case 1:
        s.Send(t, in.below(8) == 0 ? 0 : uint64_t{1} << in.below(n), false, 1 + in.below(4));
        break;
      case 2:
        s.Send(t, (in.u64() & (n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1)) | 1, true,
               1 + in.below(4));
        break;
      case 3:
        s.Receive(t);
        break;
      case 4:
        s.RecvFree(t, in.flag());
        break;
      case 5:
        s.Free(t, in.below(n));
        break;
      case 6:
        s.Wait(t, in.below(8) == 0 ? in.below(32) : 1 + in.below(3));
        break;
      case 7:
        s.Wait(t, TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE |
                      (in.flag() ? TESSERA_WAIT_IDLE_VOTE : 0));
        break;
    }
    s.Settle();
  }
  return 0;
}
