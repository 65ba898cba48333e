// The clock model on its own: cycles = retired instructions x CPI + waits.
#include "tessera/models/clock.h"

#include <gtest/gtest.h>

#include <memory>

#include "tessera/hw/machine_params.h"
#include "tessera/hw/regs.h"

namespace {

struct ClocksDeleter {
  void operator()(TesseraClocks* c) const { tessera_clocks_free(c); }
};
using Clocks = std::unique_ptr<TesseraClocks, ClocksDeleter>;

Clocks Make(uint32_t harts, uint32_t cpi) {
  Clocks c(tessera_clocks_new(harts, cpi));
  EXPECT_NE(c, nullptr);
  return c;
}

TEST(ClockModel, RefusesNoHartsAndCpiOutsideItsRange) {
  EXPECT_EQ(tessera_clocks_new(0, 1), nullptr);
  EXPECT_EQ(tessera_clocks_new(4, TESSERA_MIN_cpi - 1), nullptr);
  EXPECT_EQ(tessera_clocks_new(4, TESSERA_LIMIT_cpi + 1), nullptr);
  Clocks c(tessera_clocks_new(4, TESSERA_LIMIT_cpi));
  EXPECT_NE(c, nullptr);
}

TEST(ClockModel, RetiredInstructionsCostCpiCyclesEach) {
  const Clocks c = Make(3, 4);
  tessera_clocks_retire(c.get(), 1, 10);
  EXPECT_EQ(tessera_clocks_now(c.get(), 1), 40u);
  EXPECT_EQ(tessera_clocks_now(c.get(), 0), 0u);  // each hart has its own clock
  EXPECT_EQ(tessera_clocks_cpi(c.get()), 4u);
}

TEST(ClockModel, RetiredTotalCountsInstructionsNotWaitsOrCpi) {
  const Clocks c = Make(3, 4);
  tessera_clocks_retire(c.get(), 0, 10);
  tessera_clocks_retire(c.get(), 2, 5);
  (void)tessera_clocks_wait_until(c.get(), 1, 1000);
  EXPECT_EQ(tessera_clocks_retired_total(c.get()), 15u);
  tessera_clocks_reset(c.get());
  EXPECT_EQ(tessera_clocks_retired_total(c.get()), 0u);
}

TEST(ClockModel, AWaitMovesTheClockForwardOnly) {
  const Clocks c = Make(2, 2);
  tessera_clocks_retire(c.get(), 0, 5);                        // at 10
  EXPECT_EQ(tessera_clocks_wait_until(c.get(), 0, 100), 90u);  // to 100
  EXPECT_EQ(tessera_clocks_now(c.get(), 0), 100u);
  EXPECT_EQ(tessera_clocks_wait_until(c.get(), 0, 50), 0u);  // already past
  EXPECT_EQ(tessera_clocks_now(c.get(), 0), 100u);
  tessera_clocks_retire(c.get(), 0, 1);  // work after the wait
  EXPECT_EQ(tessera_clocks_now(c.get(), 0), 102u);
}

TEST(ClockModel, CycleCsrsReadTheTwoWords) {
  const Clocks c = Make(1, 1);
  const uint64_t target = (uint64_t{3} << 32) | 7;
  ASSERT_EQ(tessera_clocks_wait_until(c.get(), 0, target), target);
  uint32_t low = 0, high = 0, other = 1;
  EXPECT_TRUE(tessera_clocks_read_csr(c.get(), 0, TESSERA_CSR_CYCLE, &low));
  EXPECT_TRUE(tessera_clocks_read_csr(c.get(), 0, TESSERA_CSR_CYCLEH, &high));
  EXPECT_EQ(low, 7u);
  EXPECT_EQ(high, 3u);
  EXPECT_FALSE(tessera_clocks_read_csr(c.get(), 0, TESSERA_CSR_HART_ID, &other));
  EXPECT_EQ(other, 0u);
}

TEST(ClockModel, OutOfRangeHartsAreIgnored) {
  const Clocks c = Make(2, 1);
  tessera_clocks_retire(c.get(), 2, 10);
  EXPECT_EQ(tessera_clocks_wait_until(c.get(), 7, 10), 0u);
  EXPECT_EQ(tessera_clocks_now(c.get(), 2), 0u);
  EXPECT_EQ(tessera_clocks_now(c.get(), 0), 0u);
  EXPECT_EQ(tessera_clocks_now(c.get(), 1), 0u);
}

TEST(ClockModel, ResetReturnsEveryClockToZero) {
  const Clocks c = Make(2, 3);
  tessera_clocks_retire(c.get(), 0, 4);
  (void)tessera_clocks_wait_until(c.get(), 1, 99);
  tessera_clocks_reset(c.get());
  EXPECT_EQ(tessera_clocks_now(c.get(), 0), 0u);
  EXPECT_EQ(tessera_clocks_now(c.get(), 1), 0u);
}

}  // namespace
