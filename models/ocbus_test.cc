// The open-collector bus model: wired-AND lines, settle time, blocking
// waits with latched wakes, guest errors; and the ACWT protocol of DESIGN
// 1.6 run on it by a discrete-event scheduler of many harts, with random
// delays (delay insensitivity) and its modelled cost.
#include "tessera/models/ocbus.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

namespace {

constexpr uint32_t kSettle = 10;

class Bus {
 public:
  explicit Bus(uint32_t harts, uint32_t lines = 4, TesseraWaits* waits = nullptr,
               bool windows = false) {
    const TesseraOcbusConfig config{harts, lines, kSettle, waits, windows};
    TesseraOcbusHost host{};
    host.opaque = this;
    host.wake = [](void* self, uint32_t hart) { static_cast<Bus*>(self)->woken.push_back(hart); };
    bus_ = tessera_ocbus_new(&config, &host);
    EXPECT_NE(bus_, nullptr);
    // Lines reset clamped; most tests start from every line released at cycle 0.
    for (uint32_t hart = 0; hart < harts; hart++) {
      Write(hart, (1u << lines) - 1, 0);
    }
    if (windows) EndWindow(0);
    woken.clear();
  }
  ~Bus() { tessera_ocbus_free(bus_); }
  Bus(const Bus&) = delete;
  Bus& operator=(const Bus&) = delete;

  TesseraOcbus* get() const { return bus_; }
  void Write(uint32_t hart, uint32_t local, uint64_t now) {
    const char* error = nullptr;
    ASSERT_EQ(tessera_access_unpack(tessera_ocbus_write(bus_, hart, local, now), nullptr, nullptr,
                                    &error),
              TESSERA_ACCESS_DONE)
        << error;
  }
  TesseraAccessStatus Wait(uint32_t hart, uint32_t mask, uint32_t value, uint64_t now,
                           uint32_t* result = nullptr, uint64_t* at = nullptr) {
    uint32_t r = 0;
    uint64_t t = 0;
    const char* error = nullptr;
    const TesseraAccessStatus res =
        tessera_access_unpack(tessera_ocbus_wait(bus_, hart, mask, value, now), &r, &t, &error);
    if (result) *result = r;
    if (at) *at = t;
    return res;
  }
  uint32_t Read(uint64_t now, uint64_t* at = nullptr) {
    uint64_t t = 0;
    const uint32_t v = tessera_ocbus_read(bus_, now, &t);
    if (at) *at = t;
    return v;
  }

  // With windows: the window ends with this bus's part alone (one process).
  uint32_t EndWindow(uint64_t until) {
    const TesseraOcbusDrive* d = nullptr;
    TesseraOcbusTimes times;
    const size_t n = tessera_ocbus_window(bus_, &d, &times);
    bool ok = false;
    const uint32_t changed = tessera_ocbus_window_end(bus_, d, n, &times, until, &ok);
    EXPECT_TRUE(ok);
    return changed;
  }

  std::vector<uint32_t> woken;

 private:
  TesseraOcbus* bus_ = nullptr;
};

TEST(OcbusModel, RefusesWhatTheMachineCannotBe) {
  TesseraOcbusHost host{};
  host.wake = [](void*, uint32_t) {};
  auto accepts = [&](uint32_t harts, uint32_t lines) {
    const TesseraOcbusConfig config{harts, lines, kSettle, nullptr, false};
    TesseraOcbus* b = tessera_ocbus_new(&config, &host);
    tessera_ocbus_free(b);
    return b != nullptr;
  };
  EXPECT_TRUE(accepts(1, 4));
  EXPECT_TRUE(accepts(65536, 8));
  EXPECT_FALSE(accepts(0, 4));
  EXPECT_FALSE(accepts(4, 3));
  EXPECT_FALSE(accepts(4, 9));
  const TesseraOcbusConfig config{4, 4, kSettle, nullptr, false};
  const TesseraOcbusHost no_wake{};
  EXPECT_EQ(tessera_ocbus_new(&config, &no_wake), nullptr);
}

TEST(OcbusModel, EveryLineStartsClampedUntilEveryHartReleasesIt) {
  TesseraOcbusHost host{};
  host.wake = [](void*, uint32_t) {};
  const TesseraOcbusConfig config{3, 6, kSettle, nullptr, false};
  TesseraOcbus* b = tessera_ocbus_new(&config, &host);
  ASSERT_NE(b, nullptr);
  uint64_t at = 99;
  EXPECT_EQ(tessera_ocbus_read(b, 5, &at), 0u);
  EXPECT_EQ(at, 5u);
  EXPECT_EQ(tessera_ocbus_local(b, 2), 0u);
  const char* error = nullptr;
  for (uint32_t hart = 0; hart < 3; hart++) {
    EXPECT_EQ(tessera_ocbus_read(b, 0, nullptr), 0u) << "until the last release";
    ASSERT_EQ(tessera_access_unpack(tessera_ocbus_write(b, hart, 0x3f, 100 + hart), nullptr,
                                    nullptr, &error),
              TESSERA_ACCESS_DONE);
  }
  EXPECT_EQ(tessera_ocbus_read(b, 0, &at), 0x3fu);
  EXPECT_EQ(at, 102u + kSettle);
  tessera_ocbus_reset(b);
  EXPECT_EQ(tessera_ocbus_read(b, 0, nullptr), 0u);
  tessera_ocbus_free(b);
}

TEST(OcbusModel, TheGlobalValueIsTheAndOfTheLocalOnes) {
  Bus bus(3);
  bus.Write(0, 0b1110, 100);  // hart 0 clamps line 0
  uint64_t at = 0;
  EXPECT_EQ(bus.Read(100, &at), 0b1110u);
  EXPECT_EQ(at, 100u + kSettle) << "the change settles a settle time after the write";
  bus.Write(1, 0b1100, 200);  // hart 1 clamps lines 0 and 1
  EXPECT_EQ(bus.Read(300), 0b1100u);
  bus.Write(0, 0b1111, 300);  // line 0 still clamped by hart 1: no change
  EXPECT_EQ(bus.Read(300, &at), 0b1100u);
  EXPECT_EQ(at, 300u) << "line 1 settled at 210, line 0 at 110";
  bus.Write(1, 0b1111, 400);  // the last release decides
  EXPECT_EQ(bus.Read(400, &at), 0b1111u);
  EXPECT_EQ(at, 400u + kSettle);
}

TEST(OcbusModel, AWaitBlocksThenWakesAtTheSettleTime) {
  Bus bus(4);
  bus.Write(0, 0b1110, 0);
  uint32_t result = 0;
  uint64_t at = 0;
  EXPECT_EQ(bus.Wait(2, 0b0001, 0b0001, 50, &result, &at), TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(bus.Wait(2, 0b0001, 0b0001, 50), TESSERA_ACCESS_BLOCKED) << "issued again: still";
  EXPECT_TRUE(bus.woken.empty());
  bus.Write(0, 0b1111, 70);
  EXPECT_EQ(bus.woken, std::vector<uint32_t>{2});
  EXPECT_EQ(bus.Wait(2, 0b0001, 0b0001, 50, &result, &at), TESSERA_ACCESS_DONE);
  EXPECT_EQ(result, 0b1111u);
  EXPECT_EQ(at, 70u + kSettle) << "woken at the modelled time of the change, not before";
}

TEST(OcbusModel, AReleaseSettlesAfterTheLatestReleaseInModelledTimeNotInCallOrder) {
  Bus bus(3);
  bus.Write(0, 0b1110, 100);  // harts 0 and 1 clamp line 0
  bus.Write(1, 0b1110, 100);
  EXPECT_EQ(bus.Wait(2, 0b0001, 0b0001, 120), TESSERA_ACCESS_BLOCKED);
  bus.Write(0, 0b1111, 900);  // a hart far ahead releases first ...
  bus.Write(1, 0b1111, 150);  // ... and one behind it completes the release
  uint32_t result = 0;
  uint64_t at = 0;
  EXPECT_EQ(bus.Wait(2, 0b0001, 0b0001, 120, &result, &at), TESSERA_ACCESS_DONE);
  EXPECT_EQ(at, 900u + kSettle) << "not before the last hart, in modelled time, released it";
  EXPECT_EQ(bus.Read(0, &at), 0b1111u);
  EXPECT_EQ(at, 900u + kSettle);
}

TEST(OcbusModel, AWakeIsLatchedWhenTheLineFlipsBackBeforeTheWaiterRuns) {
  Bus bus(4);
  EXPECT_EQ(bus.Wait(1, 0b0001, 0, 0), TESSERA_ACCESS_BLOCKED);  // wait for a clamp
  bus.Write(3, 0b1110, 10);                                      // a pulse ...
  bus.Write(3, 0b1111, 12);                                      // ... already gone
  uint32_t result = 0;
  uint64_t at = 0;
  EXPECT_EQ(bus.Wait(1, 0b0001, 0, 5, &result, &at), TESSERA_ACCESS_DONE);
  EXPECT_EQ(result, 0b1110u) << "the lines as they were when the wait was satisfied";
  EXPECT_EQ(at, 10u + kSettle);
  // Told once: the next wait for a clamp blocks again.
  EXPECT_EQ(bus.Wait(1, 0b0001, 0, 30), TESSERA_ACCESS_BLOCKED);
}

TEST(OcbusModel, AWriteOrAnotherConditionAbandonsAWait) {
  Bus bus(4);
  bus.Write(0, 0b1110, 0);
  EXPECT_EQ(bus.Wait(1, 0b0001, 0b0001, 0), TESSERA_ACCESS_BLOCKED);
  bus.Write(1, 0b1111, 1);  // the waiter writes: it no longer waits
  bus.Write(0, 0b1111, 2);
  EXPECT_TRUE(bus.woken.empty());
  EXPECT_EQ(bus.Wait(2, 0b0010, 0, 3), TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(bus.Wait(2, 0b0001, 0b0001, 3), TESSERA_ACCESS_DONE)
      << "another condition, which holds";
  bus.Write(0, 0b1101, 4);
  EXPECT_TRUE(bus.woken.empty()) << "the abandoned wait for line 1 is not woken";
}

TEST(OcbusModel, GuestErrorsChangeNothing) {
  Bus bus(2, 5);
  const char* error = nullptr;
  EXPECT_EQ(
      tessera_access_unpack(tessera_ocbus_write(bus.get(), 0, 0x20, 0), nullptr, nullptr, &error),
      TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_NE(error, nullptr);
  EXPECT_EQ(
      tessera_access_unpack(tessera_ocbus_write(bus.get(), 2, 0, 0), nullptr, nullptr, &error),
      TESSERA_ACCESS_GUEST_ERROR);
  uint32_t result = 1;
  uint64_t at = 1;
  EXPECT_EQ(tessera_access_unpack(tessera_ocbus_wait(bus.get(), 0, 0, 0, 7), &result, &at, &error),
            TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_EQ(result, 0u);
  EXPECT_EQ(at, 7u);
  EXPECT_EQ(
      tessera_access_unpack(tessera_ocbus_wait(bus.get(), 0, 0x21, 0, 7), &result, &at, &error),
      TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_EQ(bus.Read(0), 0x1fu);
}

TEST(OcbusModel, TheRegisterBlockDecodesEveryOffset) {
  Bus bus(3, 6);
  TesseraOcbus* b = bus.get();
  uint32_t value = 0;
  uint64_t at = 0;
  const char* error = nullptr;
  auto read = [&](uint32_t hart, uint32_t offset, uint64_t now) {
    EXPECT_EQ(
        tessera_access_unpack(tessera_ocbus_mmio_read(b, hart, offset, now), &value, &at, &error),
        TESSERA_ACCESS_DONE)
        << error;
    return value;
  };
  EXPECT_EQ(read(0, TESSERA_OCBUS_LINES, 0), 6u);
  EXPECT_EQ(read(0, TESSERA_OCBUS_SETTLE, 0), kSettle);
  EXPECT_EQ(read(1, TESSERA_OCBUS_LOCAL, 0), 0x3fu);
  // LINE(i) drives one line of the writing hart only.
  ASSERT_EQ(tessera_access_unpack(tessera_ocbus_mmio_write(b, 1, TESSERA_OCBUS_LINE(2), 0, 100),
                                  nullptr, nullptr, &error),
            TESSERA_ACCESS_DONE);
  EXPECT_EQ(read(1, TESSERA_OCBUS_LOCAL, 100), 0x3bu);
  EXPECT_EQ(read(0, TESSERA_OCBUS_LOCAL, 100), 0x3fu);
  EXPECT_EQ(read(2, TESSERA_OCBUS_GLOBAL, 50), 0x3bu);
  EXPECT_EQ(at, 100 + kSettle);  // the reader moves on to when the value settled
  EXPECT_EQ(read(2, TESSERA_OCBUS_LINE(2), 50), 0u);
  EXPECT_EQ(at, 100 + kSettle);
  EXPECT_EQ(read(2, TESSERA_OCBUS_LINE(1), 50), 1u);
  EXPECT_EQ(at, 50u);
  ASSERT_EQ(tessera_access_unpack(tessera_ocbus_mmio_write(b, 1, TESSERA_OCBUS_LOCAL, 0x3f, 200),
                                  nullptr, nullptr, &error),
            TESSERA_ACCESS_DONE);
  EXPECT_EQ(read(0, TESSERA_OCBUS_GLOBAL, 300), 0x3fu);
}

TEST(OcbusModel, RegisterMisuseIsAGuestErrorThatChangesNothing) {
  Bus bus(2, 4);
  TesseraOcbus* b = bus.get();
  auto write_refused = [&](uint32_t offset, uint32_t value) {
    const char* error = nullptr;
    const bool refused =
        tessera_access_unpack(tessera_ocbus_mmio_write(b, 0, offset, value, 0), nullptr, nullptr,
                              &error) == TESSERA_ACCESS_GUEST_ERROR;
    EXPECT_NE(error, nullptr);
    return refused;
  };
  auto read_refused = [&](uint32_t offset) {
    uint32_t value = 7;
    uint64_t at = 0;
    const char* error = nullptr;
    const bool refused = tessera_access_unpack(tessera_ocbus_mmio_read(b, 0, offset, 0), &value,
                                               &at, &error) == TESSERA_ACCESS_GUEST_ERROR;
    EXPECT_EQ(value, 0u);
    return refused;
  };
  EXPECT_TRUE(write_refused(TESSERA_OCBUS_GLOBAL, 0));  // read-only
  EXPECT_TRUE(write_refused(TESSERA_OCBUS_LINES, 0));
  EXPECT_TRUE(write_refused(TESSERA_OCBUS_SETTLE, 0));
  EXPECT_TRUE(write_refused(TESSERA_OCBUS_LINE(4), 0));  // a line this machine lacks
  EXPECT_TRUE(write_refused(TESSERA_OCBUS_LINE(7), 1));
  EXPECT_TRUE(write_refused(TESSERA_OCBUS_LINE(0), 2));   // neither clamp nor release
  EXPECT_TRUE(write_refused(TESSERA_OCBUS_LOCAL, 0x10));  // bits above the lines
  EXPECT_TRUE(write_refused(TESSERA_OCBUS_LINE(8), 0));   // past the line registers
  EXPECT_TRUE(write_refused(0xffc, 0));
  EXPECT_TRUE(read_refused(TESSERA_OCBUS_LINE(4)));
  EXPECT_TRUE(read_refused(0x0e));
  EXPECT_EQ(tessera_ocbus_local(b, 0), 0xfu);
  EXPECT_EQ(bus.Read(0), 0xfu);
  uint32_t result = 0;
  uint64_t at = 0;
  const char* error = nullptr;
  EXPECT_EQ(
      tessera_access_unpack(tessera_ocbus_wait_csr(b, 0, 0x10000 | 1, 0), &result, &at, &error),
      TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_EQ(tessera_access_unpack(tessera_ocbus_wait_csr(b, 0, 0x0101, 5), &result, &at, &error),
            TESSERA_ACCESS_DONE);  // line 0 reads 1 already
  EXPECT_EQ(result, 0xfu);
  EXPECT_EQ(tessera_access_unpack(tessera_ocbus_wait_csr(b, 0, 0x0001, 5), &result, &at, &error),
            TESSERA_ACCESS_BLOCKED);  // line 0 reads 0: not yet
}

TEST(OcbusModel, WaitsAreReportedToTheRegistryAndResetForgetsThem) {
  const TesseraShape shape{1, 1, 2, 1, 1, 2};  // 4 harts
  std::unique_ptr<TesseraWaits, void (*)(TesseraWaits*)> waits(tessera_waits_new(&shape),
                                                               tessera_waits_free);
  Bus bus(4, 4, waits.get());
  bus.Write(0, 0b1110, 0);
  EXPECT_EQ(bus.Wait(3, 0b0001, 0b0001, 42), TESSERA_ACCESS_BLOCKED);
  EXPECT_STREQ(tessera_waits_operation(waits.get(), 3), "ocbus wait-until lines read a value");
  EXPECT_EQ(tessera_waits_since(waits.get(), 3), 42u);
  bus.Write(0, 0b1111, 50);
  EXPECT_EQ(tessera_waits_count(waits.get()), 0u) << "woken: no longer stopped";
  EXPECT_EQ(bus.Wait(2, 0b0010, 0, 60), TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(tessera_waits_count(waits.get()), 1u);
  tessera_ocbus_reset(bus.get());
  EXPECT_EQ(tessera_waits_count(waits.get()), 0u);
  EXPECT_EQ(bus.Read(0), 0u) << "every line clamped again";
}

// ---------------------------------------------------------------------------
// ACWT (DESIGN 1.6) on the model: lines valid, accepted, next, data.
// ---------------------------------------------------------------------------

constexpr uint32_t kValid = 1, kAccepted = 2, kNext = 4, kData = 8;

// Every hart runs `calls` ACWTs in a row; the hart with the smallest clock
// that can run goes next (a discrete-event schedule). delay(hart, call) is
// added to a hart's clock before each call. Returns each hart's results and
// leaves each hart's end clock in *end.
struct AcwtRun {
  std::vector<std::vector<bool>> results;  // [call][hart]
  std::vector<uint64_t> end;
};

template <typename Delay, typename Input>
AcwtRun RunAcwt(uint32_t harts, uint32_t calls, Delay delay, Input input) {
  Bus bus(harts);
  struct Hart {
    uint32_t call = 0, step = 0;
    uint64_t clock = 0;
    bool blocked = false;
    uint32_t local = kAccepted | kNext | kData;  // l_valid (so g_valid) false
  };
  std::vector<Hart> h(harts);
  for (uint32_t i = 0; i < harts; i++) bus.Write(i, h[i].local, 0);
  AcwtRun run;
  run.results.assign(calls, std::vector<bool>(harts));
  for (;;) {
    for (uint32_t w : bus.woken) h[w].blocked = false;
    bus.woken.clear();
    uint32_t next = harts;
    for (uint32_t i = 0; i < harts; i++) {
      if (!h[i].blocked && h[i].call < calls && (next == harts || h[i].clock < h[next].clock)) {
        next = i;
      }
    }
    if (next == harts) break;
    Hart& t = h[next];
    auto write = [&](uint32_t local) {
      t.local = local;
      bus.Write(next, local, t.clock);
    };
    auto wait = [&](uint32_t line) {
      uint32_t result = 0;
      uint64_t at = 0;
      if (bus.Wait(next, line, line, t.clock, &result, &at) == TESSERA_ACCESS_BLOCKED) {
        t.blocked = true;
        return false;
      }
      t.clock = at;
      t.step++;
      return true;
    };
    switch (t.step) {
      case 0:  // l_data := local; l_accepted := false; l_valid := true
        t.clock += delay(next, t.call);
        write((input(next, t.call) ? kData : 0) | kValid | (t.local & kNext));
        t.step++;
        break;
      case 1:  // wait g_valid; result := g_data; l_next := false; l_accepted := true
        if (wait(kValid)) {
          run.results[t.call][next] = (bus.Read(t.clock) & kData) != 0;
          write((t.local & (kData | kValid)) | kAccepted);
        }
        break;
      case 2:  // wait g_accepted; l_valid := false; l_next := true
        if (wait(kAccepted)) write((t.local & (kData | kAccepted)) | kNext);
        break;
      case 3:  // wait g_next
        if (wait(kNext)) {
          t.step = 0;
          t.call++;
        }
        break;
    }
  }
  for (uint32_t i = 0; i < harts; i++) {
    EXPECT_EQ(h[i].call, calls) << "hart " << i << " is stuck in step " << h[i].step;
    run.end.push_back(h[i].clock);
  }
  return run;
}

TEST(OcbusAcwt, TheResultIsTheAndOfTheLocalValuesWhateverTheDelays) {
  constexpr uint32_t kHarts = 64, kCalls = 100;
  std::mt19937 rng(17);
  std::vector<std::vector<uint32_t>> delays(kHarts, std::vector<uint32_t>(kCalls));
  std::vector<std::vector<bool>> inputs(kCalls, std::vector<bool>(kHarts));
  for (uint32_t c = 0; c < kCalls; c++) {
    // Mostly all true, so that the AND is not always false.
    const uint32_t falses = c % 3 == 0 ? 0 : rng() % 3;
    for (uint32_t i = 0; i < kHarts; i++) inputs[c][i] = true;
    for (uint32_t f = 0; f < falses; f++) inputs[c][rng() % kHarts] = false;
    for (uint32_t i = 0; i < kHarts; i++) delays[i][c] = rng() % 200;
  }
  const AcwtRun run = RunAcwt(
      kHarts, kCalls, [&](uint32_t hart, uint32_t call) { return delays[hart][call]; },
      [&](uint32_t hart, uint32_t call) { return inputs[call][hart]; });
  for (uint32_t c = 0; c < kCalls; c++) {
    const bool all = std::all_of(inputs[c].begin(), inputs[c].end(), [](bool b) { return b; });
    for (uint32_t i = 0; i < kHarts; i++) {
      ASSERT_EQ(run.results[c][i], all) << "call " << c << " hart " << i;
    }
  }
}

TEST(OcbusAcwt, OneCallCostsThreeSettleTimesWhateverTheNumberOfHarts) {
  for (uint32_t harts : {2u, 3u, 16u, 64u, 257u}) {
    const AcwtRun run = RunAcwt(
        harts, 5, [](uint32_t, uint32_t) { return 0u; },
        [](uint32_t hart, uint32_t) { return hart != 1; });
    for (uint32_t i = 0; i < harts; i++) {
      EXPECT_EQ(run.end[i], 5u * 3 * kSettle) << harts << " harts, hart " << i;
    }
  }
}

// ---- time windows (ocbus.h) -------------------------------------------------------------------

TEST(OcbusWindows, AWriteIsSeenAtTheWindowsEndSettledAfterItsTime) {
  Bus bus(4, 4, nullptr, true);
  ASSERT_EQ(bus.Read(0), 0xfu);
  bus.Write(2, 0xe, 100);  // clamps line 0
  uint64_t at = 0;
  EXPECT_EQ(bus.Read(120, &at), 0xfu) << "not before the window's end";
  EXPECT_EQ(bus.Wait(1, 1, 0, 110), TESSERA_ACCESS_BLOCKED);
  EXPECT_TRUE(tessera_ocbus_window_pending(bus.get()));
  EXPECT_EQ(bus.EndWindow(150), 1u);
  EXPECT_EQ(bus.Read(160, &at), 0xeu);
  EXPECT_EQ(at, 160u);
  EXPECT_EQ(bus.woken, std::vector<uint32_t>{1});
  uint32_t result = 0;
  EXPECT_EQ(bus.Wait(1, 1, 0, 105, &result, &at), TESSERA_ACCESS_DONE);
  EXPECT_EQ(result, 0xeu);
  EXPECT_EQ(at, 100u + kSettle);  // the clamp's time, then the settle time
  EXPECT_FALSE(tessera_ocbus_window_pending(bus.get()));
}

// One bus, and the same bus as two processes' copies that each see their own harts' writes and
// take the other's at each window's end: every read and wait answers alike, after every window.
TEST(OcbusWindows, CopiesThatTakeEachOthersDrivesAgreeWithOne) {
  for (uint32_t seed = 1; seed <= 40; seed++) {
    std::mt19937 rng(seed);
    Bus one(8, 4, nullptr, true), a(8, 4, nullptr, true), b(8, 4, nullptr, true);
    auto copy = [&](uint32_t hart) -> Bus& { return hart < 4 ? a : b; };
    std::vector<uint64_t> now(8, 0);
    uint64_t until = 0;
    for (int w = 0; w < 50; w++) {
      until += 150;
      for (int op = 0; op < 6; op++) {
        const uint32_t h = rng() % 8;
        now[h] = std::max(now[h], until - 150) + rng() % 150;
        if (rng() % 3 != 0) {
          const uint32_t local = rng() % 16;
          one.Write(h, local, now[h]);
          copy(h).Write(h, local, now[h]);
        } else {
          const uint32_t mask = 1 + rng() % 15, value = rng() % 16;
          uint32_t r1 = 0, r2 = 0;
          uint64_t t1 = 0, t2 = 0;
          ASSERT_EQ(one.Wait(h, mask, value, now[h], &r1, &t1),
                    copy(h).Wait(h, mask, value, now[h], &r2, &t2))
              << "seed " << seed;
          ASSERT_EQ(r1, r2);
          ASSERT_EQ(t1, t2);
        }
      }
      const TesseraOcbusDrive* da = nullptr;
      const TesseraOcbusDrive* db = nullptr;
      TesseraOcbusTimes ta, tb;
      std::vector<TesseraOcbusDrive> all;
      const size_t na = tessera_ocbus_window(a.get(), &da, &ta);
      all.insert(all.end(), da, da + na);
      const size_t nb = tessera_ocbus_window(b.get(), &db, &tb);
      all.insert(all.end(), db, db + nb);
      tessera_ocbus_times_add(&ta, &tb);
      const uint32_t changed = one.EndWindow(until);
      bool ok = false;
      ASSERT_EQ(tessera_ocbus_window_end(a.get(), all.data(), all.size(), &ta, until, &ok),
                changed);
      ASSERT_TRUE(ok);
      ASSERT_EQ(tessera_ocbus_window_end(b.get(), all.data(), all.size(), &ta, until, &ok),
                changed);
      ASSERT_TRUE(ok);
      {
        uint64_t t1 = 0, t2 = 0, t3 = 0;
        // Read at cycle 0: the time each value settled shows.
        ASSERT_EQ(one.Read(0, &t1), a.Read(0, &t2)) << "seed " << seed;
        ASSERT_EQ(one.Read(0), b.Read(0, &t3)) << "seed " << seed;
        ASSERT_EQ(t1, t2);
        ASSERT_EQ(t1, t3);
      }
      std::vector<uint32_t> woken_copies = a.woken;
      woken_copies.insert(woken_copies.end(), b.woken.begin(), b.woken.end());
      std::sort(woken_copies.begin(), woken_copies.end());
      std::sort(one.woken.begin(), one.woken.end());
      ASSERT_EQ(one.woken, woken_copies) << "seed " << seed;
      one.woken.clear();
      a.woken.clear();
      b.woken.clear();
    }
  }
}

TEST(OcbusWindows, DrivesThatDoNotFitTheBusAreRefused) {
  Bus bus(4, 4, nullptr, true);
  TesseraOcbusTimes times;
  const TesseraOcbusDrive* none = nullptr;
  (void)tessera_ocbus_window(bus.get(), &none, &times);
  bool ok = true;
  const TesseraOcbusDrive no_hart{4, 0};
  EXPECT_EQ(tessera_ocbus_window_end(bus.get(), &no_hart, 1, &times, 10, &ok), 0u);
  EXPECT_FALSE(ok);
  const TesseraOcbusDrive extra_line{1, 0x10};
  EXPECT_EQ(tessera_ocbus_window_end(bus.get(), &extra_line, 1, &times, 10, &ok), 0u);
  EXPECT_FALSE(ok);
  EXPECT_EQ(bus.Read(20), 0xfu);  // nothing changed
  Bus plain(4);
  EXPECT_EQ(tessera_ocbus_window_end(plain.get(), nullptr, 0, &times, 10, &ok), 0u);
  EXPECT_FALSE(ok);
}

}  // namespace
