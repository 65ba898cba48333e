// The exit device on the host machine: the same semantics as on QEMU
// (tests/qemu: exit.*), from the same model. Each write is the raw value a
// firmware would store, so FAIL with code 0, which the exit driver refuses,
// is covered too.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tessera/hal/mmio.h"
#include "tessera/host/machine.h"
#include "tessera/hw/regs.h"

namespace tessera::host {
namespace {

constexpr TesseraShape kShape{2, 1, 1, 1, 2, 2};

std::string ErrorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::logic_error& e) {
    return e.what();
  }
  return "(no std::logic_error)";
}

struct ExitCase {
  const char* name;
  uint32_t value;
  int status;
};

// The same cases as tests/qemu/CMakeLists.txt's exit.* tests.
constexpr ExitCase kExitCases[] = {
    {"pass", TESSERA_EXIT_PASS, 0},
    {"fail_7", TESSERA_EXIT_FAIL | (7u << 16), 7},
    {"fail_255", TESSERA_EXIT_FAIL | (255u << 16), 255},
    {"fail_0", TESSERA_EXIT_FAIL, 1},
    {"fail_256", TESSERA_EXIT_FAIL | (256u << 16), 1},
};

class ExitSemantics : public ::testing::TestWithParam<ExitCase> {};

TEST_P(ExitSemantics, WriteEndsTheRunWithItsStatusAndStopsTheHart) {
  const ExitCase c = GetParam();
  Machine machine(kShape);
  bool after_exit = false;
  const uint32_t writer = machine.thread_ids()[3];
  machine.run_on_harts(std::vector<uint32_t>{writer}, [&](Hart&) {
    hal::mmio_write32(TESSERA_EXIT_BASE, c.value);
    after_exit = true;
  });
  EXPECT_FALSE(after_exit);
  EXPECT_EQ(machine.exit_code(), c.status);
}

INSTANTIATE_TEST_SUITE_P(HostExitDevice, ExitSemantics, ::testing::ValuesIn(kExitCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(HostExitDevice, ResetFailsBecauseTheHostCannotReboot) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  const std::string error =
      ErrorOf([] { hal::mmio_write32(TESSERA_EXIT_BASE, TESSERA_EXIT_RESET); });
  EXPECT_NE(error.find("reset"), std::string::npos) << error;
  EXPECT_NE(error.find("cannot reboot"), std::string::npos) << error;
  EXPECT_FALSE(machine.exit_code().has_value());
}

TEST(HostExitDevice, GuestErrorsFailNamingWhyAndDoNotEndTheRun) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  const std::string pass_with_code =
      ErrorOf([] { hal::mmio_write32(TESSERA_EXIT_BASE, TESSERA_EXIT_PASS | (1u << 16)); });
  EXPECT_NE(pass_with_code.find("upper half"), std::string::npos) << pass_with_code;
  EXPECT_NE(pass_with_code.find("0x00015555"), std::string::npos) << pass_with_code;
  const std::string elsewhere =
      ErrorOf([] { hal::mmio_write32(TESSERA_EXIT_BASE + 4, TESSERA_EXIT_PASS); });
  EXPECT_NE(elsewhere.find("unknown register"), std::string::npos) << elsewhere;
  EXPECT_NE(elsewhere.find("offset 0x00000004"), std::string::npos) << elsewhere;
  const std::string read = ErrorOf([] { hal::mmio_read32(TESSERA_EXIT_BASE); });
  EXPECT_NE(read.find("write-only"), std::string::npos) << read;
  EXPECT_FALSE(machine.exit_code().has_value());
}

}  // namespace
}  // namespace tessera::host
