#include "tessera/barrier/hardware.h"

#include <stdint.h>

#include "tessera/drivers/barrier_ctl.h"
#include "tessera/drivers/mailbox_core.h"
#include "tessera/drivers/ocbus.h"
#include "tessera/drivers/reflex.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/status.h"

namespace tessera::barrier {

// ---- tinselIdle ---------------------------------------------------------------------------------

Status IdleBarrier::init() {
  if (!group_.is_all()) {
    return Status::InvalidArgument();
  }
  return join();
}

void IdleBarrier::wait() {
  if (tessera_mbox_idle(1) == 0) {
    endpoint_.protocol_error("a message arrived at a thread in the idle barrier", episode_, 0);
  }
}

// ---- Open-collector bus
// ---------------------------------------------------------------------------

// The protocol starts with every line of every member clamped (ACWT's start state, and the
// lines' reset state); a thread that stood aside before, or used the bus otherwise, gets there
// again. Every member must have done so before any member's first wait: the app's or test's
// set-up synchronises in between.
Status OcBusBarrier::init() {
  if (const Status s = join(); !s.ok()) {
    return s;
  }
  protocols_.bus().drive(0);
  return OkStatus();
}

void OcBusBarrier::stand_aside() {
  const drivers::OcBus bus;
  bus.drive(bus.all_lines());
}

// ---- Reflex ring
// ----------------------------------------------------------------------------------

namespace {

drivers::ReflexRing ring_of(const Group& group, Status* status) {
  if (group.is_all()) {
    *status = OkStatus();
    return drivers::ReflexRing::all_harts();
  }
  drivers::ReflexRing ring;
  *status = drivers::ReflexRing::of(group.ids(), group.size(), &ring);
  return ring;
}

}  // namespace

ReflexRingBarrier::ReflexRingBarrier(Endpoint& endpoint, const Group& group)
    : HardwareBarrierBase(endpoint, group), ring_(ring_of(group, &ring_status_)), reflex_(ring_) {}

Status ReflexRingBarrier::init() {
  if (const Status s = join(); !s.ok()) {
    return s;
  }
  if (!ring_status_.ok()) {
    return ring_status_;
  }
  return reflex_.init();
}

void ReflexRingBarrier::notify() {
  episode_++;
  if (const Status s = reflex_.notify(); !s.ok()) {
    endpoint_.protocol_error("the reflex barrier refused notify", static_cast<uint32_t>(s.code()),
                             episode_);
  }
}

void ReflexRingBarrier::wait() {
  if (const Status s = reflex_.wait(); !s.ok()) {
    endpoint_.protocol_error("the reflex barrier refused wait", static_cast<uint32_t>(s.code()),
                             episode_);
  }
}

void ReflexRingBarrier::finish() {
  const drivers::ReflexSwitch own;
  for (uint32_t i = 0; i < reflex_.buffer_flits(); i++) {
    (void)own.receive();
  }
  own.unconfigure();
}

// ---- Counting barrier controller
// --------------------------------------------------------------------

Status ControllerBarrier::init() {
  if (const Status s = join(); !s.ok()) {
    return s;
  }
  if (group_.size() > drivers::BarrierController::kMaxCount) {
    return Status::OutOfRange();
  }
  if (uid_ == kDerivedUid) {
    const uint32_t first = tessera_dense_index(&group_.shape(), group_.member(0));
    uid_ = (4 * first + group_.tag()) & drivers::BarrierController::kMaxUid;
  }
  return uid_ <= drivers::BarrierController::kMaxUid ? OkStatus() : Status::InvalidArgument();
}

void ControllerBarrier::wait() {
  if (const Status s = drivers::BarrierController().enter(uid_, group_.size()); !s.ok()) {
    endpoint_.protocol_error("the barrier controller refused an entry",
                             static_cast<uint32_t>(s.code()), uid_);
  }
}

}  // namespace tessera::barrier
