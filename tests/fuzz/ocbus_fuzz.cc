// libFuzzer target: the open-collector bus model (models/ocbus.c). Any
// number of harts and lines, then writes, reads, waits, re-issued waits and
// resets in any order and at any times, against a shadow of every hart's
// local value (docs/fuzzing.md).
//
// Invariants: the global value is the AND of the local ones; a change
// settles a settle time after the write that decides it and reads never
// resume before the latest settle time; a wait completes only with a value
// that satisfies it, at or after the settle time; no missed wake (a blocked
// hart whose condition holds was woken); the wait registry lists exactly the
// blocked harts; guest errors change nothing.
#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <map>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/models/ocbus.h"

namespace {

using fuzz::FuzzInput;

constexpr int kMaxOperations = 3000;

struct Waiting {
  uint32_t mask, value;
  bool woken = false;
};

class Scenario {
 public:
  Scenario(uint32_t harts, uint32_t lines, uint32_t settle)
      : harts_(harts), all_((1u << lines) - 1), settle_(settle), local_(harts, 0) {
    const TesseraShape shape{1, 1, 1, 1, 1, harts};
    waits_ = tessera_waits_new(&shape);
    const TesseraOcbusConfig config{harts, lines, settle, waits_, false};
    TesseraOcbusHost host{};
    host.opaque = this;
    host.wake = [](void* self, uint32_t hart) { static_cast<Scenario*>(self)->on_wake(hart); };
    bus_ = tessera_ocbus_new(&config, &host);
    FUZZ_CHECK(waits_ != nullptr && bus_ != nullptr, "no bus of %u harts, %u lines", harts, lines);
  }
  ~Scenario() {
    tessera_ocbus_free(bus_);
    tessera_waits_free(waits_);
  }
  Scenario(const Scenario&) = delete;
  Scenario& operator=(const Scenario&) = delete;

  uint32_t global() const {
    uint32_t g = all_;
    for (uint32_t v : local_) g &= v;
    return g;
  }

  void write(uint32_t hart, uint32_t local, uint64_t now) {
    const char* error = nullptr;
    const uint32_t before = global();
    const bool valid = hart < harts_ && !(local & ~all_);
    if (valid) {
      // The model wakes waiters inside the call: the shadow changes first.
      local_[hart] = local;
      waiting_.erase(hart);  // a write abandons the hart's wait
    }
    const TesseraAccessStatus r = tessera_access_unpack(tessera_ocbus_write(bus_, hart, local, now),
                                                        nullptr, nullptr, &error);
    if (!valid) {
      FUZZ_CHECK(r == TESSERA_ACCESS_GUEST_ERROR && error, "bad write accepted");
      return;
    }
    FUZZ_CHECK(r == TESSERA_ACCESS_DONE, "write refused: %s", error ? error : "");
    latest_write_ = std::max(latest_write_, now);
    // A release settles after the latest release in modelled time: at most the latest write.
    if (global() != before) latest_change_ = std::max(latest_change_, latest_write_ + settle_);
    check_wakes();
  }

  void read(uint64_t now) const {
    uint64_t at = 0;
    const uint32_t g = tessera_ocbus_read(bus_, now, &at);
    FUZZ_CHECK(g == global(), "read 0x%x, AND of the locals 0x%x", g, global());
    FUZZ_CHECK(at >= now && at <= std::max(now, latest_change_), "read resumes at %llu",
               static_cast<unsigned long long>(at));
  }

  void wait(uint32_t hart, uint32_t mask, uint32_t value, uint64_t now) {
    uint32_t result = 0;
    uint64_t at = 0;
    const char* error = nullptr;
    const TesseraAccessStatus r = tessera_access_unpack(
        tessera_ocbus_wait(bus_, hart, mask, value, now), &result, &at, &error);
    if (hart >= harts_ || mask == 0 || ((mask | value) & ~all_)) {
      FUZZ_CHECK(r == TESSERA_ACCESS_GUEST_ERROR && error && result == 0 && at == now,
                 "bad wait accepted");
      return;
    }
    auto it = waiting_.find(hart);
    const bool same =
        it != waiting_.end() && it->second.mask == mask && it->second.value == (value & mask);
    if (r == TESSERA_ACCESS_DONE) {
      FUZZ_CHECK((result & mask) == (value & mask), "wait done with 0x%x, wanted 0x%x/0x%x", result,
                 value, mask);
      FUZZ_CHECK(at >= now, "a wait resumes before it was issued");
      // A latched result may be older than the present value; else it is the present one.
      FUZZ_CHECK((same && it->second.woken) || result == global(), "wait result 0x%x, now 0x%x",
                 result, global());
      waiting_.erase(hart);
    } else {
      FUZZ_CHECK(r == TESSERA_ACCESS_BLOCKED && (global() & mask) != (value & mask) &&
                     !(same && it->second.woken),
                 "wait blocked though its condition holds or it was woken");
      if (!same) waiting_[hart] = Waiting{mask, value & mask};
    }
    check_registry();
  }

  void reset() {
    tessera_ocbus_reset(bus_);
    local_.assign(harts_, 0);
    waiting_.clear();
    latest_change_ = 0;
    latest_write_ = 0;
    check_registry();
  }

 private:
  void on_wake(uint32_t hart) {
    auto it = waiting_.find(hart);
    FUZZ_CHECK(it != waiting_.end() && !it->second.woken, "woke hart %u, which does not wait",
               hart);
    FUZZ_CHECK((global() & it->second.mask) == it->second.value, "woke hart %u too early", hart);
    it->second.woken = true;
  }

  void check_wakes() const {
    for (const auto& [hart, w] : waiting_) {
      FUZZ_CHECK(w.woken || (global() & w.mask) != w.value, "missed wake of hart %u", hart);
    }
    check_registry();
  }

  void check_registry() const {
    uint32_t blocked = 0;
    for (const auto& [hart, w] : waiting_) {
      blocked += !w.woken;
      FUZZ_CHECK((tessera_waits_operation(waits_, hart) != nullptr) == !w.woken,
                 "hart %u: registry and shadow disagree", hart);
    }
    FUZZ_CHECK(tessera_waits_count(waits_) == blocked, "registry counts %u, shadow %u",
               tessera_waits_count(waits_), blocked);
  }

  uint32_t harts_, all_, settle_;
  std::vector<uint32_t> local_;
  std::map<uint32_t, Waiting> waiting_;
  uint64_t latest_change_ = 0;
  uint64_t latest_write_ = 0;  // latest modelled time of a valid write
  TesseraOcbus* bus_ = nullptr;
  TesseraWaits* waits_ = nullptr;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const uint32_t harts = 1 + in.below(64);
  const uint32_t lines = TESSERA_OCBUS_MIN_LINES + in.below(5);
  const uint32_t settle = in.below(4) == 0 ? in.u32() : in.below(16);
  Scenario s(harts, lines, settle);
  uint64_t now = 0;
  for (int i = 0; i < kMaxOperations && !in.empty(); i++) {
    now += in.below(8) == 0 ? in.u16() : in.below(4);
    const uint32_t hart = in.below(16) == 0 ? harts + in.below(2) : in.below(harts);
    const uint32_t kind = in.below(16);
    if (kind < 7) {
      s.write(hart, in.below(8) == 0 ? in.byte() : in.byte() & ((1u << lines) - 1), now);
    } else if (kind < 9) {
      s.read(now);
    } else if (kind < 15) {
      s.wait(hart, in.byte() & (in.below(8) == 0 ? 0x1ff : (1u << lines) - 1), in.byte(), now);
    } else {
      s.reset();
    }
  }
  return 0;
}
