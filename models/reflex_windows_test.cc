// The reflex switches with time windows (tessera/models/reflex.h, docs/ranks.md): a flit whose
// path leaves its board waits for the window's end, and copies of the switches in several
// processes (ranks), each taking its own harts' CSRs at once and the others' at the window's
// end, agree with one model at every window's end.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "tessera/models/reflex.h"

namespace {

constexpr uint32_t kB = 2;
constexpr uint32_t kHop = 3;
// 2x1 boards of one tile, one core of 4 threads: harts 0..3 on board 0, 4..7 on board 1.
constexpr TesseraShape kShape{2, 1, 1, 1, 1, 4};
constexpr uint32_t kHarts = 8;

struct ReflexDeleter {
  void operator()(TesseraReflex* r) const { tessera_reflex_free(r); }
};
using Reflex = std::unique_ptr<TesseraReflex, ReflexDeleter>;

Reflex Make(const bool* local_boards) {
  const TesseraReflexConfig config{kShape, kB, kHop, nullptr};
  TesseraReflexHost host{};
  host.wake = [](void*, uint32_t) {};
  Reflex r(tessera_reflex_new(&config, &host));
  EXPECT_TRUE(r && tessera_reflex_use_windows(r.get(), local_boards));
  return r;
}

TesseraAccessStatus Csr(TesseraReflex* r, uint32_t hart, uint32_t csr, bool write, uint32_t value,
                        uint64_t now, uint32_t* read = nullptr) {
  return tessera_access_unpack(tessera_reflex_csr(r, hart, csr, write, value, now), read, nullptr,
                               nullptr);
}

// A ring 0 -> 1 -> ... -> 7 -> 0 rooted at `root`: it crosses both board edges.
void Ring(TesseraReflex* r, uint32_t root) {
  for (uint32_t h = 0; h < kHarts; h++) {
    Csr(r, h, TESSERA_CSR_REFLEX_NEXT, true, tessera_thread_at(&kShape, (h + 1) % kHarts), 0);
  }
  for (uint32_t h = 0; h < kHarts; h++) {
    Csr(r, h, TESSERA_CSR_REFLEX_ROUTE, true,
        h == root ? TESSERA_REFLEX_ROUTE_CORE : TESSERA_REFLEX_ROUTE_BOTH, 0);
  }
}

TEST(ReflexWindows, AFlitLeavingItsBoardMovesAtTheWindowsEnd) {
  Reflex r = Make(nullptr);
  Ring(r.get(), 0);
  // From hart 1 (board 0): its path leaves board 0 at hart 4.
  ASSERT_EQ(Csr(r.get(), 1, TESSERA_CSR_REFLEX_SEND, true, 0xabc, 10), TESSERA_ACCESS_DONE);
  EXPECT_EQ(tessera_reflex_inbound(r.get(), 2), 0u);  // not even on its own board yet
  EXPECT_EQ(tessera_reflex_window_pending(r.get()), 1u);
  EXPECT_EQ(tessera_reflex_window_end(r.get(), nullptr, 0), 1u);
  // Delivered along the whole path (to the root, 0, at the end), at its own time.
  for (uint32_t h : {2u, 3u, 4u, 5u, 6u, 7u, 0u}) EXPECT_EQ(tessera_reflex_inbound(r.get(), h), 1u);
  uint32_t flit = 0;
  uint64_t at = 0;
  ASSERT_EQ(tessera_access_unpack(tessera_reflex_recv(r.get(), 7, 0), &flit, &at, nullptr),
            TESSERA_ACCESS_DONE);
  EXPECT_EQ(flit, 0xabcu);
  EXPECT_EQ(at, 10u + 6 * kHop);
  EXPECT_EQ(tessera_reflex_window_pending(r.get()), 0u);
}

TEST(ReflexWindows, APathWithinItsBoardMovesAtOnce) {
  Reflex r = Make(nullptr);
  Ring(r.get(), 3);  // 1 -> 2 -> 3 (root): all on board 0
  ASSERT_EQ(Csr(r.get(), 1, TESSERA_CSR_REFLEX_SEND, true, 7, 0), TESSERA_ACCESS_DONE);
  EXPECT_EQ(tessera_reflex_inbound(r.get(), 3), 1u);
  EXPECT_EQ(tessera_reflex_window_pending(r.get()), 0u);
}

// Copies that each take their own board's harts' CSRs at once and the other's at the window's
// end see what one model sees, window by window, over random rings, sends and receives.
TEST(ReflexWindows, CopiesOverRanksAgreeWithOneModelAtEveryWindowsEnd) {
  uint32_t seeds_that_crossed = 0;
  for (uint32_t seed = 1; seed <= 30; seed++) {
    std::mt19937 rng(seed);
    const bool local0[] = {true, false}, local1[] = {false, true};
    Reflex one = Make(nullptr), rank0 = Make(local0), rank1 = Make(local1);
    TesseraReflex* ranks[] = {rank0.get(), rank1.get()};
    Ring(one.get(), seed % kHarts);
    for (TesseraReflex* r : ranks) Ring(r, seed % kHarts);
    // The ring's configuration was every hart's: the copies trade it at the first end.
    std::vector<uint64_t> now(kHarts, 0);
    uint64_t moved_total = 0;
    for (int window = 0; window < 60; window++) {
      for (int op = 0; op < 12; op++) {
        const uint32_t h = rng() % kHarts;
        TesseraReflex* own = ranks[h / 4];
        now[h] += 1 + rng() % 20;
        const bool send = rng() % 2 == 0;
        const uint32_t csr = send ? TESSERA_CSR_REFLEX_SEND : TESSERA_CSR_REFLEX_RECV;
        const uint32_t value = send ? static_cast<uint32_t>(rng()) : 0;
        uint32_t a = 0, b = 0;
        EXPECT_EQ(Csr(one.get(), h, csr, send, value, now[h], &a),
                  Csr(own, h, csr, send, value, now[h], &b))
            << "seed " << seed << " window " << window << " hart " << h;
        EXPECT_EQ(a, b);
      }
      const TesseraReflexOp *ops0 = nullptr, *ops1 = nullptr;
      const size_t n0 = tessera_reflex_window_ops(rank0.get(), &ops0);
      const size_t n1 = tessera_reflex_window_ops(rank1.get(), &ops1);
      std::vector<TesseraReflexOp> all(ops0, ops0 + n0);
      all.insert(all.end(), ops1, ops1 + n1);
      const uint32_t moved = tessera_reflex_window_end(one.get(), nullptr, 0);
      EXPECT_EQ(tessera_reflex_window_end(rank0.get(), all.data(), all.size()), moved);
      EXPECT_EQ(tessera_reflex_window_end(rank1.get(), all.data(), all.size()), moved);
      moved_total += moved;
      for (uint32_t h = 0; h < kHarts; h++) {
        for (TesseraReflex* r : ranks) {
          EXPECT_EQ(tessera_reflex_inbound(r, h), tessera_reflex_inbound(one.get(), h))
              << "seed " << seed << " window " << window << " hart " << h;
          EXPECT_EQ(tessera_reflex_outbound(r, h), tessera_reflex_outbound(one.get(), h));
          EXPECT_EQ(tessera_reflex_switch_on(r, h), tessera_reflex_switch_on(one.get(), h));
        }
      }
    }
    seeds_that_crossed += moved_total > 0;
  }
  // Not vacuous: in most runs flits crossed the boards at windows' ends.
  EXPECT_GE(seeds_that_crossed, 20u);
}

}  // namespace
