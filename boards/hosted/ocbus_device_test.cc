// The host machine's open-collector bus: the register block through the HAL,
// a wait that blocks until another hart's write decides the line and resumes
// at its settle time, register misuse recorded with nothing changed, and a
// deadlock on the bus reported in the bus's words.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/hal/csr.h"
#include "tessera/hal/mmio.h"
#include "tessera/host/machine.h"
#include "tessera/hw/regs.h"

namespace tessera::host {
namespace {

constexpr TesseraShape kTwoThreads{1, 1, 1, 1, 1, 2};

uint32_t Reg(uint32_t offset) {
  return hal::mmio_read32(TESSERA_OCBUS_BASE + offset);
}
void SetReg(uint32_t offset, uint32_t value) {
  hal::mmio_write32(TESSERA_OCBUS_BASE + offset, value);
}
uint32_t Wait(uint32_t mask, uint32_t value) {
  return hal::csr_swap<TESSERA_CSR_OCBUS_WAIT>(mask | value << 8);
}

TEST(HostOcbus, TheMachineDescriptionSetsLinesAndSettleTime) {
  MachineParams params;
  params.ocbus_lines = 5;
  params.ocbus_settle_cycles = 33;
  Machine machine(kTwoThreads, params);
  machine.run_on_harts(std::vector<uint32_t>{0}, [&](Hart&) {
    EXPECT_EQ(Reg(TESSERA_OCBUS_LINES), 5u);
    EXPECT_EQ(Reg(TESSERA_OCBUS_SETTLE), 33u);
    EXPECT_EQ(Reg(TESSERA_OCBUS_GLOBAL), 0u);  // every line starts clamped
  });
  params.ocbus_lines = 9;
  EXPECT_THROW(Machine(kTwoThreads, params), std::invalid_argument);
}

TEST(HostOcbus, AWaitSleepsUntilTheDecidingWriteAndResumesAtItsSettleTime) {
  Machine machine(kTwoThreads);  // default settle time
  constexpr uint64_t kSettle = TESSERA_DEFAULT_ocbus_settle_cycles;
  uint64_t clamped_at = 0, released_at = 0, saw_clamp_at = 0, saw_release_at = 0;
  machine.run_on_harts(std::vector<uint32_t>{0, 1}, [&](Hart& hart) {
    SetReg(TESSERA_OCBUS_LOCAL, 0xff);  // release every line: they reset clamped
    EXPECT_EQ(Wait(0xff, 0xff), 0xffu);
    if (hart.id() == 0) {
      machine.wait_until_blocked(1, BlockedOn::kOcbus);
      SetReg(TESSERA_OCBUS_LINE(TESSERA_OCBUS_VALID), 0);
      clamped_at = hart.cycles();
      machine.wait_until_blocked(1, BlockedOn::kOcbus);
      hart.advance_cycles(1000);
      SetReg(TESSERA_OCBUS_LINE(TESSERA_OCBUS_VALID), 1);
      released_at = hart.cycles();
      return;
    }
    // Thread 1 sleeps until thread 0 clamps VALID, then until it releases it.
    EXPECT_EQ(Wait(1u << TESSERA_OCBUS_VALID, 0) & 1u, 0u);
    saw_clamp_at = hart.cycles();
    EXPECT_EQ(Wait(1u << TESSERA_OCBUS_VALID, 1) & 1u, 1u);
    saw_release_at = hart.cycles();
  });
  // Each wakes at the deciding write's time plus the settle time, not before.
  EXPECT_EQ(saw_clamp_at, clamped_at + kSettle);
  EXPECT_EQ(saw_release_at, released_at + kSettle);
  EXPECT_TRUE(machine.ocbus_guest_errors().empty());
}

TEST(HostOcbus, RegisterMisuseIsRecordedAndChangesNothing) {
  MachineParams four;
  four.ocbus_lines = 4;
  Machine small(kTwoThreads, four);
  small.run_on_harts(std::vector<uint32_t>{0}, [&](Hart&) {
    SetReg(TESSERA_OCBUS_GLOBAL, 0);   // read-only
    SetReg(TESSERA_OCBUS_LINE(5), 0);  // a line this machine lacks
    EXPECT_EQ(Reg(TESSERA_OCBUS_LINE(5)), 0u);
    EXPECT_EQ(Wait(1u << 6, 0), 0u);  // a wait on it
    EXPECT_EQ(Reg(TESSERA_OCBUS_LOCAL), 0u);
    EXPECT_EQ(Reg(TESSERA_OCBUS_GLOBAL), 0u);
  });
  // The lines QEMU logs with -d guest_errors (tests/qemu: ocbus.misuse_and_a_deadlock_on_the_bus).
  const std::vector<std::string> expected{
      "tessera-ocbus: hart 0x0 wrote 0x0 to 0x4: ocbus: write to a read-only register (nothing "
      "changed)",
      "tessera-ocbus: hart 0x0 wrote 0x0 to 0x24: ocbus: line index out of range (no such line)",
      "tessera-ocbus: hart 0x0 read 0x24: ocbus: line index out of range (no such line); reads 0",
      "tessera-ocbus: hart 0x0: csrrw 0x815, 0x40: ocbus: a wait names no line, or lines the "
      "machine does not have; reads 0"};
  EXPECT_EQ(small.ocbus_guest_errors(), expected);
}

TEST(HostOcbus, ADeadlockOnTheBusIsReportedInItsWords) {
  Machine machine(kTwoThreads);
  std::vector<std::string> reports(2);
  machine.run_on_harts(std::vector<uint32_t>{0, 1}, [&](Hart& hart) {
    try {
      // Both wait for a line nobody releases to read 1.
      (void)Wait(1u << TESSERA_OCBUS_NEXT, 1u << TESSERA_OCBUS_NEXT);
    } catch (const Deadlock& deadlock) {
      reports[hart.id()] = deadlock.what();
    }
  });
  for (const std::string& report : reports) {
    EXPECT_NE(report.find("ocbus wait-until"), std::string::npos) << report;
  }
}

}  // namespace
}  // namespace tessera::host
