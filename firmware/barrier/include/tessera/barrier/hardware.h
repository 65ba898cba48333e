// The hardware barriers behind the barrier API (barrier.h): each a thin adapter over a driver.
// Their constructors take the thread's Endpoint like the software barriers' do, so that every
// barrier is built the same way, but none of them sends a mailbox message.
//
//   IdleBarrier        "idle"        tinselIdle (docs/idle.md): the whole machine only, and only
//                                    with no application message in flight
//   OcBusBarrier       "ocbus"       the open-collector bus's ACWT (docs/ocbus.md): any group,
//                                    one group at a time; every non-member calls stand_aside()
//   ReflexRingBarrier  "reflex"      a reflex ring over the members in rank order (docs/reflex.md)
//   ControllerBarrier  "controller"  the counting barrier controller (docs/barrier-controller.md)
//
// A driver's refusal during an episode cannot be answered by the caller of notify()/wait(): it
// ends the run with the endpoint's protocol-error report (endpoint.h).
#pragma once

#include <stdint.h>

#include "tessera/barrier/endpoint.h"
#include "tessera/barrier/group.h"
#include "tessera/drivers/ocbus.h"
#include "tessera/drivers/reflex.h"
#include "tessera/status.h"

namespace tessera::barrier {

// What the hardware barriers share: the group, the caller's rank, the episode count, the
// full barrier as notify then wait, and nothing to give back by default.
template <typename Derived>
class HardwareBarrierBase {
 public:
  void barrier() {
    self().notify();
    self().wait();
  }
  void finish() {}
  uint32_t episode() const { return episode_; }
  uint32_t rank() const { return rank_; }

 protected:
  HardwareBarrierBase(Endpoint& endpoint, const Group& group)
      : endpoint_(endpoint), group_(group) {}
  // The caller's rank, or InvalidArgument if it is not a member.
  [[nodiscard]] Status join() {
    rank_ = group_.rank_of(endpoint_.thread_id());
    return rank_ == Group::kNotMember ? Status::InvalidArgument() : OkStatus();
  }

  Endpoint& endpoint_;
  Group group_;
  uint32_t rank_ = Group::kNotMember;
  uint32_t episode_ = 0;

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
};

// The machine's termination detector as a barrier: every thread calls idle and the detector
// releases them all once nothing is left to do. Only for the whole machine (InvalidArgument
// otherwise), and only for programs with no application message in flight at the barrier: a
// message arriving at a thread in the barrier ends the run (endpoint.h's report).
class IdleBarrier : public HardwareBarrierBase<IdleBarrier> {
 public:
  static constexpr const char* kName = "idle";
  IdleBarrier(Endpoint& endpoint, const Group& group) : HardwareBarrierBase(endpoint, group) {}
  [[nodiscard]] Status init();
  void notify() { episode_++; }
  void wait();
};

// ACWT on the open-collector bus: three settle times per episode whatever the group's size.
// The lines span the machine, so one group at a time may use them, and every thread that is not
// a member calls stand_aside() once (it releases every line and leaves the bus alone). init()
// clamps the member's lines, ACWT's start state: every member's init() and every non-member's
// stand_aside() must be done before any member's first wait (set-up synchronises in between).
class OcBusBarrier : public HardwareBarrierBase<OcBusBarrier> {
 public:
  static constexpr const char* kName = "ocbus";
  OcBusBarrier(Endpoint& endpoint, const Group& group) : HardwareBarrierBase(endpoint, group) {}
  [[nodiscard]] Status init();
  void notify() { episode_++; }
  void wait() { protocols_.barrier(); }
  static void stand_aside();

 private:
  drivers::OcBusProtocols protocols_;
};

// The reflex barrier over a ring of the group's members in rank order, rank 0 its root. Split
// phase in hardware: notify() sends the arrival flit and returns. A thread's one switch serves
// one ring at a time.
class ReflexRingBarrier : public HardwareBarrierBase<ReflexRingBarrier> {
 public:
  static constexpr const char* kName = "reflex";
  ReflexRingBarrier(Endpoint& endpoint, const Group& group);
  [[nodiscard]] Status init();
  void notify();
  void wait();
  // Between episodes the root's B flits of the next episode sit in every member's inbound
  // buffer: finish() takes them and unconfigures the switch, so that another ring can use it.
  void finish();

 private:
  Status ring_status_;  // of making ring_ (before it: set while ring_ is made)
  drivers::ReflexRing ring_;
  drivers::ReflexBarrier reflex_;
};

// The counting barrier controller: wait() enters the group's uid with the group's size and
// blocks until the last member has entered. The uid defaults to one derived from the group:
// 4 x (dense index of its rank-0 member) + tag, modulo the uid range, so that disjoint groups and
// a thread's overlapping groups (told apart by tag) get different uids on machines of up to
// 16,384 threads; pass a uid to choose it.
class ControllerBarrier : public HardwareBarrierBase<ControllerBarrier> {
 public:
  static constexpr const char* kName = "controller";
  static constexpr uint32_t kDerivedUid = 0xffffffffu;
  ControllerBarrier(Endpoint& endpoint, const Group& group, uint32_t uid = kDerivedUid)
      : HardwareBarrierBase(endpoint, group), uid_(uid) {}
  [[nodiscard]] Status init();
  void notify() { episode_++; }
  void wait();
  uint32_t uid() const { return uid_; }

 private:
  uint32_t uid_;
};

}  // namespace tessera::barrier
