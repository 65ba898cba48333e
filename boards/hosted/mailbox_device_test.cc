// The host machine's mailbox device: the scratchpad window per tile, the HAL scratch facade,
// blocking without spinning, deadlock detection, the end of a run, and the host port.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tessera/hal/csr.h"
#include "tessera/hal/mmio.h"
#include "tessera/hal/scratch.h"
#include "tessera/host/machine.h"
#include "tessera/hw/regs.h"

namespace tessera::host {
namespace {

// 2x1 boards of 2x1 tiles of 1 core x 2 threads: 8 harts, 2 per tile.
constexpr TesseraShape kShape{2, 1, 2, 1, 1, 2};
constexpr uint32_t kSlot1 = TESSERA_SCRATCH_BASE + 64;

::testing::AssertionResult Mentions(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << '"' << text << "\" does not mention \"" << part << '"';
}

TEST(HostMailboxScratch, EachTileHasItsOwnScratchpadAtTheSameAddresses) {
  Machine machine(kShape);
  {
    HartScope scope(machine, 0);  // tile 0
    hal::mmio_write32(kSlot1, 0x11223344);
    EXPECT_EQ(static_cast<volatile uint8_t*>(hal::scratch_pointer(kSlot1))[0], 0x44);
  }
  {
    HartScope scope(machine, 1);  // tile 0 too
    EXPECT_EQ(hal::mmio_read32(kSlot1), 0x11223344u);
  }
  {
    HartScope scope(machine, 2);  // tile 1
    EXPECT_EQ(hal::mmio_read32(kSlot1), 0u);
    volatile uint32_t* p = static_cast<volatile uint32_t*>(hal::scratch_pointer(kSlot1 + 4));
    *p = 0xabcdef01;
    EXPECT_EQ(hal::mmio_read32(kSlot1 + 4), 0xabcdef01u);
    EXPECT_EQ(hal::scratch_bus_address(p), kSlot1 + 4);
    EXPECT_EQ(hal::scratch_bus_address(hal::scratch_pointer(TESSERA_SCRATCH_BASE)),
              TESSERA_SCRATCH_BASE);
  }
}

TEST(HostMailboxScratch, AddressesAndPointersOutsideTheScratchpadFail) {
  Machine machine(kShape);
  HartScope scope(machine, 2);
  EXPECT_THROW(hal::scratch_pointer(TESSERA_SCRATCH_BASE + TESSERA_SCRATCH_SIZE), std::logic_error);
  EXPECT_THROW(hal::scratch_pointer(TESSERA_SCRATCH_BASE - 1), std::logic_error);
  uint32_t elsewhere = 0;
  EXPECT_THROW(hal::scratch_bus_address(&elsewhere), std::logic_error);
  // Another tile's scratchpad is not this hart's.
  volatile void* other = nullptr;
  {
    HartScope tile0(machine, 0);
    other = hal::scratch_pointer(kSlot1);
  }
  EXPECT_THROW(hal::scratch_bus_address(other), std::logic_error);
}

TEST(HostMailboxBlocking, WaitingHartsSleepAndTheClockJumpsToTheArrival) {
  Machine machine(kShape);
  const uint32_t sender = 0, receiver = 6;  // other board
  const std::vector<uint32_t> ids{sender, receiver};
  std::atomic<uint64_t> sent_at{0};
  machine.run_on_harts(ids, [&](Hart& hart) {
    if (hart.id() == receiver) {
      hal::csr_write<TESSERA_CSR_FREE>(kSlot1);
      const uint64_t before = hart.cycles();
      EXPECT_EQ(hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_RECV),
                TESSERA_WAIT_CAN_RECV);
      EXPECT_GT(hart.cycles(), before + 100);  // jumped, not ticked
      EXPECT_EQ(hart.cycles(), sent_at + machine.mailbox_latency(sender, receiver));
      return;
    }
    machine.wait_until_blocked(receiver, BlockedOn::kCanRecv);  // the receiver sleeps first
    hart.advance_cycles(1000);
    // Published before the send: the receiver may wake and check as soon as the message is in.
    // A CSR access ticks the clock once, before the device acts.
    sent_at = hart.cycles() + 1;
    hal::csr_write<TESSERA_CSR_SEND>(receiver);
  });
}

TEST(HostMailboxBlocking, TestsSeeWhichOperationAHartIsBlockedIn) {
  MachineParams params;
  params.buffer_flits = 4;  // one 4-flit message fills the network toward a thread
  Machine machine(kShape, params);
  const uint32_t receiver = 0, sender = 1, idler = 3, driver = 5, unstarted = 7;
  const std::vector<uint32_t> ids{receiver, sender, idler, driver};
  EXPECT_EQ(machine.blocked_on(receiver), BlockedOn::kNothing);
  machine.run_on_harts(ids, [&](Hart& hart) {
    if (hart.id() == receiver) {
      hal::csr_write<TESSERA_CSR_FREE>(kSlot1);
      EXPECT_EQ(hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_RECV),
                TESSERA_WAIT_CAN_RECV);
    } else if (hart.id() == sender) {
      // The unstarted thread gave no slots: one message in the network, one held, then full.
      hal::csr_write<TESSERA_CSR_SEND_LEN>(3);
      hal::csr_write<TESSERA_CSR_SEND>(unstarted);
      hal::csr_write<TESSERA_CSR_SEND>(unstarted);
      hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_SEND);
      ADD_FAILURE() << "the sender found room";
    } else if (hart.id() == idler) {
      // Never released: the other threads never go idle.
      hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE);
      ADD_FAILURE() << "the idler was released";
    } else {
      machine.wait_until_blocked(receiver, BlockedOn::kCanRecv);
      machine.wait_until_blocked(sender, BlockedOn::kCanSend);
      machine.wait_until_blocked(idler, BlockedOn::kIdle);
      EXPECT_EQ(machine.blocked_on(driver), BlockedOn::kNothing);
      EXPECT_EQ(machine.blocked_on(unstarted), BlockedOn::kNothing);
      hal::csr_write<TESSERA_CSR_SEND_LEN>(0);
      hal::csr_write<TESSERA_CSR_SEND>(receiver);
      // Woken by the send itself, before its thread runs again.
      EXPECT_EQ(machine.blocked_on(receiver), BlockedOn::kNothing);
      EXPECT_EQ(machine.blocked_on(sender), BlockedOn::kCanSend);
      hal::mmio_write32(TESSERA_EXIT_BASE, TESSERA_EXIT_PASS);  // stops the sender and idler
    }
  });
  EXPECT_EQ(machine.exit_code(), 0);
  for (const uint32_t id : ids) {
    EXPECT_EQ(machine.blocked_on(id), BlockedOn::kNothing) << "hart " << id;
  }
}

TEST(HostMailboxBlocking, WaitingForABlockThatNeverComesFailsNamingTheHart) {
  MachineParams params;
  params.detect_deadlock = false;  // the test thread ends the run
  Machine machine(kShape, params);
  std::string unbound_error, wrong_wait_error;
  try {
    machine.wait_until_blocked(2, BlockedOn::kCanRecv, std::chrono::milliseconds(20));
  } catch (const WaitTimeout& e) {
    unbound_error = e.what();
  }
  std::thread test([&] {
    EXPECT_NO_THROW(machine.wait_until_blocked(2, BlockedOn::kCanRecv));
    try {
      machine.wait_until_blocked(2, BlockedOn::kCanSend, std::chrono::milliseconds(20));
    } catch (const WaitTimeout& e) {
      wrong_wait_error = e.what();
    }
    machine.end_run(0);  // stops the hart
  });
  const std::vector<uint32_t> ids{2};
  machine.run_on_harts(ids, [&](Hart&) {
    hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_RECV);
    ADD_FAILURE() << "woken";
  });
  test.join();
  EXPECT_TRUE(Mentions(unbound_error,
                       "hart 0x00000002 (index 2) did not block in can-recv "
                       "within 20 ms; it is not blocked"));
  EXPECT_TRUE(Mentions(unbound_error, "bound to no thread"));
  EXPECT_TRUE(Mentions(wrong_wait_error, "did not block in can-send"));
  EXPECT_TRUE(Mentions(wrong_wait_error, "it is blocked in can-recv and bound to a thread"));
}

TEST(HostMailboxDeadlock, AllHartsWaitingForMessagesNobodySendsFailClearly) {
  Machine machine(kShape);
  const std::vector<uint32_t> ids{0, 3, 5};
  try {
    machine.run_on_harts(ids, [&](Hart& hart) {
      if (hart.id() == 5) {
        return;  // finishes: cannot wake anybody any more
      }
      hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_RECV);
      ADD_FAILURE() << "hart " << hart.id() << " woke up";
    });
    ADD_FAILURE() << "no deadlock reported";
  } catch (const Deadlock& e) {
    EXPECT_TRUE(Mentions(e.what(), "deadlock"));
    EXPECT_TRUE(Mentions(e.what(),
                         "threads 0x0, 0x3 (2): mailbox wait-until can-recv (to receive), "
                         "since cycle"))
        << e.what();
  }
  // Every hart was let go by the report, not by the end of a run.
  EXPECT_EQ(machine.exit_code(), std::nullopt);
  for (const uint32_t id : ids) {
    EXPECT_EQ(machine.blocked_on(id), BlockedOn::kNothing) << "hart " << id;
  }
}

TEST(HostMailboxDeadlock, ASenderStuckBehindAReceiverThatNeverGivesSlots) {
  MachineParams params;
  params.buffer_flits = 4;
  Machine machine(kShape, params);
  const std::vector<uint32_t> ids{0, 7};
  EXPECT_THROW(
      machine.run_on_harts(ids,
                           [&](Hart& hart) {
                             if (hart.id() == 7) {
                               hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_RECV);
                               return;
                             }
                             hal::csr_write<TESSERA_CSR_SEND_LEN>(3);
                             hal::csr_write<TESSERA_CSR_SEND>(7);
                             hal::csr_write<TESSERA_CSR_SEND>(7);
                             hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_SEND);
                           }),
      Deadlock);
}

// Each send wakes the other hart just before the sender blocks itself: for a moment both
// threads are asleep or about to run, and the woken one must not count as blocked.
TEST(HostMailboxDeadlock, HartsThatWakeEachOtherAreNeverADeadlock) {
  Machine machine(kShape);
  constexpr uint32_t kPing = 0, kPong = 2;  // other tiles: slots of their own
  constexpr int kRounds = 2000;
  const std::vector<uint32_t> ids{kPing, kPong};
  std::atomic<int> received{0};
  machine.run_on_harts(ids, [&](Hart& hart) {
    const uint32_t other = hart.id() == kPing ? kPong : kPing;
    hal::csr_write<TESSERA_CSR_FREE>(kSlot1);
    const auto send = [&] {
      hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_SEND);
      hal::csr_write<TESSERA_CSR_SEND>(other);
    };
    for (int round = 0; round < kRounds; round++) {
      if (hart.id() == kPing) {
        send();
      }
      hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_RECV);
      hal::csr_write<TESSERA_CSR_FREE>(hal::csr_read<TESSERA_CSR_RECV>());
      received++;
      if (hart.id() == kPong) {
        send();
      }
    }
  });
  EXPECT_EQ(received.load(), 2 * kRounds);
  EXPECT_EQ(machine.thread_counts(kPing).received, uint64_t{kRounds});
}

TEST(HostMailboxDeadlock, DetectionCanBeTurnedOffAndAnUnboundHostThreadCanWake) {
  MachineParams params;
  params.detect_deadlock = false;
  Machine machine(kShape, params);
  const std::vector<uint32_t> ids{4};
  std::thread host([&] {
    // Injected too early, the message would wake nothing: the hart must be asleep first.
    EXPECT_NO_THROW(machine.wait_until_blocked(4, BlockedOn::kCanRecv));
    const std::vector<uint8_t> message(16, 0x5a);
    EXPECT_TRUE(machine.inject(4, message, 0));
  });
  machine.run_on_harts(ids, [&](Hart&) {
    hal::csr_write<TESSERA_CSR_FREE>(kSlot1);
    EXPECT_EQ(hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_RECV), TESSERA_WAIT_CAN_RECV);
    const uint32_t slot = hal::csr_read<TESSERA_CSR_RECV>();
    EXPECT_EQ(hal::mmio_read32(slot), 0x5a5a5a5au);
  });
  host.join();
  EXPECT_EQ(machine.host_counts().sent, 1u);
}

TEST(HostMailboxExit, TheEndOfTheRunStopsBlockedHarts) {
  Machine machine(kShape);
  const std::vector<uint32_t> ids{0, 1, 2};
  std::atomic<int> woke{0};
  machine.run_on_harts(ids, [&](Hart& hart) {
    if (hart.id() == 2) {
      machine.wait_until_blocked(0, BlockedOn::kCanRecv);
      machine.wait_until_blocked(1, BlockedOn::kCanRecv);
      hal::mmio_write32(TESSERA_EXIT_BASE, TESSERA_EXIT_FAIL | (7u << 16));
      return;
    }
    hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_RECV);
    woke++;  // never: MachineExit ends the hart
  });
  EXPECT_EQ(woke.load(), 0);
  EXPECT_EQ(machine.exit_code(), 7);
}

TEST(HostMailboxHostPort, MessagesToTheHostAreRecordedAndARefusingHostStallsTheSender) {
  std::atomic<bool> accept{false};
  MachineParams params;
  params.host_sink = [&](const HostMessage&) { return accept.load(); };
  Machine machine(kShape, params);
  HartScope scope(machine, 6);
  volatile uint32_t* out =
      static_cast<volatile uint32_t*>(hal::scratch_pointer(TESSERA_SCRATCH_BASE));
  out[0] = 0xfeedf00d;
  hal::csr_write<TESSERA_CSR_SEND_LEN>(1);
  hal::csr_write<TESSERA_CSR_SEND>(tessera_host_id(&kShape));
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_CAN_SEND>(), 0u);
  EXPECT_TRUE(machine.host_messages().empty());
  accept = true;
  machine.host_ready();
  EXPECT_EQ(hal::csr_read<TESSERA_CSR_CAN_SEND>(), 1u);
  const std::vector<HostMessage> got = machine.host_messages();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].source, 6u);
  EXPECT_EQ(got[0].flits, 2u);
  ASSERT_EQ(got[0].bytes.size(), 32u);
  EXPECT_EQ(got[0].bytes[0], 0x0d);
  EXPECT_EQ(got[0].bytes[3], 0xfe);
  EXPECT_EQ(machine.host_counts().received, 1u);
  EXPECT_EQ(machine.board_counts(1).sent, 1u);
}

TEST(HostMailboxHostPort, InjectChecksTheMessageLength) {
  Machine machine(kShape);
  EXPECT_FALSE(machine.inject(0, std::vector<uint8_t>(15), 0));
  EXPECT_FALSE(machine.inject(0, std::vector<uint8_t>(80), 0));
  EXPECT_FALSE(machine.inject(0, std::vector<uint8_t>(), 0));
  EXPECT_FALSE(machine.inject(tessera_host_id(&kShape), std::vector<uint8_t>(16), 0));
  EXPECT_TRUE(machine.inject(0, std::vector<uint8_t>(64), 0));
}

TEST(HostMailboxMachine, RejectsShapesTheMailboxCannotServe) {
  // 1,024 threads in a tile leave no receive slot.
  EXPECT_THROW(Machine({1, 1, 1, 1, 16, 64}), std::invalid_argument);
  MachineParams tiny;
  tiny.buffer_flits = 3;
  EXPECT_THROW(Machine(kShape, tiny), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::host
