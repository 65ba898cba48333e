// libFuzzer target: the reflex switch model (models/reflex.c). A small
// machine (1..12 harts, B of 1..4 flits), then CSRs in any order by any
// hart at its own clock: sends, receives, wait-sends (issued again or
// abandoned), status, route and next writes and reads (good rings, rings
// with no root, open rings, bad values), writes of read-only CSRs, resets
// (docs/fuzzing.md).
//
// A shadow follows every flit (tagged with its sender and number) from its
// sender's outbound buffer to the cores on its path, walking paths with its
// own simple oracle. Invariants: no flit lost or duplicated and each core
// gets each sender's flits in order; inbound and outbound never above B;
// every head that could move has moved; sends and configurations are
// refused exactly when reflex.h says; a flit's arrival is exactly its move
// time (max of its sent time and the credits on its path) plus hops times
// the hop latency when one sender moved in the call (else the order of the
// senders in the call is unknown, so which read slot each used: at least
// its sent time plus the hops); a hart's time never goes back; wakes go
// only to blocked harts that may proceed and none is missed; the wait
// registry lists exactly the blocked harts; no-root errors name a sender
// whose head loops.
#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <deque>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/models/reflex.h"

namespace {

using fuzz::FuzzInput;

constexpr int kMaxOperations = 2000;
constexpr uint32_t kNoNext = TESSERA_REFLEX_NO_NEXT;

enum class Blocked { kNone, kRecv, kWaitSend };

struct Expected {
  uint32_t flit;
  uint64_t arrival;  // exact, or a lower bound
  bool exact;
};

struct Outgoing {
  uint32_t flit;
  uint64_t sent;
};

struct Hart {
  uint32_t route = TESSERA_REFLEX_ROUTE_OFF, next = kNoNext;
  uint64_t clock = 0;
  Blocked blocked = Blocked::kNone;
  bool woken = false;
  uint32_t seq = 0;
  std::deque<Outgoing> out;
  std::vector<Expected> move_times;        // of this sender's flits, in order
  std::vector<std::deque<Expected>> from;  // [sender]: flits on their way to this core
  uint64_t inbound = 0, delivered = 0;
  std::vector<uint64_t> read_times;  // every read, in order
};

class Scenario {
 public:
  Scenario(uint32_t harts, uint32_t b, uint32_t hop) : n_(harts), b_(b), hop_(hop), h_(harts) {
    for (Hart& h : h_) h.from.resize(harts);
    const TesseraShape shape{1, 1, 1, 1, 1, harts};
    waits_ = tessera_waits_new(&shape);
    const TesseraReflexConfig config{shape, b, hop, waits_};
    TesseraReflexHost host{};
    host.opaque = this;
    host.wake = [](void* self, uint32_t hart) { static_cast<Scenario*>(self)->OnWake(hart); };
    r_ = tessera_reflex_new(&config, &host);
    FUZZ_CHECK(waits_ && r_, "no model of %u harts, B %u", harts, b);
  }
  ~Scenario() {
    tessera_reflex_free(r_);
    tessera_waits_free(waits_);
  }
  Scenario(const Scenario&) = delete;
  Scenario& operator=(const Scenario&) = delete;

  uint32_t harts() const { return n_; }

  // One CSR of hart `hart`, `dt` cycles after its last.
  void Csr(uint32_t hart, uint32_t csrno, bool write, uint32_t value, uint64_t dt) {
    Hart& h = h_[hart];
    const uint64_t now = h.clock + dt;
    std::vector<size_t> out_before(n_);
    for (uint32_t i = 0; i < n_; i++) out_before[i] = h_[i].out.size();
    const Blocked op = csrno == TESSERA_CSR_REFLEX_RECV        ? Blocked::kRecv
                       : csrno == TESSERA_CSR_REFLEX_WAIT_SEND ? Blocked::kWaitSend
                                                               : Blocked::kNone;
    if (h.blocked != Blocked::kNone && h.blocked != op) h.blocked = Blocked::kNone;  // abandoned
    h.woken = false;

    // What the model must answer, decided before the call.
    bool refuse = false;
    uint32_t new_next = h.next;
    const bool read_only = csrno == TESSERA_CSR_REFLEX_RECV || csrno == TESSERA_CSR_REFLEX_STATUS ||
                           csrno == TESSERA_CSR_REFLEX_WAIT_SEND;
    if (!tessera_csr_is_reflex(csrno) || (write && read_only) ||
        (!write && csrno == TESSERA_CSR_REFLEX_SEND)) {
      refuse = true;
    } else if (csrno == TESSERA_CSR_REFLEX_SEND) {
      refuse = h.next == kNoNext || h.out.size() == b_ ||
               (h.out.empty() && Walk(hart, nullptr) == Walked::kLoop);
    } else if (csrno == TESSERA_CSR_REFLEX_ROUTE && write) {
      refuse = value > TESSERA_REFLEX_ROUTE_BOTH || (PassesOn(value) && h.next == kNoNext);
    } else if (csrno == TESSERA_CSR_REFLEX_NEXT && write) {
      new_next = value == kNoNext ? kNoNext : value < n_ ? value : n_;
      refuse = new_next == n_ || (new_next == kNoNext && PassesOn(h.route));
    }
    const uint32_t old_route = h.route, old_next = h.next;
    const uint32_t status =
        static_cast<uint32_t>(h.inbound) | static_cast<uint32_t>(b_ - h.out.size()) << 16;

    uint32_t result = 0xdeadbeef;
    uint64_t at = 0;
    const char* error = nullptr;
    // The shadow configuration changes first: the model moves flits inside the call.
    if (!refuse && write && csrno == TESSERA_CSR_REFLEX_ROUTE) h.route = value;
    if (!refuse && write && csrno == TESSERA_CSR_REFLEX_NEXT) h.next = new_next;
    const uint32_t flit = hart << 24 | (h.seq & 0xffffff);
    const TesseraAccessStatus res = tessera_access_unpack(
        tessera_reflex_csr(r_, hart, csrno, write, csrno == TESSERA_CSR_REFLEX_SEND ? flit : value,
                           now),
        &result, &at, &error);
    if (refuse) {
      FUZZ_CHECK(res == TESSERA_ACCESS_GUEST_ERROR && error && result == 0 && at == now,
                 "hart %u: csr 0x%x write %d value 0x%x accepted", hart, csrno, write, value);
      h.clock = now;
      Settle(out_before);
      return;
    }
    FUZZ_CHECK(res != TESSERA_ACCESS_GUEST_ERROR, "hart %u: csr 0x%x value 0x%x refused: %s", hart,
               csrno, value, error ? error : "");
    FUZZ_CHECK(at >= now, "hart %u resumes at %llu before %llu", hart,
               static_cast<unsigned long long>(at), static_cast<unsigned long long>(now));
    switch (csrno) {
      case TESSERA_CSR_REFLEX_SEND: {
        FUZZ_CHECK(result == 1, "an accepted send reads %u", result);
        const Expected slot_free = h.move_times.size() + h.out.size() >= b_
                                       ? h.move_times[h.move_times.size() + h.out.size() - b_]
                                       : Expected{0, 0, true};
        FUZZ_CHECK(slot_free.exact ? at == std::max(now, slot_free.arrival)
                                   : at >= std::max(now, slot_free.arrival),
                   "send resumes at %llu", static_cast<unsigned long long>(at));
        h.out.push_back(Outgoing{flit, at});
        out_before[hart]++;
        h.seq++;
        break;
      }
      case TESSERA_CSR_REFLEX_RECV:
        // The read comes first: the flits it let move used its credit.
        CheckRecv(hart, res, result, now, at);
        h.clock = at;
        Settle(out_before);
        return;
      case TESSERA_CSR_REFLEX_WAIT_SEND:
        if (res == TESSERA_ACCESS_BLOCKED) {
          FUZZ_CHECK(h.out.size() == b_, "wait-send blocked with room");
          h.blocked = Blocked::kWaitSend;
        } else {
          FUZZ_CHECK(h.out.size() < b_ && result == b_ - h.out.size(), "wait-send room %u", result);
          h.blocked = Blocked::kNone;
        }
        break;
      case TESSERA_CSR_REFLEX_STATUS:
        FUZZ_CHECK(result == status, "status 0x%x, shadow 0x%x", result, status);
        break;
      case TESSERA_CSR_REFLEX_ROUTE:
        FUZZ_CHECK(result == old_route, "route read %u, shadow %u", result, old_route);
        break;
      case TESSERA_CSR_REFLEX_NEXT:
        FUZZ_CHECK(result == old_next, "next read 0x%x, shadow 0x%x", result, old_next);
        break;
    }
    if (res == TESSERA_ACCESS_DONE)
      h.clock = at;
    else
      h.clock = now;
    Settle(out_before);
  }

  void Reset() {
    tessera_reflex_reset(r_);
    for (Hart& h : h_) {
      h = Hart{};
      h.from.resize(n_);
    }
    Check();
  }

 private:
  enum class Walked { kMoves, kHeld, kLoop };

  static bool PassesOn(uint32_t route) {
    return route == TESSERA_REFLEX_ROUTE_FORWARD || route == TESSERA_REFLEX_ROUTE_BOTH;
  }
  static bool Delivers(uint32_t route) {
    return route == TESSERA_REFLEX_ROUTE_CORE || route == TESSERA_REFLEX_ROUTE_BOTH;
  }
  bool On(uint32_t s) const {
    return h_[s].route != TESSERA_REFLEX_ROUTE_OFF && h_[s].inbound < b_;
  }
  uint64_t Credit(uint32_t s) const {
    return h_[s].delivered < b_ ? 0 : h_[s].read_times[h_[s].delivered - b_];
  }

  // The path of a flit from `sender` as the shadow's routes are now;
  // `credit` (if given) gets the latest credit on it.
  Walked Walk(uint32_t sender, uint64_t* credit) const {
    uint64_t c = 0;
    uint32_t s = h_[sender].next;
    if (s == kNoNext) return Walked::kHeld;
    for (uint32_t hops = 1;; hops++, s = h_[s].next) {
      if (hops > n_ || (s == sender && PassesOn(h_[s].route))) return Walked::kLoop;
      if (!On(s)) return Walked::kHeld;
      c = std::max(c, Credit(s));
      if (!PassesOn(h_[s].route)) break;
    }
    if (credit) *credit = c;
    return Walked::kMoves;
  }

  // The model's outbound counts against the shadow's: the flits that moved
  // during the call go, in order, to every core on their paths.
  void Settle(std::vector<size_t>& out_before) {
    uint32_t senders = 0;
    for (uint32_t i = 0; i < n_; i++) {
      const uint32_t now_out = tessera_reflex_outbound(r_, i);
      FUZZ_CHECK(now_out <= out_before[i] && out_before[i] == h_[i].out.size(),
                 "hart %u: outbound %u, shadow %zu", i, now_out, h_[i].out.size());
      senders += now_out < out_before[i];
    }
    for (uint32_t i = 0; i < n_; i++) {
      const uint32_t now_out = tessera_reflex_outbound(r_, i);
      while (h_[i].out.size() > now_out) Move(i, senders == 1);
      out_before[i] = h_[i].out.size();
    }
    Check();
  }

  void Move(uint32_t sender, bool exact) {
    const Outgoing f = h_[sender].out.front();
    uint64_t credit = 0;
    FUZZ_CHECK(Walk(sender, &credit) == Walked::kMoves, "hart %u's flit moved on a held path",
               sender);
    const uint64_t t = std::max(f.sent, credit);
    uint32_t s = h_[sender].next;
    for (uint64_t hops = 1;; hops++, s = h_[s].next) {
      Hart& to = h_[s];
      if (Delivers(to.route)) {
        to.from[sender].push_back(Expected{f.flit, (exact ? t : f.sent) + hops * hop_, exact});
        to.inbound++;
        to.delivered++;
      }
      if (!PassesOn(to.route)) break;
    }
    h_[sender].move_times.push_back(Expected{f.flit, exact ? t : f.sent, exact});
    h_[sender].out.pop_front();
  }

  void CheckRecv(uint32_t hart, TesseraAccessStatus res, uint32_t flit, uint64_t now, uint64_t at) {
    Hart& h = h_[hart];
    if (res == TESSERA_ACCESS_BLOCKED) {
      FUZZ_CHECK(h.inbound == 0, "hart %u: receive blocked with %llu flits", hart,
                 static_cast<unsigned long long>(h.inbound));
      h.blocked = Blocked::kRecv;
      return;
    }
    h.blocked = Blocked::kNone;
    const uint32_t sender = flit >> 24;
    FUZZ_CHECK(sender < n_ && !h.from[sender].empty(), "hart %u got 0x%x, which it expects not",
               hart, flit);
    const Expected e = h.from[sender].front();
    FUZZ_CHECK(e.flit == flit, "hart %u got 0x%x, expected 0x%x from hart %u next", hart, flit,
               e.flit, sender);
    if (e.exact) {
      FUZZ_CHECK(at == std::max(now, e.arrival), "hart %u: 0x%x read at %llu, arrival %llu", hart,
                 flit, static_cast<unsigned long long>(at),
                 static_cast<unsigned long long>(e.arrival));
    } else {
      FUZZ_CHECK(at >= std::max(now, e.arrival), "hart %u: 0x%x read at %llu before %llu", hart,
                 flit, static_cast<unsigned long long>(at),
                 static_cast<unsigned long long>(e.arrival));
    }
    h.from[sender].pop_front();
    h.inbound--;
    h.read_times.push_back(at);
  }

  void OnWake(uint32_t hart) {
    FUZZ_CHECK(hart < n_ && h_[hart].blocked != Blocked::kNone && !h_[hart].woken,
               "woke hart %u, which is not blocked", hart);
    h_[hart].woken = true;
  }

  void Check() {
    uint32_t blocked = 0;
    for (uint32_t i = 0; i < n_; i++) {
      Hart& h = h_[i];
      FUZZ_CHECK(tessera_reflex_inbound(r_, i) == h.inbound && h.inbound <= b_,
                 "hart %u: inbound %u, shadow %llu", i, tessera_reflex_inbound(r_, i),
                 static_cast<unsigned long long>(h.inbound));
      FUZZ_CHECK(h.out.size() <= b_, "hart %u: outbound above B", i);
      FUZZ_CHECK(tessera_reflex_switch_on(r_, i) == On(i), "hart %u: switch on/off", i);
      if (!h.out.empty()) {
        FUZZ_CHECK(Walk(i, nullptr) != Walked::kMoves, "hart %u's head could move but did not", i);
      }
      // A wake is due when the blocked operation may complete.
      const bool may = (h.blocked == Blocked::kRecv && h.inbound > 0) ||
                       (h.blocked == Blocked::kWaitSend && h.out.size() < b_);
      FUZZ_CHECK(may == h.woken, "hart %u: %s", i, may ? "missed wake" : "woken too early");
      if (h.woken) h.blocked = Blocked::kNone;
      h.woken = false;
      const char* op = tessera_waits_operation(waits_, i);
      FUZZ_CHECK((op != nullptr) == (h.blocked != Blocked::kNone), "hart %u: registry says %s", i,
                 op ? op : "nothing");
      blocked += h.blocked != Blocked::kNone;
    }
    FUZZ_CHECK(tessera_waits_count(waits_) == blocked, "registry counts %u, shadow %u",
               tessera_waits_count(waits_), blocked);
    uint32_t sender = 0;
    while (const char* e = tessera_reflex_take_error(r_, &sender)) {
      FUZZ_CHECK(sender < n_ && !h_[sender].out.empty() && Walk(sender, nullptr) == Walked::kLoop,
                 "error for hart %u, whose head does not loop: %s", sender, e);
    }
  }

  uint32_t n_, b_, hop_;
  std::vector<Hart> h_;
  TesseraReflex* r_ = nullptr;
  TesseraWaits* waits_ = nullptr;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const uint32_t harts = 1 + in.below(12);
  const uint32_t b = 1 + in.below(4);
  const uint32_t hop = in.below(6);
  Scenario s(harts, b, hop);
  for (int i = 0; i < kMaxOperations && !in.empty(); i++) {
    const uint32_t hart = in.below(harts);
    const uint64_t dt = in.below(8) == 0 ? in.u16() : in.below(4);
    const uint32_t kind = in.below(32);
    if (kind < 7) {
      s.Csr(hart, TESSERA_CSR_REFLEX_SEND, true, 0, dt);
    } else if (kind < 14) {
      s.Csr(hart, TESSERA_CSR_REFLEX_RECV, false, 0, dt);
    } else if (kind < 17) {
      s.Csr(hart, TESSERA_CSR_REFLEX_WAIT_SEND, false, 0, dt);
    } else if (kind < 18) {
      s.Csr(hart, TESSERA_CSR_REFLEX_STATUS, false, 0, dt);
    } else if (kind < 23) {
      // Mostly the routes of a ring; sometimes anything.
      const uint32_t route = in.below(8) == 0 ? in.byte() : in.below(4);
      s.Csr(hart, TESSERA_CSR_REFLEX_ROUTE, true, route, dt);
    } else if (kind < 27) {
      const uint32_t pick = in.below(16);
      const uint32_t next = pick == 0   ? kNoNext
                            : pick == 1 ? harts + in.below(3)
                            : pick < 8  ? (hart + 1) % harts
                                        : in.below(harts);
      s.Csr(hart, TESSERA_CSR_REFLEX_NEXT, true, next, dt);
    } else if (kind < 29) {
      s.Csr(hart, in.below(2) ? TESSERA_CSR_REFLEX_ROUTE : TESSERA_CSR_REFLEX_NEXT, false, 0, dt);
    } else if (kind < 31) {
      // Bad accesses: writes of read-only CSRs, a read of SEND, no reflex CSR.
      const uint32_t csrno = TESSERA_CSR_REFLEX_SEND - 1 + in.below(8);
      s.Csr(hart, csrno, in.flag(), in.byte(), dt);
    } else if (in.below(8) == 0) {
      s.Reset();
    }
  }
  return 0;
}
