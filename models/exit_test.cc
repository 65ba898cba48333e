// The exit model on its own: which writes end the run, with which status,
// which reset the machine, and which are guest errors.
#include "tessera/models/exit.h"

#include <gtest/gtest.h>

#include <string>

#include "tessera/hw/regs.h"
#include "tessera/testing/access.h"

namespace {

using tessera::testing::Action;
using tessera::testing::ActionOf;

struct Outcome {
  Action action;
  int exit_code;
  std::string error;  // empty: none
};

Outcome Write(uint32_t offset, uint32_t value) {
  const TesseraAccess a = tessera_exit_write(offset, value);
  const Action action = ActionOf(a);
  return {action, action == Action::kEnd ? a.code : -1, a.error != nullptr ? a.error : ""};
}

constexpr uint32_t Fail(uint32_t code) {
  return TESSERA_EXIT_FAIL | (code << 16);
}

TEST(ExitModel, PassEndsTheRunWithZero) {
  const Outcome o = Write(0, TESSERA_EXIT_PASS);
  EXPECT_EQ(o.action, Action::kEnd);
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.error, "");
}

TEST(ExitModel, FailEndsTheRunWithItsCode) {
  for (const uint32_t code : {1u, 2u, 42u, 130u, 255u}) {
    const Outcome o = Write(0, Fail(code));
    EXPECT_EQ(o.action, Action::kEnd) << code;
    EXPECT_EQ(o.exit_code, static_cast<int>(code));
    EXPECT_EQ(o.error, "") << code;
  }
}

TEST(ExitModel, FailWithCodeZeroEndsTheRunWithOneAndSaysWhy) {
  const Outcome o = Write(0, TESSERA_EXIT_FAIL);
  EXPECT_EQ(o.action, Action::kEnd);
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.error.find("code 0"), std::string::npos) << o.error;
}

TEST(ExitModel, FailCodeNoExitStatusHoldsEndsTheRunWithOne) {
  // 256 and 512 would read as success in an 8-bit process status.
  for (const uint32_t code : {256u, 300u, 512u, 0xffffu}) {
    const Outcome o = Write(0, Fail(code));
    EXPECT_EQ(o.action, Action::kEnd) << code;
    EXPECT_EQ(o.exit_code, 1) << code;
    EXPECT_NE(o.error.find("too large"), std::string::npos) << o.error;
  }
}

TEST(ExitModel, ResetAsksForAReset) {
  const Outcome o = Write(0, TESSERA_EXIT_RESET);
  EXPECT_EQ(o.action, Action::kReset);
  EXPECT_EQ(o.exit_code, -1);
  EXPECT_EQ(o.error, "");
}

TEST(ExitModel, PassOrResetWithAnUpperHalfIsAGuestError) {
  for (const uint32_t value : {TESSERA_EXIT_PASS | (1u << 16), TESSERA_EXIT_RESET | (7u << 16)}) {
    const Outcome o = Write(0, value);
    EXPECT_EQ(o.action, Action::kGuestError) << std::hex << value;
    EXPECT_EQ(o.exit_code, -1);
    EXPECT_NE(o.error.find("upper half"), std::string::npos) << o.error;
  }
}

TEST(ExitModel, OtherValuesAreGuestErrors) {
  for (const uint32_t value : {0u, 1u, 0x1234u, 0x5554u, 0x3334u, 0xffffu, 0x5555'5555u + 1}) {
    const Outcome o = Write(0, value);
    EXPECT_EQ(o.action, Action::kGuestError) << std::hex << value;
    EXPECT_EQ(o.exit_code, -1);
    EXPECT_NE(o.error.find("neither PASS, FAIL nor RESET"), std::string::npos) << o.error;
  }
}

TEST(ExitModel, WritesOutsideOffsetZeroAreGuestErrorsWhateverTheValue) {
  for (const uint32_t offset : {1u, 2u, 4u, 0xffcu, TESSERA_EXIT_SIZE}) {
    for (const uint32_t value : {TESSERA_EXIT_PASS, Fail(3), TESSERA_EXIT_RESET}) {
      const Outcome o = Write(offset, value);
      EXPECT_EQ(o.action, Action::kGuestError) << offset;
      EXPECT_EQ(o.exit_code, -1);
      EXPECT_NE(o.error.find("unknown register"), std::string::npos) << o.error;
    }
  }
}

TEST(ExitModel, ReadsGiveZeroAndAreGuestErrors) {
  for (const uint32_t offset : {0u, 2u, 4u, 0xffcu}) {
    uint32_t value = 0xdead'beefu;
    const char* error = nullptr;
    EXPECT_EQ(tessera_access_unpack(tessera_exit_read(offset), &value, nullptr, &error),
              TESSERA_ACCESS_GUEST_ERROR);
    EXPECT_EQ(value, 0u);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(std::string(error).find("write-only"), std::string::npos) << error;
  }
}

TEST(ExitModel, OutputsAreOptional) {
  EXPECT_EQ(ActionOf(tessera_exit_write(0, TESSERA_EXIT_FAIL)), Action::kEnd);
  EXPECT_EQ(ActionOf(tessera_exit_write(4, 0)), Action::kGuestError);
  uint32_t value = 1;
  EXPECT_EQ(tessera_access_unpack(tessera_exit_read(0), &value, nullptr, nullptr),
            TESSERA_ACCESS_GUEST_ERROR);
}

}  // namespace
