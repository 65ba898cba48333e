// The preload model: well-formed files are walked record by record; every malformed one is
// refused with the record and the reason.
#include "tessera/models/preload.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

const TesseraShape kShape = {3, 1, 2, 2, 2, 2};  // thread ids 0x00..0x0f, 0x10.., 0x20..0x2f
constexpr uint32_t kPartition = 16 << 10;

struct Builder {
  std::vector<uint8_t> bytes;
  void word(uint32_t w) {
    for (int i = 0; i < 4; i++) bytes.push_back(static_cast<uint8_t>(w >> (8 * i)));
  }
  Builder(uint32_t count, uint32_t magic = TESSERA_PRELOAD_MAGIC,
          uint32_t version = TESSERA_PRELOAD_VERSION) {
    word(magic);
    word(version);
    word(count);
  }
  Builder& record(uint32_t id, uint32_t offset, const std::string& data) {
    word(id);
    word(offset);
    word(static_cast<uint32_t>(data.size()));
    bytes.insert(bytes.end(), data.begin(), data.end());
    while (bytes.size() % 4) bytes.push_back(0);
    return *this;
  }
};

std::string Why(const std::vector<uint8_t>& file) {
  char why[160] = "";
  EXPECT_FALSE(
      tessera_preload_check(file.data(), file.size(), &kShape, kPartition, why, sizeof why));
  return why;
}

TEST(PreloadModel, WalksTheRecordsOfAGoodFile) {
  Builder b(2);
  b.record(0x2f, 8192, "hello").record(0x01, 0, "");
  ASSERT_TRUE(
      tessera_preload_check(b.bytes.data(), b.bytes.size(), &kShape, kPartition, nullptr, 0));
  size_t at = 0;
  TesseraPreloadRecord r;
  ASSERT_TRUE(tessera_preload_next(b.bytes.data(), b.bytes.size(), &at, &r));
  EXPECT_EQ(r.thread_id, 0x2fu);
  EXPECT_EQ(r.offset, 8192u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(r.bytes), r.length), "hello");
  ASSERT_TRUE(tessera_preload_next(b.bytes.data(), b.bytes.size(), &at, &r));
  EXPECT_EQ(r.thread_id, 0x01u);
  EXPECT_EQ(r.length, 0u);
  EXPECT_FALSE(tessera_preload_next(b.bytes.data(), b.bytes.size(), &at, &r));
}

TEST(PreloadModel, RefusesMalformedFilesNamingTheRecord) {
  EXPECT_EQ(Why(Builder(0, 0x12345678).bytes), "not a preload file (no TSPL magic)");
  EXPECT_EQ(Why({1, 2, 3}), "not a preload file (no TSPL magic)");
  EXPECT_EQ(Why(Builder(0, TESSERA_PRELOAD_MAGIC, 7).bytes),
            "preload file version 7; this machine reads version 1");
  EXPECT_EQ(Why(Builder(1).record(0x30, 0, "x").bytes),
            "record 0: thread 0x30 is not in this machine");
  EXPECT_EQ(Why(Builder(2).record(0, 0, "x").record(1, kPartition - 2, "abc").bytes),
            "record 1: 3 bytes at offset 16382 do not fit thread 0x1's partition of 16384 bytes");
  EXPECT_EQ(Why(Builder(1).record(0, 0xffffffffu, "").bytes),
            "record 0: 0 bytes at offset 4294967295 do not fit thread 0x0's partition of "
            "16384 bytes");
  std::vector<uint8_t> cut = Builder(1).record(0, 0, "12345678").bytes;
  cut.resize(cut.size() - 4);
  EXPECT_EQ(Why(cut), "record 0: the file ends inside its 8 bytes");
  EXPECT_EQ(Why(Builder(2).record(0, 0, "x").bytes),
            "record 1 of 2: the file ends inside its header");
  std::vector<uint8_t> extra = Builder(1).record(0, 0, "x").bytes;
  extra.push_back(0);
  EXPECT_EQ(Why(extra), "1 bytes after the last of 1 records");
}

}  // namespace
