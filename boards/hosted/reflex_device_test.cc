// The host machine's reflex device: reads told apart from writes, blocking RECV and WAIT_SEND
// without spinning and waking at the modelled arrival, guest errors that do not stop the hart,
// deadlock detection, and the machine parameters.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tessera/hal/csr.h"
#include "tessera/host/machine.h"
#include "tessera/hw/regs.h"
#include "tessera/testing/errors.h"

namespace tessera::host {
namespace {

using tessera::testing::Mentions;

// 1 board of 2x1 tiles of 1 core x 2 threads: 4 harts, ids 0..3.
constexpr TesseraShape kShape{1, 1, 2, 1, 1, 2};

MachineParams Params(uint32_t buffer_flits, uint32_t hop_cycles) {
  MachineParams params;
  params.reflex_buffer_flits = buffer_flits;
  params.reflex_hop_cycles = hop_cycles;
  return params;
}

// The calling hart's switch: next switch `next`, route `route`.
void Configure(uint32_t next, uint32_t route) {
  hal::csr_write<TESSERA_CSR_REFLEX_NEXT>(next);
  hal::csr_write<TESSERA_CSR_REFLEX_ROUTE>(route);
}

TEST(HostReflex, ReadsOfRouteAndNextAreNotWritesOfZero) {
  Machine machine(kShape);
  HartScope scope(machine, 1);
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_REFLEX_ROUTE>(), TESSERA_REFLEX_ROUTE_OFF);
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_REFLEX_NEXT>(), TESSERA_REFLEX_NO_NEXT);
  Configure(3, TESSERA_REFLEX_ROUTE_FORWARD);
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_REFLEX_NEXT>(), 3u);
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_REFLEX_ROUTE>(), TESSERA_REFLEX_ROUTE_FORWARD);
  // Outbound room is B with nothing sent.
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_REFLEX_STATUS>(),
            uint32_t{TESSERA_DEFAULT_reflex_buffer_flits} << 16);
  EXPECT_TRUE(machine.reflex_guest_errors().empty());
}

TEST(HostReflex, ARecvBlocksUntilTheFlitArrivesAndResumesAtItsArrival) {
  constexpr uint64_t kHop = 7;
  Machine machine(kShape, Params(2, kHop));
  const std::vector<uint32_t> ids{0, 1, 2};
  uint64_t sent_at = 0;
  uint64_t received_at = 0;
  uint32_t flit = 0;
  machine.run_on_harts(ids, [&](Hart& hart) {
    switch (hart.id()) {
      case 0:  // the sender, ahead in time: 0 -> 1 -> 2 (root)
        Configure(1, TESSERA_REFLEX_ROUTE_FORWARD);
        machine.wait_until_blocked(2, BlockedOn::kReflexRecv);
        hart.advance_cycles(1000);
        sent_at = hart.cycles() + 1;  // the send's own access retires first
        EXPECT_EQ(hal::csr_swap<TESSERA_CSR_REFLEX_SEND>(0xfeed), 1u);
        break;
      case 1:
        Configure(2, TESSERA_REFLEX_ROUTE_FORWARD);
        break;
      case 2:
        Configure(0, TESSERA_REFLEX_ROUTE_CORE);
        flit = hal::csr_read<TESSERA_CSR_REFLEX_RECV>();
        received_at = hart.cycles();
        break;
    }
  });
  EXPECT_EQ(flit, 0xfeedu);
  EXPECT_EQ(received_at, sent_at + 2 * kHop);
  EXPECT_TRUE(machine.reflex_guest_errors().empty());
}

TEST(HostReflex, WaitSendBlocksWhileTheOutboundBufferIsFullAndWakesWhenTheRootReads) {
  constexpr uint32_t kB = 2;
  Machine machine(kShape, Params(kB, 1));
  {
    HartScope scope(machine, 1);
    Configure(0, TESSERA_REFLEX_ROUTE_CORE);
  }
  {
    HartScope scope(machine, 0);
    Configure(1, TESSERA_REFLEX_ROUTE_FORWARD);
  }
  const std::vector<uint32_t> ids{0, 1};
  uint32_t received = 0;
  machine.run_on_harts(ids, [&](Hart& hart) {
    if (hart.id() == 0) {
      // B flits fill the root's inbound buffer, B more the outbound one; then no room, and a
      // send to the off and full switch is refused.
      for (uint32_t i = 0; i < 2 * kB; i++) {
        EXPECT_EQ(hal::csr_swap<TESSERA_CSR_REFLEX_SEND>(i), 1u);
      }
      EXPECT_EQ(hal::csr_read<TESSERA_CSR_REFLEX_STATUS>() >> 16, 0u);
      EXPECT_EQ(hal::csr_swap<TESSERA_CSR_REFLEX_SEND>(99), 0u);
      EXPECT_GE(hal::csr_read<TESSERA_CSR_REFLEX_WAIT_SEND>(), 1u);  // blocks, then room
    } else {
      machine.wait_until_blocked(0, BlockedOn::kReflexWaitSend);
      for (uint32_t i = 0; i < 2 * kB; i++) {
        EXPECT_EQ(hal::csr_read<TESSERA_CSR_REFLEX_RECV>(), i);
        received++;
      }
    }
  });
  EXPECT_EQ(received, 2 * kB);
  const std::vector<std::string> errors = machine.reflex_guest_errors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(Mentions(errors[0], "outbound buffer is full"));
}

TEST(HostReflex, GuestErrorsAreRecordedAndTheHartGoesOn) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  // A send with no next switch is refused: SEND reads 0.
  EXPECT_EQ(hal::csr_swap<TESSERA_CSR_REFLEX_SEND>(5), 0u);
  // STATUS is read-only; a route that passes flits on needs a next switch (an open ring).
  hal::csr_write<TESSERA_CSR_REFLEX_STATUS>(1);
  hal::csr_write<TESSERA_CSR_REFLEX_ROUTE>(TESSERA_REFLEX_ROUTE_BOTH);
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_REFLEX_ROUTE>(), TESSERA_REFLEX_ROUTE_OFF);
  // No thread 0x99 in this machine.
  hal::csr_write<TESSERA_CSR_REFLEX_NEXT>(0x99);
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_REFLEX_NEXT>(), TESSERA_REFLEX_NO_NEXT);
  // The lines QEMU logs with -d guest_errors (tests/qemu: reflex.*), each with what the CSR read.
  const std::vector<std::string> expected{
      "tessera-reflex: hart 0x0: csrrw 0x816, 0x5: reflex: a send from a switch with no next "
      "switch; reads 0",
      "tessera-reflex: hart 0x0: csrrw 0x81a, 0x1: reflex: a write of a read-only reflex CSR; "
      "reads 0",
      "tessera-reflex: hart 0x0: csrrw 0x818, 0x3: reflex: a route that passes flits on needs a "
      "next switch (an open ring); the switch keeps its route; reads 0",
      "tessera-reflex: hart 0x0: csrrw 0x819, 0x99: reflex: REFLEX_NEXT names no thread of the "
      "machine; reads 0"};
  EXPECT_EQ(machine.reflex_guest_errors(), expected);
}

TEST(HostReflex, ARingWithNoRootIsReportedOnceAndItsFlitStays) {
  Machine machine(kShape);
  const std::vector<uint32_t> ids{0, 1};
  machine.run_on_harts(ids, [&](Hart& hart) {
    // 0 -> 1 -> 0, both forwarding: no core on the ring takes a flit.
    Configure(hart.id() ^ 1, TESSERA_REFLEX_ROUTE_FORWARD);
  });
  HartScope scope(machine, 0);
  EXPECT_EQ(hal::csr_swap<TESSERA_CSR_REFLEX_SEND>(1), 0u);
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_REFLEX_STATUS>(),
            uint32_t{TESSERA_DEFAULT_reflex_buffer_flits} << 16);
  // The line QEMU logs with -d guest_errors.
  EXPECT_EQ(machine.reflex_guest_errors(),
            std::vector<std::string>{
                "tessera-reflex: hart 0x0: csrrw 0x816, 0x1: reflex: a send into a ring with no "
                "root (its path comes back to a switch it has passed); refused; reads 0"});
}

TEST(HostReflex, AHeldFlitThatMeetsARingWithNoRootIsReportedForItsSender) {
  Machine machine(kShape);
  {
    // Thread 0 sends toward thread 1's switch while it is off: the flit waits there.
    HartScope scope(machine, 0);
    Configure(1, TESSERA_REFLEX_ROUTE_FORWARD);
    EXPECT_EQ(hal::csr_swap<TESSERA_CSR_REFLEX_SEND>(7), 1u);
  }
  {
    // Thread 1 forwards to thread 0, which forwards too: a ring with no root.
    HartScope scope(machine, 1);
    Configure(0, TESSERA_REFLEX_ROUTE_FORWARD);
  }
  // QEMU's line (tests/qemu: reflex.ring_with_no_root_keeps_the_flit) names the flit's sender,
  // whose access did not make the error.
  const std::vector<std::string> errors = machine.reflex_guest_errors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(Mentions(errors[0],
                       "tessera-reflex: thread 0x0: reflex: a flit's path comes back "
                       "to a switch it has passed (a ring with no root)"))
      << errors[0];
}

TEST(HostReflex, HartsWaitingForFlitsNobodySendsAreADeadlock) {
  Machine machine(kShape, Params(4, 1));
  const std::vector<uint32_t> ids{1, 3};
  try {
    machine.run_on_harts(ids, [&](Hart& hart) {
      (void)hal::csr_read<TESSERA_CSR_REFLEX_RECV>();
      ADD_FAILURE() << "hart " << hart.id() << " woke up";
    });
    ADD_FAILURE() << "no deadlock reported";
  } catch (const Deadlock& e) {
    EXPECT_TRUE(Mentions(e.what(), "reflex switches")) << e.what();
    EXPECT_TRUE(Mentions(e.what(), "threads 0x1, 0x3 (2): reflex receive")) << e.what();
  }
  // Let go by the report, not by the end of a run.
  EXPECT_EQ(machine.exit_code(), std::nullopt);
  for (const uint32_t id : ids) {
    EXPECT_EQ(machine.blocked_on(id), BlockedOn::kNothing) << "hart " << id;
  }
}

TEST(HostReflex, TheEndOfTheRunReleasesABlockedHart) {
  Machine machine(kShape);
  const std::vector<uint32_t> ids{0, 1};
  machine.run_on_harts(ids, [&](Hart& hart) {
    if (hart.id() == 0) {
      (void)hal::csr_read<TESSERA_CSR_REFLEX_RECV>();
      ADD_FAILURE() << "received a flit nobody sent";
    } else {
      machine.wait_until_blocked(0, BlockedOn::kReflexRecv);
      machine.end_run(0);
    }
  });
  EXPECT_EQ(machine.exit_code(), 0);
}

TEST(HostReflex, ABufferOfNoFlitsIsRefused) {
  EXPECT_THROW(Machine(kShape, Params(0, 1)), std::invalid_argument);
  EXPECT_THROW(Machine(kShape, Params(TESSERA_LIMIT_reflex_buffer_flits + 1, 1)),
               std::invalid_argument);
}

}  // namespace
}  // namespace tessera::host
