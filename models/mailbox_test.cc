// The mailbox and network model on its own, driven CSR by CSR as the QEMU
// wrapper and the host backend drive it: slots, delivery, back-pressure,
// faults, modelled time, waking, counts and the host port.
#include "tessera/models/mailbox.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr uint32_t kL = 150;
constexpr uint32_t kTileHop = 4;

struct HostMessage {
  uint32_t src;
  std::vector<uint8_t> bytes;
  uint32_t flits;
  uint64_t time;
};

struct CsrOutcome {
  TesseraAccessStatus result;
  uint32_t value;
  uint64_t resume_at;
  TesseraMailboxFault fault;
};

// One model with host callbacks that record what the model asks for.
class Harness {
 public:
  explicit Harness(const TesseraShape& shape, uint32_t buffer_flits = 64,
                   uint32_t tile_hop = kTileHop, uint32_t board_hop = kL, bool windows = false,
                   const bool* local_boards = nullptr, bool untimed = false)
      : shape_(shape) {
    const uint32_t tiles = shape.boards_x * shape.boards_y * shape.tiles_x * shape.tiles_y;
    // One block, every tile's scratchpad after another, as QEMU keeps them, given as host.scratch
    // alone (the boards', the host machine's and the fuzz harness's hosts give scratchpad()).
    scratch_.assign(size_t{tiles} * TESSERA_SCRATCH_SIZE, 0);
    waits_ = tessera_waits_new(&shape);
    const TesseraMailboxConfig config{
        shape,  tile_hop, board_hop,    buffer_flits, TESSERA_TERMDET_MASTER_ORIGIN,
        waits_, windows,  local_boards, untimed};
    TesseraMailboxHost host{};
    host.opaque = this;
    host.scratch = scratch_.data();
    host.wake = [](void* self, uint32_t hart) {
      static_cast<Harness*>(self)->wakes.push_back(hart);
    };
    host.to_host = [](void* self, uint32_t src, const uint8_t* msg, uint32_t flits, uint64_t time) {
      auto* h = static_cast<Harness*>(self);
      if (!h->host_accepts) {
        h->host_refusals++;
        return false;
      }
      h->to_host.push_back(
          {src, std::vector<uint8_t>(msg, msg + flits * TESSERA_BYTES_PER_FLIT), flits, time});
      return true;
    };
    host.inject_ready = [](void* self) { static_cast<Harness*>(self)->inject_ready_calls++; };
    model_ = tessera_mailbox_new(&config, &host);
  }
  ~Harness() {
    tessera_mailbox_free(model_);
    tessera_waits_free(waits_);
  }
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  TesseraMailbox* model() const { return model_; }
  const TesseraWaits* waits() const { return waits_; }
  // As a host does at machine reset: the scratchpads are its memory.
  void ZeroScratchpads() { std::fill(scratch_.begin(), scratch_.end(), 0); }
  const TesseraShape& shape() const { return shape_; }

  uint32_t Id(uint32_t hart) const { return tessera_thread_at(&shape_, hart); }
  uint32_t Hart(const TesseraCoords& c) const {
    return tessera_dense_index(&shape_, tessera_thread_id(&shape_, &c));
  }
  uint32_t HostId() const { return tessera_host_id(&shape_); }
  uint32_t Tile(uint32_t hart) const { return hart >> tessera_tile_shift(&shape_); }
  uint32_t SlotsPerThread() const {
    return TESSERA_SLOTS_PER_TILE / tessera_threads_per_tile(&shape_);
  }
  // Bus address of the n-th slot of a thread (0 = its send slot).
  uint32_t Slot(uint32_t hart, uint32_t n) const {
    const uint32_t in_tile = hart & (tessera_threads_per_tile(&shape_) - 1);
    return TESSERA_SCRATCH_BASE + (in_tile * SlotsPerThread() + n) * TESSERA_BYTES_PER_SLOT;
  }
  uint8_t* Bytes(uint32_t hart, uint32_t bus_address) {
    return TileScratch(Tile(hart)) + (bus_address - TESSERA_SCRATCH_BASE);
  }

  CsrOutcome Csr(uint32_t hart, uint32_t csr, uint32_t value = 0, uint64_t now = 0) {
    CsrOutcome o{};
    o.value = 0xdeadbeef;
    o.resume_at = 0xdeadbeef;
    const TesseraAccess a = tessera_mailbox_csr(model_, hart, csr, value, now);
    o.result = a.status;
    o.value = a.value;
    o.resume_at = a.resume_at;
    o.fault = static_cast<TesseraMailboxFault>(a.code);
    return o;
  }
  // A CSR that must complete.
  CsrOutcome Done(uint32_t hart, uint32_t csr, uint32_t value = 0, uint64_t now = 0) {
    CsrOutcome o = Csr(hart, csr, value, now);
    EXPECT_EQ(o.result, TESSERA_ACCESS_DONE)
        << "hart " << hart << " csr 0x" << std::hex << csr << " value 0x" << value << ": "
        << tessera_mailbox_fault_name(o.fault);
    return o;
  }
  TesseraMailboxFault Fault(uint32_t hart, uint32_t csr, uint32_t value = 0, uint64_t now = 0) {
    CsrOutcome o = Csr(hart, csr, value, now);
    EXPECT_EQ(o.result, TESSERA_ACCESS_FAULT) << "csr 0x" << std::hex << csr;
    EXPECT_EQ(o.value, 0u);
    EXPECT_EQ(o.resume_at, now);
    return o.fault;
  }

  void Give(uint32_t hart, uint32_t n, uint64_t now = 0) {
    Done(hart, TESSERA_CSR_FREE, Slot(hart, n), now);
  }
  void GiveAll(uint32_t hart) {
    for (uint32_t n = 1; n < SlotsPerThread(); n++) {
      Give(hart, n);
    }
  }
  // Fills the sender's send slot with `flits` flits of a pattern, then
  // sends them; returns the SEND outcome.
  CsrOutcome Send(uint32_t hart, uint32_t dest_id, uint32_t flits, uint32_t tag, uint64_t now = 0) {
    Fill(hart, tag, flits);
    Done(hart, TESSERA_CSR_SEND_LEN, flits - 1, now);
    Done(hart, TESSERA_CSR_SEND_PTR, Slot(hart, 0), now);
    return Csr(hart, TESSERA_CSR_SEND, dest_id, now);
  }
  void Fill(uint32_t hart, uint32_t tag, uint32_t flits) {
    uint8_t* p = Bytes(hart, Slot(hart, 0));
    for (uint32_t i = 0; i < flits * TESSERA_BYTES_PER_FLIT; i++) {
      p[i] = static_cast<uint8_t>(tag * 31 + i);
    }
  }
  // Receives one message: returns its first word, checks `flits` flits
  // of the pattern of Fill.
  uint32_t RecvTag(uint32_t hart, uint64_t now = 0, uint64_t* resume_at = nullptr) {
    CsrOutcome o = Done(hart, TESSERA_CSR_RECV, 0, now);
    if (resume_at != nullptr) {
      *resume_at = o.resume_at;
    }
    const uint8_t* p = Bytes(hart, o.value);
    uint32_t tag = 0;
    for (uint32_t t = 0; t < 256; t++) {
      if (p[0] == static_cast<uint8_t>(t * 31)) {
        tag = t;
        break;
      }
    }
    last_recv = o.value;
    return tag;
  }

  std::vector<uint32_t> wakes;
  std::vector<HostMessage> to_host;
  bool host_accepts = true;
  int host_refusals = 0;
  int inject_ready_calls = 0;
  uint32_t last_recv = 0;

 private:
  TesseraShape shape_;
  uint8_t* TileScratch(uint32_t tile) {
    EXPECT_LT(size_t{tile} * TESSERA_SCRATCH_SIZE, scratch_.size());
    return scratch_.data() + size_t{tile} * TESSERA_SCRATCH_SIZE;
  }
  std::vector<uint8_t> scratch_;
  TesseraMailbox* model_ = nullptr;
  TesseraWaits* waits_ = nullptr;
};

// 2x1 boards of 2x1 tiles of 2 cores x 2 threads: 16 harts, 4 tiles.
constexpr TesseraShape kSmall{2, 1, 2, 1, 2, 2};

// ---------------------------------------------------------------------------
// Configuration and reset state
// ---------------------------------------------------------------------------

TEST(MailboxConfig, RefusesWhatTheMachineCannotBe) {
  TesseraMailboxHost host{};
  host.scratchpad = [](void*, uint32_t) -> uint8_t* { return nullptr; };
  host.wake = [](void*, uint32_t) {};
  host.to_host = [](void*, uint32_t, const uint8_t*, uint32_t, uint64_t) { return true; };
  auto accepts = [&](const TesseraShape& shape, uint32_t buffer) {
    const TesseraMailboxConfig config{
        shape, 4, 150, buffer, TESSERA_TERMDET_MASTER_ORIGIN, nullptr, false, nullptr, false};
    TesseraMailbox* m = tessera_mailbox_new(&config, &host);
    tessera_mailbox_free(m);
    return m != nullptr;
  };
  EXPECT_TRUE(accepts(kSmall, 64));
  EXPECT_TRUE(accepts(kSmall, TESSERA_MAX_FLITS));
  EXPECT_FALSE(accepts(kSmall, TESSERA_MAX_FLITS - 1));  // a 4-flit message could never enter
  EXPECT_FALSE(accepts({1, 1, 3, 1, 1, 1}, 64));         // tiles not a power of two
  EXPECT_FALSE(accepts({0, 1, 1, 1, 1, 1}, 64));
  EXPECT_TRUE(accepts({1, 1, 1, 1, 8, 64}, 64));              // 512 threads per tile: 2 slots each
  EXPECT_FALSE(accepts({1, 1, 1, 1, 16, 64}, 64));            // 1,024: no receive slot left
  EXPECT_FALSE(accepts({65535, 65535, 64, 64, 16, 16}, 64));  // ids beyond 32 bits

  const TesseraMailboxConfig config{kSmall,  4,     150,     64,   TESSERA_TERMDET_MASTER_ORIGIN,
                                    nullptr, false, nullptr, false};
  EXPECT_EQ(tessera_mailbox_new(&config, nullptr), nullptr);
  TesseraMailboxHost no_wake = host;
  no_wake.wake = nullptr;
  EXPECT_EQ(tessera_mailbox_new(&config, &no_wake), nullptr);
  TesseraMailboxHost no_host_port = host;
  no_host_port.to_host = nullptr;
  EXPECT_EQ(tessera_mailbox_new(&config, &no_host_port), nullptr);
  // The scratchpads come through a callback or as one block: one of the two.
  TesseraMailboxHost no_scratch = host;
  no_scratch.scratchpad = nullptr;
  no_scratch.scratch = nullptr;
  EXPECT_EQ(tessera_mailbox_new(&config, &no_scratch), nullptr);
  static uint8_t block[4 * TESSERA_SCRATCH_SIZE];
  TesseraMailboxHost block_alone = no_scratch;
  block_alone.scratch = block;
  TesseraMailbox* const m = tessera_mailbox_new(&config, &block_alone);
  EXPECT_NE(m, nullptr);
  tessera_mailbox_free(m);
}

TEST(MailboxSlots, SlotsAreDividedEvenlyAndTheFirstIsTheSendSlot) {
  Harness h(kSmall);
  ASSERT_NE(h.model(), nullptr);
  EXPECT_EQ(tessera_mailbox_slots_per_thread(h.model()), TESSERA_SLOTS_PER_TILE / 4);
  for (uint32_t hart = 0; hart < 16; hart++) {
    // SEND_PTR starts at the thread's send slot: csrrw returns the old value.
    EXPECT_EQ(h.Done(hart, TESSERA_CSR_SEND_PTR, h.Slot(hart, 1)).value, h.Slot(hart, 0));
    EXPECT_EQ(h.Done(hart, TESSERA_CSR_CAN_SEND).value, 1u);
    EXPECT_EQ(h.Done(hart, TESSERA_CSR_CAN_RECV).value, 0u);
    EXPECT_EQ(h.Done(hart, TESSERA_CSR_SEND_LEN, 3).value, 0u);  // one flit by default
    EXPECT_EQ(h.Done(hart, TESSERA_CSR_MBOX_FAULT).value, 0u);
  }
  EXPECT_EQ(h.Slot(3, 0), TESSERA_SCRATCH_BASE + 3 * 256 * 64);
}

TEST(MailboxSlots, AnySlotOfTheCallersTileMayBeGivenAndUsed) {
  Harness h(kSmall);
  // Hart 0 gives a slot from hart 1's range and gets its message in it.
  h.Done(0, TESSERA_CSR_FREE, h.Slot(1, 5));
  ASSERT_EQ(h.Send(2, h.Id(0), 1, 7).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(h.RecvTag(0), 7u);
  EXPECT_EQ(h.last_recv, h.Slot(1, 5));
}

// ---------------------------------------------------------------------------
// Delivery
// ---------------------------------------------------------------------------

TEST(MailboxDelivery, PingPongAcrossBoards) {
  Harness h(kSmall);
  const uint32_t a = 0, b = 15;  // board 0 tile 0, board 1 tile 1
  h.GiveAll(a);
  h.GiveAll(b);
  const uint64_t latency = tessera_mailbox_latency(h.model(), h.Id(a), h.Id(b), 1);
  EXPECT_EQ(latency, 2 * kTileHop + kL);  // gx 0 -> 3: tile, board, tile
  uint64_t t = 100;
  for (uint32_t round = 0; round < 5; round++) {
    ASSERT_EQ(h.Send(a, h.Id(b), 1, round, t).result, TESSERA_ACCESS_DONE);
    uint64_t at = 0;
    EXPECT_EQ(h.RecvTag(b, t, &at), round);
    EXPECT_EQ(at, t + latency);
    h.Done(b, TESSERA_CSR_FREE, h.last_recv, at);
    ASSERT_EQ(h.Send(b, h.Id(a), 1, round + 100, at).result, TESSERA_ACCESS_DONE);
    EXPECT_EQ(h.RecvTag(a, t, &t), round + 100);
    EXPECT_EQ(t, at + latency);
    h.Done(a, TESSERA_CSR_FREE, h.last_recv, t);
  }
}

// With windows, a message to another board waits at its board's edge until the exchange, then
// arrives as if it had entered the network when it was sent; its sender goes on meanwhile.
TEST(MailboxWindows, AMessageToAnotherBoardWaitsForTheExchange) {
  Harness h(kSmall, 64, kTileHop, kL, true);
  const uint32_t a = 0, b = 15, c = 1;  // a, c: board 0; b: board 1
  h.GiveAll(b);
  h.GiveAll(c);
  const uint64_t latency = tessera_mailbox_latency(h.model(), h.Id(a), h.Id(b), 1);
  ASSERT_EQ(h.Send(a, h.Id(b), 1, 5, 100).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(tessera_mailbox_outbox_count(h.model()), 1u);
  EXPECT_FALSE(tessera_mailbox_can_recv(h.model(), b));
  EXPECT_EQ(h.Done(a, TESSERA_CSR_CAN_SEND).value, 1u);
  ASSERT_EQ(h.Send(a, h.Id(b), 1, 7, 120).result, TESSERA_ACCESS_DONE);
  // Within its board a message goes at once.
  ASSERT_EQ(h.Send(c, h.Id(c), 1, 6, 100).result, TESSERA_ACCESS_DONE);
  EXPECT_TRUE(tessera_mailbox_can_recv(h.model(), c));

  EXPECT_EQ(tessera_mailbox_exchange(h.model(), 150), 2u);
  EXPECT_EQ(tessera_mailbox_outbox_count(h.model()), 0u);
  uint64_t at = 0;
  EXPECT_EQ(h.RecvTag(b, 0, &at), 5u);
  EXPECT_EQ(at, 100 + latency);
  h.Done(b, TESSERA_CSR_FREE, h.last_recv, at);
  EXPECT_EQ(h.RecvTag(b, at, &at), 7u);
  EXPECT_EQ(at, 120 + latency);
  EXPECT_EQ(tessera_mailbox_exchange(h.model(), 150), 0u);
}

// The exchange enters messages by send time, then sending hart: what the receiver sees does not
// depend on the order in which the senders ran on the host.
TEST(MailboxWindows, TheExchangeOrderIsModelledTimeNotHostOrder) {
  auto run = [](bool reversed) {
    Harness h(kSmall, 64, kTileHop, kL, true);
    const uint32_t receiver = 15;
    const uint32_t senders[] = {0, 1, 2, 3};  // board 0, all to board 1
    const uint64_t times[] = {400, 100, 100, 250};
    h.Give(receiver, 1);
    h.Give(receiver, 2);
    for (uint32_t i = 0; i < 4; i++) {
      const uint32_t k = reversed ? 3 - i : i;
      EXPECT_EQ(h.Send(senders[k], h.Id(receiver), 1, 10 + k, times[k]).result,
                TESSERA_ACCESS_DONE);
    }
    EXPECT_EQ(tessera_mailbox_exchange(h.model(), 150), 4u);
    std::vector<uint32_t> tags;
    uint64_t at = 0;
    for (uint32_t n = 0; n < 4; n++) {
      tags.push_back(h.RecvTag(receiver, at, &at));
      h.Done(receiver, TESSERA_CSR_FREE, h.last_recv, at);
    }
    return tags;
  };
  const std::vector<uint32_t> expected{11, 12, 13, 10};  // 100 (hart 1), 100 (hart 2), 250, 400
  EXPECT_EQ(run(false), expected);
  EXPECT_EQ(run(true), expected);
}

// A board's egress holds buffer_flits toward each mailbox of another board: a send beyond that
// waits in its sender's register, as for a full mailbox. A message that finds its mailbox full at
// the exchange stays at the egress until the next one; nothing is lost, and a thread's can-send
// changes only with its own sends and their admission.
TEST(MailboxWindows, TheEgressHoldsBufferFlitsTowardEachMailbox) {
  Harness h(kSmall, 4, kTileHop, kL, true);
  const uint32_t a = 0, b = 15, c = 14;  // a: board 0; b and c share a tile on board 1
  ASSERT_EQ(h.Send(c, h.Id(b), 4, 1, 10).result, TESSERA_ACCESS_DONE);  // fills b's mailbox
  ASSERT_EQ(h.Send(a, h.Id(b), 1, 2, 20).result, TESSERA_ACCESS_DONE);
  EXPECT_TRUE(tessera_mailbox_can_send(h.model(), a));
  EXPECT_EQ(tessera_mailbox_exchange(h.model(), 150), 0u);  // no room: stays at the egress
  EXPECT_EQ(tessera_mailbox_outbox_count(h.model()), 1u);
  EXPECT_TRUE(tessera_mailbox_can_send(h.model(), a));
  ASSERT_EQ(h.Send(a, h.Id(b), 3, 3, 160).result, TESSERA_ACCESS_DONE);  // 1 + 3 = 4 flits
  EXPECT_TRUE(tessera_mailbox_can_send(h.model(), a));
  ASSERT_EQ(h.Send(a, h.Id(b), 1, 4, 170).result, TESSERA_ACCESS_DONE);  // beyond: waits
  EXPECT_FALSE(tessera_mailbox_can_send(h.model(), a));
  EXPECT_EQ(h.Csr(a, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_SEND, 180).result,
            TESSERA_ACCESS_BLOCKED);

  h.GiveAll(b);
  EXPECT_EQ(h.RecvTag(b), 1u);
  h.Done(b, TESSERA_CSR_FREE, h.last_recv, 200);  // room in b's mailbox again
  h.wakes.clear();
  EXPECT_EQ(tessera_mailbox_exchange(h.model(), 300), 2u);
  EXPECT_EQ(h.wakes, std::vector<uint32_t>{a});  // its message is at the egress now
  const CsrOutcome resumed = h.Done(a, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_SEND, 180);
  EXPECT_EQ(resumed.resume_at, 300u);
  EXPECT_EQ(tessera_mailbox_exchange(h.model(), 450), 1u);
  EXPECT_EQ(tessera_mailbox_outbox_count(h.model()), 0u);
  uint64_t at = 0;
  EXPECT_EQ(h.RecvTag(b, 0, &at), 2u);
  EXPECT_GE(at, 150u + kL);  // it left the egress at the exchange that found room
  h.Done(b, TESSERA_CSR_FREE, h.last_recv, at);
  EXPECT_EQ(h.RecvTag(b, at, &at), 3u);
  h.Done(b, TESSERA_CSR_FREE, h.last_recv, at);
  EXPECT_EQ(h.RecvTag(b, at, &at), 4u);
  EXPECT_GE(at, 300u + kL);
}

// A reset forgets what waits for the exchange.
TEST(MailboxWindows, AResetEmptiesTheOutbox) {
  Harness h(kSmall, 64, kTileHop, kL, true);
  ASSERT_EQ(h.Send(0, h.Id(15), 1, 1, 10).result, TESSERA_ACCESS_DONE);
  tessera_mailbox_reset(h.model());
  EXPECT_EQ(tessera_mailbox_outbox_count(h.model()), 0u);
  EXPECT_EQ(tessera_mailbox_exchange(h.model(), 150), 0u);
  EXPECT_TRUE(tessera_mailbox_can_send(h.model(), 0));
}

// The machine over two processes (ranks): each models one board of kSmall, and the exchange
// carries messages and egress room between them (tessera/models/mailbox.h, "The exchange over
// several processes"). Whatever the threads do, each process sees what one process modelling
// both boards sees.
class TwoRanks {
 public:
  explicit TwoRanks(uint32_t buffer_flits)
      : rank0_(kSmall, buffer_flits, kTileHop, kL, true, kBoard0),
        rank1_(kSmall, buffer_flits, kTileHop, kL, true, kBoard1) {}

  // The harness of the process that models hart's board (8 harts a board).
  Harness& Of(uint32_t hart) { return hart < 8 ? rank0_ : rank1_; }

  // Steps 1 to 5 of the exchange on both processes; returns how many messages entered.
  uint32_t Exchange(uint64_t at) {
    std::vector<TesseraMailboxTransit> to0, to1;
    auto keep = [](void* out, const TesseraMailboxTransit* t) {
      static_cast<std::vector<TesseraMailboxTransit>*>(out)->push_back(*t);
    };
    tessera_mailbox_take_leaving(rank0_.model(), keep, &to1);
    tessera_mailbox_take_leaving(rank1_.model(), keep, &to0);
    for (const auto& t : to0) {
      EXPECT_TRUE(tessera_mailbox_arrive(rank0_.model(), &t));
    }
    for (const auto& t : to1) {
      EXPECT_TRUE(tessera_mailbox_arrive(rank1_.model(), &t));
    }
    std::vector<TesseraMailboxCredit> credits0, credits1;
    auto credit = [](void* out, const TesseraMailboxCredit* c) {
      static_cast<std::vector<TesseraMailboxCredit>*>(out)->push_back(*c);
    };
    // Credits go back to the process of the message's board: board 0 is rank 0's.
    uint32_t entered = tessera_mailbox_exchange_admit(rank0_.model(), at, credit, &credits1);
    entered += tessera_mailbox_exchange_admit(rank1_.model(), at, credit, &credits0);
    for (const auto& c : credits0) {
      EXPECT_TRUE(tessera_mailbox_credit(rank0_.model(), &c));
    }
    for (const auto& c : credits1) {
      EXPECT_TRUE(tessera_mailbox_credit(rank1_.model(), &c));
    }
    tessera_mailbox_exchange_refill(rank0_.model(), at);
    tessera_mailbox_exchange_refill(rank1_.model(), at);
    return entered;
  }

 private:
  static constexpr bool kBoard0[2] = {true, false};
  static constexpr bool kBoard1[2] = {false, true};
  Harness rank0_, rank1_;
};

// What one scenario shows: every receive (tag, time), every wake, can-send after each step.
struct Seen {
  std::vector<uint64_t> events;
  bool operator==(const Seen& o) const { return events == o.events; }
};

// A scenario of sends both ways through full mailboxes and egresses, on one process (`one`) or
// two: `of(hart)` is the harness that models hart, `exchange(at)` ends a window.
template <typename Of, typename ExchangeFn>
Seen RunScenario(Of of, ExchangeFn exchange) {
  Seen seen;
  const uint32_t a = 0, b = 15, c = 14, d = 9;  // a: board 0; b, c share a tile; d: board 1
  auto note = [&](uint64_t v) { seen.events.push_back(v); };
  auto sends = [&](uint32_t hart) { note(tessera_mailbox_can_send(of(hart).model(), hart)); };
  EXPECT_EQ(of(c).Send(c, of(c).Id(b), 4, 1, 10).result, TESSERA_ACCESS_DONE);  // fills b
  EXPECT_EQ(of(a).Send(a, of(a).Id(b), 1, 2, 20).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(of(d).Send(d, of(d).Id(a), 2, 9, 30).result, TESSERA_ACCESS_DONE);
  note(exchange(150));
  sends(a);
  EXPECT_EQ(of(a).Send(a, of(a).Id(b), 3, 3, 160).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(of(a).Send(a, of(a).Id(b), 1, 4, 170).result, TESSERA_ACCESS_DONE);  // waits
  sends(a);
  of(a).GiveAll(a);
  of(b).GiveAll(b);
  uint64_t at = 0;
  note(of(b).RecvTag(b, 0, &at));
  note(at);
  of(b).Done(b, TESSERA_CSR_FREE, of(b).last_recv, 200);
  note(exchange(300));
  sends(a);
  note(exchange(450));
  for (uint32_t n = 0; n < 3; n++) {
    note(of(b).RecvTag(b, at, &at));
    note(at);
    of(b).Done(b, TESSERA_CSR_FREE, of(b).last_recv, at);
  }
  note(of(a).RecvTag(a, 0, &at));
  note(at);
  for (uint32_t hart : {a, b, c, d}) {
    const TesseraMailboxCounts counts = tessera_mailbox_thread_counts(of(hart).model(), hart);
    note(counts.received);
  }
  return seen;
}

TEST(MailboxRanks, TwoProcessesSeeWhatOneSees) {
  Harness one(kSmall, 4, kTileHop, kL, true);
  const Seen reference =
      RunScenario([&](uint32_t) -> Harness& { return one; },
                  [&](uint64_t at) { return tessera_mailbox_exchange(one.model(), at); });
  TwoRanks two(4);
  const Seen ranked = RunScenario([&](uint32_t hart) -> Harness& { return two.Of(hart); },
                                  [&](uint64_t at) { return two.Exchange(at); });
  EXPECT_EQ(ranked.events, reference.events);
  ASSERT_GE(reference.events.size(), 12u);
  EXPECT_EQ(reference.events[0], 1u);  // the first exchange: d's message in, a's refused
}

// What another process sends is checked: a message or credit that names no local board, tile or
// thread, or more room than the egress holds, is refused and changes nothing.
TEST(MailboxRanks, ArrivalsAndCreditsAreChecked) {
  static constexpr bool kBoard1[2] = {false, true};
  Harness h(kSmall, 64, kTileHop, kL, true, kBoard1);
  TesseraMailboxTransit t{};
  t.src_hart = 0;  // board 0, another process's
  t.dest_tile = 3;
  t.dest_board = 1;
  t.flits = 1;
  EXPECT_TRUE(tessera_mailbox_arrive(h.model(), &t));
  TesseraMailboxTransit bad = t;
  bad.dest_tile = 1;  // board 0's tile
  bad.dest_board = 0;
  EXPECT_FALSE(tessera_mailbox_arrive(h.model(), &bad));
  bad = t;
  bad.dest_board = 0;  // disagrees with the tile
  EXPECT_FALSE(tessera_mailbox_arrive(h.model(), &bad));
  bad = t;
  bad.src_hart = 8;  // a local sender cannot come from elsewhere
  EXPECT_FALSE(tessera_mailbox_arrive(h.model(), &bad));
  bad = t;
  bad.flits = TESSERA_MAX_FLITS + 1;
  EXPECT_FALSE(tessera_mailbox_arrive(h.model(), &bad));
  bad = t;
  bad.dest_thread = 4;  // 4 threads a tile
  EXPECT_FALSE(tessera_mailbox_arrive(h.model(), &bad));
  bad = t;
  bad.mask = 1u << 4;
  EXPECT_FALSE(tessera_mailbox_arrive(h.model(), &bad));
  bad = t;
  bad.dest_tile = 99;
  EXPECT_FALSE(tessera_mailbox_arrive(h.model(), &bad));
  EXPECT_EQ(tessera_mailbox_outbox_count(h.model()), 1u);

  const TesseraMailboxCredit to_other{0, 3, 1};  // board 0 is not this process's
  EXPECT_FALSE(tessera_mailbox_credit(h.model(), &to_other));
  const TesseraMailboxCredit too_much{1, 0, 1};  // board 1's egress holds nothing
  EXPECT_FALSE(tessera_mailbox_credit(h.model(), &too_much));
  const TesseraMailboxCredit no_tile{1, 99, 0};
  EXPECT_FALSE(tessera_mailbox_credit(h.model(), &no_tile));
}

TEST(MailboxDelivery, OneToFourFlitsArriveWholeAndNothingMore) {
  Harness h(kSmall);
  h.GiveAll(5);
  for (uint32_t flits = 1; flits <= 4; flits++) {
    std::memset(h.Bytes(5, h.Slot(5, flits)), 0xee, TESSERA_BYTES_PER_SLOT);
    ASSERT_EQ(h.Send(0, h.Id(5), flits, 40 + flits).result, TESSERA_ACCESS_DONE);
    const uint32_t slot = h.Done(5, TESSERA_CSR_RECV).value;
    ASSERT_EQ(slot, h.Slot(5, flits));  // given slots are used in FIFO order
    const uint8_t* p = h.Bytes(5, slot);
    for (uint32_t i = 0; i < TESSERA_BYTES_PER_SLOT; i++) {
      if (i < flits * TESSERA_BYTES_PER_FLIT) {
        ASSERT_EQ(p[i], static_cast<uint8_t>((40 + flits) * 31 + i)) << "byte " << i;
      } else {
        ASSERT_EQ(p[i], 0xee) << "byte " << i << " beyond " << flits << " flits";
      }
    }
  }
}

TEST(MailboxDelivery, TheMessageIsCopiedAtSendTime) {
  Harness h(kSmall);
  h.GiveAll(1);
  ASSERT_EQ(h.Send(0, h.Id(1), 1, 3).result, TESSERA_ACCESS_DONE);
  h.Fill(0, 9, 4);  // scribble over the send slot straight after
  EXPECT_EQ(h.RecvTag(1), 3u);
}

TEST(MailboxDelivery, InOrderPerSenderReceiverPairUnderInterleaving) {
  Harness h(kSmall, 16);
  const uint32_t receiver = 12;
  const std::vector<uint32_t> senders{0, 1, 6, 13};
  std::map<uint32_t, uint32_t> next_expected;  // tag high byte = sender position
  std::map<uint32_t, uint32_t> next_to_send;
  // The receiver gives only two slots at a time: most messages wait in the
  // network, senders stall and resume.
  h.Give(receiver, 1);
  h.Give(receiver, 2);
  uint64_t now = 0;
  uint32_t received = 0;
  std::mt19937 random(7);
  while (received < senders.size() * 20) {
    const uint32_t pick = random() % (senders.size() + 1);
    now += 3;
    if (pick < senders.size()) {
      const uint32_t s = senders[pick];
      if (next_to_send[pick] < 20 && h.Done(s, TESSERA_CSR_CAN_SEND).value == 1) {
        const uint32_t tag = pick * 20 + next_to_send[pick]++;
        ASSERT_EQ(h.Send(s, h.Id(receiver), 1 + tag % 4, tag, now).result, TESSERA_ACCESS_DONE);
      }
      continue;
    }
    if (h.Done(receiver, TESSERA_CSR_CAN_RECV).value == 1) {
      const uint32_t tag = h.RecvTag(receiver, now);
      const uint32_t from = tag / 20;
      ASSERT_LT(from, senders.size());
      EXPECT_EQ(tag % 20, next_expected[from]++) << "from sender " << from;
      h.Done(receiver, TESSERA_CSR_FREE, h.last_recv, now);
      received++;
    }
  }
  EXPECT_EQ(h.Done(receiver, TESSERA_CSR_CAN_RECV).value, 0u);
}

// Host threads run in any order: a message sent later on the host may have reached the mailbox
// earlier in modelled time. RECV takes the message that arrived first in modelled time, so that
// a receiver's clock jumps only as far as the message it takes (a thread that took a later one
// first would have its clock pulled ahead of the machine it models).
TEST(MailboxDelivery, RecvTakesTheEarliestArrivalInModelledTimeNotInHostOrder) {
  Harness h(kSmall);
  const uint32_t receiver = 0, late = 1, early = 2;  // all on tile 0: no latency
  h.GiveAll(receiver);
  ASSERT_EQ(h.Send(late, h.Id(receiver), 1, 7, 900).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.Send(early, h.Id(receiver), 1, 8, 100).result, TESSERA_ACCESS_DONE);
  uint64_t at = 0;
  EXPECT_EQ(h.RecvTag(receiver, 50, &at), 8u);
  EXPECT_EQ(at, 100u);
  h.Done(receiver, TESSERA_CSR_FREE, h.last_recv, at);
  EXPECT_EQ(h.RecvTag(receiver, at, &at), 7u);
  EXPECT_EQ(at, 900u);
}

// A pair's messages stay in order even when the first had to wait for a slot and so became
// receivable later than the second's arrival.
TEST(MailboxDelivery, APairsMessagesStayInOrderWhateverTheirTimes) {
  Harness h(kSmall);
  const uint32_t receiver = 0, sender = 1;
  h.Give(receiver, 1);  // one slot only
  ASSERT_EQ(h.Send(sender, h.Id(receiver), 1, 1, 10).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.Send(sender, h.Id(receiver), 1, 2, 20).result, TESSERA_ACCESS_DONE);  // waits
  uint64_t at = 0;
  EXPECT_EQ(h.RecvTag(receiver, 500, &at), 1u);
  h.Done(receiver, TESSERA_CSR_FREE, h.last_recv, at);  // message 2 now, at 500
  ASSERT_EQ(h.Send(sender, h.Id(receiver), 1, 3, 30).result, TESSERA_ACCESS_DONE);
  h.Give(receiver, 2);  // message 3 arrives at 30, earlier than message 2's 500
  EXPECT_EQ(h.RecvTag(receiver, at, &at), 2u);
  h.Done(receiver, TESSERA_CSR_FREE, h.last_recv, at);
  EXPECT_EQ(h.RecvTag(receiver, at, &at), 3u);
}

TEST(MailboxDelivery, MessagesToItselfAndWithinATileCostNothing) {
  Harness h(kSmall);
  h.GiveAll(0);
  ASSERT_EQ(h.Send(0, h.Id(0), 2, 5, 77).result, TESSERA_ACCESS_DONE);
  uint64_t at = 0;
  EXPECT_EQ(h.RecvTag(0, 77, &at), 5u);
  EXPECT_EQ(at, 77u);
  EXPECT_EQ(tessera_mailbox_latency(h.model(), h.Id(0), h.Id(3), 4), 0u);
}

TEST(MailboxDelivery, MulticastReachesExactlyTheThreadsOfTheMask) {
  Harness h({1, 1, 2, 1, 4, 16});                  // 64 threads per tile: the whole mask
  const uint32_t sender = 70;                      // tile 1
  const uint64_t mask = 0x8000'0001'0000'0006ull;  // threads 1, 2, 32, 63 of tile 0
  for (uint32_t t = 0; t < 64; t++) {
    h.Give(t, 1);
  }
  h.Fill(sender, 11, 2);
  h.Done(sender, TESSERA_CSR_SEND_LEN, 1);
  h.Done(sender, TESSERA_CSR_MCAST_HI, static_cast<uint32_t>(mask >> 32));
  h.Done(sender, TESSERA_CSR_MCAST_LO, static_cast<uint32_t>(mask));
  ASSERT_EQ(h.Done(sender, TESSERA_CSR_MCAST_SEND, 0 /* mailbox of tile 0 */, 10).result,
            TESSERA_ACCESS_DONE);
  for (uint32_t t = 0; t < 64; t++) {
    const bool chosen = (mask >> t) & 1;
    ASSERT_EQ(h.Done(t, TESSERA_CSR_CAN_RECV).value, chosen ? 1u : 0u) << "thread " << t;
    if (chosen) {
      uint64_t at = 0;
      EXPECT_EQ(h.RecvTag(t, 0, &at), 11u);
      EXPECT_EQ(at, 10u + kTileHop);
    }
  }
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), sender).sent, 4u);
  // The mask registers keep their value; an empty mask sends nothing.
  EXPECT_EQ(h.Done(sender, TESSERA_CSR_MCAST_HI, 0).value, static_cast<uint32_t>(mask >> 32));
  EXPECT_EQ(h.Done(sender, TESSERA_CSR_MCAST_LO, 0).value, static_cast<uint32_t>(mask));
  h.Done(sender, TESSERA_CSR_MCAST_SEND, 0);
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), sender).sent, 4u);
}

TEST(MailboxDelivery, MulticastWaitsForEachReceiversSlot) {
  Harness h(kSmall);  // 4 threads per tile
  h.Give(1, 1);       // thread 1 is ready; thread 2 is not yet
  h.Done(8, TESSERA_CSR_MCAST_LO, 0b0110);
  h.Fill(8, 21, 1);
  h.Done(8, TESSERA_CSR_MCAST_SEND, 0, 0);
  EXPECT_EQ(h.RecvTag(1), 21u);
  EXPECT_EQ(h.Done(2, TESSERA_CSR_CAN_RECV).value, 0u);
  h.Give(2, 1, 5000);
  uint64_t at = 0;
  EXPECT_EQ(h.RecvTag(2, 0, &at), 21u);
  EXPECT_EQ(at, 5000u);  // receivable once the slot was there
}

// ---------------------------------------------------------------------------
// Back-pressure
// ---------------------------------------------------------------------------

TEST(MailboxBackPressure, SenderStallsAfterBufferFlitsAndNothingIsLost) {
  constexpr uint32_t kBuffer = 16;
  Harness h(kSmall, kBuffer);
  const uint32_t sender = 0, receiver = 9;  // other board
  uint32_t sent = 0;
  // Two-flit messages: eight fit in the network, the ninth waits in the
  // sender's outbound register.
  for (; sent < kBuffer / 2; sent++) {
    ASSERT_EQ(h.Send(sender, h.Id(receiver), 2, sent, sent).result, TESSERA_ACCESS_DONE);
    ASSERT_EQ(h.Done(sender, TESSERA_CSR_CAN_SEND).value, 1u) << "after " << sent + 1;
  }
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), sender).sent, kBuffer / 2);
  ASSERT_EQ(h.Send(sender, h.Id(receiver), 2, sent, 100).result, TESSERA_ACCESS_DONE);
  sent++;
  EXPECT_EQ(h.Done(sender, TESSERA_CSR_CAN_SEND).value, 0u);
  EXPECT_FALSE(tessera_mailbox_can_send(h.model(), sender));
  // Held, not yet in the network.
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), sender).sent, kBuffer / 2);
  EXPECT_EQ(h.Send(sender, h.Id(receiver), 1, 99, 101).fault, TESSERA_FAULT_SEND_BUSY);
  ASSERT_EQ(h.Csr(sender, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_SEND, 102).result,
            TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(tessera_mailbox_waiting(h.model(), sender), TESSERA_WAIT_CAN_SEND);
  EXPECT_TRUE(h.wakes.empty());

  // The receiver starts late: its first slot delivers the oldest message,
  // which frees two flits: the held one enters and the sender wakes.
  h.Give(receiver, 1, 10000);
  EXPECT_EQ(h.wakes, std::vector<uint32_t>{sender});
  EXPECT_EQ(tessera_mailbox_waiting(h.model(), sender), 0u);
  const CsrOutcome resumed = h.Done(sender, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_SEND, 102);
  EXPECT_EQ(resumed.value, TESSERA_WAIT_CAN_SEND);
  EXPECT_EQ(resumed.resume_at, 10000u);  // can-send became true when room appeared
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), sender).sent, kBuffer / 2 + 1);

  for (uint32_t n = 2; n < h.SlotsPerThread(); n++) {
    h.Give(receiver, n, 10000);
  }
  for (uint32_t i = 0; i < sent; i++) {
    ASSERT_EQ(h.Done(receiver, TESSERA_CSR_CAN_RECV).value, 1u) << "message " << i;
    EXPECT_EQ(h.RecvTag(receiver, 10000), i);
  }
  EXPECT_EQ(h.Done(receiver, TESSERA_CSR_CAN_RECV).value, 0u);
}

TEST(MailboxBackPressure, BlockedSendersEnterInFifoOrder) {
  Harness h(kSmall, 4);
  const uint32_t receiver = 4;
  ASSERT_EQ(h.Send(0, h.Id(receiver), 4, 1).result, TESSERA_ACCESS_DONE);  // fills the buffer
  ASSERT_EQ(h.Send(8, h.Id(receiver), 4, 2).result, TESSERA_ACCESS_DONE);  // held
  ASSERT_EQ(h.Send(1, h.Id(receiver), 1, 3).result, TESSERA_ACCESS_DONE);  // held behind it
  ASSERT_EQ(h.Send(12, h.Id(5), 1, 4).result, TESSERA_ACCESS_DONE);  // same mailbox, other thread
  EXPECT_EQ(h.Done(8, TESSERA_CSR_CAN_SEND).value, 0u);
  EXPECT_EQ(h.Done(1, TESSERA_CSR_CAN_SEND).value, 0u);
  EXPECT_EQ(h.Done(12, TESSERA_CSR_CAN_SEND).value, 0u);  // the mailbox's buffer is shared
  h.Give(receiver, 1);  // delivers 1; 2 takes the whole buffer again
  EXPECT_EQ(h.Done(8, TESSERA_CSR_CAN_SEND).value, 1u);
  EXPECT_EQ(h.Done(1, TESSERA_CSR_CAN_SEND).value, 0u);
  h.Give(receiver, 2);  // delivers 2; 3 and 4 both fit
  EXPECT_EQ(h.Done(1, TESSERA_CSR_CAN_SEND).value, 1u);
  EXPECT_EQ(h.Done(12, TESSERA_CSR_CAN_SEND).value, 1u);
  h.Give(receiver, 3);
  h.Give(5, 1);
  EXPECT_EQ(h.RecvTag(receiver), 1u);
  EXPECT_EQ(h.RecvTag(receiver), 2u);
  EXPECT_EQ(h.RecvTag(receiver), 3u);
  EXPECT_EQ(h.RecvTag(5), 4u);
}

TEST(MailboxBackPressure, AReceiverThatNeverGivesSlotsStallsOnlyItsMailbox) {
  Harness h(kSmall, 8);
  h.GiveAll(8);
  for (uint32_t i = 0; i < 3; i++) {
    ASSERT_EQ(h.Send(0, h.Id(4), 4, i).result, TESSERA_ACCESS_DONE);
  }
  EXPECT_EQ(h.Done(0, TESSERA_CSR_CAN_SEND).value, 0u);
  // Another mailbox is unaffected.
  ASSERT_EQ(h.Send(1, h.Id(8), 4, 7).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(h.Done(1, TESSERA_CSR_CAN_SEND).value, 1u);
  EXPECT_EQ(h.RecvTag(8), 7u);
}

// ---------------------------------------------------------------------------
// Modelled time
// ---------------------------------------------------------------------------

TEST(MailboxTime, LatencyOnAThreeByThreeMeshWithL150) {
  // 3x3 boards of 2x2 tiles, one thread per tile.
  Harness h({3, 3, 2, 2, 1, 1});
  auto id = [&](uint32_t bx, uint32_t by, uint32_t tx, uint32_t ty) {
    const TesseraCoords c{bx, by, tx, ty, 0, 0};
    return tessera_thread_id(&h.shape(), &c);
  };
  auto latency = [&](uint32_t a, uint32_t b) {
    return tessera_mailbox_latency(h.model(), a, b, 1);
  };
  const uint32_t origin = id(0, 0, 0, 0);
  EXPECT_EQ(latency(origin, origin), 0u);                                   // same tile
  EXPECT_EQ(latency(origin, id(0, 0, 1, 0)), kTileHop);                     // neighbour tile
  EXPECT_EQ(latency(origin, id(0, 0, 1, 1)), 2 * kTileHop);                 // same board, far tile
  EXPECT_EQ(latency(id(0, 0, 1, 0), id(1, 0, 0, 0)), kL);                   // across one board edge
  EXPECT_EQ(latency(origin, id(1, 0, 0, 0)), kTileHop + kL);                // other board
  EXPECT_EQ(latency(origin, id(2, 2, 1, 1)), 2 * (3 * kTileHop + 2 * kL));  // far corner
  EXPECT_EQ(latency(id(2, 2, 1, 1), origin), latency(origin, id(2, 2, 1, 1)));
  EXPECT_EQ(latency(h.HostId(), origin), kL);
  EXPECT_EQ(latency(id(2, 2, 1, 1), h.HostId()), 2 * (3 * kTileHop + 2 * kL) + kL);
  EXPECT_EQ(latency(origin, h.HostId() + 1), UINT64_MAX);

  // One thread per board: the far corner is four board hops.
  Harness boards({3, 3, 1, 1, 1, 1});
  const TesseraCoords far{2, 2, 0, 0, 0, 0};
  EXPECT_EQ(tessera_mailbox_latency(boards.model(), 0, tessera_thread_id(&boards.shape(), &far), 4),
            4 * kL);
}

TEST(MailboxTime, UncontendedArrivalIsSendTimePlusLatencyForEveryPair) {
  Harness h({3, 3, 2, 2, 1, 1});
  const uint32_t n = tessera_num_threads(&h.shape());
  for (uint32_t dest = 0; dest < n; dest++) {
    h.Give(dest, 1);
  }
  for (uint32_t dest = 0; dest < n; dest++) {
    const uint64_t t = 1000 * (dest + 1);  // far apart: no contention
    ASSERT_EQ(h.Send(0, h.Id(dest), 1, dest % 200, t).result, TESSERA_ACCESS_DONE);
    uint64_t at = 0;
    h.RecvTag(dest, 0, &at);
    EXPECT_EQ(at, t + tessera_mailbox_latency(h.model(), 0, h.Id(dest), 1)) << "to hart " << dest;
  }
}

TEST(MailboxTime, LinksSerialiseMessagesFlitByFlit) {
  Harness h(kSmall);
  const uint32_t a = 0, b = 1, dest = 8;  // same tile -> tile 0 of board 1
  h.GiveAll(dest);
  const uint64_t latency = tessera_mailbox_latency(h.model(), h.Id(a), h.Id(dest), 4);
  ASSERT_EQ(h.Send(a, h.Id(dest), 4, 1, 100).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.Send(b, h.Id(dest), 4, 2, 100).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.Send(b, h.Id(dest), 1, 3, 150).result, TESSERA_ACCESS_DONE);  // link long free
  uint64_t first = 0, second = 0, third = 0;
  EXPECT_EQ(h.RecvTag(dest, 0, &first), 1u);
  EXPECT_EQ(h.RecvTag(dest, 0, &second), 2u);
  EXPECT_EQ(h.RecvTag(dest, 0, &third), 3u);
  EXPECT_EQ(first, 100 + latency);
  EXPECT_EQ(second, 100 + latency + 4);  // waited 4 cycles for the first link
  EXPECT_EQ(third, 150 + latency);
  // A message that is earlier in modelled time never waits for a later one.
  ASSERT_EQ(h.Send(a, h.Id(dest), 1, 4, 120).result, TESSERA_ACCESS_DONE);
  uint64_t fourth = 0;
  h.RecvTag(dest, 0, &fourth);
  EXPECT_EQ(fourth, 120 + latency);
}

TEST(MailboxTime, ReceiveResumesAtArrivalOrNow) {
  Harness h(kSmall);
  h.GiveAll(9);
  ASSERT_EQ(h.Send(0, h.Id(9), 1, 1, 500).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.Send(0, h.Id(9), 1, 2, 510).result, TESSERA_ACCESS_DONE);
  const uint64_t latency = tessera_mailbox_latency(h.model(), h.Id(0), h.Id(9), 1);
  uint64_t at = 0;
  h.RecvTag(9, 0, &at);  // the receiver's clock is behind: it jumps
  EXPECT_EQ(at, 500 + latency);
  h.RecvTag(9, 99999, &at);  // ahead: it stays
  EXPECT_EQ(at, 99999u);
}

TEST(MailboxTime, IdenticalCallSequencesGiveIdenticalResultsAndTimes) {
  auto run = [](uint32_t seed) {
    Harness h({2, 2, 2, 1, 2, 2}, 8);
    const uint32_t n = tessera_num_threads(&h.shape());
    std::vector<uint64_t> clock(n, 0);
    std::mt19937 random(seed);
    std::ostringstream trace;
    for (uint32_t hart = 0; hart < n; hart++) {
      for (uint32_t k = 1; k < 4; k++) {
        h.Give(hart, k);
      }
    }
    for (int step = 0; step < 4000; step++) {
      const uint32_t hart = random() % n;
      clock[hart] += 1 + random() % 50;
      CsrOutcome o{};
      switch (random() % 4) {
        case 0:
        case 1:
          if (h.Done(hart, TESSERA_CSR_CAN_SEND).value) {
            o = h.Send(hart, h.Id(random() % n), 1 + random() % 4, random() % 200, clock[hart]);
          }
          break;
        case 2:
          if (h.Done(hart, TESSERA_CSR_CAN_RECV).value) {
            o = h.Done(hart, TESSERA_CSR_RECV, 0, clock[hart]);
            clock[hart] = o.resume_at;
            h.Done(hart, TESSERA_CSR_FREE, o.value, clock[hart]);
          }
          break;
        default:
          o = h.Csr(hart, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV, clock[hart]);
          if (o.result == TESSERA_ACCESS_DONE) {
            clock[hart] = o.resume_at;
          }
          break;
      }
      trace << o.result << ' ' << o.value << ' ' << o.resume_at << ';';
    }
    for (uint32_t w : h.wakes) {
      trace << 'w' << w;
    }
    for (uint32_t b = 0; b < 4; b++) {
      const TesseraMailboxCounts c = tessera_mailbox_board_counts(h.model(), b);
      trace << 'c' << c.sent << '/' << c.received;
    }
    return trace.str();
  };
  const std::string first = run(1);
  EXPECT_EQ(first, run(1));
  EXPECT_NE(first, run(2));  // the trace does depend on what happened
}

// ---------------------------------------------------------------------------
// Faults: each one traps, changes nothing but MBOX_FAULT
// ---------------------------------------------------------------------------

TEST(MailboxFaults, SendToNoThreadIsABadDestination) {
  Harness h({3, 1, 1, 1, 1, 2});  // board x field is 2 bits wide: x = 3 is no board
  const TesseraCoords missing{3, 0, 0, 0, 0, 0};
  EXPECT_EQ(h.Fault(0, TESSERA_CSR_SEND, tessera_thread_id(&h.shape(), &missing)),
            TESSERA_FAULT_BAD_DESTINATION);
  EXPECT_EQ(h.Fault(0, TESSERA_CSR_SEND, h.HostId() + 1), TESSERA_FAULT_BAD_DESTINATION);
  EXPECT_EQ(h.Fault(0, TESSERA_CSR_SEND, 0xffffffffu), TESSERA_FAULT_BAD_DESTINATION);
  EXPECT_EQ(h.Done(0, TESSERA_CSR_MBOX_FAULT).value, TESSERA_FAULT_BAD_DESTINATION);
  EXPECT_EQ(h.Done(0, TESSERA_CSR_CAN_SEND).value, 1u);
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), 0).sent, 0u);
  // Multicast to a mailbox that doesn't exist, or to threads it doesn't have.
  EXPECT_EQ(h.Fault(0, TESSERA_CSR_MCAST_SEND, 3), TESSERA_FAULT_BAD_DESTINATION);
  h.Done(0, TESSERA_CSR_MCAST_LO, 0b100);  // thread 2 of a two-thread tile
  EXPECT_EQ(h.Fault(0, TESSERA_CSR_MCAST_SEND, 1), TESSERA_FAULT_BAD_DESTINATION);
}

TEST(MailboxFaults, SlotPointersOutsideTheScratchpadOrMisalignedAreBadSlots) {
  Harness h(kSmall);
  for (const uint32_t bad :
       {0u, TESSERA_SCRATCH_BASE - 64, TESSERA_SCRATCH_BASE + TESSERA_SCRATCH_SIZE,
        TESSERA_DRAM_BASE, TESSERA_SCRATCH_BASE + 8, TESSERA_SCRATCH_BASE + 64 + 4}) {
    EXPECT_EQ(h.Fault(0, TESSERA_CSR_SEND_PTR, bad), TESSERA_FAULT_BAD_SLOT) << std::hex << bad;
    EXPECT_EQ(h.Fault(0, TESSERA_CSR_FREE, bad), TESSERA_FAULT_BAD_SLOT) << std::hex << bad;
  }
  // The register kept its value.
  EXPECT_EQ(h.Done(0, TESSERA_CSR_SEND_PTR, h.Slot(0, 0)).value, h.Slot(0, 0));
  EXPECT_EQ(h.Done(0, TESSERA_CSR_MBOX_FAULT).value, TESSERA_FAULT_BAD_SLOT);
  // The last slot is fine.
  h.Done(0, TESSERA_CSR_FREE, TESSERA_SCRATCH_BASE + TESSERA_SCRATCH_SIZE - 64);
}

TEST(MailboxFaults, MoreThanFourFlitsIsABadLength) {
  Harness h(kSmall);
  h.Done(0, TESSERA_CSR_SEND_LEN, 2);
  EXPECT_EQ(h.Fault(0, TESSERA_CSR_SEND_LEN, 4), TESSERA_FAULT_BAD_LENGTH);
  EXPECT_EQ(h.Fault(0, TESSERA_CSR_SEND_LEN, 0x80000000u), TESSERA_FAULT_BAD_LENGTH);
  EXPECT_EQ(h.Done(0, TESSERA_CSR_SEND_LEN, 3).value, 2u);
}

TEST(MailboxFaults, GivingASlotHardwareOwnsIsADoubleFree) {
  Harness h(kSmall);
  h.Give(0, 1);
  EXPECT_EQ(h.Fault(0, TESSERA_CSR_FREE, h.Slot(0, 1)), TESSERA_FAULT_DOUBLE_FREE);
  // Also while it holds a message not yet received, and by another thread.
  ASSERT_EQ(h.Send(1, h.Id(0), 1, 1).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(h.Fault(0, TESSERA_CSR_FREE, h.Slot(0, 1)), TESSERA_FAULT_DOUBLE_FREE);
  EXPECT_EQ(h.Fault(2, TESSERA_CSR_FREE, h.Slot(0, 1)), TESSERA_FAULT_DOUBLE_FREE);
  EXPECT_EQ(h.RecvTag(0), 1u);
  h.Done(0, TESSERA_CSR_FREE, h.Slot(0, 1));  // received: software's again
}

TEST(MailboxFaults, ReceiveWithNothingWaitingIsRecvEmpty) {
  Harness h(kSmall);
  EXPECT_EQ(h.Fault(3, TESSERA_CSR_RECV), TESSERA_FAULT_RECV_EMPTY);
  EXPECT_EQ(h.Done(3, TESSERA_CSR_MBOX_FAULT).value, TESSERA_FAULT_RECV_EMPTY);
  EXPECT_EQ(h.Done(2, TESSERA_CSR_MBOX_FAULT).value, TESSERA_FAULT_NONE);  // per thread
}

// RECV_FREE: FREE of the slot written (0: none), RECV if a message waits, can-send in bit 0.
TEST(MailboxRecvFree, FreesThenReceivesAndSaysWhetherASendMayStart) {
  Harness h(kSmall);
  const uint32_t receiver = 5, sender = 0;
  h.GiveAll(receiver);
  // Nothing waiting: no fault, no slot, and a send may start.
  EXPECT_EQ(h.Done(receiver, TESSERA_CSR_RECV_FREE, 0, 7).value, TESSERA_RECV_FREE_CAN_SEND);
  ASSERT_EQ(h.Send(sender, h.Id(receiver), 2, 1, 0).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.Send(sender, h.Id(receiver), 2, 2, 0).result, TESSERA_ACCESS_DONE);

  // Each step takes the next message as RECV does, at the time RECV would.
  const CsrOutcome first = h.Done(receiver, TESSERA_CSR_RECV_FREE, 0, 1);
  EXPECT_EQ(first.value & TESSERA_RECV_FREE_CAN_SEND, TESSERA_RECV_FREE_CAN_SEND);
  const uint32_t first_slot = first.value & ~(TESSERA_BYTES_PER_SLOT - 1);
  EXPECT_EQ(h.Bytes(receiver, first_slot)[0], static_cast<uint8_t>(1 * 31));
  EXPECT_GT(first.resume_at, 1u);  // the message's arrival, as RECV
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), receiver).received, 0u);
  // ... and frees the one before, which then counts as received.
  const CsrOutcome second = h.Done(receiver, TESSERA_CSR_RECV_FREE, first_slot, first.resume_at);
  const uint32_t second_slot = second.value & ~(TESSERA_BYTES_PER_SLOT - 1);
  ASSERT_NE(second_slot, 0u);
  EXPECT_EQ(h.Bytes(receiver, second_slot)[0], static_cast<uint8_t>(2 * 31));
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), receiver).received, 1u);
  const CsrOutcome last = h.Done(receiver, TESSERA_CSR_RECV_FREE, second_slot, 5000);
  EXPECT_EQ(last.value, TESSERA_RECV_FREE_CAN_SEND);
  EXPECT_EQ(last.resume_at, 5000u);
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), receiver).received, 2u);
  EXPECT_EQ(h.Done(receiver, TESSERA_CSR_CAN_RECV).value, 0u);
  // Both slots are hardware's again.
  EXPECT_EQ(h.Fault(receiver, TESSERA_CSR_FREE, first_slot), TESSERA_FAULT_DOUBLE_FREE);
  EXPECT_EQ(h.Fault(receiver, TESSERA_CSR_FREE, second_slot), TESSERA_FAULT_DOUBLE_FREE);
}

// The prefetch hint reads a hart's registers and asks for its next message's lines: for any
// hart, in range or not, it changes nothing (under ASan, it reads nothing outside the model).
TEST(MailboxPrefetch, TheHintChangesNothingForAnyHart) {
  Harness h(kSmall);
  const uint32_t receiver = 5, sender = 0;
  h.GiveAll(receiver);
  ASSERT_EQ(h.Send(sender, h.Id(receiver), 2, 1, 0).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.Send(sender, h.Id(receiver), 2, 2, 0).result, TESSERA_ACCESS_DONE);
  const uint32_t harts = tessera_num_threads(&h.shape());
  for (uint32_t hart = 0; hart <= harts; hart++)
    tessera_mailbox_prefetch(h.model(), hart, hart + 1);
  tessera_mailbox_prefetch(h.model(), UINT32_MAX, UINT32_MAX);
  EXPECT_EQ(h.RecvTag(receiver), 1u);
  EXPECT_EQ(h.RecvTag(receiver), 2u);
  EXPECT_EQ(h.Done(receiver, TESSERA_CSR_CAN_RECV).value, 0u);
}

TEST(MailboxRecvFree, AFreedSlotTakesAWaitingMessageWhichTheSameStepReceives) {
  Harness h(kSmall);
  const uint32_t receiver = 5;
  h.Give(receiver, 1);  // one slot: the second message waits in the network
  ASSERT_EQ(h.Send(0, h.Id(receiver), 1, 1).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.Send(1, h.Id(receiver), 1, 2).result, TESSERA_ACCESS_DONE);
  const uint32_t slot =
      h.Done(receiver, TESSERA_CSR_RECV_FREE, 0, 100).value & ~(TESSERA_BYTES_PER_SLOT - 1);
  ASSERT_EQ(slot, h.Slot(receiver, 1));
  EXPECT_EQ(h.Bytes(receiver, slot)[0], static_cast<uint8_t>(1 * 31));
  const uint32_t again = h.Done(receiver, TESSERA_CSR_RECV_FREE, slot, 100).value;
  EXPECT_EQ(again, slot | TESSERA_RECV_FREE_CAN_SEND);
  EXPECT_EQ(h.Bytes(receiver, slot)[0], static_cast<uint8_t>(2 * 31));
  EXPECT_EQ(h.Done(receiver, TESSERA_CSR_RECV_FREE, slot, 100).value, TESSERA_RECV_FREE_CAN_SEND);
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), receiver).received, 2u);
}

TEST(MailboxRecvFree, ABadSlotFaultsAsFreeAndChangesNothing) {
  Harness h(kSmall);
  const uint32_t receiver = 5;
  h.Give(receiver, 1);
  ASSERT_EQ(h.Send(0, h.Id(receiver), 1, 1).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(h.Fault(receiver, TESSERA_CSR_RECV_FREE, TESSERA_SCRATCH_BASE + 8),
            TESSERA_FAULT_BAD_SLOT);
  EXPECT_EQ(h.Fault(receiver, TESSERA_CSR_RECV_FREE, h.Slot(receiver, 1)),
            TESSERA_FAULT_DOUBLE_FREE);  // hardware's, holding the message
  EXPECT_EQ(h.Done(receiver, TESSERA_CSR_MBOX_FAULT).value, TESSERA_FAULT_DOUBLE_FREE);
  // The message still waits.
  EXPECT_EQ(h.Done(receiver, TESSERA_CSR_RECV_FREE).value,
            h.Slot(receiver, 1) | TESSERA_RECV_FREE_CAN_SEND);
}

TEST(MailboxRecvFree, CanSendIsZeroWhileASendIsHeld) {
  Harness h(kSmall, 4);
  ASSERT_EQ(h.Send(0, h.Id(4), 4, 1).result, TESSERA_ACCESS_DONE);  // fills the buffer
  ASSERT_EQ(h.Send(0, h.Id(4), 4, 2).result, TESSERA_ACCESS_DONE);  // held
  EXPECT_EQ(h.Done(0, TESSERA_CSR_RECV_FREE).value, 0u);
  uint32_t peeked = 1;
  ASSERT_TRUE(tessera_mailbox_peek_csr(h.model(), 0, TESSERA_CSR_RECV_FREE, &peeked));
  EXPECT_EQ(peeked, 0u);
  h.Give(4, 1, 10);  // the first message enters its slot; the held one enters the network
  EXPECT_EQ(h.Done(0, TESSERA_CSR_RECV_FREE).value, TESSERA_RECV_FREE_CAN_SEND);
}

TEST(MailboxFaults, SendWhileCanSendIsZeroIsSendBusy) {
  Harness h(kSmall, 4);
  ASSERT_EQ(h.Send(0, h.Id(4), 4, 1).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.Send(0, h.Id(4), 4, 2).result, TESSERA_ACCESS_DONE);  // held
  EXPECT_EQ(h.Fault(0, TESSERA_CSR_SEND, h.Id(5)), TESSERA_FAULT_SEND_BUSY);
  h.Done(0, TESSERA_CSR_MCAST_LO, 1);
  EXPECT_EQ(h.Fault(0, TESSERA_CSR_MCAST_SEND, 1), TESSERA_FAULT_SEND_BUSY);
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), 0).sent, 1u);
}

// The idle bits are tinselIdle (termdet, docs/idle.md; mailbox_idle_test.cc).
TEST(MailboxFaults, WaitForNothingOrAnUnknownBitIsABadWait) {
  Harness h(kSmall);
  for (const uint32_t bad : {0u, 0x10u, 0x12u, 0b11110u, 0x80000000u}) {
    EXPECT_EQ(h.Fault(0, TESSERA_CSR_WAIT_UNTIL, bad), TESSERA_FAULT_BAD_WAIT) << bad;
  }
  EXPECT_EQ(tessera_mailbox_waiting(h.model(), 0), 0u);
}

TEST(MailboxFaults, OtherCsrsAndHartsAreNotTheMailboxs) {
  Harness h(kSmall);
  for (const uint32_t csr : {0x800u, 0x804u, 0x80bu, 0x80cu, 0x80fu, 0x810u, 0x815u,
                             uint32_t{TESSERA_CSR_HART_ID}, uint32_t{TESSERA_CSR_CYCLE}}) {
    const CsrOutcome o = h.Csr(0, csr, 1, 5);
    EXPECT_EQ(o.result, TESSERA_ACCESS_UNKNOWN) << std::hex << csr;
    EXPECT_EQ(o.value, 0u);
    EXPECT_EQ(o.resume_at, 5u);
  }
  EXPECT_EQ(h.Csr(16, TESSERA_CSR_CAN_SEND).result, TESSERA_ACCESS_UNKNOWN);
  EXPECT_EQ(h.Done(0, TESSERA_CSR_MBOX_FAULT).value, 0u);
}

// The quick path (tessera_mailbox_csr_quick): what the full call would do, or nothing.
TEST(MailboxQuick, ASendRegisterWriteIsTheFullCallsAndTouchesNothingElse) {
  Harness h(kSmall);
  uint32_t old = 0xdeadbeef;
  struct Write {
    uint32_t csr, value;
  };
  const Write writes[] = {{TESSERA_CSR_SEND_LEN, 3},
                          {TESSERA_CSR_SEND_PTR, h.Slot(0, 2)},
                          {TESSERA_CSR_MCAST_HI, 0x80000001u},
                          {TESSERA_CSR_MCAST_LO, 0x6u}};
  for (const Write& w : writes) {
    uint32_t before = 0;
    ASSERT_TRUE(tessera_mailbox_peek_csr(h.model(), 0, w.csr, &before));
    ASSERT_TRUE(tessera_mailbox_csr_quick(h.model(), 0, w.csr, w.value, &old)) << w.csr;
    EXPECT_EQ(old, before) << w.csr;
    ASSERT_TRUE(tessera_mailbox_csr_quick(h.model(), 0, w.csr, w.value, &old));
    EXPECT_EQ(old, w.value) << w.csr;
    uint32_t shown = 0;
    ASSERT_TRUE(tessera_mailbox_peek_csr(h.model(), 0, w.csr, &shown));
    EXPECT_EQ(shown, w.value);
  }
  EXPECT_TRUE(h.wakes.empty());
  EXPECT_EQ(h.Done(0, TESSERA_CSR_MBOX_FAULT).value, TESSERA_FAULT_NONE);
  // The multicast it set up goes where the registers say.
  h.GiveAll(1);
  h.GiveAll(2);
  ASSERT_TRUE(tessera_mailbox_csr_quick(h.model(), 0, TESSERA_CSR_SEND_PTR, h.Slot(0, 0), &old));
  ASSERT_TRUE(tessera_mailbox_csr_quick(h.model(), 0, TESSERA_CSR_SEND_LEN, 0, &old));
  ASSERT_TRUE(tessera_mailbox_csr_quick(h.model(), 0, TESSERA_CSR_MCAST_HI, 0, &old));
  ASSERT_TRUE(tessera_mailbox_csr_quick(h.model(), 0, TESSERA_CSR_MCAST_LO, 0b110, &old));
  h.Done(0, TESSERA_CSR_MCAST_SEND, 0);
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), 0).sent, 2u);  // a copy to each of the mask
  EXPECT_EQ(h.Done(1, TESSERA_CSR_CAN_RECV, 0, 1000).value, 1u);
  EXPECT_EQ(h.Done(2, TESSERA_CSR_CAN_RECV, 0, 1000).value, 1u);
  EXPECT_EQ(h.Done(3, TESSERA_CSR_CAN_RECV, 0, 1000).value, 0u);
}

TEST(MailboxQuick, LeavesToTheFullCallFaultsOtherCsrsWaitsAndIdle) {
  Harness h(kSmall);
  uint32_t old = 0xdeadbeef;
  h.Done(0, TESSERA_CSR_SEND_LEN, 2);
  // A bad value: nothing written, and no fault recorded (the full call reports it).
  EXPECT_FALSE(tessera_mailbox_csr_quick(h.model(), 0, TESSERA_CSR_SEND_LEN, 4, &old));
  EXPECT_FALSE(tessera_mailbox_csr_quick(h.model(), 0, TESSERA_CSR_SEND_PTR, 0, &old));
  EXPECT_EQ(h.Done(0, TESSERA_CSR_MBOX_FAULT).value, TESSERA_FAULT_NONE);
  EXPECT_EQ(h.Done(0, TESSERA_CSR_SEND_LEN, 2).value, 2u);
  // Anything but the four registers, and no hart.
  for (const uint32_t csr :
       {uint32_t{TESSERA_CSR_CAN_RECV}, uint32_t{TESSERA_CSR_FREE}, uint32_t{TESSERA_CSR_SEND},
        uint32_t{TESSERA_CSR_WAIT_UNTIL}, uint32_t{TESSERA_CSR_MCAST_SEND}}) {
    EXPECT_FALSE(tessera_mailbox_csr_quick(h.model(), 0, csr, 1, &old)) << csr;
  }
  EXPECT_FALSE(tessera_mailbox_csr_quick(h.model(), 16, TESSERA_CSR_SEND_LEN, 1, &old));
  // A thread blocked in a wait, or in tinselIdle: the full call ends the wait or the idle call.
  EXPECT_EQ(h.Csr(3, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV).result, TESSERA_ACCESS_BLOCKED);
  EXPECT_FALSE(tessera_mailbox_csr_quick(h.model(), 3, TESSERA_CSR_SEND_LEN, 1, &old));
  EXPECT_EQ(h.Csr(2, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE).result,
            TESSERA_ACCESS_BLOCKED);
  EXPECT_FALSE(tessera_mailbox_csr_quick(h.model(), 2, TESSERA_CSR_MCAST_LO, 1, &old));
  EXPECT_EQ(old, 0xdeadbeefu);
}

TEST(MailboxFaults, EveryFaultHasAName) {
  for (int f = TESSERA_FAULT_BAD_DESTINATION; f <= TESSERA_FAULT_BAD_WAIT; f++) {
    const std::string name = tessera_mailbox_fault_name(static_cast<TesseraMailboxFault>(f));
    EXPECT_FALSE(name.empty());
    EXPECT_NE(name, "unknown fault");
  }
  EXPECT_STREQ(tessera_mailbox_fault_name(TESSERA_FAULT_DOUBLE_FREE), "double free");
}

TEST(MailboxFaults, AFaultNamesItself) {
  Harness h(kSmall);
  const TesseraAccess a = tessera_mailbox_csr(h.model(), 0, TESSERA_CSR_RECV, 0, 0);
  EXPECT_EQ(a.status, TESSERA_ACCESS_FAULT);
  EXPECT_EQ(a.code, TESSERA_FAULT_RECV_EMPTY);
  EXPECT_STREQ(a.error, tessera_mailbox_fault_name(TESSERA_FAULT_RECV_EMPTY));
}

// ---------------------------------------------------------------------------
// Waking
// ---------------------------------------------------------------------------

TEST(MailboxWake, CanRecvWaiterIsWokenOnceWhenAMessageIsDelivered) {
  Harness h(kSmall);
  h.GiveAll(6);
  ASSERT_EQ(h.Csr(6, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV, 50).result,
            TESSERA_ACCESS_BLOCKED);
  // Issuing it again while blocked changes nothing.
  ASSERT_EQ(h.Csr(6, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV, 50).result,
            TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(tessera_mailbox_waiting(h.model(), 6), TESSERA_WAIT_CAN_RECV);
  ASSERT_EQ(h.Send(0, h.Id(7), 1, 1).result, TESSERA_ACCESS_DONE);  // someone else's message
  EXPECT_TRUE(h.wakes.empty());
  ASSERT_EQ(h.Send(0, h.Id(6), 1, 2, 1000).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.Send(1, h.Id(6), 1, 3, 1000).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(h.wakes, std::vector<uint32_t>{6});  // once
  const CsrOutcome o = h.Done(6, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV, 50);
  EXPECT_EQ(o.value, TESSERA_WAIT_CAN_RECV);
  EXPECT_EQ(o.resume_at, 1000 + tessera_mailbox_latency(h.model(), h.Id(0), h.Id(6), 1));
}

TEST(MailboxWake, WaiterForBothIsWokenByEither) {
  Harness h(kSmall, 4);
  ASSERT_EQ(h.Send(0, h.Id(4), 4, 1).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.Send(0, h.Id(4), 4, 2).result, TESSERA_ACCESS_DONE);  // held: can-send 0
  h.Give(0, 1);
  ASSERT_EQ(h.Csr(0, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_SEND | TESSERA_WAIT_CAN_RECV).result,
            TESSERA_ACCESS_BLOCKED);
  ASSERT_EQ(h.Send(9, h.Id(0), 1, 3).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(h.wakes, std::vector<uint32_t>{0});
  EXPECT_EQ(h.Done(0, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_SEND | TESSERA_WAIT_CAN_RECV).value,
            TESSERA_WAIT_CAN_RECV);  // only what holds
}

TEST(MailboxWake, AnyOtherCsrEndsTheWaitSoNoStaleWake) {
  Harness h(kSmall);
  h.GiveAll(2);
  ASSERT_EQ(h.Csr(2, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV).result, TESSERA_ACCESS_BLOCKED);
  h.Done(2, TESSERA_CSR_CAN_RECV);  // e.g. re-executed after an interrupt, then polled
  EXPECT_EQ(tessera_mailbox_waiting(h.model(), 2), 0u);
  ASSERT_EQ(h.Send(0, h.Id(2), 1, 1).result, TESSERA_ACCESS_DONE);
  EXPECT_TRUE(h.wakes.empty());
}

TEST(MailboxWake, WaitThatHoldsReturnsAtOnce) {
  Harness h(kSmall);
  const CsrOutcome o = h.Done(0, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_SEND, 33);
  EXPECT_EQ(o.value, TESSERA_WAIT_CAN_SEND);
  EXPECT_EQ(o.resume_at, 33u);
}

// ---------------------------------------------------------------------------
// Counts
// ---------------------------------------------------------------------------

TEST(MailboxCounts, SentOnEnteringTheNetworkReceivedOnFreeingTheSlot) {
  Harness h(kSmall, 4);
  const uint32_t a = 0, b = 9;  // boards 0 and 1
  h.Give(b, 1);
  ASSERT_EQ(h.Send(a, h.Id(b), 1, 1).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(tessera_mailbox_board_counts(h.model(), 0).sent, 1u);
  EXPECT_EQ(tessera_mailbox_board_counts(h.model(), 1).received, 0u);
  h.RecvTag(b);
  EXPECT_EQ(tessera_mailbox_board_counts(h.model(), 1).received, 0u);  // not until freed
  h.Done(b, TESSERA_CSR_FREE, h.last_recv);
  EXPECT_EQ(tessera_mailbox_board_counts(h.model(), 1).received, 1u);
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), b).received, 1u);
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), a).sent, 1u);
  // Freeing a slot that held no received message counts nothing.
  h.Give(b, 2);
  EXPECT_EQ(tessera_mailbox_board_counts(h.model(), 1).received, 1u);
  // A held send is not sent yet.
  ASSERT_EQ(h.Send(a, h.Id(12), 4, 2).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.Send(a, h.Id(12), 4, 3).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(tessera_mailbox_board_counts(h.model(), 0).sent, 2u);
  h.Give(12, 1);
  EXPECT_EQ(tessera_mailbox_board_counts(h.model(), 0).sent, 3u);
  EXPECT_EQ(tessera_mailbox_board_counts(h.model(), 2).sent, 0u);  // no such board
}

TEST(MailboxCounts, SentMinusReceivedIsWhatIsInFlight) {
  Harness h(kSmall, 8);
  h.host_accepts = true;
  for (uint32_t hart = 0; hart < 16; hart++) {
    h.Give(hart, 1);
  }
  // Thread to thread, a multicast, the host in both directions.
  ASSERT_EQ(h.Send(0, h.Id(9), 1, 1).result, TESSERA_ACCESS_DONE);
  h.Done(3, TESSERA_CSR_MCAST_LO, 0b1111);
  h.Done(3, TESSERA_CSR_MCAST_SEND, 2);  // board 1, first tile
  ASSERT_EQ(h.Send(5, h.HostId(), 1, 1).result, TESSERA_ACCESS_DONE);
  const uint8_t bytes[16] = {1};
  ASSERT_TRUE(tessera_mailbox_inject(h.model(), h.Id(1), bytes, 1, 0));
  auto in_flight = [&] {
    int64_t n = 0;
    for (uint32_t b = 0; b < 2; b++) {
      const TesseraMailboxCounts c = tessera_mailbox_board_counts(h.model(), b);
      n += static_cast<int64_t>(c.sent) - static_cast<int64_t>(c.received);
    }
    const TesseraMailboxCounts host = tessera_mailbox_host_counts(h.model());
    return n + static_cast<int64_t>(host.sent) - static_cast<int64_t>(host.received);
  };
  EXPECT_EQ(in_flight(), 6);  // 1 + 4 multicast copies + 1 injected; the host took its own
  for (uint32_t hart : {9u, 8u, 10u, 11u, 1u}) {
    const uint32_t slot = h.Done(hart, TESSERA_CSR_RECV).value;
    h.Done(hart, TESSERA_CSR_FREE, slot);
  }
  EXPECT_EQ(in_flight(), 1);
  h.Done(9, TESSERA_CSR_FREE, h.Done(9, TESSERA_CSR_RECV).value);
  EXPECT_EQ(in_flight(), 0);
}

// ---------------------------------------------------------------------------
// The host port
// ---------------------------------------------------------------------------

TEST(MailboxHost, MessagesToTheHostIdLeaveThroughToHost) {
  Harness h(kSmall);
  ASSERT_EQ(h.Send(9, h.HostId(), 3, 5, 1000).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.to_host.size(), 1u);
  EXPECT_EQ(h.to_host[0].src, h.Id(9));
  EXPECT_EQ(h.to_host[0].flits, 3u);
  EXPECT_EQ(h.to_host[0].bytes[0], static_cast<uint8_t>(5 * 31));
  EXPECT_EQ(h.to_host[0].bytes.back(), static_cast<uint8_t>(5 * 31 + 47));
  EXPECT_EQ(h.to_host[0].time, 1000 + tessera_mailbox_latency(h.model(), h.Id(9), h.HostId(), 3));
  EXPECT_EQ(tessera_mailbox_host_counts(h.model()).received, 1u);
}

TEST(MailboxHost, ARefusingHostStallsTheSenderUntilItIsReady) {
  Harness h(kSmall);
  h.host_accepts = false;
  ASSERT_EQ(h.Send(4, h.HostId(), 1, 1).result, TESSERA_ACCESS_DONE);
  ASSERT_EQ(h.Send(7, h.HostId(), 1, 2).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(h.Done(4, TESSERA_CSR_CAN_SEND).value, 0u);
  EXPECT_EQ(h.Done(7, TESSERA_CSR_CAN_SEND).value, 0u);
  EXPECT_EQ(h.host_refusals, 1);  // the second waits behind the first
  ASSERT_EQ(h.Csr(7, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_SEND).result, TESSERA_ACCESS_BLOCKED);
  tessera_mailbox_host_ready(h.model());  // still refusing
  EXPECT_TRUE(h.to_host.empty());
  h.host_accepts = true;
  tessera_mailbox_host_ready(h.model());
  ASSERT_EQ(h.to_host.size(), 2u);
  EXPECT_EQ(h.to_host[0].src, h.Id(4));  // in order
  EXPECT_EQ(h.to_host[1].src, h.Id(7));
  EXPECT_EQ(h.wakes, std::vector<uint32_t>{7});
  EXPECT_EQ(h.Done(4, TESSERA_CSR_CAN_SEND).value, 1u);
}

TEST(MailboxHost, InjectedMessagesObeyTheSameBuffering) {
  Harness h(kSmall, 8);
  uint8_t bytes[2 * TESSERA_MAX_FLITS * TESSERA_BYTES_PER_FLIT];  // two whole messages
  for (uint32_t i = 0; i < sizeof bytes; i++) {
    bytes[i] = static_cast<uint8_t>(i);
  }
  const uint32_t dest = 13;
  EXPECT_FALSE(tessera_mailbox_inject(h.model(), h.HostId() + 1, bytes, 1, 0));
  EXPECT_FALSE(tessera_mailbox_inject(h.model(), h.Id(dest), bytes, 5, 0));
  EXPECT_FALSE(tessera_mailbox_inject(h.model(), h.Id(dest), bytes, 0, 0));
  EXPECT_TRUE(tessera_mailbox_host_can_inject(h.model(), h.Id(dest)));
  ASSERT_TRUE(tessera_mailbox_inject(h.model(), h.Id(dest), bytes, 4, 200));
  ASSERT_TRUE(tessera_mailbox_inject(h.model(), h.Id(dest), bytes + 16, 4, 200));
  EXPECT_FALSE(tessera_mailbox_inject(h.model(), h.Id(dest), bytes, 1, 200));  // full
  EXPECT_FALSE(tessera_mailbox_host_can_inject(h.model(), h.Id(dest)));
  EXPECT_EQ(h.inject_ready_calls, 0);
  h.Give(dest, 1);
  EXPECT_EQ(h.inject_ready_calls, 1);
  ASSERT_TRUE(tessera_mailbox_inject(h.model(), h.Id(dest), bytes + 32, 1, 300));
  h.Give(dest, 2);
  h.Give(dest, 3);
  const uint32_t first = h.Done(dest, TESSERA_CSR_RECV).value;
  const uint64_t at = h.Done(dest, TESSERA_CSR_RECV).resume_at;
  EXPECT_EQ(h.Bytes(dest, first)[0], 0);
  EXPECT_EQ(h.Bytes(dest, first)[63], 63);
  EXPECT_EQ(at, 200 + tessera_mailbox_latency(h.model(), h.HostId(), h.Id(dest), 4) + 4);
  const uint32_t third = h.Done(dest, TESSERA_CSR_RECV).value;
  EXPECT_EQ(h.Bytes(dest, third)[0], 32);
  EXPECT_EQ(tessera_mailbox_host_counts(h.model()).sent, 3u);
}

// A seeded run of guest operations (frees, sends, multicasts, receives,
// waits, idles) and host injections, with every outcome the model gives
// written down; a blocked hart re-issues its CSR once woken, as a vCPU does.
std::string RandomRun(Harness& h, uint32_t seed, int operations) {
  std::mt19937 rng(seed);
  const uint32_t harts = tessera_num_threads(&h.shape());
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> blocked;  // hart -> CSR, value
  std::ostringstream log;
  uint64_t now = 0;
  // A woken hart issues its blocked CSR again.
  const auto retry_woken = [&] {
    while (!h.wakes.empty()) {
      const std::vector<uint32_t> wakes = std::exchange(h.wakes, {});
      for (const uint32_t woken : wakes) {
        if (blocked.count(woken) == 0) {
          continue;
        }
        const auto [csr, value] = blocked[woken];
        blocked.erase(woken);
        const CsrOutcome o = h.Csr(woken, csr, value, now);
        log << "retry " << woken << ": " << o.result << " " << o.value << " " << o.resume_at
            << "\n";
        if (o.result == TESSERA_ACCESS_BLOCKED) {
          blocked[woken] = {csr, value};
        }
      }
    }
  };
  for (int op = 0; op < operations; op++) {
    now += rng() % 40;
    const uint32_t hart = rng() % harts;
    retry_woken();
    if (blocked.count(hart) != 0) {
      continue;
    }
    uint32_t csr = 0, value = 0;
    // Weighted so that messages keep flowing; the only blocking operations
    // are sends and tinselIdle, which a message or a detection ends.
    const uint32_t pick = rng() % 20;
    if (pick < 5) {
      csr = TESSERA_CSR_FREE;
      value = h.Slot(hart, 1 + rng() % (h.SlotsPerThread() - 1));
    } else if (pick < 9) {
      csr = TESSERA_CSR_SEND;
      value = rng() % 5 == 0 ? h.HostId() : h.Id(rng() % harts);
      h.Fill(hart, op, 1);
    } else if (pick < 12) {
      csr = TESSERA_CSR_RECV;
    } else if (pick == 12) {
      csr = TESSERA_CSR_CAN_SEND;
    } else if (pick == 13) {
      csr = TESSERA_CSR_MCAST_LO;
      value = rng();
    } else if (pick == 14) {
      csr = TESSERA_CSR_MCAST_SEND;
      value = h.Id(rng() % harts) >> tessera_tile_shift(&h.shape());
    } else if (pick == 15) {
      csr = TESSERA_CSR_WAIT_UNTIL;  // tinselIdle, voting or not
      value =
          TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE | (rng() % 2 != 0 ? TESSERA_WAIT_IDLE_VOTE : 0);
    } else {
      uint8_t bytes[TESSERA_BYTES_PER_SLOT] = {static_cast<uint8_t>(op)};
      log << "inject: "
          << tessera_mailbox_inject(h.model(), h.Id(rng() % harts), bytes, 1 + rng() % 4, now)
          << "\n";
      continue;
    }
    const CsrOutcome o = h.Csr(hart, csr, value, now);
    log << hart << " csr " << csr << ": " << o.result << " " << o.value << " " << o.resume_at << " "
        << o.fault << "\n";
    if (o.result == TESSERA_ACCESS_BLOCKED) {
      blocked[hart] = {csr, value};
    }
  }
  // Then every hart drains its messages and calls tinselIdle(1): the
  // detector sees the counts of this run only.
  for (bool progress = true; progress;) {
    progress = false;
    retry_woken();
    for (uint32_t hart = 0; hart < harts; hart++) {
      if (blocked.count(hart) != 0) {
        continue;
      }
      for (uint32_t n = 1; n < h.SlotsPerThread(); n++) {  // faults for slots hardware has
        progress |=
            h.Csr(hart, TESSERA_CSR_FREE, h.Slot(hart, n), now).result == TESSERA_ACCESS_DONE;
      }
      while (tessera_mailbox_can_recv(h.model(), hart)) {
        const uint32_t slot = h.Done(hart, TESSERA_CSR_RECV, 0, now).value;
        h.Done(hart, TESSERA_CSR_FREE, slot, now);
        progress = true;
      }
    }
  }
  const uint32_t idle = TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE;
  for (uint32_t hart = 0; hart < harts; hart++) {
    if (blocked.count(hart) == 0) {
      const CsrOutcome o = h.Csr(hart, TESSERA_CSR_WAIT_UNTIL, idle, now);
      log << "idle " << hart << ": " << o.result << " " << o.value << "\n";
      if (o.result == TESSERA_ACCESS_BLOCKED) {
        blocked[hart] = {TESSERA_CSR_WAIT_UNTIL, idle};
      }
    }
  }
  retry_woken();
  for (uint32_t hart = 0; hart < harts; hart++) {
    const TesseraMailboxCounts c = tessera_mailbox_thread_counts(h.model(), hart);
    log << "counts " << hart << ": " << c.sent << " " << c.received << "\n";
  }
  TesseraTermdetStats stats{};
  tessera_mailbox_idle_stats(h.model(), &stats);
  log << "to host: " << h.to_host.size() << ", idle rounds " << stats.rounds_started << " "
      << stats.rounds << " " << stats.detections << " " << stats.episodes << "\n";
  return log.str();
}

// ---------------------------------------------------------------------------
// Debugger view (tessera_mailbox_peek_csr): what gdb shows as registers
// ---------------------------------------------------------------------------

TEST(MailboxPeek, ShowsEachCsrsStateAndChangesNothing) {
  Harness h(kSmall);
  const uint32_t sender = 0, receiver = 1;  // same tile
  auto peek = [&](uint32_t hart, uint32_t csr) {
    uint32_t value = 0xdeadbeef;
    EXPECT_TRUE(tessera_mailbox_peek_csr(h.model(), hart, csr, &value)) << std::hex << csr;
    return value;
  };
  EXPECT_EQ(peek(receiver, TESSERA_CSR_CAN_RECV), 0u);
  EXPECT_EQ(peek(receiver, TESSERA_CSR_RECV), 0u);
  EXPECT_EQ(peek(sender, TESSERA_CSR_SEND_PTR), h.Slot(sender, 0));

  // Blocked in WAIT_UNTIL: peeking shows the conditions, and the thread
  // stays blocked (the send below still wakes it).
  h.GiveAll(receiver);
  ASSERT_EQ(h.Csr(receiver, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV).result,
            TESSERA_ACCESS_BLOCKED);
  for (int i = 0; i < 2; i++) {
    EXPECT_EQ(peek(receiver, TESSERA_CSR_WAIT_UNTIL), TESSERA_WAIT_CAN_RECV);
  }
  EXPECT_EQ(tessera_mailbox_waiting(h.model(), receiver), TESSERA_WAIT_CAN_RECV);

  h.Done(sender, TESSERA_CSR_MCAST_HI, 0x12);
  h.Done(sender, TESSERA_CSR_MCAST_LO, 0x34);
  ASSERT_EQ(h.Send(sender, h.Id(receiver), 3, 7).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(h.wakes, std::vector<uint32_t>{receiver});
  EXPECT_EQ(peek(sender, TESSERA_CSR_SEND_LEN), 2u);
  EXPECT_EQ(peek(sender, TESSERA_CSR_MCAST_HI), 0x12u);
  EXPECT_EQ(peek(sender, TESSERA_CSR_MCAST_LO), 0x34u);
  EXPECT_EQ(peek(sender, TESSERA_CSR_CAN_SEND), 1u);
  for (uint32_t command : {TESSERA_CSR_SEND, TESSERA_CSR_MCAST_SEND, TESSERA_CSR_FREE}) {
    EXPECT_EQ(peek(sender, command), 0u);
  }

  // RECV shows the slot the next RECV returns, and leaves it there.
  const uint32_t slot = peek(receiver, TESSERA_CSR_RECV);
  EXPECT_NE(slot, 0u);
  EXPECT_EQ(peek(receiver, TESSERA_CSR_RECV), slot);
  EXPECT_EQ(peek(receiver, TESSERA_CSR_CAN_RECV), 1u);
  EXPECT_EQ(tessera_mailbox_thread_counts(h.model(), receiver).received, 0u);
  EXPECT_EQ(h.RecvTag(receiver), 7u);
  EXPECT_EQ(h.last_recv, slot);
  EXPECT_EQ(peek(receiver, TESSERA_CSR_CAN_RECV), 0u);
  EXPECT_EQ(peek(receiver, TESSERA_CSR_RECV), 0u);

  EXPECT_EQ(peek(receiver, TESSERA_CSR_MBOX_FAULT), TESSERA_FAULT_NONE);
  EXPECT_EQ(h.Fault(receiver, TESSERA_CSR_RECV), TESSERA_FAULT_RECV_EMPTY);
  EXPECT_EQ(peek(receiver, TESSERA_CSR_MBOX_FAULT), TESSERA_FAULT_RECV_EMPTY);
  EXPECT_EQ(peek(receiver, TESSERA_CSR_MBOX_FAULT), TESSERA_FAULT_RECV_EMPTY);

  uint32_t value = 1;
  EXPECT_FALSE(tessera_mailbox_peek_csr(h.model(), receiver, TESSERA_CSR_CYCLE, &value));
  EXPECT_EQ(value, 0u);
  value = 1;
  EXPECT_FALSE(tessera_mailbox_peek_csr(h.model(), 16, TESSERA_CSR_CAN_SEND, &value));
  EXPECT_EQ(value, 0u);
}

// After a reset the model answers every operation as a new one does.
TEST(MailboxReset, AResetModelBehavesLikeANewOne) {
  const TesseraShape shape{3, 1, 2, 1, 1, 2};  // a non-power-of-two mesh
  Harness used(shape, 8);
  (void)RandomRun(used, 1, 3000);
  used.host_accepts = false;  // then senders to the host stall
  (void)RandomRun(used, 3, 300);
  const TesseraMailboxCounts before = tessera_mailbox_host_counts(used.model());
  ASSERT_GT(before.received + tessera_mailbox_board_counts(used.model(), 0).sent, 0u);

  tessera_mailbox_reset(used.model());
  used.ZeroScratchpads();
  used.wakes.clear();
  used.to_host.clear();
  used.host_accepts = true;
  for (uint32_t hart = 0; hart < tessera_num_threads(&shape); hart++) {
    EXPECT_FALSE(tessera_mailbox_can_recv(used.model(), hart));
    EXPECT_TRUE(tessera_mailbox_can_send(used.model(), hart));
    EXPECT_EQ(tessera_mailbox_waiting(used.model(), hart), 0u);
  }
  EXPECT_EQ(tessera_mailbox_host_counts(used.model()).sent, 0u);

  Harness fresh(shape, 8);
  EXPECT_EQ(RandomRun(used, 2, 3000), RandomRun(fresh, 2, 3000));
}

// ---------------------------------------------------------------------------
// The wait registry (deadlock reports)
// ---------------------------------------------------------------------------

TEST(MailboxWaits, ABlockedWaitIsReportedUntilTheWake) {
  Harness h(kSmall);
  h.GiveAll(3);
  EXPECT_EQ(h.Csr(3, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV, 40).result,
            TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(tessera_waits_count(h.waits()), 1u);
  EXPECT_STREQ(tessera_waits_operation(h.waits(), 3), "mailbox wait-until can-recv (to receive)");
  EXPECT_EQ(tessera_waits_since(h.waits(), 3), 40u);
  // Issued again while blocked (a spurious wake): still the first cycle.
  EXPECT_EQ(h.Csr(3, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV, 40).result,
            TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(tessera_waits_count(h.waits()), 1u);
  EXPECT_EQ(h.Send(0, h.Id(3), 1, 7).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(h.wakes, std::vector<uint32_t>{3});
  EXPECT_EQ(tessera_waits_count(h.waits()), 0u);  // woken: no longer stopped
  EXPECT_EQ(tessera_waits_operation(h.waits(), 3), nullptr);
}

TEST(MailboxWaits, AnotherCsrEndsTheWaitAndResetForgetsIt) {
  Harness h(kSmall);
  EXPECT_EQ(h.Csr(5, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV).result, TESSERA_ACCESS_BLOCKED);
  h.Done(5, TESSERA_CSR_CAN_RECV);
  EXPECT_EQ(tessera_waits_count(h.waits()), 0u);
  EXPECT_EQ(h.Csr(5, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE).result,
            TESSERA_ACCESS_BLOCKED);
  EXPECT_STREQ(tessera_waits_operation(h.waits(), 5), "mailbox tinselIdle, voting true");
  tessera_mailbox_reset(h.model());
  EXPECT_EQ(tessera_waits_count(h.waits()), 0u);
}

// ---------------------------------------------------------------------------
// Untimed (native mode's functional model, TesseraMailboxConfig.untimed)
// ---------------------------------------------------------------------------

Harness* Untimed(const TesseraShape& shape, uint32_t buffer_flits = 64) {
  return new Harness(shape, buffer_flits, kTileHop, kL, false, nullptr, true);
}

bool h_can_send(Harness* h, uint32_t hart, uint64_t now) {
  return h->Done(hart, TESSERA_CSR_CAN_SEND, 0, now).value != 0;
}

// Native mode's parts (docs/native.md): untimed with windows, a message toward another board
// that the same model holds enters the network at once; only one toward another part's board
// waits at its egress, and leaves through tessera_mailbox_take_leaving().
TEST(MailboxUntimed, WithWindowsOnlyAMessageToAnotherPartWaits) {
  const uint32_t a = 0, b = 15;  // board 0, board 1
  Harness both(kSmall, 64, kTileHop, kL, true, nullptr, true);
  both.GiveAll(b);
  ASSERT_EQ(both.Send(a, both.Id(b), 1, 5, 100).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(tessera_mailbox_outbox_count(both.model()), 0u);
  EXPECT_TRUE(tessera_mailbox_can_recv(both.model(), b));
  EXPECT_EQ(both.RecvTag(b, 100), 5u);

  static constexpr bool kBoard0[2] = {true, false};
  Harness part(kSmall, 64, kTileHop, kL, true, kBoard0, true);
  ASSERT_EQ(part.Send(a, part.Id(b), 1, 6, 100).result, TESSERA_ACCESS_DONE);
  EXPECT_EQ(tessera_mailbox_outbox_count(part.model()), 1u);
  std::vector<TesseraMailboxTransit> left;
  EXPECT_EQ(tessera_mailbox_take_leaving(
                part.model(),
                [](void* out, const TesseraMailboxTransit* t) {
                  static_cast<std::vector<TesseraMailboxTransit>*>(out)->push_back(*t);
                },
                &left),
            1u);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].dest_board, 1u);
  EXPECT_EQ(left[0].src_hart, a);
  EXPECT_EQ(tessera_mailbox_outbox_count(part.model()), 0u);
}

// A message from afar sent first arrives later in modelled time: timed, RECV takes the near one
// first and waits for each arrival; untimed, it takes them as they were delivered, at once.
TEST(MailboxUntimed, ReceivesInDeliveryOrderWithoutWaiting) {
  const uint32_t receiver = 0, far = 15, near = 1;
  for (bool untimed : {false, true}) {
    SCOPED_TRACE(untimed ? "untimed" : "timed");
    std::unique_ptr<Harness> h(untimed ? Untimed(kSmall) : new Harness(kSmall));
    h->GiveAll(receiver);
    ASSERT_EQ(h->Send(far, h->Id(receiver), 1, 1, 10).result, TESSERA_ACCESS_DONE);
    ASSERT_EQ(h->Send(near, h->Id(receiver), 1, 2, 10).result, TESSERA_ACCESS_DONE);
    const CsrOutcome wait = h->Done(receiver, TESSERA_CSR_WAIT_UNTIL, TESSERA_WAIT_CAN_RECV, 10);
    uint64_t first_at = 0, second_at = 0;
    const uint32_t first = h->RecvTag(receiver, 10, &first_at);
    h->Done(receiver, TESSERA_CSR_FREE, h->last_recv, 10);
    const uint32_t second = h->RecvTag(receiver, 10, &second_at);
    if (untimed) {
      EXPECT_EQ(first, 1u);
      EXPECT_EQ(second, 2u);
      EXPECT_EQ(wait.resume_at, 10u);
      EXPECT_EQ(first_at, 10u);
      EXPECT_EQ(second_at, 10u);
    } else {
      EXPECT_EQ(first, 2u);
      EXPECT_EQ(second, 1u);
      EXPECT_EQ(wait.resume_at,
                10 + tessera_mailbox_latency(h->model(), h->Id(near), h->Id(receiver), 1));
      EXPECT_EQ(second_at,
                10 + tessera_mailbox_latency(h->model(), h->Id(far), h->Id(receiver), 1));
    }
  }
}

// The same program of sends, multicasts, receives and frees on a timed and an untimed model,
// with few slots and little buffering so that messages wait for slots and senders for room:
// every CSR completes alike (can-send, can-recv, faults), every receiver gets the same messages,
// and each sender's messages to one receiver in the order sent. Only which of several senders'
// messages a receiver takes first may differ.
TEST(MailboxUntimed, SameDeliveriesAndPairOrderAsTimed) {
  struct Got {
    uint32_t src, seq;
    bool operator<(const Got& o) const { return src != o.src ? src < o.src : seq < o.seq; }
  };
  const uint32_t harts = 16;
  std::unique_ptr<Harness> timed(new Harness(kSmall, TESSERA_MAX_FLITS));
  std::unique_ptr<Harness> untimed(Untimed(kSmall, TESSERA_MAX_FLITS));
  std::vector<std::vector<Got>> got[2];
  std::vector<uint32_t> sent(harts, 0), held[2];
  for (int k = 0; k < 2; k++) {
    got[k].resize(harts);
    held[k].assign(harts, 0);
  }
  // Each thread gives 3 slots: messages wait in the network for them.
  for (Harness* h : {timed.get(), untimed.get()}) {
    for (uint32_t hart = 0; hart < harts; hart++) {
      for (uint32_t n = 1; n <= 3; n++) h->Give(hart, n);
    }
  }
  std::mt19937 random(12345);
  uint64_t now = 0;
  uint32_t sends = 0, refused = 0, reordered = 0;
  for (int op = 0; op < 20000; op++) {
    const uint32_t hart = random() % harts;
    const uint32_t what = random() % 4;
    now += random() % 8;
    if (what < 2) {
      const bool timed_can = h_can_send(timed.get(), hart, now);
      ASSERT_EQ(timed_can, h_can_send(untimed.get(), hart, now)) << "op " << op;
      if (!timed_can) {
        refused++;
        continue;
      }
      // The sender's id and its own sequence number, in the first two words.
      const uint32_t seq = ++sent[hart];
      const uint64_t mask = what == 0 ? uint64_t{1} << (random() % 4) : 1 + random() % 15;
      const uint32_t tile = random() % 4;
      for (Harness* h : {timed.get(), untimed.get()}) {
        uint8_t* p = h->Bytes(hart, h->Slot(hart, 0));
        memcpy(p, &hart, 4);
        memcpy(p + 4, &seq, 4);
        h->Done(hart, TESSERA_CSR_SEND_PTR, h->Slot(hart, 0), now);
        h->Done(hart, TESSERA_CSR_MCAST_HI, static_cast<uint32_t>(mask >> 32), now);
        h->Done(hart, TESSERA_CSR_MCAST_LO, static_cast<uint32_t>(mask), now);
        h->Done(hart, TESSERA_CSR_MCAST_SEND, tile, now);
      }
      sends++;
    } else {
      // A step of a receive loop: free what the last took, take the next.
      uint32_t results[2];
      for (int k = 0; k < 2; k++) {
        Harness* h = k == 0 ? timed.get() : untimed.get();
        results[k] = h->Done(hart, TESSERA_CSR_RECV_FREE, held[k][hart], now).value;
        held[k][hart] = results[k] & ~(TESSERA_BYTES_PER_SLOT - 1);
        if (held[k][hart] != 0) {
          const uint8_t* p = h->Bytes(hart, held[k][hart]);
          Got g{};
          memcpy(&g.src, p, 4);
          memcpy(&g.seq, p + 4, 4);
          got[k][hart].push_back(g);
        }
      }
      ASSERT_EQ(results[0] & TESSERA_RECV_FREE_CAN_SEND, results[1] & TESSERA_RECV_FREE_CAN_SEND)
          << "op " << op;
      ASSERT_EQ(held[0][hart] != 0, held[1][hart] != 0) << "op " << op;
    }
  }
  EXPECT_GT(sends, 1000u);
  EXPECT_GT(refused, 100u);  // senders did wait for room
  for (uint32_t hart = 0; hart < harts; hart++) {
    std::vector<Got> sorted[2];
    for (size_t i = 0; i < std::min(got[0][hart].size(), got[1][hart].size()); i++) {
      if (got[0][hart][i].src != got[1][hart][i].src) {
        reordered++;
        break;
      }
    }
    for (int k = 0; k < 2; k++) {
      // Each sender's messages in the order sent.
      std::map<uint32_t, uint32_t> last;
      for (const Got& g : got[k][hart]) {
        EXPECT_GT(g.seq, last[g.src]) << "hart " << hart << " from " << g.src;
        last[g.src] = g.seq;
      }
      sorted[k] = got[k][hart];
      std::sort(sorted[k].begin(), sorted[k].end());
    }
    ASSERT_EQ(sorted[0].size(), sorted[1].size()) << "hart " << hart;
    for (size_t i = 0; i < sorted[0].size(); i++) {
      EXPECT_EQ(sorted[0][i].src, sorted[1][i].src);
      EXPECT_EQ(sorted[0][i].seq, sorted[1][i].seq);
    }
  }
  EXPECT_GT(reordered, 0u);  // timed, receivers took nearer senders' messages first
  for (uint32_t hart = 0; hart < harts; hart++) {
    const TesseraMailboxCounts a = tessera_mailbox_thread_counts(timed->model(), hart);
    const TesseraMailboxCounts b = tessera_mailbox_thread_counts(untimed->model(), hart);
    EXPECT_EQ(a.sent, b.sent);
    EXPECT_EQ(a.received, b.received);
  }
}

}  // namespace
