// The MSWI model on its own: one msip register per hart of a board, bit 0
// only, bound checks, reset.
#include "tessera/models/mswi.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tessera/testing/access.h"

namespace {

using tessera::testing::MswiWrite;

struct MswiDeleter {
  void operator()(TesseraMswi* m) const { tessera_mswi_free(m); }
};
using Mswi = std::unique_ptr<TesseraMswi, MswiDeleter>;

constexpr uint32_t kHarts = 16;

uint32_t Read(const TesseraMswi* m, uint32_t offset) {
  uint32_t value = 0xdead'beefu;
  const char* error = nullptr;
  EXPECT_EQ(tessera_access_unpack(tessera_mswi_read(m, offset), &value, nullptr, &error),
            TESSERA_ACCESS_DONE)
      << (error ? error : "");
  return value;
}

uint32_t Write(TesseraMswi* m, uint32_t offset, uint32_t value) {
  uint32_t hart = UINT32_MAX;
  const char* error = nullptr;
  EXPECT_EQ(MswiWrite(tessera_mswi_write(m, offset, value), &hart, &error), TESSERA_ACCESS_DONE)
      << (error ? error : "");
  return hart;
}

TEST(MswiModel, EveryMsipStartsClear) {
  Mswi m(tessera_mswi_new(kHarts));
  ASSERT_NE(m, nullptr);
  for (uint32_t h = 0; h < kHarts; h++) {
    EXPECT_EQ(Read(m.get(), 4 * h), 0u);
    EXPECT_FALSE(tessera_mswi_pending(m.get(), h));
  }
}

TEST(MswiModel, WriteSetsOnlyThatHartsMsipAndNamesIt) {
  Mswi m(tessera_mswi_new(kHarts));
  EXPECT_EQ(Write(m.get(), 4 * 5, 1), 5u);
  for (uint32_t h = 0; h < kHarts; h++) {
    EXPECT_EQ(Read(m.get(), 4 * h), h == 5 ? 1u : 0u) << h;
    EXPECT_EQ(tessera_mswi_pending(m.get(), h), h == 5) << h;
  }
  EXPECT_EQ(Write(m.get(), 4 * 5, 0), 5u);
  EXPECT_FALSE(tessera_mswi_pending(m.get(), 5));
}

TEST(MswiModel, OnlyBitZeroIsKept) {
  Mswi m(tessera_mswi_new(kHarts));
  Write(m.get(), 0, 0xffff'fffeu);
  EXPECT_EQ(Read(m.get(), 0), 0u);
  Write(m.get(), 0, 0xffff'ffffu);
  EXPECT_EQ(Read(m.get(), 0), 1u);
  EXPECT_TRUE(tessera_mswi_pending(m.get(), 0));
}

TEST(MswiModel, HartsTheBoardDoesNotHaveAreGuestErrors) {
  Mswi m(tessera_mswi_new(kHarts));
  for (const uint32_t offset :
       {4 * kHarts, 4 * kHarts + 4, TESSERA_MSWI_STRIDE - 4, UINT32_MAX - 3}) {
    uint32_t value = 0xdead'beefu;
    uint32_t hart = 77;
    const char* error = nullptr;
    EXPECT_EQ(tessera_access_unpack(tessera_mswi_read(m.get(), offset), &value, nullptr, &error),
              TESSERA_ACCESS_GUEST_ERROR);
    EXPECT_EQ(value, 0u);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(std::string(error).find("does not have"), std::string::npos) << error;
    error = nullptr;
    EXPECT_EQ(MswiWrite(tessera_mswi_write(m.get(), offset, 1), &hart, &error),
              TESSERA_ACCESS_GUEST_ERROR);
    EXPECT_EQ(hart, 77u);
    ASSERT_NE(error, nullptr);
  }
  for (uint32_t h = 0; h < kHarts; h++) {
    EXPECT_FALSE(tessera_mswi_pending(m.get(), h));
  }
  EXPECT_FALSE(tessera_mswi_pending(m.get(), kHarts));
}

TEST(MswiModel, UnalignedOffsetsAreGuestErrors) {
  Mswi m(tessera_mswi_new(kHarts));
  for (const uint32_t offset : {1u, 2u, 3u, 4 * 3 + 2u}) {
    uint32_t value = 9;
    const char* error = nullptr;
    EXPECT_EQ(MswiWrite(tessera_mswi_write(m.get(), offset, 1), nullptr, &error),
              TESSERA_ACCESS_GUEST_ERROR);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(std::string(error).find("unaligned"), std::string::npos) << error;
    EXPECT_EQ(tessera_access_unpack(tessera_mswi_read(m.get(), offset), &value, nullptr, nullptr),
              TESSERA_ACCESS_GUEST_ERROR);
    EXPECT_EQ(value, 0u);
  }
  for (uint32_t h = 0; h < kHarts; h++) {
    EXPECT_FALSE(tessera_mswi_pending(m.get(), h));
  }
}

TEST(MswiModel, ResetClearsEveryMsip) {
  Mswi m(tessera_mswi_new(kHarts));
  for (uint32_t h = 0; h < kHarts; h += 3) {
    Write(m.get(), 4 * h, 1);
  }
  tessera_mswi_reset(m.get());
  for (uint32_t h = 0; h < kHarts; h++) {
    EXPECT_EQ(Read(m.get(), 4 * h), 0u);
    EXPECT_FALSE(tessera_mswi_pending(m.get(), h));
  }
}

TEST(MswiModel, BoardSizeMustFitTheStride) {
  EXPECT_EQ(tessera_mswi_new(0), nullptr);
  EXPECT_EQ(tessera_mswi_new(TESSERA_MSWI_MAX_HARTS + 1), nullptr);
  Mswi full(tessera_mswi_new(TESSERA_MSWI_MAX_HARTS));
  ASSERT_NE(full, nullptr);
  const uint32_t last = TESSERA_MSWI_MAX_HARTS - 1;
  EXPECT_EQ(Write(full.get(), 4 * last, 1), last);
  EXPECT_TRUE(tessera_mswi_pending(full.get(), last));
  EXPECT_EQ(4 * TESSERA_MSWI_MAX_HARTS, TESSERA_MSWI_STRIDE);
}

}  // namespace
