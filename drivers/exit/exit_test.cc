// The exit driver on the host machine: the verdict it writes becomes the
// run's exit code, and the writing hart stops there.
#include "tessera/drivers/exit.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "tessera/host/machine.h"

namespace tessera::drivers {
namespace {

using host::Hart;
using host::HartScope;
using host::Machine;
using host::MachineExit;

constexpr TesseraShape kShape{2, 1, 1, 1, 2, 2};

TEST(ExitDriver, PassEndsTheRunWithSuccess) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  EXPECT_THROW(ExitDevice().pass(), MachineExit);
  EXPECT_EQ(machine.exit_code(), 0);
}

TEST(ExitDriver, FailEndsTheRunWithItsCode) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  EXPECT_THROW((void)ExitDevice().fail(7), MachineExit);
  EXPECT_EQ(machine.exit_code(), 7);
}

TEST(ExitDriver, CodesAProcessCannotReportAreRefusedWithoutEndingTheRun) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  EXPECT_EQ(ExitDevice().fail(0), Status::InvalidArgument());
  EXPECT_EQ(ExitDevice().fail(256), Status::InvalidArgument());
  EXPECT_FALSE(machine.exit_code().has_value());
  EXPECT_THROW((void)ExitDevice().fail(255), MachineExit);
  EXPECT_EQ(machine.exit_code(), 255);
}

// A reboot needs the program started again, which only QEMU does
// (tests/qemu: exit.reset_reboots_the_machine, reset.*).
TEST(ExitDriver, ResetIsRefusedByTheHostMachineWithoutEndingTheRun) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  EXPECT_THROW(ExitDevice().reset(), std::logic_error);
  EXPECT_FALSE(machine.exit_code().has_value());
}

TEST(ExitDriver, FailingHartStopsAndTheVerdictStands) {
  Machine machine(kShape);
  std::atomic<int> finished{0};
  const uint32_t failing = machine.thread_ids()[5];
  machine.run_on_all_harts([&](Hart& hart) {
    if (hart.id() == failing) {
      (void)ExitDevice().fail(3);
    }
    finished++;
  });
  EXPECT_EQ(machine.exit_code(), 3);
  EXPECT_EQ(finished.load(), static_cast<int>(machine.num_harts()) - 1);
}

}  // namespace
}  // namespace tessera::drivers
