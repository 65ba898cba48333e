// The mailbox driver on the host machine: harts as host threads talk through the real mailbox
// model, block in WAIT_UNTIL on condition variables, and see modelled time.
#include "tessera/drivers/mailbox.h"

#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "tessera/hal/csr.h"
#include "tessera/host/machine.h"
#include "tessera/models/mailbox.h"

namespace tessera::drivers {
namespace {

using host::BlockedOn;
using host::Hart;
using host::HartScope;
using host::Machine;
using host::MachineParams;

// 2x1 boards of 2x1 tiles of 2 cores x 2 threads: 16 harts, 4 per tile.
constexpr TesseraShape kShape{2, 1, 2, 1, 2, 2};

struct Message {
  uint32_t from;
  uint32_t seq;
  uint32_t words[14];
};
static_assert(sizeof(Message) == TESSERA_BYTES_PER_SLOT);

uint32_t ThreadId(const TesseraShape& shape, uint32_t bx, uint32_t by, uint32_t tx, uint32_t ty,
                  uint32_t core, uint32_t thread) {
  const TesseraCoords c{bx, by, tx, ty, core, thread};
  return tessera_thread_id(&shape, &c);
}

// Fills a message's words from (from, seq) so that a mixed-up or cut message shows.
void Stamp(volatile Message* m, uint32_t from, uint32_t seq) {
  m->from = from;
  m->seq = seq;
  for (uint32_t k = 0; k < 14; k++) {
    m->words[k] = from * 1000003u + seq * 31u + k;
  }
}

// Number of words of the stamp that are intact (the first `flits` flits are what was sent).
bool StampIntact(const volatile Message* m, uint32_t flits) {
  const uint32_t words = flits * 4 - 2;
  for (uint32_t k = 0; k < words; k++) {
    if (m->words[k] != m->from * 1000003u + m->seq * 31u + k) {
      return false;
    }
  }
  return true;
}

TEST(MailboxDriver, LayoutOfSlots) {
  Machine machine(kShape);
  machine.run_on_all_harts([&](Hart& hart) {
    const Mailbox mailbox;
    EXPECT_EQ(mailbox.thread_id(), hart.id());
    EXPECT_EQ(mailbox.threads_per_tile(), 4u);
    EXPECT_EQ(mailbox.slots_per_thread(), TESSERA_SLOTS_PER_TILE / 4);
    EXPECT_EQ(mailbox.mailbox_id(), hart.id() >> 2);
    EXPECT_EQ(mailbox.host_id(), tessera_host_id(&kShape));
    const uint32_t first = TESSERA_SCRATCH_BASE + (hart.id() & 3) * 256 * TESSERA_BYTES_PER_SLOT;
    EXPECT_EQ(mailbox.send_slot().bus_address(), first);
    EXPECT_EQ(mailbox.receive_slot(0).bus_address(), first + 64);
    EXPECT_EQ(mailbox.receive_slot_count(), 255u);
    EXPECT_TRUE(mailbox.receive_slot(254).valid());
    EXPECT_FALSE(mailbox.slot(256).valid());
    EXPECT_EQ(Slot::from_pointer(mailbox.send_slot().data()), mailbox.send_slot());
  });
}

TEST(MailboxDriver, PingPongTakesTheModelledLatencyEachWay) {
  MachineParams params;
  params.board_hop_cycles = 5000;  // far more than the cycles the harts spend on accesses
  Machine machine(kShape, params);
  const uint32_t a = ThreadId(kShape, 0, 0, 0, 0, 0, 0);
  const uint32_t b = ThreadId(kShape, 1, 0, 1, 0, 1, 1);
  const uint64_t latency = machine.mailbox_latency(a, b);
  EXPECT_EQ(latency, 2 * TESSERA_DEFAULT_tile_hop_cycles + 5000);
  constexpr uint32_t kRounds = 20;
  std::vector<uint64_t> sent_at(kRounds), received_at(kRounds), echoed_at(kRounds),
      back_at(kRounds);
  const std::vector<uint32_t> ids{a, b};
  machine.run_on_harts(ids, [&](Hart& hart) {
    const Mailbox mailbox;
    ASSERT_TRUE(mailbox.give_receive_slots().ok());
    for (uint32_t round = 0; round < kRounds; round++) {
      if (hart.id() == a) {
        Stamp(mailbox.send_slot().as<Message>(), a, round);
        ASSERT_TRUE(mailbox.send(b, mailbox.send_slot(), 4).ok());
        sent_at[round] = hart.cycles();
        const Slot in = mailbox.recv();
        back_at[round] = hart.cycles();
        EXPECT_EQ(in.as<Message>()->seq, round + 1000);
        EXPECT_TRUE(StampIntact(in.as<Message>(), 4));
        ASSERT_TRUE(mailbox.give(in).ok());
      } else {
        const Slot in = mailbox.recv();
        received_at[round] = hart.cycles();
        EXPECT_EQ(in.as<Message>()->seq, round);
        ASSERT_TRUE(mailbox.give(in).ok());
        Stamp(mailbox.send_slot().as<Message>(), b, round + 1000);
        ASSERT_TRUE(mailbox.send(a, mailbox.send_slot(), 4).ok());
        echoed_at[round] = hart.cycles();
      }
    }
  });
  for (uint32_t round = 0; round < kRounds; round++) {
    // The receiver sleeps until the arrival (WAIT_UNTIL), then RECV costs one access.
    EXPECT_EQ(received_at[round], sent_at[round] + latency + 1) << "round " << round;
    EXPECT_EQ(back_at[round], echoed_at[round] + latency + 1) << "round " << round;
  }
}

TEST(MailboxDriver, ManySendersToOneReceiverInOrderAndWhole) {
  Machine machine(kShape);
  const uint32_t receiver = ThreadId(kShape, 1, 0, 0, 0, 0, 0);
  std::vector<uint32_t> senders;
  for (uint32_t id : machine.thread_ids()) {
    if (id != receiver) {
      senders.push_back(id);
    }
  }
  constexpr uint32_t kPerSender = 60;
  std::mutex mutex;
  std::map<uint32_t, uint32_t> next;
  uint32_t received = 0;
  machine.run_on_all_harts([&](Hart& hart) {
    const Mailbox mailbox;
    if (hart.id() == receiver) {
      ASSERT_TRUE(mailbox.give_receive_slots().ok());
      for (uint32_t n = 0; n < kPerSender * senders.size(); n++) {
        const Slot in = mailbox.recv();
        const volatile Message* m = in.as<Message>();
        const uint32_t from = m->from;
        const uint32_t flits = 1 + (m->seq + from) % 4;
        std::lock_guard lock(mutex);
        EXPECT_EQ(m->seq, next[from]++) << "from 0x" << std::hex << from;
        EXPECT_TRUE(StampIntact(m, flits)) << "seq " << m->seq << " flits " << flits;
        received++;
        ASSERT_TRUE(mailbox.give(in).ok());
      }
      return;
    }
    for (uint32_t seq = 0; seq < kPerSender; seq++) {
      const uint32_t flits = 1 + (seq + hart.id()) % 4;
      Stamp(mailbox.send_slot().as<Message>(), hart.id(), seq);
      ASSERT_TRUE(mailbox.send(receiver, mailbox.send_slot(), flits).ok());
    }
  });
  EXPECT_EQ(received, kPerSender * senders.size());
  const TesseraMailboxCounts board0 = machine.board_counts(0);
  const TesseraMailboxCounts board1 = machine.board_counts(1);
  // Board 0 holds 8 senders, board 1 the receiver and 7 senders.
  EXPECT_EQ(board0.sent, 8 * kPerSender);
  EXPECT_EQ(board1.sent, 7 * kPerSender);
  EXPECT_EQ(board0.received, 0u);
  EXPECT_EQ(board1.received, 15 * kPerSender);
  EXPECT_EQ(machine.thread_counts(receiver).received, 15 * kPerSender);
}

TEST(MailboxDriver, MulticastReachesTheMaskedThreadsOfAMailbox) {
  Machine machine(kShape);
  const uint32_t sender = ThreadId(kShape, 1, 0, 1, 0, 0, 0);
  const uint32_t target_mailbox = ThreadId(kShape, 0, 0, 1, 0, 0, 0) >> 2;
  constexpr uint64_t kMask = 0b1011;
  std::latch ready(5);
  std::atomic<int> got{0};
  std::vector<uint32_t> ids{sender};
  for (uint32_t k = 0; k < 4; k++) {
    ids.push_back((target_mailbox << 2) | k);
  }
  machine.run_on_harts(ids, [&](Hart& hart) {
    const Mailbox mailbox;
    ASSERT_TRUE(mailbox.give_receive_slots().ok());
    ready.arrive_and_wait();
    if (hart.id() == sender) {
      Stamp(mailbox.send_slot().as<Message>(), sender, 77);
      ASSERT_TRUE(mailbox.multicast(target_mailbox, kMask, mailbox.send_slot(), 2).ok());
      // One more to every thread but the one left out, so that each receiver can stop.
      ASSERT_TRUE(mailbox.multicast(target_mailbox, 0b0100, mailbox.send_slot(), 1).ok());
      return;
    }
    const Slot in = mailbox.recv();
    const uint32_t k = hart.id() & 3;
    if ((kMask >> k) & 1) {
      EXPECT_EQ(in.as<Message>()->seq, 77u);
      EXPECT_TRUE(StampIntact(in.as<Message>(), 2));
      got++;
    }
    EXPECT_FALSE(mailbox.can_recv());
  });
  EXPECT_EQ(got.load(), 3);
  EXPECT_EQ(machine.thread_counts(sender).sent, 4u);
}

// The core's combined operations, as the POLite runtime uses them: the send registers written
// once, only the mask per multicast, and a receive loop of RECV_FREEs.
TEST(MailboxDriver, ACombinedReceiveLoopTakesEachMessageOnceAndFreesItsSlots) {
  Machine machine(kShape);
  const uint32_t sender = ThreadId(kShape, 1, 0, 1, 0, 0, 0);
  const uint32_t target_mailbox = ThreadId(kShape, 0, 0, 1, 0, 0, 0) >> 2;
  constexpr uint32_t kMessages = 40;
  std::latch ready(3);
  std::atomic<int> got{0};
  const std::vector<uint32_t> ids{sender, target_mailbox << 2, (target_mailbox << 2) | 2};
  machine.run_on_harts(ids, [&](Hart& hart) {
    const Mailbox mailbox;
    ASSERT_TRUE(mailbox.give_receive_slots().ok());
    ready.arrive_and_wait();
    if (hart.id() == sender) {
      tessera_mbox_set_send_ptr(mailbox.send_slot().bus_address());
      tessera_mbox_set_len(3);
      tessera_mbox_set_mask_hi(0);
      tessera_mbox_set_mask_lo(0b0101);
      for (uint32_t seq = 0; seq < kMessages; seq++) {
        mailbox.wait_until(WaitConditions::can_send());
        Stamp(mailbox.send_slot().as<Message>(), sender, seq);
        tessera_mbox_multicast_masked(target_mailbox);
      }
      EXPECT_EQ(tessera_mbox_recv_free(0), uint32_t{TESSERA_RECV_FREE_CAN_SEND});
      return;
    }
    uint32_t expected = 0, held = 0;
    while (expected < kMessages) {
      const uint32_t r = tessera_mbox_recv_free(held);
      held = tessera_mbox_recv_free_slot(r);
      EXPECT_TRUE(tessera_mbox_recv_free_can_send(r));
      if (held == 0) {
        mailbox.wait_until(WaitConditions::can_recv());
        continue;
      }
      const volatile Message* m = Slot::at(held).as<Message>();
      EXPECT_EQ(m->seq, expected);
      EXPECT_TRUE(StampIntact(m, 4));
      expected++;
      got++;
    }
    // The last step frees the last slot, which counts the last message as received.
    EXPECT_EQ(tessera_mbox_recv_free(held), uint32_t{TESSERA_RECV_FREE_CAN_SEND});
  });
  EXPECT_EQ(got.load(), 2 * static_cast<int>(kMessages));
  EXPECT_EQ(machine.thread_counts((target_mailbox << 2) | 2).received, kMessages);
}

TEST(MailboxDriver, BackPressureStallsTheSenderAndLosesNothing) {
  MachineParams params;
  params.buffer_flits = 24;
  Machine machine(kShape, params);
  const uint32_t sender = ThreadId(kShape, 0, 0, 0, 0, 0, 0);
  const uint32_t receiver = ThreadId(kShape, 1, 0, 1, 0, 0, 1);
  constexpr uint32_t kMessages = 100;
  constexpr uint32_t kFlits = 3;
  std::latch sender_stalled(1);
  uint32_t accepted_before_stall = 0;
  const std::vector<uint32_t> ids{sender, receiver};
  machine.run_on_harts(ids, [&](Hart& hart) {
    const Mailbox mailbox;
    if (hart.id() == sender) {
      uint32_t seq = 0;
      // Non-blocking until the network pushes back.
      for (;; seq++) {
        Stamp(mailbox.send_slot().as<Message>(), sender, seq);
        const Status s = mailbox.try_send(receiver, mailbox.send_slot(), kFlits);
        if (!s.ok()) {
          EXPECT_EQ(s, Status::Unavailable());
          break;
        }
      }
      accepted_before_stall = seq;
      EXPECT_FALSE(mailbox.can_send());
      sender_stalled.count_down();
      for (; seq < kMessages; seq++) {
        Stamp(mailbox.send_slot().as<Message>(), sender, seq);
        ASSERT_TRUE(mailbox.send(receiver, mailbox.send_slot(), kFlits).ok());
      }
      return;
    }
    // The receiver gives no slot until the sender has stalled.
    sender_stalled.wait();
    EXPECT_FALSE(mailbox.can_recv());
    ASSERT_TRUE(mailbox.give_receive_slots().ok());
    for (uint32_t seq = 0; seq < kMessages; seq++) {
      const Slot in = mailbox.recv();
      EXPECT_EQ(in.as<Message>()->seq, seq);
      EXPECT_TRUE(StampIntact(in.as<Message>(), kFlits));
      ASSERT_TRUE(mailbox.give(in).ok());
    }
    EXPECT_FALSE(mailbox.can_recv());
  });
  // buffer_flits / flits messages entered the network, one more waited in the sender's
  // outbound register, and the next try_send found can-send 0.
  EXPECT_EQ(accepted_before_stall, 24 / kFlits + 1);
  EXPECT_EQ(machine.thread_counts(sender).sent, kMessages);
  EXPECT_EQ(machine.thread_counts(receiver).received, kMessages);
}

TEST(MailboxDriver, ABlockedReceiverWakesWhenAMessageArrives) {
  Machine machine(kShape);
  const uint32_t a = 0, b = 5;
  const std::vector<uint32_t> ids{a, b};
  machine.run_on_harts(ids, [&](Hart& hart) {
    const Mailbox mailbox;
    if (hart.id() == b) {
      ASSERT_TRUE(mailbox.give_receive_slots().ok());
      EXPECT_EQ(mailbox.wait_until(WaitConditions::can_recv()), WaitConditions::can_recv());
      Slot in;
      ASSERT_TRUE(mailbox.try_recv(&in).ok());
      EXPECT_EQ(in.as<Message>()->seq, 5u);
      return;
    }
    machine.wait_until_blocked(b, BlockedOn::kCanRecv);  // send only once it sleeps
    Stamp(mailbox.send_slot().as<Message>(), a, 5);
    ASSERT_TRUE(mailbox.send(b, mailbox.send_slot(), 1).ok());
  });
}

TEST(MailboxDriver, ABlockedSenderWakesWhenRoomAppears) {
  MachineParams params;
  params.buffer_flits = 4;
  Machine machine(kShape, params);
  const uint32_t sender = 0, receiver = 9;
  const std::vector<uint32_t> ids{sender, receiver};
  machine.run_on_harts(ids, [&](Hart& hart) {
    const Mailbox mailbox;
    if (hart.id() == sender) {
      for (uint32_t seq = 0; seq < 2; seq++) {  // one in the network, one held
        Stamp(mailbox.send_slot().as<Message>(), sender, seq);
        ASSERT_TRUE(mailbox.try_send(receiver, mailbox.send_slot(), 4).ok());
      }
      EXPECT_EQ(mailbox.wait_until(WaitConditions::can_send() | WaitConditions::none()),
                WaitConditions::can_send());
      EXPECT_TRUE(mailbox.can_send());
      return;
    }
    machine.wait_until_blocked(sender, BlockedOn::kCanSend);  // room only once it sleeps
    ASSERT_TRUE(mailbox.give(mailbox.receive_slot(0)).ok());
  });
  EXPECT_EQ(machine.thread_counts(sender).sent, 2u);
}

TEST(MailboxDriver, ArgumentsTheHardwareWouldRefuseAreInvalidArguments) {
  Machine machine(kShape);
  HartScope scope(machine, 0);
  const Mailbox mailbox;
  const Slot out = mailbox.send_slot();
  EXPECT_EQ(mailbox.try_send(tessera_host_id(&kShape) + 1, out, 1), Status::InvalidArgument());
  EXPECT_EQ(mailbox.send(0xffffffffu, out, 1), Status::InvalidArgument());
  EXPECT_EQ(mailbox.try_send(1, out, 0), Status::InvalidArgument());
  EXPECT_EQ(mailbox.try_send(1, out, 5), Status::InvalidArgument());
  EXPECT_EQ(mailbox.try_send(1, Slot::at(TESSERA_DRAM_BASE), 1), Status::InvalidArgument());
  EXPECT_EQ(mailbox.try_send(1, Slot::at(out.bus_address() + 8), 1), Status::InvalidArgument());
  EXPECT_EQ(mailbox.try_send(1, Slot(), 1), Status::InvalidArgument());
  EXPECT_EQ(mailbox.give(Slot::at(TESSERA_SCRATCH_BASE + TESSERA_SCRATCH_SIZE)),
            Status::InvalidArgument());
  EXPECT_EQ(mailbox.try_multicast(1, 0b10000, out, 1), Status::InvalidArgument());  // 4 threads
  EXPECT_EQ(mailbox.try_multicast(99, 1, out, 1), Status::InvalidArgument());
  EXPECT_EQ(mailbox.try_recv(nullptr), Status::InvalidArgument());
  Slot none;
  EXPECT_EQ(mailbox.try_recv(&none), Status::Unavailable());
  EXPECT_FALSE(none.valid());
  EXPECT_EQ(mailbox.wait_until(WaitConditions::none()), WaitConditions::none());
  // Nothing reached the hardware.
  EXPECT_EQ(mailbox.last_fault(), 0u);
  EXPECT_EQ(machine.thread_counts(0).sent, 0u);
  // The host id is a destination.
  EXPECT_TRUE(mailbox.try_send(mailbox.host_id(), out, 1).ok());
  EXPECT_EQ(machine.host_messages().size(), 1u);
}

TEST(MailboxDriver, SendWhileTheNetworkPushesBackIsUnavailable) {
  MachineParams params;
  params.buffer_flits = 4;
  Machine machine(kShape, params);
  HartScope scope(machine, 0);
  const Mailbox mailbox;
  ASSERT_TRUE(mailbox.try_send(9, mailbox.send_slot(), 4).ok());
  ASSERT_TRUE(mailbox.try_send(9, mailbox.send_slot(), 4).ok());  // held
  EXPECT_EQ(mailbox.try_send(9, mailbox.send_slot(), 1), Status::Unavailable());
  EXPECT_EQ(mailbox.try_multicast(2, 1, mailbox.send_slot(), 1), Status::Unavailable());
}

// What the driver cannot know: faults of the hardware, which trap on the target and throw
// MailboxFault on the host; MBOX_FAULT keeps the code.
class MailboxHardwareFaults : public ::testing::Test {
 protected:
  MailboxHardwareFaults() : machine_(kShape, Params()), scope_(machine_, 0) {}
  static MachineParams Params() {
    MachineParams params;
    params.buffer_flits = 4;
    return params;
  }
  uint32_t FaultOf(const std::function<void()>& action) {
    try {
      action();
    } catch (const host::MailboxFault& e) {
      EXPECT_EQ(Mailbox().last_fault(), e.fault());
      EXPECT_NE(std::string(e.what()).find(mailbox_fault_name(e.fault())), std::string::npos)
          << e.what();
      return e.fault();
    }
    ADD_FAILURE() << "no mailbox fault";
    return 0;
  }
  Machine machine_;
  HartScope scope_;
};

TEST_F(MailboxHardwareFaults, EachFaultTrapsWithItsCode) {
  const Mailbox mailbox;
  const uint32_t out = mailbox.send_slot().bus_address();
  EXPECT_EQ(FaultOf([] { hal::csr_write<TESSERA_CSR_SEND>(0xffffffffu); }),
            uint32_t(MailboxFault::kBadDestination));
  EXPECT_EQ(FaultOf([] { hal::csr_write<TESSERA_CSR_SEND_PTR>(TESSERA_DRAM_BASE); }),
            uint32_t(MailboxFault::kBadSlot));
  EXPECT_EQ(FaultOf([&] { hal::csr_write<TESSERA_CSR_FREE>(out + 4); }),
            uint32_t(MailboxFault::kBadSlot));
  EXPECT_EQ(FaultOf([] { hal::csr_write<TESSERA_CSR_SEND_LEN>(4); }),
            uint32_t(MailboxFault::kBadLength));
  ASSERT_TRUE(mailbox.give(mailbox.receive_slot(3)).ok());
  EXPECT_EQ(FaultOf([&] { (void)mailbox.give(mailbox.receive_slot(3)); }),
            uint32_t(MailboxFault::kDoubleFree));
  EXPECT_EQ(FaultOf([] { hal::csr_read<TESSERA_CSR_RECV>(); }), uint32_t(MailboxFault::kRecvEmpty));
  ASSERT_TRUE(mailbox.try_send(9, mailbox.send_slot(), 4).ok());
  ASSERT_TRUE(mailbox.try_send(9, mailbox.send_slot(), 4).ok());  // held
  EXPECT_EQ(FaultOf([] { hal::csr_write<TESSERA_CSR_SEND>(1); }),
            uint32_t(MailboxFault::kSendBusy));
  EXPECT_EQ(FaultOf([] { hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(0); }),
            uint32_t(MailboxFault::kBadWait));
  EXPECT_EQ(FaultOf([] { hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(0x10); }),  // unknown bit
            uint32_t(MailboxFault::kBadWait));
}

TEST(MailboxDriverFaultNames, MatchTheModels) {
  for (uint32_t code = 0; code <= 8; code++) {
    EXPECT_STREQ(mailbox_fault_name(code),
                 tessera_mailbox_fault_name(static_cast<TesseraMailboxFault>(code)))
        << "code " << code;
  }
}

// A token passed round every hart a few times, with all of its timing recorded.
std::vector<uint64_t> TokenRingCycles() {
  Machine machine({2, 2, 2, 1, 1, 2});
  const std::vector<uint32_t> ids = machine.thread_ids();
  std::vector<uint64_t> cycles(ids.size());
  machine.run_on_all_harts([&](Hart& hart) {
    const Mailbox mailbox;
    ASSERT_TRUE(mailbox.give_receive_slots().ok());
    const uint32_t next = ids[(hart.index() + 1) % ids.size()];
    for (uint32_t lap = 0; lap < 5; lap++) {
      if (!(hart.index() == 0 && lap == 0)) {
        const Slot in = mailbox.recv();
        ASSERT_TRUE(mailbox.give(in).ok());
      }
      if (!(hart.index() == ids.size() - 1 && lap == 4)) {
        Stamp(mailbox.send_slot().as<Message>(), hart.id(), lap);
        ASSERT_TRUE(mailbox.send(next, mailbox.send_slot(), 1 + lap % 4).ok());
      }
    }
    cycles[hart.index()] = hart.cycles();
  });
  return cycles;
}

TEST(MailboxDriver, IdenticalRunsGiveIdenticalModelledTimes) {
  const std::vector<uint64_t> first = TokenRingCycles();
  EXPECT_EQ(first, TokenRingCycles());
  EXPECT_EQ(first, TokenRingCycles());
  // The last hart received last: at least five laps of latencies.
  EXPECT_GT(first.back(), 5u * TESSERA_DEFAULT_board_hop_cycles);
}

}  // namespace
}  // namespace tessera::drivers
