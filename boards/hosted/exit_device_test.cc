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
#include "tessera/testing/errors.h"

namespace tessera::host {
namespace {

using tessera::testing::ErrorOf;
using tessera::testing::Mentions;

constexpr TesseraShape kShape{2, 1, 1, 1, 2, 2};

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
  EXPECT_TRUE(Mentions(error, "reset"));
  EXPECT_TRUE(Mentions(error, "cannot reboot"));
  EXPECT_FALSE(machine.exit_code().has_value());
}

TEST(HostExitDevice, GuestErrorsFailNamingWhyAndDoNotEndTheRun) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  const std::string pass_with_code =
      ErrorOf([] { hal::mmio_write32(TESSERA_EXIT_BASE, TESSERA_EXIT_PASS | (1u << 16)); });
  EXPECT_TRUE(Mentions(pass_with_code, "upper half"));
  EXPECT_TRUE(Mentions(pass_with_code, "0x00015555"));
  const std::string elsewhere =
      ErrorOf([] { hal::mmio_write32(TESSERA_EXIT_BASE + 4, TESSERA_EXIT_PASS); });
  EXPECT_TRUE(Mentions(elsewhere, "unknown register"));
  EXPECT_TRUE(Mentions(elsewhere, "offset 0x00000004"));
  const std::string read = ErrorOf([] { hal::mmio_read32(TESSERA_EXIT_BASE); });
  EXPECT_TRUE(Mentions(read, "write-only"));
  EXPECT_FALSE(machine.exit_code().has_value());
}

}  // namespace
}  // namespace tessera::host
