// The counting barrier controller model: the release times of DESIGN 1.7
// for random arrivals, the command log, many uids at once, every bad use,
// re-issued entries, waits and reset.
#include "tessera/models/barrier_ctl.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

struct LogLine {
  uint32_t hart;
  std::string text;
  bool operator==(const LogLine&) const = default;
};

void PrintTo(const LogLine& l, std::ostream* os) {
  *os << l.hart << ": " << l.text;
}

class Ctl {
 public:
  explicit Ctl(const TesseraShape& shape, uint32_t tile_hop = 4, uint32_t board_hop = 150,
               uint32_t at_x = 0, uint32_t at_y = 0, TesseraWaits* waits = nullptr,
               uint32_t uid_slots = 0, bool windows = false) {
    const TesseraBarrierCtlConfig config{shape, tile_hop, board_hop, at_x,
                                         at_y,  waits,    uid_slots, windows};
    TesseraBarrierCtlHost host{};
    host.opaque = this;
    host.wake = [](void* self, uint32_t hart) { static_cast<Ctl*>(self)->woken.push_back(hart); };
    host.log = [](void* self, uint32_t hart, const char* line) {
      static_cast<Ctl*>(self)->log.push_back({hart, line});
    };
    ctl_ = tessera_barrier_ctl_new(&config, &host);
    EXPECT_NE(ctl_, nullptr);
  }
  ~Ctl() { tessera_barrier_ctl_free(ctl_); }
  Ctl(const Ctl&) = delete;
  Ctl& operator=(const Ctl&) = delete;

  TesseraBarrierCtl* get() const { return ctl_; }

  struct Answer {
    TesseraAccessStatus result;
    uint32_t value;
    uint64_t resume_at;
    const char* error;
  };
  Answer Csr(uint32_t hart, uint32_t csr, uint32_t value, uint64_t now) {
    Answer a{};
    a.result = tessera_access_unpack(tessera_barrier_ctl_csr(ctl_, hart, csr, value, now), &a.value,
                                     &a.resume_at, &a.error);
    // Bad use is a guest error that still reads its status: the tests check the reason.
    EXPECT_EQ(a.result == TESSERA_ACCESS_GUEST_ERROR, a.error != nullptr);
    if (a.result == TESSERA_ACCESS_GUEST_ERROR) a.result = TESSERA_ACCESS_DONE;
    return a;
  }
  Answer Enter(uint32_t hart, uint32_t uid, uint32_t count, uint64_t now) {
    return Csr(hart, TESSERA_CSR_BARRIER_ENTER, TESSERA_BARRIER_VALUE(uid, count), now);
  }
  Answer SetCount(uint32_t hart, uint32_t uid, uint32_t count, uint64_t now = 0) {
    return Csr(hart, TESSERA_CSR_BARRIER_COUNT, TESSERA_BARRIER_VALUE(uid, count), now);
  }
  uint32_t Arrived(uint32_t uid) {
    uint32_t count = 0;
    return tessera_barrier_ctl_arrived(ctl_, uid, &count);
  }

  std::vector<uint32_t> woken;
  std::vector<LogLine> log;

 private:
  TesseraBarrierCtl* ctl_ = nullptr;
};

constexpr TesseraShape kFourTiles{1, 1, 2, 2, 1, 1};  // one thread per tile
constexpr TesseraShape kDefault{1, 1, 2, 2, 1, 4};

// The test's own statement of the mesh rule: tile hops and board crossings.
uint64_t Oracle(const TesseraShape& s, uint32_t tile_hop, uint32_t board_hop, uint32_t id,
                uint32_t at_x, uint32_t at_y) {
  const TesseraCoords c = tessera_coords(&s, id);
  const uint32_t x = c.board_x * s.tiles_x + c.tile_x, y = c.board_y * s.tiles_y + c.tile_y;
  auto axis = [&](uint32_t a, uint32_t b, uint32_t tiles) {
    const uint64_t hops = a > b ? a - b : b - a;
    const uint64_t cross = a / tiles > b / tiles ? a / tiles - b / tiles : b / tiles - a / tiles;
    return (hops - cross) * tile_hop + cross * board_hop;
  };
  return axis(x, at_x, s.tiles_x) + axis(y, at_y, s.tiles_y);
}

TEST(BarrierCtlModel, RefusesWhatTheMachineCannotBe) {
  TesseraBarrierCtlHost host{};
  host.wake = [](void*, uint32_t) {};
  auto accepts = [&](const TesseraShape& shape, uint32_t x, uint32_t y) {
    const TesseraBarrierCtlConfig config{shape, 4, 150, x, y, nullptr, 0, false};
    TesseraBarrierCtl* b = tessera_barrier_ctl_new(&config, &host);
    tessera_barrier_ctl_free(b);
    return b != nullptr;
  };
  EXPECT_TRUE(accepts(kDefault, 0, 0));
  EXPECT_TRUE(accepts(kDefault, 1, 1));
  EXPECT_FALSE(accepts(kDefault, 2, 0));
  EXPECT_FALSE(accepts(kDefault, 0, 2));
  EXPECT_TRUE(accepts(TesseraShape{2, 3, 2, 2, 1, 1}, 3, 5));
  EXPECT_FALSE(accepts(TesseraShape{0, 1, 2, 2, 1, 1}, 0, 0));
  const TesseraBarrierCtlConfig config{kDefault, 4, 150, 0, 0, nullptr, 0, false};
  const TesseraBarrierCtlHost no_wake{};
  EXPECT_EQ(tessera_barrier_ctl_new(&config, &no_wake), nullptr);
}

TEST(BarrierCtlModel, OtherCsrsAreNotItsOwn) {
  Ctl ctl(kDefault);
  EXPECT_EQ(ctl.Csr(0, TESSERA_CSR_SEND, 0, 0).result, TESSERA_ACCESS_UNKNOWN);
}

// DESIGN 1.7's rule, for random shapes, controller positions, participants,
// arrival cycles and host orders.
TEST(BarrierCtlModel, ReleaseCyclesFollowTheRuleForRandomArrivals) {
  std::mt19937 engine(1234);
  auto rng = [&engine] { return static_cast<uint32_t>(engine()); };
  for (int trial = 0; trial < 500; trial++) {
    const TesseraShape shape{1u + rng() % 3,    1u + rng() % 3,    1u << (rng() % 3),
                             1u << (rng() % 3), 1u << (rng() % 2), 1u << (rng() % 3)};
    const uint32_t tile_hop = rng() % 10, board_hop = rng() % 300;
    const uint32_t at_x = rng() % (shape.boards_x * shape.tiles_x);
    const uint32_t at_y = rng() % (shape.boards_y * shape.tiles_y);
    Ctl ctl(shape, tile_hop, board_hop, at_x, at_y);
    const uint32_t harts = tessera_num_threads(&shape);
    std::vector<uint32_t> order(harts);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), engine);
    const uint32_t n = 1 + rng() % harts;
    order.resize(n);
    const uint32_t uid = rng() % 65536;
    std::vector<uint64_t> src(n), lat(n);
    uint64_t overflow = 0;
    for (uint32_t i = 0; i < n; i++) {
      src[i] = rng() % 100000;
      lat[i] = Oracle(shape, tile_hop, board_hop, tessera_thread_at(&shape, order[i]), at_x, at_y);
      ASSERT_EQ(tessera_barrier_ctl_latency(ctl.get(), order[i]), lat[i]);
      overflow = std::max(overflow, src[i] + lat[i]);
    }
    for (uint32_t i = 0; i < n; i++) {
      const auto a = ctl.Enter(order[i], uid, n, src[i]);
      if (i + 1 < n) {
        ASSERT_EQ(a.result, TESSERA_ACCESS_BLOCKED) << "trial " << trial << " arrival " << i;
        ASSERT_TRUE(ctl.woken.empty());
      } else {
        ASSERT_EQ(a.result, TESSERA_ACCESS_DONE);
        EXPECT_EQ(a.value, uint32_t{TESSERA_BARRIER_OK});
        EXPECT_EQ(a.resume_at, overflow + lat[i]) << "trial " << trial;
      }
    }
    std::vector<uint32_t> expected_woken(order.begin(), order.end() - 1);
    ASSERT_EQ(ctl.woken, expected_woken);
    // Each woken hart issues its ENTER again, later in host order, with its own clock.
    for (uint32_t i = 0; i + 1 < n; i++) {
      const auto a = ctl.Enter(order[i], uid, n, src[i]);
      ASSERT_EQ(a.result, TESSERA_ACCESS_DONE);
      EXPECT_EQ(a.value, uint32_t{TESSERA_BARRIER_OK});
      EXPECT_EQ(a.resume_at, overflow + lat[i]) << "trial " << trial << " arrival " << i;
    }
    EXPECT_EQ(tessera_barrier_ctl_open_uids(ctl.get()), 0u);
  }
}

// The example: four threads at (0,1), (0,0), (1,1), (1,0), uid 255, count 4.
TEST(BarrierCtlModel, LogOfFourThreads) {
  Ctl ctl(kFourTiles, 4, 150, 0, 0);
  struct Arrival {
    uint32_t x, y;
    uint64_t cycle;
  };
  const Arrival arrivals[] = {{0, 1, 100}, {0, 0, 130}, {1, 1, 90}, {1, 0, 120}};
  std::vector<LogLine> expected;
  std::vector<uint32_t> harts;
  for (const Arrival& a : arrivals) {
    const uint32_t hart = a.y * 2 + a.x;  // thread id y:x, dense in a 1-board shape
    uint32_t gx = 99, gy = 99;
    tessera_barrier_ctl_grid_of(ctl.get(), hart, &gx, &gy);
    ASSERT_EQ(gx, a.x);
    ASSERT_EQ(gy, a.y);
    harts.push_back(hart);
    const bool last = harts.size() == 4;
    EXPECT_EQ(ctl.Enter(hart, 255, 4, a.cycle).result,
              last ? TESSERA_ACCESS_DONE : TESSERA_ACCESS_BLOCKED);
    expected.push_back(
        {hart, "BARRIER " + std::to_string(a.x) + " " + std::to_string(a.y) + " 255 4"});
    if (!last) {
      // Nothing answers before the fourth arrival.
      EXPECT_EQ(ctl.log, expected);
    }
  }
  // Latencies to (0,0) at 4 cycles a hop: 4, 0, 8, 4; overflow = max(104, 130, 98, 124) = 130.
  const uint64_t sync[] = {134, 130, 138, 134};
  for (uint32_t i = 0; i < 4; i++) {
    expected.push_back({harts[i], "RESULT 0"});
  }
  for (uint32_t i = 0; i < 4; i++) {
    expected.push_back({harts[i], "WRITE " + std::to_string(arrivals[i].cycle) + " " +
                                      std::to_string(arrivals[i].x) + " " +
                                      std::to_string(arrivals[i].y) + " 255 0 1 131076"});
  }
  for (uint32_t i = 0; i < 4; i++) {
    expected.push_back({harts[i], "SYNC " + std::to_string(sync[i])});
  }
  EXPECT_EQ(ctl.log, expected);
  for (uint32_t i = 0; i < 3; i++) {
    EXPECT_EQ(ctl.Enter(harts[i], 255, 4, arrivals[i].cycle).resume_at, sync[i]);
  }
  EXPECT_EQ(ctl.log.size(), expected.size()) << "collecting a release logs nothing";
}

TEST(BarrierCtlModel, ThreadGridSpreadsTheThreadsOfATile) {
  const TesseraShape shape{2, 1, 2, 2, 2, 2};  // 4 threads per tile, 2 boards in X
  Ctl ctl(shape);
  for (uint32_t hart = 0; hart < tessera_num_threads(&shape); hart++) {
    const uint32_t id = tessera_thread_at(&shape, hart);
    const TesseraCoords c = tessera_coords(&shape, id);
    uint32_t x = 0, y = 0;
    tessera_barrier_ctl_grid_of(ctl.get(), hart, &x, &y);
    EXPECT_EQ(x, (c.board_x * 2 + c.tile_x) * 4 + c.core * 2 + c.thread);
    EXPECT_EQ(y, c.board_y * 2 + c.tile_y);
  }
}

TEST(BarrierCtlModel, ManyUidsAtOnceReleaseIndependently) {
  const TesseraShape shape{1, 1, 8, 8, 1, 32};  // 2,048 harts
  Ctl ctl(shape, 2, 150, 3, 5);
  const uint32_t uids = TESSERA_BARRIER_MAX_OPEN;
  // Uid u (spread over the uid space) has two participants: harts 2u and 2u+1.
  auto uid_of = [](uint32_t u) { return u * 61 % 65536; };
  for (uint32_t u = 0; u < uids; u++) {
    ASSERT_EQ(ctl.Enter(2 * u, uid_of(u), 2, u).result, TESSERA_ACCESS_BLOCKED);
  }
  EXPECT_EQ(tessera_barrier_ctl_open_uids(ctl.get()), uids);
  // Completed in reverse order: each releases only its own partner.
  for (uint32_t u = uids; u-- > 0;) {
    ctl.woken.clear();
    const auto a = ctl.Enter(2 * u + 1, uid_of(u), 2, 1000);
    ASSERT_EQ(a.result, TESSERA_ACCESS_DONE);
    ASSERT_EQ(ctl.woken, std::vector<uint32_t>{2 * u});
    const uint64_t overflow = std::max(uint64_t{u} + tessera_barrier_ctl_latency(ctl.get(), 2 * u),
                                       1000 + tessera_barrier_ctl_latency(ctl.get(), 2 * u + 1));
    EXPECT_EQ(a.resume_at, overflow + tessera_barrier_ctl_latency(ctl.get(), 2 * u + 1));
    EXPECT_EQ(ctl.Enter(2 * u, uid_of(u), 2, u).resume_at,
              overflow + tessera_barrier_ctl_latency(ctl.get(), 2 * u));
  }
  EXPECT_EQ(tessera_barrier_ctl_open_uids(ctl.get()), 0u);
}

TEST(BarrierCtlModel, AUidOpensAgainForTheNextEpisode) {
  Ctl ctl(kDefault);
  for (int episode = 0; episode < 3; episode++) {
    EXPECT_EQ(ctl.Enter(0, 7, 2, 10).result, TESSERA_ACCESS_BLOCKED);
    EXPECT_EQ(ctl.Arrived(7), 1u);
    EXPECT_EQ(ctl.Enter(5, 7, 2, 10).result, TESSERA_ACCESS_DONE);
    EXPECT_EQ(ctl.Arrived(7), 0u);
    EXPECT_EQ(ctl.Enter(0, 7, 2, 10).result, TESSERA_ACCESS_DONE);
  }
}

TEST(BarrierCtlModel, TheSameEnterAgainIsTheSameArrival) {
  Ctl ctl(kDefault);
  EXPECT_EQ(ctl.Enter(0, 3, 3, 10).result, TESSERA_ACCESS_BLOCKED);
  // Re-executed (a spurious wake, an interrupt): still one arrival.
  EXPECT_EQ(ctl.Enter(0, 3, 3, 50).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(ctl.Arrived(3), 1u);
  EXPECT_EQ(ctl.Enter(1, 3, 3, 10).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(ctl.Arrived(3), 2u);
  // The arrival cycle is the first ENTER's, not the re-issue's: the overflow is 10 (all on
  // tile (0,0), next to the controller), not 50.
  const auto a = ctl.Enter(2, 3, 3, 10);
  EXPECT_EQ(a.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(a.resume_at, 10u);
  EXPECT_EQ(ctl.Enter(0, 3, 3, 50).resume_at, 50u) << "a clock never goes back";
}

TEST(BarrierCtlModel, RegisteredCounts) {
  Ctl ctl(kDefault);
  EXPECT_EQ(tessera_barrier_ctl_registered(ctl.get(), 9), 0u);
  auto a = ctl.SetCount(4, 9, 2, 100);  // hart 4: tile (1,0), 4 cycles away
  EXPECT_EQ(a.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(a.error, nullptr);
  EXPECT_EQ(a.value, 0u);
  EXPECT_EQ(a.resume_at, 108u) << "the controller answers: a round trip";
  EXPECT_EQ(ctl.SetCount(0, 9, 3).value, 2u);
  EXPECT_EQ(tessera_barrier_ctl_registered(ctl.get(), 9), 3u);
  // Count 0 enters with the registered count; a non-zero count overrides it.
  EXPECT_EQ(ctl.Enter(0, 9, 0, 0).result, TESSERA_ACCESS_BLOCKED);
  uint32_t count = 0;
  EXPECT_EQ(tessera_barrier_ctl_arrived(ctl.get(), 9, &count), 1u);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(ctl.Enter(1, 9, 3, 0).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(ctl.Enter(2, 9, 0, 0).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(ctl.Enter(0, 10, 1, 0).result, TESSERA_ACCESS_DONE) << "count 1: at once";
  // Count 0 removes the registration.
  EXPECT_EQ(ctl.SetCount(0, 9, 0).value, 3u);
  EXPECT_EQ(ctl.Enter(3, 9, 0, 0).value, uint32_t{TESSERA_BARRIER_NO_COUNT});
}

TEST(BarrierCtlModel, BadUse) {
  Ctl ctl(kDefault);  // 16 harts
  // Count 0 with no registered count.
  auto a = ctl.Enter(0, 1, 0, 100);
  EXPECT_EQ(a.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(a.value, uint32_t{TESSERA_BARRIER_NO_COUNT});
  EXPECT_NE(a.error, nullptr);
  EXPECT_EQ(a.resume_at, 100u);
  EXPECT_EQ(tessera_barrier_ctl_open_uids(ctl.get()), 0u);
  // A count above the harts there are.
  a = ctl.Enter(0, 1, 17, 0);
  EXPECT_EQ(a.value, uint32_t{TESSERA_BARRIER_TOO_MANY});
  EXPECT_NE(a.error, nullptr);
  a = ctl.SetCount(0, 1, 17);
  EXPECT_NE(a.error, nullptr);
  EXPECT_EQ(tessera_barrier_ctl_registered(ctl.get(), 1), 0u);
  // A uid reused with a different count while open: refused, the episode unchanged.
  EXPECT_EQ(ctl.Enter(0, 2, 3, 0).result, TESSERA_ACCESS_BLOCKED);
  a = ctl.Enter(1, 2, 4, 0);
  EXPECT_EQ(a.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(a.value, uint32_t{TESSERA_BARRIER_MISMATCH});
  EXPECT_NE(a.error, nullptr);
  EXPECT_EQ(ctl.Arrived(2), 1u);
  // The same through the registered count, changed while the uid is open.
  EXPECT_EQ(ctl.SetCount(5, 2, 2).error, nullptr);
  EXPECT_EQ(ctl.Enter(1, 2, 0, 0).value, uint32_t{TESSERA_BARRIER_MISMATCH});
  // A hart with an entry outstanding enters again with another uid or count:
  // refused, so no episode counts one hart twice.
  a = ctl.Enter(0, 5, 2, 0);
  EXPECT_EQ(a.value, uint32_t{TESSERA_BARRIER_BUSY});
  EXPECT_NE(a.error, nullptr);
  EXPECT_EQ(ctl.Enter(0, 2, 4, 0).value, uint32_t{TESSERA_BARRIER_BUSY});
  EXPECT_EQ(ctl.Arrived(5), 0u);
  EXPECT_EQ(ctl.Arrived(2), 1u);
  EXPECT_EQ(ctl.Enter(1, 2, 3, 0).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(ctl.Enter(2, 2, 3, 0).result, TESSERA_ACCESS_DONE);
  // Released but not yet collected: still outstanding.
  EXPECT_EQ(ctl.Enter(0, 6, 1, 0).value, uint32_t{TESSERA_BARRIER_BUSY});
  EXPECT_EQ(ctl.Enter(0, 2, 3, 0).value, uint32_t{TESSERA_BARRIER_OK});
  EXPECT_EQ(ctl.Enter(0, 6, 1, 0).value, uint32_t{TESSERA_BARRIER_OK});
  EXPECT_EQ(ctl.Enter(1, 2, 3, 0).value, uint32_t{TESSERA_BARRIER_OK});
  // No such hart.
  EXPECT_NE(ctl.Enter(16, 1, 1, 0).error, nullptr);
  // Refused entries log nothing; the good ones did.
  for (const LogLine& l : ctl.log) {
    EXPECT_EQ(l.text.find("BARRIER 0 0 1 "), std::string::npos) << l.text;
  }
}

TEST(BarrierCtlModel, OneUidMoreThanTheLimitIsRefused) {
  const TesseraShape shape{1, 1, 8, 8, 1, 32};  // 2,048 harts
  Ctl ctl(shape);
  for (uint32_t u = 0; u < TESSERA_BARRIER_MAX_OPEN; u++) {
    ASSERT_EQ(ctl.Enter(u, u, 2, 0).result, TESSERA_ACCESS_BLOCKED);
  }
  auto a = ctl.Enter(TESSERA_BARRIER_MAX_OPEN, TESSERA_BARRIER_MAX_OPEN, 2, 0);
  EXPECT_EQ(a.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(a.value, uint32_t{TESSERA_BARRIER_FULL});
  EXPECT_NE(a.error, nullptr);
  // An open uid still takes arrivals; once one closes, a new uid opens.
  EXPECT_EQ(ctl.Enter(TESSERA_BARRIER_MAX_OPEN, 0, 2, 0).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(ctl.Enter(TESSERA_BARRIER_MAX_OPEN + 1, TESSERA_BARRIER_MAX_OPEN, 2, 0).result,
            TESSERA_ACCESS_BLOCKED);
}

TEST(BarrierCtlModel, WaitsAreReportedAndResetClearsEverything) {
  TesseraWaits* waits = tessera_waits_new(&kDefault);
  ASSERT_NE(waits, nullptr);
  {
    Ctl ctl(kDefault, 4, 150, 0, 0, waits);
    EXPECT_EQ(ctl.Enter(3, 40, 3, 77).result, TESSERA_ACCESS_BLOCKED);
    EXPECT_EQ(ctl.Enter(4, 40, 3, 80).result, TESSERA_ACCESS_BLOCKED);
    EXPECT_EQ(tessera_waits_count(waits), 2u);
    EXPECT_NE(std::string(tessera_waits_operation(waits, 3)).find("barrier controller"),
              std::string::npos);
    EXPECT_EQ(tessera_waits_since(waits, 3), 77u);
    EXPECT_EQ(ctl.Enter(5, 40, 3, 80).result, TESSERA_ACCESS_DONE);
    EXPECT_EQ(tessera_waits_count(waits), 0u) << "released harts no longer wait";

    EXPECT_EQ(ctl.SetCount(0, 41, 2).error, nullptr);
    EXPECT_EQ(ctl.Enter(6, 41, 0, 0).result, TESSERA_ACCESS_BLOCKED);
    EXPECT_EQ(tessera_waits_count(waits), 1u);
    tessera_barrier_ctl_reset(ctl.get());
    EXPECT_EQ(tessera_waits_count(waits), 0u);
    EXPECT_EQ(tessera_barrier_ctl_open_uids(ctl.get()), 0u);
    EXPECT_EQ(tessera_barrier_ctl_registered(ctl.get(), 41), 0u);
    // Released-but-uncollected entries are gone too: a new entry is not BUSY.
    EXPECT_EQ(ctl.Enter(3, 1, 1, 0).value, uint32_t{TESSERA_BARRIER_OK});
  }
  tessera_waits_free(waits);
}

// Over several processes: one controller, and two copies that each see their own harts'
// commands and take the other's at each exchange (tessera_barrier_ctl_fresh / _post_remote).
// Random episodes, counts and re-entries: every answer from a hart's own copy equals the one
// controller's, and so does every episode's state, after every exchange.
TEST(BarrierCtlRanks, CopiesThatTakeEachOthersCommandsAgreeWithOne) {
  constexpr TesseraShape kTwoBoards{2, 1, 2, 2, 1, 2};  // 16 harts, 8 a board
  for (uint32_t seed = 1; seed <= 30; seed++) {
    std::mt19937 rng(seed);
    Ctl one(kTwoBoards, 4, 150, 0, 0, nullptr, 0, true);
    Ctl a(kTwoBoards, 4, 150, 0, 0, nullptr, 0, true),
        b(kTwoBoards, 4, 150, 0, 0, nullptr, 0, true);
    auto copy = [&](uint32_t hart) -> Ctl& { return hart < 8 ? a : b; };
    std::vector<uint64_t> now(16, 0);
    std::vector<uint32_t> uid_of(16, 0);
    uint64_t window = 0;
    for (int w = 0; w < 40; w++) {
      window += 300;
      for (int op = 0; op < 10; op++) {
        const uint32_t h = rng() % 16;
        now[h] = std::max(now[h], window - 300) + rng() % 100;
        const uint32_t uid = rng() % 3;
        const bool count = rng() % 5 == 0;
        const bool again = rng() % 3 == 0;  // the entry it made, or a new one
        const uint32_t u = again ? uid_of[h] : uid;
        const uint32_t value = TESSERA_BARRIER_VALUE(u, count ? 1 + rng() % 4 : 2 + rng() % 3);
        const uint32_t csr = count ? TESSERA_CSR_BARRIER_COUNT : TESSERA_CSR_BARRIER_ENTER;
        const Ctl::Answer x = one.Csr(h, csr, value, now[h]);
        const Ctl::Answer y = copy(h).Csr(h, csr, value, now[h]);
        ASSERT_EQ(x.result, y.result) << "seed " << seed << " hart " << h;
        ASSERT_EQ(x.value, y.value) << "seed " << seed << " hart " << h;
        ASSERT_EQ(x.resume_at, y.resume_at) << "seed " << seed << " hart " << h;
        if (!count) uid_of[h] = u;
        if (x.result == TESSERA_ACCESS_DONE) now[h] = std::max(now[h], x.resume_at);
      }
      auto fresh = [](Ctl& c) {
        const TesseraBarrierCtlPost* p = nullptr;
        const size_t n = tessera_barrier_ctl_fresh(c.get(), &p);
        return std::vector<TesseraBarrierCtlPost>(p, p + n);
      };
      const std::vector<TesseraBarrierCtlPost> from_a = fresh(a), from_b = fresh(b);
      for (const TesseraBarrierCtlPost& p : from_b) {
        ASSERT_TRUE(tessera_barrier_ctl_post_remote(a.get(), &p)) << "seed " << seed;
      }
      for (const TesseraBarrierCtlPost& p : from_a) {
        ASSERT_TRUE(tessera_barrier_ctl_post_remote(b.get(), &p)) << "seed " << seed;
        ASSERT_FALSE(tessera_barrier_ctl_post_remote(b.get(), &p)) << "twice on its way";
      }
      const uint32_t done = tessera_barrier_ctl_exchange(one.get(), window);
      ASSERT_EQ(tessera_barrier_ctl_exchange(a.get(), window), done) << "seed " << seed;
      ASSERT_EQ(tessera_barrier_ctl_exchange(b.get(), window), done) << "seed " << seed;
      for (uint32_t uid = 0; uid < 3; uid++) {
        uint32_t c1 = 0, ca = 0, cb = 0;
        const uint32_t n1 = tessera_barrier_ctl_arrived(one.get(), uid, &c1);
        ASSERT_EQ(tessera_barrier_ctl_arrived(a.get(), uid, &ca), n1) << "seed " << seed;
        ASSERT_EQ(tessera_barrier_ctl_arrived(b.get(), uid, &cb), n1) << "seed " << seed;
        ASSERT_EQ(ca, c1);
        ASSERT_EQ(cb, c1);
      }
    }
  }
}

TEST(BarrierCtlRanks, ACommandNoHartCouldHavePostedIsRefused) {
  Ctl c(kFourTiles, 4, 150, 0, 0, nullptr, 0, true);
  TesseraBarrierCtlPost p{};
  p.hart = 1;
  p.csr = TESSERA_CSR_BARRIER_ENTER;
  p.value = TESSERA_BARRIER_VALUE(3, 2);
  p.now = 10;
  p.arrival = 10 + tessera_barrier_ctl_latency(c.get(), 1);
  p.idle = 1;
  TesseraBarrierCtlPost bad = p;
  bad.hart = 4;  // no such hart
  EXPECT_FALSE(tessera_barrier_ctl_post_remote(c.get(), &bad));
  bad = p;
  bad.csr = TESSERA_CSR_SEND;
  EXPECT_FALSE(tessera_barrier_ctl_post_remote(c.get(), &bad));
  bad = p;
  bad.arrival += 1;  // not its latency
  EXPECT_FALSE(tessera_barrier_ctl_post_remote(c.get(), &bad));
  bad = p;
  bad.idle = 2;
  EXPECT_FALSE(tessera_barrier_ctl_post_remote(c.get(), &bad));
  EXPECT_TRUE(tessera_barrier_ctl_post_remote(c.get(), &p));
  EXPECT_FALSE(tessera_barrier_ctl_post_remote(c.get(), &p));  // already on its way
  // Without windows there is no exchange to take it.
  Ctl plain(kFourTiles);
  EXPECT_FALSE(tessera_barrier_ctl_post_remote(plain.get(), &p));
  const TesseraBarrierCtlPost* none = nullptr;
  EXPECT_EQ(tessera_barrier_ctl_fresh(plain.get(), &none), 0u);
}

}  // namespace

// A dev board's controller (docs/boards.md): a table of a few uids instead of tables over all
// 65,536. Within it, the same answers; beyond it, a count or a new uid is refused, and a uid's
// slot is free again once its count is 0 and its episode closed.
TEST(BarrierCtlModel, ASmallUidTableHoldsWhatFitsAndRefusesTheRest) {
  const TesseraShape shape{1, 1, 1, 1, 1, 4};
  Ctl ctl(shape, 4, 150, 0, 0, nullptr, /*uid_slots=*/2);
  EXPECT_EQ(ctl.SetCount(0, 7, 2).error, nullptr);
  EXPECT_EQ(ctl.SetCount(0, 9, 3).error, nullptr);
  const auto refused = ctl.SetCount(0, 11, 2);
  EXPECT_NE(refused.error, nullptr);
  EXPECT_EQ(tessera_barrier_ctl_registered(ctl.get(), 11), 0u);
  EXPECT_EQ(tessera_barrier_ctl_registered(ctl.get(), 9), 3u);
  // Both slots hold counts: a third uid cannot open.
  auto full = ctl.Enter(0, 12, 2, 0);
  EXPECT_EQ(full.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(full.value, uint32_t{TESSERA_BARRIER_FULL});
  EXPECT_NE(full.error, nullptr);
  // A registered uid opens and releases as with the full tables.
  EXPECT_EQ(ctl.Enter(0, 7, 0, 0).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(ctl.Enter(1, 7, 0, 0).result, TESSERA_ACCESS_DONE);
  // Unregistering 9 frees its slot for 12.
  EXPECT_EQ(ctl.SetCount(0, 9, 0).error, nullptr);
  EXPECT_EQ(ctl.Enter(2, 12, 2, 0).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(tessera_barrier_ctl_open_uids(ctl.get()), 1u);
  EXPECT_EQ(ctl.Enter(3, 12, 2, 0).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(tessera_barrier_ctl_open_uids(ctl.get()), 0u);
}

// With windows, commands wait for the exchange and are carried out by arrival at the controller,
// whatever order their harts ran in; the answer is read when the hart issues its command again.
TEST(BarrierCtlWindows, CommandsAreCarriedOutByArrivalAtTheExchange) {
  auto run = [](bool reversed) {
    Ctl c(kFourTiles, 4, 150, 0, 0, nullptr, 0, true);
    const uint32_t harts[] = {0, 1, 2, 3};
    const uint64_t times[] = {40, 10, 30, 20};
    for (uint32_t i = 0; i < 4; i++) {
      const uint32_t k = reversed ? 3 - i : i;
      EXPECT_EQ(c.Enter(harts[k], 7, 4, times[k]).result, TESSERA_ACCESS_BLOCKED);
    }
    EXPECT_EQ(tessera_barrier_ctl_posted(c.get()), 4u);
    EXPECT_TRUE(c.log.empty());
    EXPECT_EQ(tessera_barrier_ctl_exchange(c.get(), 1000), 4u);
    EXPECT_EQ(tessera_barrier_ctl_posted(c.get()), 0u);
    std::vector<uint32_t> order;
    for (const LogLine& l : c.log) {
      if (l.text.rfind("BARRIER", 0) == 0) order.push_back(l.hart);
    }
    return order;
  };
  // Arrival = issue + lat_1 (0, 4, 4, 8 cycles for tiles 0..3): 10+4, 20+8, 30+4, 40+0.
  const std::vector<uint32_t> expected{1, 3, 2, 0};
  EXPECT_EQ(run(false), expected);
  EXPECT_EQ(run(true), expected);
}

TEST(BarrierCtlWindows, TheLastArrivalAndACountAreAnsweredAfterTheExchange) {
  Ctl c(kFourTiles, 4, 150, 0, 0, nullptr, 0, true);
  const uint64_t lat3 = Oracle(kFourTiles, 4, 150, 3, 0, 0);
  EXPECT_EQ(c.SetCount(3, 9, 2, 100).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(c.SetCount(3, 9, 2, 100).result, TESSERA_ACCESS_BLOCKED);  // again: still on its way
  EXPECT_EQ(tessera_barrier_ctl_exchange(c.get(), 100 + lat3), 0u);    // not there before then
  EXPECT_EQ(tessera_barrier_ctl_exchange(c.get(), 100 + lat3 + 1), 1u);
  EXPECT_EQ(c.woken, std::vector<uint32_t>{3});
  const Ctl::Answer count = c.SetCount(3, 9, 2, 101);
  EXPECT_EQ(count.result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(count.resume_at, 100 + 2 * lat3);
  EXPECT_EQ(tessera_barrier_ctl_registered(c.get(), 9), 2u);

  c.woken.clear();
  EXPECT_EQ(c.Enter(0, 9, 0, 500).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(c.Enter(3, 9, 0, 520).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(tessera_barrier_ctl_exchange(c.get(), 1000), 2u);
  EXPECT_EQ(c.woken, (std::vector<uint32_t>{0, 3}));  // released, then the last one answered
  const uint64_t overflow = 520 + lat3;
  EXPECT_EQ(c.Enter(0, 9, 0, 501).resume_at, overflow);
  EXPECT_EQ(c.Enter(3, 9, 0, 521).resume_at, overflow + lat3);
  EXPECT_EQ(c.Arrived(9), 0u);
}

TEST(BarrierCtlWindows, AResetForgetsWaitingCommands) {
  Ctl c(kFourTiles, 4, 150, 0, 0, nullptr, 0, true);
  EXPECT_EQ(c.Enter(1, 5, 2, 10).result, TESSERA_ACCESS_BLOCKED);
  tessera_barrier_ctl_reset(c.get());
  EXPECT_EQ(tessera_barrier_ctl_posted(c.get()), 0u);
  EXPECT_EQ(tessera_barrier_ctl_exchange(c.get(), 1000), 0u);
  EXPECT_TRUE(c.log.empty());
}
