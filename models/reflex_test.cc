// The reflex switch model (models/reflex.c) through its C API: routes, next
// switches and their bad configurations, credit rules, timing; and the
// reflex barrier of DESIGN 1.4 run on it by a discrete-event schedule of
// harts with clocks of their own (docs/reflex.md).
#include "tessera/models/reflex.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace {

constexpr uint32_t kB = 4;    // buffer_flits
constexpr uint32_t kHop = 3;  // hop_cycles: not 1, so that hops and flits are told apart

constexpr uint32_t kOff = TESSERA_REFLEX_ROUTE_OFF;
constexpr uint32_t kCore = TESSERA_REFLEX_ROUTE_CORE;
constexpr uint32_t kForward = TESSERA_REFLEX_ROUTE_FORWARD;
constexpr uint32_t kBoth = TESSERA_REFLEX_ROUTE_BOTH;
constexpr uint32_t kNoNext = TESSERA_REFLEX_NO_NEXT;

// One board, one tile, one core of `harts` threads: dense index = thread id.
TesseraShape Flat(uint32_t harts) {
  return TesseraShape{1, 1, 1, 1, 1, harts};
}

class Switches {
 public:
  explicit Switches(uint32_t harts, uint32_t b = kB, uint32_t hop = kHop,
                    TesseraWaits* waits = nullptr)
      : Switches(Flat(harts), b, hop, waits) {}
  Switches(const TesseraShape& shape, uint32_t b, uint32_t hop, TesseraWaits* waits) {
    const TesseraReflexConfig config{shape, b, hop, waits};
    TesseraReflexHost host{};
    host.opaque = this;
    host.wake = [](void* self, uint32_t hart) {
      static_cast<Switches*>(self)->woken.push_back(hart);
    };
    r_ = tessera_reflex_new(&config, &host);
    EXPECT_NE(r_, nullptr);
  }
  ~Switches() { tessera_reflex_free(r_); }
  Switches(const Switches&) = delete;
  Switches& operator=(const Switches&) = delete;

  TesseraReflex* get() const { return r_; }

  void Route(uint32_t hart, uint32_t route) {
    const char* error = nullptr;
    ASSERT_EQ(
        tessera_access_unpack(tessera_reflex_set_route(r_, hart, route), nullptr, nullptr, &error),
        TESSERA_ACCESS_DONE)
        << error;
  }
  void Next(uint32_t hart, uint32_t next) {
    const char* error = nullptr;
    ASSERT_EQ(
        tessera_access_unpack(tessera_reflex_set_next(r_, hart, next), nullptr, nullptr, &error),
        TESSERA_ACCESS_DONE)
        << error;
  }
  // The ring of DESIGN 1.4 over `members`: members[0] is the root (CORE),
  // the others multicast (BOTH), each next the following one, the last's
  // next the root.
  void Ring(const std::vector<uint32_t>& members) {
    for (size_t i = 0; i < members.size(); i++) {
      Next(members[i], members[(i + 1) % members.size()]);
      Route(members[i], i == 0 ? kCore : kBoth);
    }
  }
  TesseraAccessStatus Send(uint32_t hart, uint32_t flit, uint64_t now,
                           const char** error = nullptr) {
    const char* e = nullptr;
    const TesseraAccessStatus res =
        tessera_access_unpack(tessera_reflex_send(r_, hart, flit, now), nullptr, nullptr, &e);
    if (error) *error = e;
    return res;
  }
  void SendOk(uint32_t hart, uint32_t flit, uint64_t now) {
    const char* error = nullptr;
    ASSERT_EQ(Send(hart, flit, now, &error), TESSERA_ACCESS_DONE) << error;
  }
  // The flit read and when the reader continues; BLOCKED gives no flit.
  TesseraAccessStatus Recv(uint32_t hart, uint64_t now, uint32_t* flit = nullptr,
                           uint64_t* at = nullptr) {
    uint32_t f = 0;
    uint64_t t = 0;
    const TesseraAccessStatus res =
        tessera_access_unpack(tessera_reflex_recv(r_, hart, now), &f, &t, nullptr);
    if (flit) *flit = f;
    if (at) *at = t;
    return res;
  }
  // Reads one flit that must be there; returns it with its resume time.
  std::pair<uint32_t, uint64_t> Take(uint32_t hart, uint64_t now) {
    uint32_t flit = 0;
    uint64_t at = 0;
    EXPECT_EQ(Recv(hart, now, &flit, &at), TESSERA_ACCESS_DONE) << "hart " << hart;
    return {flit, at};
  }
  // One CSR: what it reads (0 on BLOCKED and errors) in *result.
  TesseraAccessStatus Csr(uint32_t hart, uint32_t csrno, bool write, uint32_t value, uint64_t now,
                          uint32_t* result, uint64_t* at = nullptr, const char** error = nullptr) {
    uint64_t t = 0;
    const char* e = nullptr;
    const TesseraAccessStatus res = tessera_access_unpack(
        tessera_reflex_csr(r_, hart, csrno, write, value, now), result, &t, &e);
    if (at) *at = t;
    if (error) *error = e;
    return res;
  }
  // A read that must complete; returns what it reads.
  uint32_t ReadCsr(uint32_t hart, uint32_t csrno) {
    uint32_t result = 0;
    const char* error = nullptr;
    EXPECT_EQ(Csr(hart, csrno, false, 0, 0, &result, nullptr, &error), TESSERA_ACCESS_DONE)
        << error;
    return result;
  }
  uint32_t In(uint32_t hart) const { return tessera_reflex_inbound(r_, hart); }
  uint32_t Out(uint32_t hart) const { return tessera_reflex_outbound(r_, hart); }
  bool On(uint32_t hart) const { return tessera_reflex_switch_on(r_, hart); }
  const char* TakeError(uint32_t* hart) { return tessera_reflex_take_error(r_, hart); }

  std::vector<uint32_t> woken;

 private:
  TesseraReflex* r_ = nullptr;
};

// ---------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------

TEST(ReflexModel, RefusesWhatTheMachineCannotBe) {
  TesseraReflexHost host{};
  host.wake = [](void*, uint32_t) {};
  auto accepts = [&](const TesseraShape& shape, uint32_t b) {
    const TesseraReflexConfig config{shape, b, kHop, nullptr};
    TesseraReflex* r = tessera_reflex_new(&config, &host);
    tessera_reflex_free(r);
    return r != nullptr;
  };
  EXPECT_TRUE(accepts(Flat(1), 1));
  EXPECT_TRUE(accepts(Flat(3), TESSERA_LIMIT_reflex_buffer_flits));
  EXPECT_TRUE(accepts(TesseraShape{4, 4, 4, 4, 4, 16}, 4)) << "65,536 harts";
  EXPECT_FALSE(accepts(Flat(0), 4)) << "no harts";
  EXPECT_FALSE(accepts(Flat(4), 0)) << "a buffer of 0 flits";
  EXPECT_FALSE(accepts(Flat(4), TESSERA_LIMIT_reflex_buffer_flits + 1));
  const TesseraReflexConfig config{Flat(4), 4, kHop, nullptr};
  const TesseraReflexHost no_wake{};
  EXPECT_EQ(tessera_reflex_new(&config, &no_wake), nullptr);
  EXPECT_EQ(tessera_reflex_new(nullptr, &host), nullptr);
}

TEST(ReflexModel, EverySwitchStartsOffWithNoNextSwitch) {
  Switches s(4);
  for (uint32_t h = 0; h < 4; h++) {
    EXPECT_FALSE(s.On(h));
    EXPECT_EQ(s.In(h), 0u);
    EXPECT_EQ(s.Out(h), 0u);
  }
  const char* error = nullptr;
  EXPECT_EQ(s.Send(0, 1, 0, &error), TESSERA_ACCESS_GUEST_ERROR) << "no next switch";
  EXPECT_NE(error, nullptr);
  EXPECT_EQ(s.Out(0), 0u);
}

TEST(ReflexModel, AnOpenRingIsRefusedAndTheSwitchKeepsItsConfiguration) {
  Switches s(3);
  const char* error = nullptr;
  EXPECT_EQ(tessera_access_unpack(tessera_reflex_set_route(s.get(), 0, kForward), nullptr, nullptr,
                                  &error),
            TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_NE(error, nullptr);
  EXPECT_EQ(
      tessera_access_unpack(tessera_reflex_set_route(s.get(), 0, kBoth), nullptr, nullptr, &error),
      TESSERA_ACCESS_GUEST_ERROR);
  s.Route(0, kCore);  // a root needs no next switch
  s.Next(1, 2);
  s.Route(1, kBoth);
  error = nullptr;
  EXPECT_EQ(
      tessera_access_unpack(tessera_reflex_set_next(s.get(), 1, kNoNext), nullptr, nullptr, &error),
      TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_NE(error, nullptr);
  EXPECT_EQ(s.ReadCsr(1, TESSERA_CSR_REFLEX_NEXT), 2u) << "kept its next switch";
  EXPECT_EQ(tessera_access_unpack(tessera_reflex_set_route(s.get(), 1, kBoth + 1), nullptr, nullptr,
                                  &error),
            TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_EQ(tessera_access_unpack(tessera_reflex_set_next(s.get(), 1, 3), nullptr, nullptr, &error),
            TESSERA_ACCESS_GUEST_ERROR)
      << "no hart 3";
  EXPECT_EQ(s.ReadCsr(1, TESSERA_CSR_REFLEX_ROUTE), kBoth);
  // Once the route passes nothing on, the next switch may go.
  s.Route(1, kCore);
  s.Next(1, kNoNext);
}

// ---------------------------------------------------------------------------
// Routes and timing
// ---------------------------------------------------------------------------

TEST(ReflexModel, AFlitReachesEveryCoreOnItsPathAtHopsTimesTheHopLatency) {
  Switches s(5);
  s.Ring({0, 1, 2, 3, 4});
  s.SendOk(2, 0xabc, 100);  // from hart 2: 3, 4, 0 (the root: the path ends)
  EXPECT_EQ(s.In(3), 1u);
  EXPECT_EQ(s.In(4), 1u);
  EXPECT_EQ(s.In(0), 1u);
  EXPECT_EQ(s.In(1), 0u) << "the ring is broken at the root";
  EXPECT_EQ(s.In(2), 0u) << "a flit from the core goes to the next switch only";
  EXPECT_EQ(s.Take(3, 0), std::make_pair(0xabcu, uint64_t{100 + 1 * kHop}));
  EXPECT_EQ(s.Take(4, 500), std::make_pair(0xabcu, uint64_t{500})) << "reader already later";
  EXPECT_EQ(s.Take(0, 0), std::make_pair(0xabcu, uint64_t{100 + 3 * kHop}));
  // From the root: once round the ring, the root's core last.
  s.SendOk(0, 7, 1000);
  for (uint32_t h = 1; h < 5; h++) {
    EXPECT_EQ(s.Take(h, 0).second, 1000 + h * kHop) << "hart " << h;
  }
  EXPECT_EQ(s.Take(0, 0).second, 1000 + 5 * kHop);
}

TEST(ReflexModel, ForwardPassesWithoutDelivering) {
  Switches s(4);
  s.Next(0, 1);
  s.Next(1, 2);
  s.Route(1, kForward);
  s.Next(2, 3);
  s.Route(2, kBoth);
  s.Route(3, kCore);
  s.SendOk(0, 5, 10);
  EXPECT_EQ(s.In(1), 0u);
  EXPECT_EQ(s.Take(2, 0).second, 10 + 2 * kHop);
  EXPECT_EQ(s.Take(3, 0).second, 10 + 3 * kHop);
}

TEST(ReflexModel, ARingOfOneHartIsItsOwnRoot) {
  Switches s(1);
  s.Ring({0});
  s.SendOk(0, 9, 40);
  EXPECT_EQ(s.Take(0, 0), std::make_pair(9u, uint64_t{40 + kHop}));
}

TEST(ReflexModel, AnOffSwitchHoldsFlitsUntilItIsConfigured) {
  Switches s(3);
  s.Next(0, 1);
  s.Next(1, 2);  // hart 1 not routed yet: OFF
  s.Route(2, kCore);
  s.SendOk(0, 1, 10);
  s.SendOk(0, 2, 11);
  EXPECT_EQ(s.Out(0), 2u) << "held by the unconfigured switch";
  EXPECT_EQ(s.In(2), 0u);
  s.Route(1, kBoth);
  EXPECT_EQ(s.Out(0), 0u);
  EXPECT_EQ(s.Take(1, 0), std::make_pair(1u, uint64_t{10 + kHop}));
  EXPECT_EQ(s.Take(1, 0), std::make_pair(2u, uint64_t{11 + kHop}));
  EXPECT_EQ(s.Take(2, 0).first, 1u);
  EXPECT_EQ(s.Take(2, 0).first, 2u);
}

// Found by the fuzzer: a head held by its own (OFF) switch must follow the
// sender's new next switch, though the switch holding it was the one
// configured.
TEST(ReflexModel, AHeldHeadFollowsItsSendersNewNextSwitch) {
  Switches s(3, 2, 1);
  s.Next(1, 1);
  s.SendOk(1, 8, 0);  // path: 1 (itself, OFF): held
  s.Route(0, kCore);
  EXPECT_EQ(s.Out(1), 1u);
  s.Next(1, 0);
  EXPECT_EQ(s.Out(1), 0u);
  EXPECT_EQ(s.Take(0, 0), std::make_pair(8u, uint64_t{1}));
}

// A flit held far along a ring moves as soon as a switch before the one
// holding it becomes the root.
TEST(ReflexModel, AHeldHeadFollowsARouteChangedBeforeTheSwitchHoldingIt) {
  Switches s(4);
  s.Ring({0, 1, 2, 3});
  s.Route(3, kOff);
  s.SendOk(0, 5, 0);  // held by 3
  EXPECT_EQ(s.Out(0), 1u);
  s.Route(1, kCore);  // the path now ends at 1
  EXPECT_EQ(s.Out(0), 0u);
  EXPECT_EQ(s.Take(1, 0).first, 5u);
  EXPECT_EQ(s.In(2), 0u);
}

// ---------------------------------------------------------------------------
// Credits
// ---------------------------------------------------------------------------

TEST(ReflexModel, AFullInboundBufferTurnsTheSwitchOffAndAReadTurnsItOn) {
  Switches s(2);
  s.Ring({0, 1});
  for (uint32_t i = 0; i < kB; i++) s.SendOk(1, i, 10 * i);  // 1 -> 0 (root)
  EXPECT_EQ(s.In(0), kB);
  EXPECT_FALSE(s.On(0));
  s.SendOk(1, 100, 50);
  EXPECT_EQ(s.Out(1), 1u) << "held: the root's switch is off";
  const auto [flit, at] = s.Take(0, 200);
  EXPECT_EQ(flit, 0u);
  EXPECT_EQ(at, 200u);
  EXPECT_EQ(s.Out(1), 0u) << "the read gave the credit";
  EXPECT_FALSE(s.On(0)) << "full again";
  for (uint32_t i = 1; i < kB; i++) s.Take(0, 0);
  EXPECT_EQ(s.Take(0, 0), std::make_pair(100u, uint64_t{200 + kHop}))
      << "moved at the read that freed its slot, then one hop";
}

TEST(ReflexModel, AMulticastStallsWhileAnyOutputHasNoCredit) {
  Switches s(4);
  s.Ring({0, 1, 2, 3});
  for (uint32_t i = 0; i < kB; i++) s.SendOk(0, i, 0);  // fills 1, 2, 3 and 0
  for (uint32_t i = 0; i < kB; i++) s.Take(0, 0);       // the root empties
  for (uint32_t i = 0; i < kB; i++) s.Take(1, 0);       // hart 1 empties
  s.Take(3, 300);                                       // hart 3: one slot at 300
  s.SendOk(0, 77, 100);
  EXPECT_EQ(s.Out(0), 1u) << "hart 2 has no credit: the flit reaches nobody";
  EXPECT_EQ(s.In(1), 0u);
  EXPECT_EQ(s.In(3), kB - 1);
  s.Take(2, 400);
  EXPECT_EQ(s.Out(0), 0u);
  EXPECT_EQ(s.In(1), 1u);
  EXPECT_EQ(s.In(2), kB);
  EXPECT_EQ(s.In(3), kB);
  EXPECT_EQ(s.Take(1, 0).second, 400 + 1 * kHop) << "moved at the latest credit on its path";
  EXPECT_EQ(s.Take(0, 0).second, 400 + 4 * kHop);
}

TEST(ReflexModel, ASendIntoAFullOutboundBufferIsRefused) {
  Switches s(2);
  s.Next(0, 1);  // hart 1 stays OFF
  for (uint32_t i = 0; i < kB; i++) s.SendOk(0, i, 0);
  const char* error = nullptr;
  EXPECT_EQ(s.Send(0, 99, 0, &error), TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_NE(error, nullptr);
  EXPECT_EQ(s.Out(0), kB);
  uint32_t result = 5;
  EXPECT_EQ(s.Csr(0, TESSERA_CSR_REFLEX_SEND, true, 99, 7, &result), TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_EQ(result, 0u) << "REFLEX_SEND reads 0";
  s.Route(1, kCore);
  EXPECT_EQ(s.In(1), kB);
  for (uint32_t i = 0; i < kB; i++) EXPECT_EQ(s.Take(1, 0).first, i) << "in order, none lost";
}

TEST(ReflexModel, WaitSendBlocksUntilTheHeadMovesAndResumesAtTheMove) {
  const TesseraShape shape = Flat(2);
  std::unique_ptr<TesseraWaits, void (*)(TesseraWaits*)> waits(tessera_waits_new(&shape),
                                                               tessera_waits_free);
  Switches s(shape, 1, kHop, waits.get());
  s.Ring({0, 1});
  s.SendOk(1, 1, 0);  // fills the root (B = 1)
  s.SendOk(1, 2, 5);  // held
  uint32_t room = 9;
  uint64_t at = 0;
  EXPECT_EQ(tessera_access_unpack(tessera_reflex_wait_send(s.get(), 1, 20), &room, &at, nullptr),
            TESSERA_ACCESS_BLOCKED);
  EXPECT_STREQ(tessera_waits_operation(waits.get(), 1), "reflex wait-send (outbound buffer full)");
  EXPECT_EQ(tessera_waits_since(waits.get(), 1), 20u);
  EXPECT_EQ(tessera_access_unpack(tessera_reflex_wait_send(s.get(), 1, 30), &room, &at, nullptr),
            TESSERA_ACCESS_BLOCKED)
      << "issued again";
  EXPECT_EQ(tessera_waits_since(waits.get(), 1), 20u);
  EXPECT_TRUE(s.woken.empty());
  s.Take(0, 90);
  EXPECT_EQ(s.woken, std::vector<uint32_t>{1});
  EXPECT_EQ(tessera_waits_count(waits.get()), 0u);
  EXPECT_EQ(tessera_access_unpack(tessera_reflex_wait_send(s.get(), 1, 20), &room, &at, nullptr),
            TESSERA_ACCESS_DONE);
  EXPECT_EQ(room, 1u);
  EXPECT_EQ(at, 90u) << "the move that freed the slot";
}

TEST(ReflexModel, RecvBlocksAndIsWokenByTheFlit) {
  const TesseraShape shape = Flat(3);
  std::unique_ptr<TesseraWaits, void (*)(TesseraWaits*)> waits(tessera_waits_new(&shape),
                                                               tessera_waits_free);
  Switches s(shape, kB, kHop, waits.get());
  s.Ring({0, 1, 2});
  EXPECT_EQ(s.Recv(2, 10), TESSERA_ACCESS_BLOCKED);
  EXPECT_STREQ(tessera_waits_operation(waits.get(), 2), "reflex receive (inbound buffer empty)");
  s.SendOk(0, 3, 50);
  EXPECT_EQ(s.woken, std::vector<uint32_t>{2});
  EXPECT_EQ(tessera_waits_count(waits.get()), 0u);
  EXPECT_EQ(s.Take(2, 10), std::make_pair(3u, uint64_t{50 + 2 * kHop}))
      << "woken at the flit's arrival";
  // Another CSR ends a blocked receive (an interrupt handler ran).
  s.Take(1, 60);
  s.Take(0, 60);
  EXPECT_EQ(s.Recv(1, 70), TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(s.ReadCsr(1, TESSERA_CSR_REFLEX_STATUS), 0u | kB << 16);
  EXPECT_EQ(tessera_waits_count(waits.get()), 0u);
  s.woken.clear();
  s.SendOk(0, 4, 80);
  EXPECT_TRUE(s.woken.empty()) << "hart 1 no longer waits";
  // Reset forgets waits, flits and configuration.
  EXPECT_EQ(s.Recv(2, 90), TESSERA_ACCESS_DONE);
  EXPECT_EQ(s.Recv(2, 90), TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(tessera_waits_count(waits.get()), 1u);
  tessera_reflex_reset(s.get());
  EXPECT_EQ(tessera_waits_count(waits.get()), 0u);
  EXPECT_EQ(s.In(1), 0u);
  EXPECT_FALSE(s.On(1));
  EXPECT_EQ(s.Send(0, 1, 0), TESSERA_ACCESS_GUEST_ERROR) << "no next switch after reset";
}

// ---------------------------------------------------------------------------
// A ring with no root
// ---------------------------------------------------------------------------

TEST(ReflexModel, ARingWithNoRootRefusesASendAndReportsAQueuedFlitOnce) {
  Switches s(3);
  s.Next(0, 1);
  s.Next(1, 2);
  s.Next(2, 0);
  s.Route(1, kBoth);
  s.Route(2, kBoth);
  s.Route(0, kBoth);  // every switch passes on: no root
  const char* error = nullptr;
  EXPECT_EQ(s.Send(0, 1, 0, &error), TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_NE(error, nullptr);
  EXPECT_EQ(s.Out(0), 0u);
  uint32_t hart = 99;
  EXPECT_EQ(s.TakeError(&hart), nullptr) << "refused in the sender's own CSR";

  // A flit queued while the path was held, found to loop when it moves.
  s.Route(2, kOff);
  s.SendOk(0, 2, 0);
  s.SendOk(0, 3, 0);
  EXPECT_EQ(s.Out(0), 2u);
  s.Route(2, kBoth);
  EXPECT_NE(s.TakeError(&hart), nullptr);
  EXPECT_EQ(hart, 0u);
  EXPECT_EQ(s.TakeError(&hart), nullptr) << "reported once";
  s.Route(1, kForward);  // still no root: not reported again
  EXPECT_EQ(s.TakeError(&hart), nullptr);
  EXPECT_EQ(s.Out(0), 2u);
  s.Route(2, kCore);  // a root: the flits move
  EXPECT_EQ(s.Out(0), 0u);
  EXPECT_EQ(s.In(1), 0u) << "forwarded";
  EXPECT_EQ(s.Take(2, 0).first, 2u);
  EXPECT_EQ(s.Take(2, 0).first, 3u);
}

// ---------------------------------------------------------------------------
// The CSRs
// ---------------------------------------------------------------------------

TEST(ReflexModel, TheCsrsDecodeThreadIdsAndRefuseBadAccesses) {
  // 2 boards of 2 tiles of 2 threads: thread ids have holes.
  const TesseraShape shape{2, 1, 2, 1, 1, 2};
  Switches s(shape, kB, kHop, nullptr);
  uint32_t result = 0;
  uint64_t at = 0;
  const char* error = nullptr;
  auto csr = [&](uint32_t hart, uint32_t csrno, bool write, uint32_t value, uint64_t now = 0) {
    error = nullptr;
    return tessera_access_unpack(tessera_reflex_csr(s.get(), hart, csrno, write, value, now),
                                 &result, &at, &error);
  };
  const uint32_t last = tessera_thread_at(&shape, 7);
  EXPECT_EQ(csr(0, TESSERA_CSR_REFLEX_NEXT, true, last), TESSERA_ACCESS_DONE);
  EXPECT_EQ(result, kNoNext) << "the value before";
  EXPECT_EQ(csr(0, TESSERA_CSR_REFLEX_NEXT, false, 0), TESSERA_ACCESS_DONE);
  EXPECT_EQ(result, last) << "a read is no write of 0";
  EXPECT_EQ(csr(0, TESSERA_CSR_REFLEX_NEXT, true, 0xdead), TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_NE(error, nullptr);
  EXPECT_EQ(csr(0, TESSERA_CSR_REFLEX_NEXT, false, 0), TESSERA_ACCESS_DONE);
  EXPECT_EQ(result, last) << "unchanged";
  EXPECT_EQ(csr(0, TESSERA_CSR_REFLEX_ROUTE, true, kBoth), TESSERA_ACCESS_DONE);
  EXPECT_EQ(result, kOff);
  EXPECT_EQ(csr(0, TESSERA_CSR_REFLEX_ROUTE, false, 0), TESSERA_ACCESS_DONE);
  EXPECT_EQ(result, kBoth);
  EXPECT_EQ(csr(0, TESSERA_CSR_REFLEX_ROUTE, true, 4), TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_EQ(csr(7, TESSERA_CSR_REFLEX_ROUTE, true, kCore), TESSERA_ACCESS_DONE);
  for (uint32_t csrno :
       {TESSERA_CSR_REFLEX_RECV, TESSERA_CSR_REFLEX_STATUS, TESSERA_CSR_REFLEX_WAIT_SEND}) {
    EXPECT_EQ(csr(0, csrno, true, 1), TESSERA_ACCESS_GUEST_ERROR) << std::hex << csrno;
    EXPECT_NE(error, nullptr);
  }
  EXPECT_EQ(csr(0, TESSERA_CSR_REFLEX_SEND, false, 0), TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_EQ(csr(0, TESSERA_CSR_REFLEX_STATUS, false, 0), TESSERA_ACCESS_DONE);
  EXPECT_EQ(result, 0u | kB << 16);
  EXPECT_EQ(csr(0, TESSERA_CSR_REFLEX_SEND, true, 0x1234, 10), TESSERA_ACCESS_DONE);
  EXPECT_EQ(result, 1u);
  EXPECT_EQ(at, 10u);
  EXPECT_EQ(csr(7, TESSERA_CSR_REFLEX_STATUS, false, 0), TESSERA_ACCESS_DONE);
  EXPECT_EQ(result, 1u | kB << 16);
  EXPECT_EQ(csr(7, TESSERA_CSR_REFLEX_RECV, false, 0, 3), TESSERA_ACCESS_DONE);
  EXPECT_EQ(result, 0x1234u);
  EXPECT_EQ(at, 10u + kHop);
  EXPECT_EQ(csr(7, TESSERA_CSR_REFLEX_RECV, false, 0, 3), TESSERA_ACCESS_BLOCKED);
  EXPECT_EQ(csr(0, TESSERA_CSR_REFLEX_WAIT_SEND, false, 0, 3), TESSERA_ACCESS_DONE);
  EXPECT_EQ(result, kB);
  EXPECT_EQ(csr(0, 0x815, false, 0), TESSERA_ACCESS_GUEST_ERROR) << "not a reflex CSR";
  EXPECT_EQ(csr(8, TESSERA_CSR_REFLEX_STATUS, false, 0), TESSERA_ACCESS_GUEST_ERROR) << "no hart 8";
}

// ---------------------------------------------------------------------------
// The reflex barrier (DESIGN 1.4) on the model
// ---------------------------------------------------------------------------

// A discrete-event schedule: every hart runs a list of operations on its
// own clock; the hart with the smallest clock that can run goes next. A
// blocked hart waits for the model's wake and then issues the call again.
class Schedule {
 public:
  // kUntil: compute until the clock reads arg. kRoute, kNext: CSR writes
  // (kNext: arg a thread id).
  enum class Kind { kSend, kRecv, kWaitSend, kCompute, kUntil, kRoute, kNext, kNotified, kLeft };
  struct Op {
    Kind kind;
    uint64_t arg;  // flit, cycles, or episode
  };
  struct Event {
    uint64_t clock = UINT64_MAX;
    uint64_t order = UINT64_MAX;  // position in the schedule
  };

  Schedule(uint32_t harts, uint32_t b, uint32_t hop, TesseraWaits* waits = nullptr)
      : s(Flat(harts), b, hop, waits), b_(b), harts_(harts), hart_(harts) {}
  Schedule(const TesseraShape& shape, uint32_t b, uint32_t hop)
      : s(shape, b, hop, nullptr), b_(b), harts_(tessera_num_threads(&shape)), hart_(harts_) {}

  uint32_t b() const { return b_; }
  std::deque<Op>& ops(uint32_t hart) { return hart_[hart].ops; }
  void Add(uint32_t hart, Kind kind, uint64_t arg = 0) { ops(hart).push_back(Op{kind, arg}); }
  void SendWhenRoom(uint32_t hart, uint32_t flit) {
    Add(hart, Kind::kWaitSend);
    Add(hart, Kind::kSend, flit);
  }
  void Recvs(uint32_t hart, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) Add(hart, Kind::kRecv);
  }

  // Runs until no hart can; true if every hart finished its operations.
  bool Run() {
    std::set<std::pair<uint64_t, uint32_t>> ready;  // (clock, hart): the earliest runs
    for (uint32_t i = 0; i < harts_; i++) {
      if (!hart_[i].blocked && !hart_[i].ops.empty()) ready.emplace(hart_[i].clock, i);
    }
    while (!ready.empty()) {
      const uint32_t i = ready.begin()->second;
      ready.erase(ready.begin());
      Step(i);
      if (::testing::Test::HasFatalFailure()) return false;
      if (!hart_[i].blocked && !hart_[i].ops.empty()) ready.emplace(hart_[i].clock, i);
      for (uint32_t w : s.woken) {
        EXPECT_TRUE(hart_[w].blocked) << "woke hart " << w << ", which was not blocked";
        hart_[w].blocked = false;
        if (!hart_[w].ops.empty()) ready.emplace(hart_[w].clock, w);
      }
      s.woken.clear();
    }
    return std::all_of(hart_.begin(), hart_.end(), [](const Hart& h) { return h.ops.empty(); });
  }

  uint64_t clock(uint32_t hart) const { return hart_[hart].clock; }
  void set_clock(uint32_t hart, uint64_t clock) { hart_[hart].clock = clock; }
  const Event& notified(uint32_t hart, uint64_t episode) const {
    return At(hart_[hart].notified, episode);
  }
  const Event& left(uint32_t hart, uint64_t episode) const { return At(hart_[hart].left, episode); }
  const std::vector<uint32_t>& received(uint32_t hart) const { return hart_[hart].received; }

  Switches s;

 private:
  struct Hart {
    std::deque<Op> ops;
    uint64_t clock = 0;
    bool blocked = false;
    std::vector<Event> notified, left;
    std::vector<uint32_t> received;
  };

  static const Event& At(const std::vector<Event>& v, uint64_t i) {
    static const Event never;
    return i < v.size() ? v[i] : never;
  }
  static void Record(std::vector<Event>& v, uint64_t i, Event e) {
    if (v.size() <= i) v.resize(i + 1);
    v[i] = e;
  }

  void Step(uint32_t i) {
    Hart& h = hart_[i];
    const Op op = h.ops.front();
    uint64_t at = h.clock;
    switch (op.kind) {
      case Kind::kSend: {
        uint32_t result = 0;
        const char* error = nullptr;
        ASSERT_EQ(
            tessera_access_unpack(tessera_reflex_csr(s.get(), i, TESSERA_CSR_REFLEX_SEND, true,
                                                     static_cast<uint32_t>(op.arg), h.clock),
                                  &result, &at, &error),
            TESSERA_ACCESS_DONE)
            << "hart " << i << ": " << error;
        break;
      }
      case Kind::kRecv:
      case Kind::kWaitSend: {
        uint32_t result = 0;
        const char* error = nullptr;
        const TesseraAccessStatus r = tessera_access_unpack(
            tessera_reflex_csr(
                s.get(), i,
                op.kind == Kind::kRecv ? TESSERA_CSR_REFLEX_RECV : TESSERA_CSR_REFLEX_WAIT_SEND,
                false, 0, h.clock),
            &result, &at, &error);
        if (r == TESSERA_ACCESS_BLOCKED) {
          h.blocked = true;
          return;
        }
        ASSERT_EQ(r, TESSERA_ACCESS_DONE) << error;
        if (op.kind == Kind::kRecv) h.received.push_back(result);
        break;
      }
      case Kind::kCompute:
        at = h.clock + op.arg;
        break;
      case Kind::kUntil:
        at = std::max(h.clock, op.arg);
        break;
      case Kind::kRoute:
      case Kind::kNext: {
        uint32_t result = 0;
        const char* error = nullptr;
        ASSERT_EQ(tessera_access_unpack(
                      tessera_reflex_csr(s.get(), i,
                                         op.kind == Kind::kRoute ? TESSERA_CSR_REFLEX_ROUTE
                                                                 : TESSERA_CSR_REFLEX_NEXT,
                                         true, static_cast<uint32_t>(op.arg), h.clock),
                      &result, &at, &error),
                  TESSERA_ACCESS_DONE)
            << "hart " << i << ": " << error;
        break;
      }
      case Kind::kNotified:
        Record(h.notified, op.arg, Event{h.clock, order_});
        break;
      case Kind::kLeft:
        Record(h.left, op.arg, Event{h.clock, order_});
        break;
    }
    EXPECT_GE(at, h.clock) << "time goes backwards on hart " << i;
    h.clock = at;
    order_++;
    h.ops.pop_front();
  }

  uint32_t b_, harts_;
  std::vector<Hart> hart_;
  uint64_t order_ = 0;
};

// The barrier's three steps for one member of a ring whose root is `root`,
// as docs/reflex.md gives them (B = buffer flits):
//   Init (root, once): send B.
//   Notify: root sends 1; every other member receives B.
//   Wait: root receives B+1, then sends B; every other member receives 1.
void Init(Schedule& sc, uint32_t root) {
  for (uint32_t i = 0; i < sc.b(); i++) sc.SendWhenRoom(root, 0x1000 + i);
}
void Notify(Schedule& sc, uint32_t hart, uint32_t root, uint64_t episode) {
  sc.Add(hart, Schedule::Kind::kNotified, episode);
  if (hart == root) {
    sc.SendWhenRoom(hart, static_cast<uint32_t>(episode));
  } else {
    sc.Recvs(hart, sc.b());
  }
}
void Wait(Schedule& sc, uint32_t hart, uint32_t root, uint64_t episode) {
  if (hart == root) {
    sc.Recvs(hart, sc.b() + 1);
    for (uint32_t i = 0; i < sc.b(); i++) sc.SendWhenRoom(hart, static_cast<uint32_t>(episode));
  } else {
    sc.Recvs(hart, 1);
  }
  sc.Add(hart, Schedule::Kind::kLeft, episode);
}
// DESIGN 1.4's literal text: the root's Wait receives B+1, sends B+1 and
// receives 1 more.
void LiteralWait(Schedule& sc, uint32_t hart, uint32_t root, uint64_t episode) {
  if (hart == root) {
    sc.Recvs(hart, sc.b() + 1);
    for (uint32_t i = 0; i <= sc.b(); i++) sc.SendWhenRoom(hart, static_cast<uint32_t>(episode));
    sc.Recvs(hart, 1);
  } else {
    sc.Recvs(hart, 1);
  }
  sc.Add(hart, Schedule::Kind::kLeft, episode);
}

// No member leaves episode k before every member has notified in it: in the
// order of the schedule and in modelled time.
void ExpectBarrier(const Schedule& sc, const std::vector<uint32_t>& ring, uint64_t episodes) {
  for (uint64_t k = 0; k < episodes; k++) {
    uint64_t last_notify_order = 0, last_notify_clock = 0;
    for (uint32_t h : ring) {
      ASSERT_NE(sc.notified(h, k).order, UINT64_MAX) << "hart " << h << " episode " << k;
      last_notify_order = std::max(last_notify_order, sc.notified(h, k).order);
      last_notify_clock = std::max(last_notify_clock, sc.notified(h, k).clock);
    }
    for (uint32_t h : ring) {
      ASSERT_GT(sc.left(h, k).order, last_notify_order) << "hart " << h << " episode " << k;
      ASSERT_GE(sc.left(h, k).clock, last_notify_clock) << "hart " << h << " episode " << k;
    }
  }
}

std::vector<uint32_t> Members(uint32_t first, uint32_t count, uint32_t stride = 1) {
  std::vector<uint32_t> v;
  for (uint32_t i = 0; i < count; i++) v.push_back(first + i * stride);
  return v;
}

TEST(ReflexBarrier, FullBarriersOnSmallRings) {
  for (uint32_t harts : {1u, 2u, 3u, 5u}) {
    for (uint32_t b : {1u, 2u, 4u}) {
      Schedule sc(harts, b, kHop);
      const std::vector<uint32_t> ring = Members(0, harts);
      sc.s.Ring(ring);
      Init(sc, 0);
      constexpr uint64_t kEpisodes = 20;
      for (uint64_t k = 0; k < kEpisodes; k++) {
        for (uint32_t h : ring) {
          if (h == (k % harts)) sc.Add(h, Schedule::Kind::kCompute, 50 + k);
          Notify(sc, h, 0, k);
          Wait(sc, h, 0, k);
        }
      }
      ASSERT_TRUE(sc.Run()) << harts << " harts, B " << b << ": deadlock";
      ExpectBarrier(sc, ring, kEpisodes);
      for (uint32_t h : ring) EXPECT_EQ(sc.s.In(h), b) << "every buffer full between episodes";
    }
  }
}

// Two full barriers on a ring of 4 with the root late in the second
// (episode 1, counting from 0), with the given Wait.
template <typename WaitStep>
void RootLateInEpisode1(Schedule& sc, const std::vector<uint32_t>& ring, WaitStep wait) {
  constexpr uint32_t kLate = 1000;
  const uint32_t root = ring[0];
  sc.s.Ring(ring);
  Init(sc, root);
  for (uint64_t k = 0; k < 2; k++) {
    for (uint32_t h : ring) {
      if (k == 1 && h == root) sc.Add(h, Schedule::Kind::kCompute, kLate);
      Notify(sc, h, root, k);
      wait(sc, h, root, k);
    }
  }
}

// DESIGN 1.4's literal text has the root send B+1 in Wait and receive one
// more. Every root flit reaches every other member, so each of them gets
// B+2 flits per episode (the notify flit and B+1) but receives only B+1:
// one flit is left over each episode. In episode 1 a non-root's Wait reads
// that surplus flit, sent by the root in episode 0, and leaves before the
// root has notified. docs/reflex.md cites this test.
TEST(ReflexBarrier, LiteralDesignTextLetsAThreadLeaveBeforeTheRootNotifies) {
  constexpr uint32_t kHarts = 4, kRoot = 0;
  const std::vector<uint32_t> ring = Members(0, kHarts);
  Schedule sc(kHarts, kB, kHop);
  RootLateInEpisode1(sc, ring, LiteralWait);
  ASSERT_TRUE(sc.Run());
  for (uint32_t h = 1; h < kHarts; h++) {
    EXPECT_LT(sc.left(h, 1).order, sc.notified(kRoot, 1).order) << "hart " << h;
    EXPECT_LT(sc.left(h, 1).clock, sc.notified(kRoot, 1).clock) << "hart " << h;
    EXPECT_EQ(sc.received(h).back(), 0u) << "the flit it left on is the root's from episode 0";
  }
  // The corrected counts on the same schedule hold the others back.
  Schedule fixed(kHarts, kB, kHop);
  RootLateInEpisode1(fixed, ring, Wait);
  ASSERT_TRUE(fixed.Run());
  ExpectBarrier(fixed, ring, 2);
}

// Episodes a member has left.
uint64_t EpisodesLeft(const Schedule& sc, uint32_t hart) {
  uint64_t k = 0;
  while (sc.left(hart, k).order != UINT64_MAX) k++;
  return k;
}

// The first episode some member left before every member had notified, or
// `episodes` if none.
uint64_t FirstEarlyLeave(const Schedule& sc, const std::vector<uint32_t>& ring, uint64_t episodes) {
  for (uint64_t k = 0; k < episodes; k++) {
    uint64_t last = 0;
    for (uint32_t h : ring) last = std::max(last, sc.notified(h, k).order);
    for (uint32_t h : ring) {
      if (sc.left(h, k).order != UINT64_MAX && sc.left(h, k).order < last) return k;
    }
  }
  return episodes;
}

// The literal counts with nobody late: the others gain on the root, one
// episode every B+1 (they need B+1 flits per episode and get B+2), so they
// do not wait for it; once they stop, the root is stuck.
TEST(ReflexBarrier, LiteralDesignTextLetsTheOthersRunAheadOfTheRoot) {
  constexpr uint32_t kHarts = 4, kEpisodes = 40;
  const std::vector<uint32_t> ring = Members(0, kHarts);
  for (uint32_t b : {1u, 2u, 4u}) {
    Schedule sc(kHarts, b, kHop);
    sc.s.Ring(ring);
    Init(sc, 0);
    for (uint64_t k = 0; k < kEpisodes; k++) {
      for (uint32_t h : ring) {
        Notify(sc, h, 0, k);
        LiteralWait(sc, h, 0, k);
      }
    }
    EXPECT_FALSE(sc.Run()) << "B " << b << ": the root never finishes";
    for (uint32_t h = 1; h < kHarts; h++) EXPECT_EQ(EpisodesLeft(sc, h), kEpisodes);
    // The others' B+1 per episode come from the root's B+2 per episode.
    EXPECT_LE(EpisodesLeft(sc, 0), kEpisodes * (b + 1) / (b + 2) + 2) << "B " << b;
    EXPECT_EQ(FirstEarlyLeave(sc, ring, kEpisodes), 2u) << "B " << b;
  }
}

// Full barriers of `episodes` on `ring` (ring[0] the root): before each
// notify a member computes before(hart, k) cycles, and between notify and
// wait between(hart, k).
template <typename Before, typename Between>
void AddBarriers(Schedule& sc, const std::vector<uint32_t>& ring, uint64_t episodes, Before before,
                 Between between) {
  const uint32_t root = ring[0];
  Init(sc, root);
  for (uint64_t k = 0; k < episodes; k++) {
    for (uint32_t h : ring) {
      if (const uint64_t c = before(h, k)) sc.Add(h, Schedule::Kind::kCompute, c);
      Notify(sc, h, root, k);
      if (const uint64_t c = between(h, k)) sc.Add(h, Schedule::Kind::kCompute, c);
      Wait(sc, h, root, k);
    }
  }
}

uint64_t None(uint32_t, uint64_t) {
  return 0;
}

TEST(ReflexBarrier, NoThreadLeavesBeforeEveryThreadNotifiedWithOneLateEachEpisode) {
  constexpr uint64_t kEpisodes = 1000;
  for (const auto& [harts, b] : {std::pair{64u, 4u}, std::pair{257u, 1u}, std::pair{5u, 2u}}) {
    std::mt19937 rng(harts * 31 + b);
    // The late member of each episode: the root every 4th, else any; late by 1..2000 cycles.
    std::vector<uint32_t> late(kEpisodes);
    std::vector<uint64_t> by(kEpisodes);
    for (uint64_t k = 0; k < kEpisodes; k++) {
      late[k] = k % 4 == 0 ? 0 : rng() % harts;
      by[k] = 1 + rng() % 2000;
    }
    Schedule sc(harts, b, kHop);
    const std::vector<uint32_t> ring = Members(0, harts);
    sc.s.Ring(ring);
    AddBarriers(
        sc, ring, kEpisodes, [&](uint32_t h, uint64_t k) { return h == late[k] ? by[k] : 0; },
        None);
    ASSERT_TRUE(sc.Run()) << harts << " harts: deadlock";
    ExpectBarrier(sc, ring, kEpisodes);
    // The late member holds everyone: nobody leaves before its notify plus
    // the hops from it to the root and back to them... at least its notify.
    for (uint64_t k = 0; k < kEpisodes; k++) {
      const uint64_t notified = sc.notified(late[k], k).clock;
      for (uint32_t h : ring) ASSERT_GE(sc.left(h, k).clock, notified);
    }
  }
}

TEST(ReflexBarrier, SplitPhaseComputationBetweenNotifyAndWait) {
  constexpr uint32_t kHarts = 16, kLong = 10000;
  constexpr uint64_t kEpisodes = 300, kSlowEpisode = 100, kSlowHart = 6;
  std::mt19937 rng(5);
  std::vector<std::vector<uint64_t>> between(kHarts, std::vector<uint64_t>(kEpisodes));
  for (auto& v : between) {
    for (auto& c : v) c = rng() % 300;
  }
  between[kSlowHart][kSlowEpisode] = kLong;
  Schedule sc(kHarts, kB, kHop);
  const std::vector<uint32_t> ring = Members(0, kHarts);
  sc.s.Ring(ring);
  AddBarriers(
      sc, ring, kEpisodes, [](uint32_t, uint64_t) { return 1000u; },
      [&](uint32_t h, uint64_t k) { return between[h][k]; });
  ASSERT_TRUE(sc.Run());
  ExpectBarrier(sc, ring, kEpisodes);
  // Notify returned at once: the slow member's long computation overlapped
  // the barrier, so its wait costs nothing, and nobody else waited for it.
  const uint64_t slow_notified = sc.notified(kSlowHart, kSlowEpisode).clock;
  EXPECT_EQ(sc.left(kSlowHart, kSlowEpisode).clock, slow_notified + kLong);
  for (uint32_t h : ring) {
    if (h != kSlowHart) {
      EXPECT_LT(sc.left(h, kSlowEpisode).clock, slow_notified + kLong);
    }
  }
}

TEST(ReflexBarrier, TwoDisjointRingsAtOnce) {
  constexpr uint32_t kHarts = 10;
  constexpr uint64_t kEpisodes = 300;
  const std::vector<uint32_t> evens = {0, 2, 4, 6, 8};
  const std::vector<uint32_t> odds = {5, 7, 9, 1, 3};  // root 5
  auto late = [](const std::vector<uint32_t>& ring, uint32_t seed) {
    return [ring, seed](uint32_t h, uint64_t k) -> uint64_t {
      return h == ring[(k * seed) % ring.size()] ? 100 + (k * 37 + seed) % 900 : 0;
    };
  };
  Schedule both(kHarts, kB, kHop);
  both.s.Ring(evens);
  both.s.Ring(odds);
  AddBarriers(both, evens, kEpisodes, late(evens, 3), None);
  AddBarriers(both, odds, kEpisodes, late(odds, 7), None);
  ASSERT_TRUE(both.Run());
  ExpectBarrier(both, evens, kEpisodes);
  ExpectBarrier(both, odds, kEpisodes);
  // Neither ring feels the other: each alone gives the same times.
  Schedule alone(kHarts, kB, kHop);
  alone.s.Ring(evens);
  AddBarriers(alone, evens, kEpisodes, late(evens, 3), None);
  ASSERT_TRUE(alone.Run());
  for (uint64_t k = 0; k < kEpisodes; k++) {
    for (uint32_t h : evens) ASSERT_EQ(both.left(h, k).clock, alone.left(h, k).clock);
  }
}

TEST(ReflexBarrier, ARingMayStartWhileItsMembersConfigure) {
  constexpr uint32_t kHarts = 6;
  const TesseraShape shape{2, 1, 1, 1, 1, 4};  // 8 harts on 2 boards; the ring: 6 of them
  Schedule sc(shape, kB, kHop);
  const std::vector<uint32_t> ring = {0, 5, 2, 7, 4, 1};
  ASSERT_EQ(ring.size(), kHarts);
  std::mt19937 rng(9);
  for (size_t i = 0; i < ring.size(); i++) {
    const uint32_t h = ring[i];
    sc.Add(h, Schedule::Kind::kCompute, rng() % 500);
    sc.Add(h, Schedule::Kind::kNext, tessera_thread_at(&shape, ring[(i + 1) % ring.size()]));
    sc.Add(h, Schedule::Kind::kRoute, i == 0 ? kCore : kBoth);
  }
  AddBarriers(
      sc, ring, 50, [](uint32_t h, uint64_t k) { return (h * 7 + k * 13) % 200; }, None);
  ASSERT_TRUE(sc.Run());
  ExpectBarrier(sc, ring, 50);
  EXPECT_EQ(sc.s.In(3), 0u) << "not a member";
}

// The cost rule: with simultaneous arrival at T, the member h hops after
// the root leaves at T + h * hop and the root at T + P * hop, so one
// barrier's completion grows by exactly one hop latency per extra hart.
void ExpectCost(uint32_t harts, uint32_t b, uint32_t hop, uint64_t episodes) {
  Schedule sc(harts, b, hop);
  const std::vector<uint32_t> ring = Members(0, harts);
  sc.s.Ring(ring);
  Init(sc, 0);
  const uint64_t period = (3ull * harts + 10) * hop + 10;  // the previous episode has settled
  for (uint64_t k = 0; k < episodes; k++) {
    for (uint32_t h : ring) {
      sc.Add(h, Schedule::Kind::kUntil, (k + 1) * period);
      Notify(sc, h, 0, k);
      Wait(sc, h, 0, k);
    }
  }
  ASSERT_TRUE(sc.Run()) << harts << " harts";
  for (uint64_t k = 0; k < episodes; k++) {
    const uint64_t t = (k + 1) * period;
    for (uint32_t h = 1; h < harts; h++) {
      ASSERT_EQ(sc.left(h, k).clock, t + uint64_t{h} * hop) << harts << " harts, hart " << h;
    }
    ASSERT_EQ(sc.left(0, k).clock, t + uint64_t{harts} * hop)
        << harts << " harts, B " << b << ": completion";
  }
}

TEST(ReflexBarrier, CompletionGrowsByOneHopPerExtraHart) {
  for (uint32_t harts : {1u, 2u, 3u, 4u, 5u, 64u, 257u}) {
    for (uint32_t b : {1u, 4u}) {
      ExpectCost(harts, b, 1, 5);
      ExpectCost(harts, b, kHop, 5);
    }
  }
}

TEST(ReflexBarrier, SixtyFiveThousandHartsCostOneHopEach) {
  ExpectCost(65536, 4, 1, 2);
}

// What goes wrong when a step of the protocol is skipped.

// The others' first Notify waits for B flits that only Init provides.
TEST(ReflexBarrierSkipped, WithoutInitTheFirstNotifyDeadlocks) {
  constexpr uint32_t kHarts = 5;
  Schedule sc(kHarts, kB, kHop);
  const std::vector<uint32_t> ring = Members(0, kHarts);
  sc.s.Ring(ring);
  for (uint32_t h : ring) {
    Notify(sc, h, 0, 0);
    Wait(sc, h, 0, 0);
  }
  EXPECT_FALSE(sc.Run());
  for (uint32_t h : ring) EXPECT_EQ(EpisodesLeft(sc, h), 0u);
  for (uint32_t h = 1; h < kHarts; h++) {
    EXPECT_EQ(sc.received(h).size(), 1u) << "only the notify flit came";
  }
}

// The root's B sends at the end of Wait refill the others for the next
// Notify; without them the next episode deadlocks.
TEST(ReflexBarrierSkipped, WithoutTheRootsWaitSendsTheNextNotifyDeadlocks) {
  constexpr uint32_t kHarts = 5;
  Schedule sc(kHarts, kB, kHop);
  const std::vector<uint32_t> ring = Members(0, kHarts);
  sc.s.Ring(ring);
  Init(sc, 0);
  for (uint64_t k = 0; k < 2; k++) {
    for (uint32_t h : ring) {
      Notify(sc, h, 0, k);
      if (h == 0) {
        sc.Recvs(h, kB + 1);
        sc.Add(h, Schedule::Kind::kLeft, k);
      } else {
        Wait(sc, h, 0, k);
      }
    }
  }
  EXPECT_FALSE(sc.Run());
  for (uint32_t h : ring) EXPECT_EQ(EpisodesLeft(sc, h), 1u) << "hart " << h;
}

// A member that receives fewer than B in Notify finds a flit of the
// previous episode in its Wait and leaves before the others notify.
TEST(ReflexBarrierSkipped, AMemberThatReceivesTooFewInNotifyLeavesEarly) {
  constexpr uint32_t kHarts = 5, kShort = 3;
  Schedule sc(kHarts, kB, kHop);
  const std::vector<uint32_t> ring = Members(0, kHarts);
  sc.s.Ring(ring);
  Init(sc, 0);
  for (uint32_t h : ring) {
    if (h == 4) sc.Add(h, Schedule::Kind::kCompute, 500);  // late
    if (h == kShort) {
      sc.Add(h, Schedule::Kind::kNotified, 0);
      sc.Recvs(h, kB - 1);
    } else {
      Notify(sc, h, 0, 0);
    }
    Wait(sc, h, 0, 0);
  }
  sc.Run();
  EXPECT_LT(sc.left(kShort, 0).order, sc.notified(4, 0).order);
  EXPECT_LT(sc.left(kShort, 0).clock, sc.notified(4, 0).clock);
}

// A root that receives only B in Wait reads the flits of the previous
// episode, not its notify flit come round: it leaves at once.
TEST(ReflexBarrierSkipped, ARootThatReceivesOnlyBInWaitLeavesEarly) {
  constexpr uint32_t kHarts = 5;
  Schedule sc(kHarts, kB, kHop);
  const std::vector<uint32_t> ring = Members(0, kHarts);
  sc.s.Ring(ring);
  Init(sc, 0);
  for (uint32_t h : ring) {
    if (h == 2) sc.Add(h, Schedule::Kind::kCompute, 500);  // late
    Notify(sc, h, 0, 0);
    if (h == 0) {
      sc.Recvs(h, kB);
      sc.Add(h, Schedule::Kind::kLeft, 0);
    } else {
      Wait(sc, h, 0, 0);
    }
  }
  sc.Run();
  EXPECT_LT(sc.left(0, 0).order, sc.notified(2, 0).order);
  EXPECT_LT(sc.left(0, 0).clock, sc.notified(2, 0).clock);
}

// A ring whose root also passes flits on has no root: the root's sends are
// refused, so Init cannot even start.
TEST(ReflexBarrierSkipped, ARingWithoutARootRefusesInit) {
  Switches s(4);
  s.Ring({0, 1, 2, 3});
  s.Route(0, kBoth);
  const char* error = nullptr;
  EXPECT_EQ(s.Send(0, 1, 0, &error), TESSERA_ACCESS_GUEST_ERROR);
  EXPECT_NE(error, nullptr);
}

// B = 1: a root that sends without waiting for room finds its outbound
// buffer still holding the last Wait flit (a member has not yet read the
// notify flit ahead of it): the send is refused.
TEST(ReflexBarrierSkipped, ARootThatSendsWithoutWaitSendIsRefused) {
  Switches s(3, 1, kHop);
  s.Ring({0, 1, 2});
  s.SendOk(0, 0, 0);  // Init: fills 1, 2 and 0
  // Episode 0.
  s.SendOk(0, 1, 10);  // notify: held by the full root
  s.Take(1, 10);
  s.Take(2, 10);
  s.Take(0, 10);       // the Init flit; the notify flit moves
  s.Take(0, 10);       // the notify flit back: B + 1
  s.Take(1, 20);       // hart 1 leaves; hart 2 has not read the notify flit yet
  s.SendOk(0, 2, 30);  // Wait's B sends: held by hart 2
  const char* error = nullptr;
  EXPECT_EQ(s.Send(0, 3, 40, &error), TESSERA_ACCESS_GUEST_ERROR) << "episode 1's notify";
  uint32_t room = 0;
  uint64_t at = 0;
  EXPECT_EQ(tessera_access_unpack(tessera_reflex_wait_send(s.get(), 0, 40), &room, &at, nullptr),
            TESSERA_ACCESS_BLOCKED);
  s.Take(2, 50);
  EXPECT_EQ(tessera_access_unpack(tessera_reflex_wait_send(s.get(), 0, 40), &room, &at, nullptr),
            TESSERA_ACCESS_DONE);
  EXPECT_EQ(at, 50u) << "the read that let the Wait flit move";
}

}  // namespace
