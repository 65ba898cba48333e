// The host machine behind the HAL facades: CSRs and MMIO reach the device
// models of the hart bound to the calling thread; anything unmapped fails
// loudly.
#include "tessera/host/machine.h"

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "tessera/hal/csr.h"
#include "tessera/hal/mmio.h"
#include "tessera/hw/regs.h"
#include "tessera/testing/errors.h"

namespace tessera::host {
namespace {

using tessera::testing::ErrorOf;
using tessera::testing::Mentions;

// 3x2 boards of 2 tiles, 2 cores, 2 threads: 48 harts with sparse ids.
constexpr TesseraShape kShape{3, 2, 2, 1, 2, 2};

TEST(HostMachine, HartIdCsrAnswersTheBoundHartOnEveryThread) {
  Machine machine(kShape);
  std::atomic<int> right{0};
  machine.run_on_all_harts([&](Hart& hart) {
    if (hal::csr_read<TESSERA_CSR_HART_ID>() == hart.id()) {
      right++;
    }
  });
  EXPECT_EQ(right.load(), static_cast<int>(machine.num_harts()));
  EXPECT_EQ(machine.num_harts(), tessera_num_threads(&kShape));
}

TEST(HostMachine, CycleCounterMovesOnWithEveryAccessAndPerHart) {
  Machine machine(kShape);
  const uint32_t id = machine.thread_ids()[5];
  HartScope scope(machine, id);
  const uint32_t first = hal::csr_read<TESSERA_CSR_CYCLE>();
  const uint32_t second = hal::csr_read<TESSERA_CSR_CYCLE>();
  EXPECT_GT(second, first);
  EXPECT_EQ(machine.hart(machine.thread_ids()[4]).cycles(), 0u);

  scope.hart().advance_cycles(uint64_t{3} << 32);
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_CYCLEH>(), 3u);
}

// The clock model's rule, as on QEMU: each access is a retired
// instruction of cpi cycles, charged before the device acts.
TEST(HostMachine, EveryAccessCostsCpiCycles) {
  MachineParams params;
  params.cpi = 4;
  Machine machine(kShape, params);
  HartScope scope(machine, machine.thread_ids()[2]);
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_CYCLE>(), 4u);
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_CYCLE>(), 8u);
  scope.hart().advance_cycles(100);  // work between accesses
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_CYCLE>(), 112u);
  EXPECT_EQ(scope.hart().cycles(), 112u);
}

TEST(HostMachine, RefusesACpiOutsideItsRange) {
  MachineParams params;
  params.cpi = TESSERA_LIMIT_cpi + 1;
  EXPECT_THROW(Machine(kShape, params), std::invalid_argument);
}

TEST(HostMachine, EmitCsrPrintsTheWordAfterTheHartsPartialLine) {
  Machine machine(kShape);
  const uint32_t id = machine.thread_ids()[7];
  {
    HartScope scope(machine, id);
    hal::mmio_write32(TESSERA_CONSOLE_BASE + TESSERA_CONSOLE_TX, 'o');
    hal::mmio_write32(TESSERA_CONSOLE_BASE + TESSERA_CONSOLE_TX, 'k');
    hal::csr_write<TESSERA_CSR_EMIT>(42);
  }
  const auto lines = machine.console_lines();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].text, "ok");
  EXPECT_EQ(lines[1].text, "emit 0x0000002a");
  EXPECT_EQ(lines[1].hart_id, id);
  EXPECT_EQ(lines[1].hart_index, 7u);
}

TEST(HostMachine, ConsoleSinkSeesEveryLine) {
  std::vector<std::string> seen;
  MachineParams params;
  params.console_sink = [&](const ConsoleLine& line) { seen.push_back(line.text); };
  Machine machine(kShape, params);
  HartScope scope(machine, 0);
  hal::mmio_write32(TESSERA_CONSOLE_BASE + TESSERA_CONSOLE_TX, 'a');
  hal::mmio_write32(TESSERA_CONSOLE_BASE + TESSERA_CONSOLE_FLUSH, 1);
  EXPECT_EQ(seen, std::vector<std::string>{"a"});
}

TEST(HostMachine, MachinesShareNoState) {
  Machine first(kShape);
  Machine second(kShape);
  {
    HartScope scope(first, 0);
    hal::csr_write<TESSERA_CSR_EMIT>(1);
  }
  EXPECT_EQ(first.console_lines().size(), 1u);
  EXPECT_TRUE(second.console_lines().empty());
}

TEST(HostMachine, UnmappedAddressFailsNamingTheAddressAndHart) {
  Machine machine(kShape);
  HartScope scope(machine, 1);
  const std::string error = ErrorOf([] { hal::mmio_read32(0x00200000); });
  EXPECT_TRUE(Mentions(error, "0x00200000"));
  EXPECT_TRUE(Mentions(error, "hart 0x00000001"));
  EXPECT_TRUE(Mentions(
      ErrorOf([] { hal::mmio_write32(0x00f00000, 0); }),
      "no device"));
}

TEST(HostMachine, UnimplementedCsrFailsNamingTheCsr) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  EXPECT_TRUE(Mentions(ErrorOf([] { hal::csr_read<0x7c0>(); }), "0x000007c0"));
}

TEST(HostMachine, UnalignedAccessFails) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  EXPECT_TRUE(Mentions(ErrorOf([] { hal::mmio_read32(TESSERA_SYSINFO_BASE + 2); }), "unaligned"));
}

TEST(HostMachine, ReadingTheWriteOnlyConsoleFails) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  EXPECT_TRUE(Mentions(ErrorOf([] { hal::mmio_read32(TESSERA_CONSOLE_BASE + TESSERA_CONSOLE_TX); }),
                       "console"));
}

TEST(HostMachine, AccessFromAThreadBoundToNoHartFails) {
  Machine machine(kShape);
  EXPECT_TRUE(Mentions(ErrorOf([] { hal::csr_read<TESSERA_CSR_HART_ID>(); }), "HartScope"));
}

TEST(HostMachine, AHartIsBoundToOneThreadAtATime) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  std::string error;
  std::thread other([&] { error = ErrorOf([&] { HartScope again(machine, 0); }); });
  other.join();
  EXPECT_TRUE(Mentions(error, "already bound"));
}

TEST(HostMachine, NestedScopesRestoreTheOuterHart) {
  Machine machine(kShape);
  const uint32_t outer = machine.thread_ids()[1];
  const uint32_t inner = machine.thread_ids()[2];
  HartScope outer_scope(machine, outer);
  {
    HartScope inner_scope(machine, inner);
    EXPECT_EQ(hal::csr_read<TESSERA_CSR_HART_ID>(), inner);
  }
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_HART_ID>(), outer);
}

TEST(HostMachine, IdsOutsideTheShapeNameNoHart) {
  Machine machine(kShape);
  EXPECT_THROW(machine.hart(tessera_host_id(&kShape)), std::out_of_range);
  // Board x = 3 in a mesh three boards wide.
  const TesseraCoords missing{3, 0, 0, 0, 0, 0};
  EXPECT_THROW(machine.hart(tessera_thread_id(&kShape, &missing)), std::out_of_range);
}

TEST(HostMachine, DefaultsAreThoseOfTheQemuMachine) {
  Machine machine({1, 1, 2, 2, 1, 4});  // 16 harts
  HartScope scope(machine, 0);
  EXPECT_EQ(hal::mmio_read32(TESSERA_SYSINFO_BASE + TESSERA_SYSINFO_CLOCK_MHZ), 240u);
  EXPECT_EQ(hal::mmio_read32(TESSERA_SYSINFO_BASE + TESSERA_SYSINFO_PARTITION_SIZE), 16u << 10);
  // Just enough DRAM for the 4 MiB image and 16 partitions of 16 KiB, in whole MiB.
  EXPECT_EQ(hal::mmio_read32(TESSERA_SYSINFO_BASE + TESSERA_SYSINFO_DRAM_SIZE), 5u << 20);
}

TEST(HostMachine, RejectsShapesTheModelsCannotHold) {
  EXPECT_THROW(Machine({1, 1, 3, 1, 1, 1}), std::invalid_argument);
  MachineParams tiny_dram;
  tiny_dram.dram_size = TESSERA_CODE_SIZE;
  EXPECT_THROW(Machine(kShape, tiny_dram), std::invalid_argument);
}

TEST(HostMachineExit, PassEndsTheRunWithZeroAndStopsTheHart) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  EXPECT_FALSE(machine.exit_code().has_value());
  EXPECT_THROW(hal::mmio_write32(TESSERA_EXIT_BASE, TESSERA_EXIT_PASS), MachineExit);
  EXPECT_EQ(machine.exit_code(), 0);
}

TEST(HostMachineExit, FailCarriesItsCodeAndFailWithCodeZeroStillFails) {
  Machine failing(kShape);
  HartScope scope(failing, 0);
  EXPECT_THROW(hal::mmio_write32(TESSERA_EXIT_BASE, TESSERA_EXIT_FAIL | (3u << 16)), MachineExit);
  EXPECT_EQ(failing.exit_code(), 3);

  Machine zero(kShape);
  HartScope zero_scope(zero, 1);
  EXPECT_THROW(hal::mmio_write32(TESSERA_EXIT_BASE, TESSERA_EXIT_FAIL), MachineExit);
  EXPECT_EQ(zero.exit_code(), 1);
}

TEST(HostMachineExit, FirstExitWins) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  EXPECT_THROW(hal::mmio_write32(TESSERA_EXIT_BASE, TESSERA_EXIT_FAIL | (4u << 16)), MachineExit);
  EXPECT_THROW(hal::mmio_write32(TESSERA_EXIT_BASE, TESSERA_EXIT_PASS), MachineExit);
  EXPECT_EQ(machine.exit_code(), 4);
}

TEST(HostMachineExit, UnknownExitValueFails) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  EXPECT_TRUE(
      Mentions(ErrorOf([] { hal::mmio_write32(TESSERA_EXIT_BASE, 0x1234); }), "0x00001234"));
  EXPECT_FALSE(machine.exit_code().has_value());
}

TEST(HostMachineExit, ExitFlushesPartialConsoleLines) {
  Machine machine(kShape);
  machine.run_on_all_harts(
      [](Hart&) { hal::mmio_write32(TESSERA_CONSOLE_BASE + TESSERA_CONSOLE_TX, 'p'); });
  EXPECT_TRUE(machine.console_lines().empty());
  HartScope scope(machine, 0);
  EXPECT_THROW(hal::mmio_write32(TESSERA_EXIT_BASE, TESSERA_EXIT_PASS), MachineExit);
  EXPECT_EQ(machine.console_lines().size(), machine.num_harts());
}

TEST(HostMachineRun, RunOnHartsRethrowsAHartsFailureAfterJoiningAll) {
  Machine machine(kShape);
  std::atomic<int> finished{0};
  const std::vector<uint32_t> ids = machine.thread_ids();
  EXPECT_THROW(machine.run_on_harts(ids,
                                    [&](Hart& hart) {
                                      if (hart.index() == 3) {
                                        hal::mmio_read32(0x00300000);
                                      }
                                      finished++;
                                    }),
               std::logic_error);
  EXPECT_EQ(finished.load(), static_cast<int>(ids.size()) - 1);
}

TEST(HostMachineRun, HartThatExitsStopsThereAndTheOthersRunOn) {
  Machine machine(kShape);
  std::atomic<int> after_exit{0};
  machine.run_on_all_harts([&](Hart& hart) {
    if (hart.index() == 0) {
      hal::mmio_write32(TESSERA_EXIT_BASE, TESSERA_EXIT_FAIL | (9u << 16));
      after_exit++;  // never runs
    }
  });
  EXPECT_EQ(after_exit.load(), 0);
  EXPECT_EQ(machine.exit_code(), 9);
}

// The dispatch is a table of devices: a new device is one attach() away.
class ScratchRegister final : public Device {
 public:
  std::string_view name() const override { return "scratch register"; }
  std::optional<MmioWindow> mmio_window() const override { return MmioWindow{0x00300000, 0x1000}; }
  std::vector<uint16_t> csrs() const override { return {0x7c0}; }
  uint32_t mmio_read32(Hart&, uint32_t offset) override { return value_ + offset; }
  void mmio_write32(Hart&, uint32_t, uint32_t value) override { value_ = value; }
  uint32_t csr_swap(Hart& hart, uint16_t, uint32_t value) override {
    const uint32_t old = value_;
    value_ = value + hart.index();
    return old;
  }

 private:
  uint32_t value_ = 0;
};

// Deadlock detection reads only state: which harts are bound and which are blocked.
TEST(HostMachineDeadlock, HartsBlockedInDifferentDevicesAreADeadlock) {
  Machine machine(kShape);
  const std::vector<uint32_t> ids{0, 1};
  try {
    machine.run_on_harts(ids, [&](Hart& hart) {
      if (hart.id() == 0) {
        hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_RECV);
      } else {
        (void)hal::csr_read<TESSERA_CSR_REFLEX_RECV>();
      }
      ADD_FAILURE() << "hart " << hart.id() << " woke up";
    });
    ADD_FAILURE() << "no deadlock reported";
  } catch (const Deadlock& e) {
    EXPECT_TRUE(Mentions(e.what(), "blocked in the mailbox and the reflex switches. Waiting:\n"))
        << e.what();
    EXPECT_TRUE(Mentions(e.what(), "thread 0x0: mailbox wait-until can-recv")) << e.what();
    EXPECT_TRUE(Mentions(e.what(), "thread 0x1: reflex receive")) << e.what();
  }
}

// A hart running host code can still wake the sleepers: the deadlock waits for its thread to
// let go of the hart.
TEST(HostMachineDeadlock, DeclaredWhenTheLastRunningHartUnbinds) {
  Machine machine(kShape);
  std::optional<HartScope> running(std::in_place, machine, 1);
  std::string report;
  std::thread sleeper([&] {
    HartScope scope(machine, 0);
    hal::csr_write<TESSERA_CSR_FREE>(TESSERA_SCRATCH_BASE + 64);
    hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_RECV);  // woken by hart 1
    hal::csr_write<TESSERA_CSR_FREE>(hal::csr_read<TESSERA_CSR_RECV>());
    try {
      hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_RECV);
    } catch (const Deadlock& e) {
      report = e.what();
    }
  });
  machine.wait_until_blocked(0, BlockedOn::kCanRecv);
  hal::csr_write<TESSERA_CSR_SEND>(0);
  machine.wait_until_blocked(0, BlockedOn::kCanRecv);  // asleep again, for good this time
  EXPECT_EQ(machine.active_harts(), 2u);
  running.reset();
  sleeper.join();
  EXPECT_TRUE(Mentions(report, "thread 0x0: mailbox wait-until can-recv")) << report;
  EXPECT_EQ(machine.active_harts(), 0u);
}

TEST(HostMachineDevices, AttachedDeviceAnswersItsWindowAndCsrs) {
  Machine machine(kShape);
  machine.attach(std::make_unique<ScratchRegister>());
  HartScope scope(machine, machine.thread_ids()[2]);
  hal::mmio_write32(0x00300000, 40);
  EXPECT_EQ(hal::mmio_read32(0x00300008), 48u);
  EXPECT_EQ(hal::csr_swap<0x7c0>(100), 40u);
  EXPECT_EQ(hal::mmio_read32(0x00300000), 102u);
}

class Squatter final : public Device {
 public:
  explicit Squatter(std::optional<MmioWindow> window, std::vector<uint16_t> csrs = {})
      : window_(window), csrs_(std::move(csrs)) {}
  std::string_view name() const override { return "squatter"; }
  std::optional<MmioWindow> mmio_window() const override { return window_; }
  std::vector<uint16_t> csrs() const override { return csrs_; }

 private:
  std::optional<MmioWindow> window_;
  std::vector<uint16_t> csrs_;
};

TEST(HostMachineDevices, ClaimingATakenAddressOrCsrFails) {
  Machine machine(kShape);
  EXPECT_TRUE(Mentions(
      ErrorOf([&] {
        machine.attach(std::make_unique<Squatter>(MmioWindow{TESSERA_SYSINFO_BASE + 0xff0, 0x20}));
      }),
      "overlaps sysinfo"));
  EXPECT_TRUE(Mentions(ErrorOf([&] {
                         machine.attach(std::make_unique<Squatter>(
                             std::nullopt, std::vector<uint16_t>{TESSERA_CSR_EMIT}));
                       }),
                       "0x0000080f"));
}

TEST(HostMachineDevices, ClaimedAccessADeviceDoesNotImplementFails) {
  Machine machine(kShape);
  machine.attach(
      std::make_unique<Squatter>(MmioWindow{0x00400000, 0x10}, std::vector<uint16_t>{0x7c1}));
  HartScope scope(machine, 0);
  EXPECT_TRUE(Mentions(ErrorOf([] { hal::mmio_read32(0x00400004); }), "squatter"));
  EXPECT_TRUE(Mentions(ErrorOf([] { hal::csr_read<0x7c1>(); }), "squatter"));
}

}  // namespace
}  // namespace tessera::host
