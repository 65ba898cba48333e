// libFuzzer target: the counting barrier controller model
// (models/barrier_ctl.c). Any shape and controller position, then entries
// (new, re-issued, collected), count registrations and resets by any hart in
// any order and at any times, against a shadow of every hart, every open
// uid and every registered count (docs/fuzzing.md).
//
// With a uid table of a few slots (uid_slots, a dev board's controller) as often as without.
//
// Invariants: every status is the one the rules of barrier_ctl.h give; an
// episode releases exactly at its count-th arrival, waking exactly its other
// participants; every resume time is DESIGN 1.7's rule, computed here from
// the test's own statement of the mesh latency; refused entries change
// nothing; the log has one BARRIER line per counted arrival and the RESULT,
// WRITE and SYNC lines of each release; the wait registry lists exactly the
// waiting harts; reset forgets everything.
#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/models/barrier_ctl.h"

namespace {

// Bad use is a guest error, with its reason, that still reads its status: DONE for the shadow.
TesseraAccessStatus Completed(TesseraAccessStatus status, const char* error) {
  FUZZ_CHECK((status == TESSERA_ACCESS_GUEST_ERROR) == (error != nullptr),
             "a guest error without a reason, or a reason without one");
  return status == TESSERA_ACCESS_GUEST_ERROR ? TESSERA_ACCESS_DONE : status;
}

using fuzz::FuzzInput;

constexpr int kMaxOperations = 3000;

enum class State { kIdle, kWaiting, kReleased };

struct HartShadow {
  State state = State::kIdle;
  uint32_t value = 0;
  uint64_t src = 0;
  uint64_t resume = 0;
};

struct Episode {
  uint32_t count = 0;
  std::vector<uint32_t> harts;
  uint64_t overflow = 0;
};

class Scenario {
 public:
  Scenario(const TesseraShape& shape, uint32_t tile_hop, uint32_t board_hop, uint32_t at_x,
           uint32_t at_y, uint32_t uid_slots, bool windows)
      : windows_(windows),
        shape_(shape),
        tile_hop_(tile_hop),
        board_hop_(board_hop),
        at_x_(at_x),
        at_y_(at_y),
        num_harts_(tessera_num_threads(&shape)),
        harts_(num_harts_),
        uid_slots_(uid_slots) {
    waits_ = tessera_waits_new(&shape);
    const TesseraBarrierCtlConfig config{shape, tile_hop, board_hop, at_x,
                                         at_y,  waits_,   uid_slots, windows};
    TesseraBarrierCtlHost host{};
    host.opaque = this;
    host.wake = [](void* self, uint32_t hart) {
      static_cast<Scenario*>(self)->woken_.push_back(hart);
    };
    host.log = [](void* self, uint32_t, const char* line) {
      static_cast<Scenario*>(self)->log_.emplace_back(line);
    };
    ctl_ = tessera_barrier_ctl_new(&config, &host);
    FUZZ_CHECK(waits_ != nullptr && ctl_ != nullptr, "no controller");
  }
  ~Scenario() {
    tessera_barrier_ctl_free(ctl_);
    tessera_waits_free(waits_);
  }
  Scenario(const Scenario&) = delete;
  Scenario& operator=(const Scenario&) = delete;

  uint32_t num_harts() const { return num_harts_; }
  // The value hart's entry is outstanding with, if any (for re-issues).
  bool outstanding(uint32_t hart, uint32_t* value) const {
    if (hart >= num_harts_ || harts_[hart].state == State::kIdle) return false;
    *value = harts_[hart].value;
    return true;
  }

  void set_count(uint32_t hart, uint32_t uid, uint32_t count, uint64_t now) {
    uint32_t result = 0;
    uint64_t at = 0;
    const char* error = nullptr;
    const auto r = Completed(
        tessera_access_unpack(
            issue(hart, TESSERA_CSR_BARRIER_COUNT, TESSERA_BARRIER_VALUE(uid, count), now),
            &result, &at, &error),
        error);
    FUZZ_CHECK(r == TESSERA_ACCESS_DONE, "COUNT did not complete");
    if (hart >= num_harts_) {
      FUZZ_CHECK(error != nullptr, "COUNT by no hart accepted");
      return;
    }
    FUZZ_CHECK(result == registered_[uid], "COUNT read %u, registered %u", result,
               registered_[uid]);
    FUZZ_CHECK(at == now + 2 * latency(hart), "COUNT answered at a wrong time");
    if (count > num_harts_) {
      FUZZ_CHECK(error != nullptr, "a count above the harts registered");
    } else if (count != 0 && table_full_for(uid)) {
      FUZZ_CHECK(error != nullptr, "a count registered beyond the uid table");
    } else {
      FUZZ_CHECK(error == nullptr, "COUNT refused: %s", error);
      registered_[uid] = count;
    }
  }

  void enter(uint32_t hart, uint32_t value, uint64_t now) {
    uint32_t status = 0;
    uint64_t at = 0;
    const char* error = nullptr;
    const size_t log_before = log_.size();
    woken_.clear();
    const auto r =
        Completed(tessera_access_unpack(issue(hart, TESSERA_CSR_BARRIER_ENTER, value, now),
                                        &status, &at, &error),
                  error);
    if (hart >= num_harts_) {
      FUZZ_CHECK(r == TESSERA_ACCESS_DONE && error != nullptr, "ENTER by no hart accepted");
      return;
    }
    HartShadow& h = harts_[hart];
    const uint32_t uid = value & TESSERA_BARRIER_UID_MASK;
    uint32_t count = value >> TESSERA_BARRIER_COUNT_SHIFT;
    const uint64_t round_trip = 2 * latency(hart);
    auto refused = [&](uint32_t expected) {
      FUZZ_CHECK(r == TESSERA_ACCESS_DONE && status == expected && error != nullptr,
                 "expected status %u, got result %d status %u", expected, r, status);
      FUZZ_CHECK(at == now + round_trip, "refusal answered at a wrong time");
      FUZZ_CHECK(log_.size() == log_before && woken_.empty(), "a refusal logged or woke");
    };
    if (h.state != State::kIdle && h.value != value) {
      refused(TESSERA_BARRIER_BUSY);
    } else if (h.state == State::kWaiting) {
      FUZZ_CHECK(r == TESSERA_ACCESS_BLOCKED, "a re-issued wait did not block");
      FUZZ_CHECK(log_.size() == log_before && woken_.empty(), "a re-issue logged or woke");
    } else if (h.state == State::kReleased) {
      FUZZ_CHECK(r == TESSERA_ACCESS_DONE && status == TESSERA_BARRIER_OK && !error,
                 "a released entry did not complete");
      FUZZ_CHECK(at == std::max(now, h.resume), "collected at a wrong time");
      FUZZ_CHECK(log_.size() == log_before, "collecting logged");
      h.state = State::kIdle;
    } else {
      if (count == 0) count = registered_[uid];
      auto open = episodes_.find(uid);
      if (count == 0) {
        refused(TESSERA_BARRIER_NO_COUNT);
      } else if (count > num_harts_) {
        refused(TESSERA_BARRIER_TOO_MANY);
      } else if (open != episodes_.end() && open->second.count != count) {
        refused(TESSERA_BARRIER_MISMATCH);
      } else if (open == episodes_.end() &&
                 (episodes_.size() >= TESSERA_BARRIER_MAX_OPEN || table_full_for(uid))) {
        refused(TESSERA_BARRIER_FULL);
      } else {
        arrive(hart, uid, count, value, now, r, status, at, error, log_before);
      }
    }
    check_registry();
  }

  void reset() {
    tessera_barrier_ctl_reset(ctl_);
    harts_.assign(num_harts_, HartShadow{});
    episodes_.clear();
    registered_.clear();
    check_registry();
    FUZZ_CHECK(tessera_barrier_ctl_open_uids(ctl_) == 0, "uids open after reset");
  }

 private:
  // A command, as the controller without windows answers it. With windows it is posted (the
  // hart blocks, nothing is logged), the window ends at once, and the hart, woken if its
  // command was answered, issues it again to read the answer; a counted ENTER waits as before.
  TesseraAccess issue(uint32_t hart, uint32_t csr, uint32_t value, uint64_t now) {
    const TesseraAccess a = tessera_barrier_ctl_csr(ctl_, hart, csr, value, now);
    if (!windows_ || tessera_barrier_ctl_posted(ctl_) == 0) {
      return a;
    }
    const size_t log_before = log_.size();
    FUZZ_CHECK(a.status == TESSERA_ACCESS_BLOCKED && tessera_barrier_ctl_posted(ctl_) == 1,
               "a posted command did not block, or more than it is posted");
    FUZZ_CHECK(tessera_barrier_ctl_csr(ctl_, hart, csr, value, now).status ==
                   TESSERA_ACCESS_BLOCKED,
               "a posted command issued again did not block");
    FUZZ_CHECK(log_.size() == log_before, "posting logged");
    FUZZ_CHECK(tessera_barrier_ctl_exchange(ctl_, UINT64_MAX) == 1, "the exchange left it");
    const auto self = std::find(woken_.begin(), woken_.end(), hart);
    if (self == woken_.end()) {
      return tessera_access_blocked(now);
    }
    woken_.erase(self);
    return tessera_barrier_ctl_csr(ctl_, hart, csr, value, now);
  }

  // A uid with a registered count or an open episode takes a slot of a small uid table.
  bool in_use(uint32_t uid) const {
    const auto r = registered_.find(uid);
    return (r != registered_.end() && r->second != 0) || episodes_.count(uid) != 0;
  }
  bool table_full_for(uint32_t uid) const {
    if (uid_slots_ == 0 || in_use(uid)) return false;
    std::set<uint32_t> used;
    for (const auto& [u, count] : registered_) {
      if (count != 0) used.insert(u);
    }
    for (const auto& [u, e] : episodes_) used.insert(u);
    return used.size() >= uid_slots_;
  }

  void arrive(uint32_t hart, uint32_t uid, uint32_t count, uint32_t value, uint64_t now,
              TesseraAccessStatus r, uint32_t status, uint64_t at, const char* error,
              size_t log_before) {
    Episode& e = episodes_[uid];
    e.count = count;
    e.harts.push_back(hart);
    e.overflow = std::max(e.overflow, now + latency(hart));
    HartShadow& h = harts_[hart];
    h.value = value;
    h.src = now;
    FUZZ_CHECK(log_.size() > log_before && log_[log_before].rfind("BARRIER ", 0) == 0,
               "an arrival without its BARRIER line");
    FUZZ_CHECK(error == nullptr, "a good entry with an error: %s", error);
    if (e.harts.size() < count) {
      FUZZ_CHECK(r == TESSERA_ACCESS_BLOCKED && woken_.empty(), "released before the count");
      FUZZ_CHECK(log_.size() == log_before + 1, "lines beyond BARRIER before the count");
      h.state = State::kWaiting;
      uint32_t c = 0;
      FUZZ_CHECK(tessera_barrier_ctl_arrived(ctl_, uid, &c) == e.harts.size() && c == count,
                 "arrivals of uid %u disagree", uid);
      return;
    }
    FUZZ_CHECK(r == TESSERA_ACCESS_DONE && status == TESSERA_BARRIER_OK,
               "the count-th arrival did not complete");
    FUZZ_CHECK(log_.size() == log_before + 1 + 3 * count, "release logged %zu lines, not %u",
               log_.size() - log_before - 1, 3 * count);
    std::vector<uint32_t> others;
    for (size_t i = 0; i < e.harts.size(); i++) {
      const uint32_t p = e.harts[i];
      const uint64_t resume = e.overflow + latency(p);
      FUZZ_CHECK(log_[log_before + 1 + i] == "RESULT 0", "no RESULT 0");
      FUZZ_CHECK(log_[log_before + 1 + count + i].rfind(
                     "WRITE " + std::to_string(harts_[p].src) + " ", 0) == 0,
                 "WRITE without the arrival cycle");
      FUZZ_CHECK(log_[log_before + 1 + 2 * count + i] == "SYNC " + std::to_string(resume),
                 "SYNC %s, the rule says %llu", log_[log_before + 1 + 2 * count + i].c_str(),
                 static_cast<unsigned long long>(resume));
      if (p == hart) {
        FUZZ_CHECK(at == resume, "the last arrival resumes off the rule");
        harts_[p].state = State::kIdle;
      } else {
        others.push_back(p);
        harts_[p].state = State::kReleased;
        harts_[p].resume = resume;
      }
    }
    FUZZ_CHECK(woken_ == others, "woke the wrong harts");
    episodes_.erase(uid);
    uint32_t c = 0;
    FUZZ_CHECK(tessera_barrier_ctl_arrived(ctl_, uid, &c) == 0, "uid %u open after release", uid);
  }

  // The test's own statement of the rule: tile hops and board crossings on the tile grid.
  uint64_t latency(uint32_t hart) const {
    const TesseraCoords c = tessera_coords(&shape_, tessera_thread_at(&shape_, hart));
    auto axis = [](uint64_t a, uint64_t b, uint64_t tiles, uint64_t tile_hop, uint64_t board_hop) {
      const uint64_t hops = a > b ? a - b : b - a;
      const uint64_t ba = a / tiles, bb = b / tiles;
      const uint64_t cross = ba > bb ? ba - bb : bb - ba;
      return (hops - cross) * tile_hop + cross * board_hop;
    };
    return axis(c.board_x * shape_.tiles_x + c.tile_x, at_x_, shape_.tiles_x, tile_hop_,
                board_hop_) +
           axis(c.board_y * shape_.tiles_y + c.tile_y, at_y_, shape_.tiles_y, tile_hop_,
                board_hop_);
  }

  void check_registry() const {
    uint32_t waiting = 0;
    for (uint32_t i = 0; i < num_harts_; i++) {
      const bool w = harts_[i].state == State::kWaiting;
      waiting += w;
      FUZZ_CHECK((tessera_waits_operation(waits_, i) != nullptr) == w,
                 "hart %u: registry and shadow disagree", i);
    }
    FUZZ_CHECK(tessera_waits_count(waits_) == waiting, "registry counts %u, shadow %u",
               tessera_waits_count(waits_), waiting);
    FUZZ_CHECK(tessera_barrier_ctl_open_uids(ctl_) == episodes_.size(), "open uids disagree");
  }

  bool windows_;
  TesseraShape shape_;
  uint32_t tile_hop_, board_hop_, at_x_, at_y_;
  uint32_t num_harts_;
  std::vector<HartShadow> harts_;
  std::map<uint32_t, Episode> episodes_;
  std::map<uint32_t, uint32_t> registered_;
  uint32_t uid_slots_;
  std::vector<uint32_t> woken_;
  std::vector<std::string> log_;
  TesseraBarrierCtl* ctl_ = nullptr;
  TesseraWaits* waits_ = nullptr;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const TesseraShape shape{1 + in.below(3),   1 + in.below(2),   1u << in.below(3),
                           1u << in.below(2), 1u << in.below(2), 1u << in.below(3)};
  const uint32_t tile_hop = in.below(4) == 0 ? in.u16() : in.below(8);
  const uint32_t board_hop = in.below(4) == 0 ? in.u32() : in.below(300);
  const uint32_t at_x = in.below(shape.boards_x * shape.tiles_x);
  const uint32_t at_y = in.below(shape.boards_y * shape.tiles_y);
  const uint32_t uid_slots = in.below(2) == 0 ? 0 : 1 + in.below(6);
  const bool windows = in.below(2) == 1;  // docs/ranks.md
  Scenario s(shape, tile_hop, board_hop, at_x, at_y, uid_slots, windows);
  const uint32_t harts = s.num_harts();
  // Few uids collide often; now and then any uid, so that the table fills.
  const uint32_t uid_span = in.below(4) == 0 ? 65536 : 1 + in.below(8);
  uint64_t now = 0;
  for (int i = 0; i < kMaxOperations && !in.empty(); i++) {
    now += in.below(8) == 0 ? in.u32() : in.below(16);
    const uint32_t hart = in.below(32) == 0 ? harts + in.below(2) : in.below(harts);
    const uint32_t kind = in.below(32);
    uint32_t value = 0;
    if (kind < 8 && s.outstanding(hart, &value)) {
      s.enter(hart, value, now);  // re-issued or collected
    } else if (kind < 24) {
      const uint32_t count = in.below(8) == 0 ? in.u16() : in.below(std::min(harts, 6u) + 2);
      s.enter(hart, TESSERA_BARRIER_VALUE(in.below(uid_span), count), now);
    } else if (kind < 31) {
      const uint32_t count = in.below(8) == 0 ? in.u16() : in.below(std::min(harts, 6u) + 1);
      s.set_count(hart, in.below(uid_span), count, now);
    } else {
      s.reset();
    }
  }
  return 0;
}
