// The console model on its own: lines come out whole, per hart, split at
// TESSERA_CONSOLE_LINE_MAX.
#include "tessera/models/console.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/hw/regs.h"

namespace {

struct Line {
  uint32_t hart_index;
  std::string text;
  bool operator==(const Line&) const = default;
};

void PrintTo(const Line& line, std::ostream* os) {
  *os << "{hart " << line.hart_index << ", \"" << line.text << "\"}";
}

class ConsoleModelTest : public ::testing::Test {
 protected:
  static constexpr uint32_t kHarts = 4;

  void SetUp() override {
    console_ = tessera_console_new(kHarts, &ConsoleModelTest::Record, &lines_);
    ASSERT_NE(console_, nullptr);
  }
  void TearDown() override { tessera_console_free(console_); }

  void Put(uint32_t hart, const std::string& bytes) {
    for (const char byte : bytes) {
      tessera_console_put(console_, hart, static_cast<uint8_t>(byte));
    }
  }

  static void Record(void* opaque, uint32_t hart_index, const char* line, size_t len) {
    static_cast<std::vector<Line>*>(opaque)->push_back({hart_index, std::string(line, len)});
  }

  TesseraConsole* console_ = nullptr;
  std::vector<Line> lines_;
};

TEST_F(ConsoleModelTest, NewlineEmitsTheLineWithoutIt) {
  Put(2, "hello\n");
  EXPECT_EQ(lines_, (std::vector<Line>{{2, "hello"}}));
}

// A machine reset loses nothing: partial lines come out, then each hart
// starts a line afresh.
TEST_F(ConsoleModelTest, ResetEmitsPartialLinesAndEmptiesTheBuffers) {
  Put(1, "before");
  Put(3, "other");
  tessera_console_reset(console_);
  EXPECT_EQ(lines_, (std::vector<Line>{{1, "before"}, {3, "other"}}));
  Put(1, "after\n");
  EXPECT_EQ(lines_.back(), (Line{1, "after"}));
  EXPECT_EQ(lines_.size(), 3u);
}

TEST_F(ConsoleModelTest, NothingIsEmittedBeforeTheNewline) {
  Put(1, "partial");
  EXPECT_TRUE(lines_.empty());
}

TEST_F(ConsoleModelTest, EmptyLineIsALine) {
  Put(0, "\n");
  EXPECT_EQ(lines_, (std::vector<Line>{{0, ""}}));
}

TEST_F(ConsoleModelTest, BytesOfHartsInterleavedByteByByteComeOutAsWholeLines) {
  const std::string a = "alpha line\n";
  const std::string b = "bravo!!!!!\n";
  for (size_t i = 0; i < a.size(); i++) {
    Put(0, std::string(1, a[i]));
    Put(3, std::string(1, b[i]));
  }
  EXPECT_EQ(lines_, (std::vector<Line>{{0, "alpha line"}, {3, "bravo!!!!!"}}));
}

TEST_F(ConsoleModelTest, LongLineIsSplitAtLineMax) {
  const std::string text(2 * TESSERA_CONSOLE_LINE_MAX + 88, 'x');
  Put(1, text + "\n");
  ASSERT_EQ(lines_.size(), 3u);
  EXPECT_EQ(lines_[0].text.size(), TESSERA_CONSOLE_LINE_MAX);
  EXPECT_EQ(lines_[1].text.size(), TESSERA_CONSOLE_LINE_MAX);
  EXPECT_EQ(lines_[2].text.size(), 88u);
  EXPECT_EQ(lines_[0].text + lines_[1].text + lines_[2].text, text);
}

TEST_F(ConsoleModelTest, LineOfExactlyLineMaxIsOneLine) {
  const std::string text(TESSERA_CONSOLE_LINE_MAX, 'y');
  Put(0, text + "\n");
  EXPECT_EQ(lines_, (std::vector<Line>{{0, text}}));
}

TEST_F(ConsoleModelTest, FlushEmitsThePartialLineOnce) {
  Put(2, "no newline");
  tessera_console_flush(console_, 2);
  tessera_console_flush(console_, 2);
  EXPECT_EQ(lines_, (std::vector<Line>{{2, "no newline"}}));
}

TEST_F(ConsoleModelTest, FlushOnlyTouchesItsHart) {
  Put(0, "zero");
  Put(1, "one");
  tessera_console_flush(console_, 1);
  EXPECT_EQ(lines_, (std::vector<Line>{{1, "one"}}));
}

TEST_F(ConsoleModelTest, FlushAllEmitsEveryPartialLine) {
  Put(0, "zero");
  Put(3, "three");
  tessera_console_flush_all(console_);
  EXPECT_EQ(lines_, (std::vector<Line>{{0, "zero"}, {3, "three"}}));
}

TEST_F(ConsoleModelTest, OutOfRangeHartIsIgnored) {
  Put(kHarts, "nobody\n");
  tessera_console_flush(console_, kHarts);
  tessera_console_flush_all(console_);
  EXPECT_TRUE(lines_.empty());
}

// --- The register block and the EMIT CSR -------------------------------------------------------

TEST_F(ConsoleModelTest, TxPutsTheLowByteOfTheWrittenValue) {
  const char* error = nullptr;
  for (const char byte : std::string("tx\n")) {
    ASSERT_EQ(
        tessera_access_unpack(tessera_console_write(console_, 1, TESSERA_CONSOLE_TX,
                                                    0xabcd'ef00u | static_cast<uint8_t>(byte)),
                              nullptr, nullptr, &error),
        TESSERA_ACCESS_DONE);
  }
  EXPECT_EQ(lines_, (std::vector<Line>{{1, "tx"}}));
  EXPECT_EQ(error, nullptr);
}

TEST_F(ConsoleModelTest, FlushRegisterFlushesTheWritersLineWhateverTheValue) {
  Put(0, "zero");
  Put(2, "two");
  EXPECT_EQ(
      tessera_access_unpack(tessera_console_write(console_, 2, TESSERA_CONSOLE_FLUSH, 0x1234'5678u),
                            nullptr, nullptr, nullptr),
      TESSERA_ACCESS_DONE);
  EXPECT_EQ(lines_, (std::vector<Line>{{2, "two"}}));
}

TEST_F(ConsoleModelTest, WriteToAnUnknownOffsetIsAGuestErrorAndChangesNothing) {
  for (const uint32_t offset : {1u, 2u, 3u, 8u, 0xffcu, 0x1000u, UINT32_MAX}) {
    const char* error = nullptr;
    EXPECT_EQ(tessera_access_unpack(tessera_console_write(console_, 0, offset, '\n'), nullptr,
                                    nullptr, &error),
              TESSERA_ACCESS_GUEST_ERROR)
        << offset;
    ASSERT_NE(error, nullptr);
    EXPECT_NE(std::string(error).find("unknown register"), std::string::npos) << error;
  }
  Put(0, "still one line\n");
  EXPECT_EQ(lines_, (std::vector<Line>{{0, "still one line"}}));
}

TEST_F(ConsoleModelTest, WriteByAHartOutsideTheMachineIsAGuestError) {
  const char* error = nullptr;
  EXPECT_EQ(tessera_access_unpack(tessera_console_write(console_, kHarts, TESSERA_CONSOLE_TX, 'x'),
                                  nullptr, nullptr, &error),
            TESSERA_ACCESS_GUEST_ERROR);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find("outside the machine"), std::string::npos) << error;
  tessera_console_flush_all(console_);
  EXPECT_TRUE(lines_.empty());
}

TEST_F(ConsoleModelTest, EveryReadIsZeroAndAGuestError) {
  for (const uint32_t offset :
       {uint32_t{TESSERA_CONSOLE_TX}, uint32_t{TESSERA_CONSOLE_FLUSH}, 8u}) {
    uint32_t value = 0xdead'beefu;
    const char* error = nullptr;
    EXPECT_EQ(
        tessera_access_unpack(tessera_console_read(console_, offset), &value, nullptr, &error),
        TESSERA_ACCESS_GUEST_ERROR);
    EXPECT_EQ(value, 0u);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(std::string(error).find("write-only"), std::string::npos) << error;
  }
}

TEST_F(ConsoleModelTest, EmitCsrPrintsTheWordAsALineAndReadsAsZero) {
  EXPECT_EQ(tessera_console_emit_csr(console_, 3, true, 0x1200u | 'e'), 0u);
  EXPECT_EQ(tessera_console_emit_csr(console_, 3, false, 'X'), 0u);  // csrr: no write
  EXPECT_EQ(tessera_console_emit_csr(console_, 3, true, 0xffffffffu), 0u);
  EXPECT_EQ(lines_, (std::vector<Line>{{3, "emit 0x00001265"}, {3, "emit 0xffffffff"}}));
}

TEST_F(ConsoleModelTest, EmitCsrComesAfterTheHartsPartialLine) {
  tessera_access_unpack(tessera_console_write(console_, 0, TESSERA_CONSOLE_TX, 'a'), nullptr,
                        nullptr, nullptr);
  tessera_access_unpack(tessera_console_write(console_, 1, TESSERA_CONSOLE_TX, 'b'), nullptr,
                        nullptr, nullptr);
  tessera_console_emit_csr(console_, 0, true, 7);
  tessera_access_unpack(tessera_console_write(console_, 0, TESSERA_CONSOLE_TX, 'c'), nullptr,
                        nullptr, nullptr);
  tessera_console_flush_all(console_);
  EXPECT_EQ(lines_, (std::vector<Line>{{0, "a"}, {0, "emit 0x00000007"}, {0, "c"}, {1, "b"}}));
}

TEST_F(ConsoleModelTest, EmitCsrOfAHartOutsideTheMachineIsIgnored) {
  EXPECT_EQ(tessera_console_emit_csr(console_, 1000, true, 1), 0u);
  EXPECT_TRUE(lines_.empty());
}

TEST(ConsoleModel, RefusesZeroHartsAndNoEmitter) {
  EXPECT_EQ(tessera_console_new(
                0, [](void*, uint32_t, const char*, size_t) {}, nullptr),
            nullptr);
  EXPECT_EQ(tessera_console_new(1, nullptr, nullptr), nullptr);
}

}  // namespace
