// The wait registry: who waits on what, and the deadlock report's grouping.
#include "tessera/models/waits.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace {

// 2x1 boards of 2 tiles x 2 cores x 2 threads: 8 threads a board, ids of
// board 1 start at 0x8.
constexpr TesseraShape kShape{2, 1, 2, 1, 2, 2};

struct WaitsDeleter {
  void operator()(TesseraWaits* w) const { tessera_waits_free(w); }
};
using Waits = std::unique_ptr<TesseraWaits, WaitsDeleter>;

Waits NewWaits(const TesseraShape& shape = kShape) {
  Waits w(tessera_waits_new(&shape));
  EXPECT_NE(w, nullptr);
  return w;
}

std::string Report(const TesseraWaits* w) {
  const size_t len = tessera_waits_report(w, nullptr, 0);
  std::string text(len + 1, '\0');
  EXPECT_EQ(tessera_waits_report(w, text.data(), text.size()), len);
  text.resize(len);
  return text;
}

TEST(WaitsModel, BlockAndUnblockCountHarts) {
  Waits w = NewWaits();
  EXPECT_EQ(tessera_waits_count(w.get()), 0u);
  tessera_waits_block(w.get(), 3, "mailbox wait-until can-recv", 100);
  tessera_waits_block(w.get(), 3, "mailbox wait-until can-recv", 200);  // keeps its first cycle
  EXPECT_EQ(tessera_waits_count(w.get()), 1u);
  EXPECT_EQ(tessera_waits_since(w.get(), 3), 100u);
  EXPECT_STREQ(tessera_waits_operation(w.get(), 3), "mailbox wait-until can-recv");
  tessera_waits_block(w.get(), 3, "mailbox wait-until can-send", 300);  // another operation
  EXPECT_EQ(tessera_waits_since(w.get(), 3), 300u);
  EXPECT_EQ(tessera_waits_count(w.get()), 1u);
  tessera_waits_unblock(w.get(), 3);
  tessera_waits_unblock(w.get(), 3);
  EXPECT_EQ(tessera_waits_count(w.get()), 0u);
  EXPECT_EQ(tessera_waits_operation(w.get(), 3), nullptr);
}

TEST(WaitsModel, OutOfRangeHartsAreIgnored) {
  Waits w = NewWaits();
  tessera_waits_block(w.get(), 16, "x", 1);
  tessera_waits_block(w.get(), UINT32_MAX, "x", 1);
  tessera_waits_unblock(w.get(), 16);
  EXPECT_EQ(tessera_waits_count(w.get()), 0u);
  EXPECT_EQ(tessera_waits_operation(w.get(), 16), nullptr);
  const TesseraShape empty{0, 1, 1, 1, 1, 1};
  EXPECT_EQ(tessera_waits_new(&empty), nullptr);
}

TEST(WaitsModel, ResetForgetsEveryWait) {
  Waits w = NewWaits();
  for (uint32_t i = 0; i < 16; i++) tessera_waits_block(w.get(), i, "x", i);
  tessera_waits_reset(w.get());
  EXPECT_EQ(tessera_waits_count(w.get()), 0u);
  EXPECT_EQ(Report(w.get()), "");
}

TEST(WaitsModel, ReportNamesOneThreadByItsId) {
  Waits w = NewWaits();
  tessera_waits_block(w.get(), 0, "mailbox wait-until can-recv", 4873);
  EXPECT_EQ(Report(w.get()), "  thread 0x0: mailbox wait-until can-recv, since cycle 4873\n");
}

TEST(WaitsModel, ReportGroupsByOperationWithIdRangesAndCycleSpans) {
  Waits w = NewWaits();
  // Dense 8..15 are board 1: ids 0x8..0xf.
  for (uint32_t i : {1u, 2u, 3u, 9u, 10u}) tessera_waits_block(w.get(), i, "op A", 10 * i);
  // Another copy of the same text groups with it.
  const std::string copy = "op A";
  tessera_waits_block(w.get(), 5, copy.c_str(), 50);
  tessera_waits_block(w.get(), 0, "op B", 7);
  tessera_waits_block(w.get(), 15, "op B", 7);
  EXPECT_EQ(Report(w.get()),
            "  threads 0x0, 0xf (2): op B, since cycle 7\n"
            "  threads 0x1-0x3, 0x5, 0x9-0xa (6): op A, since cycles 10..100\n");
}

TEST(WaitsModel, ThousandsOfHartsGiveAShortReport) {
  // 3x2 boards of 1,024: ids have holes between board rows.
  const TesseraShape shape{3, 2, 4, 4, 4, 16};
  Waits w = NewWaits(shape);
  const uint32_t n = tessera_num_threads(&shape);
  for (uint32_t i = 0; i < n; i++) {
    // Every other hart in receive, the rest finished.
    tessera_waits_block(w.get(), i, i % 2 ? TESSERA_WAIT_OP_FINISHED : "recv", 1000 + i % 7);
  }
  const std::string report = Report(w.get());
  EXPECT_LT(report.size(), 500u) << report;
  EXPECT_NE(
      report.find("threads 0x0, 0x2, 0x4, 0x6, 0x8, 0xa, 0xc, 0xe and 3064 more ranges (3072): "
                  "recv, since cycles 1000..1006\n"),
      std::string::npos)
      << report;
  // Whole boards are one range each; board (0,1) starts at id 0x1000.
  tessera_waits_reset(w.get());
  for (uint32_t i = 0; i < n; i++) tessera_waits_block(w.get(), i, "recv", 5);
  EXPECT_EQ(Report(w.get()), "  threads 0x0-0xbff, 0x1000-0x1bff (6144): recv, since cycle 5\n");
}

TEST(WaitsModel, ReportTruncatesLikeSnprintf) {
  Waits w = NewWaits();
  tessera_waits_block(w.get(), 0, "mailbox wait-until can-recv", 4873);
  const std::string whole = Report(w.get());
  char small[10];
  EXPECT_EQ(tessera_waits_report(w.get(), small, sizeof(small)), whole.size());
  EXPECT_EQ(std::string(small), whole.substr(0, sizeof(small) - 1));
}

}  // namespace
