#include "tessera/drivers/reflex.h"

#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/csr.h"

namespace tessera::drivers {

Status ReflexSwitch::configure(uint32_t next_thread_id, ReflexRoute route) const {
  const TesseraShape shape = Sysinfo().shape();
  if (!tessera_thread_exists(&shape, next_thread_id) ||
      static_cast<uint32_t>(route) > TESSERA_REFLEX_ROUTE_BOTH) {
    return Status::InvalidArgument();
  }
  // Next first: a route that passes flits on needs a next switch.
  hal::csr_write<TESSERA_CSR_REFLEX_NEXT>(next_thread_id);
  hal::csr_write<TESSERA_CSR_REFLEX_ROUTE>(static_cast<uint32_t>(route));
  if (next() != next_thread_id || this->route() != route) {
    return Status::FailedPrecondition();
  }
  return OkStatus();
}

void ReflexSwitch::unconfigure() const {
  // Route first: no next switch is refused while the route passes flits on.
  hal::csr_write<TESSERA_CSR_REFLEX_ROUTE>(TESSERA_REFLEX_ROUTE_OFF);
  hal::csr_write<TESSERA_CSR_REFLEX_NEXT>(TESSERA_REFLEX_NO_NEXT);
}

uint32_t ReflexSwitch::next() const {
  return hal::csr_read<TESSERA_CSR_REFLEX_NEXT>();
}

ReflexRoute ReflexSwitch::route() const {
  return static_cast<ReflexRoute>(hal::csr_read<TESSERA_CSR_REFLEX_ROUTE>());
}

Status ReflexSwitch::send(uint32_t flit) const {
  (void)hal::csr_read<TESSERA_CSR_REFLEX_WAIT_SEND>();
  if (hal::csr_swap<TESSERA_CSR_REFLEX_SEND>(flit) != 1) {
    return Status::FailedPrecondition();
  }
  return OkStatus();
}

uint32_t ReflexSwitch::receive() const {
  return hal::csr_read<TESSERA_CSR_REFLEX_RECV>();
}

ReflexStatus ReflexSwitch::status() const {
  const uint32_t raw = hal::csr_read<TESSERA_CSR_REFLEX_STATUS>();
  return ReflexStatus{raw & 0xffffu, raw >> 16};
}

ReflexRing ReflexRing::all_harts() {
  const Sysinfo sysinfo;
  const TesseraShape shape = sysinfo.shape();
  const uint32_t harts = sysinfo.num_harts();
  const uint32_t index = sysinfo.hart_index();
  return ReflexRing(tessera_thread_at(&shape, (index + 1) % harts), index == 0, harts);
}

Status ReflexRing::of(const uint32_t* members, uint32_t count, ReflexRing* ring) {
  if (members == nullptr || count == 0) {
    return Status::InvalidArgument();
  }
  const TesseraShape shape = Sysinfo().shape();
  const uint32_t self = hal::csr_read<TESSERA_CSR_HART_ID>();
  uint32_t position = count;
  uint32_t seen = 0;
  for (uint32_t i = 0; i < count; i++) {
    if (!tessera_thread_exists(&shape, members[i])) {
      return Status::InvalidArgument();
    }
    if (members[i] == self) {
      position = i;
      seen++;
    }
  }
  if (seen != 1) {
    return Status::InvalidArgument();
  }
  *ring = ReflexRing(members[(position + 1) % count], position == 0, count);
  return OkStatus();
}

Status ReflexRing::join() const {
  if (size_ == 0) {
    return Status::FailedPrecondition();
  }
  return ReflexSwitch().configure(next_, root_ ? ReflexRoute::kCore : ReflexRoute::kBoth);
}

ReflexBarrier::ReflexBarrier(const ReflexRing& ring)
    : ring_(ring), buffer_flits_(Sysinfo().reflex_buffer_flits()) {}

Status ReflexBarrier::send_tagged(uint32_t count, uint32_t tag) const {
  for (uint32_t i = 0; i < count; i++) {
    if (const Status s = switch_.send(tag); !s.ok()) {
      return s;
    }
  }
  return OkStatus();
}

Status ReflexBarrier::receive_tagged(uint32_t count, uint32_t tag) const {
  Status result;
  for (uint32_t i = 0; i < count; i++) {
    // Every flit is read even after a wrong one, so the switch's credits stay whole.
    if (switch_.receive() != tag) {
      result = Status::DataLoss();
    }
  }
  return result;
}

// Flits carry the episode they belong to: the root's notify flit and the release that ends
// episode e - 1 (the init flits: episode 0) carry e.
Status ReflexBarrier::init() {
  if (phase_ != Phase::kNew) {
    return Status::FailedPrecondition();
  }
  if (const Status s = ring_.join(); !s.ok()) {
    return s;
  }
  phase_ = Phase::kIdle;
  return ring_.root() ? send_tagged(buffer_flits_, episode_) : OkStatus();
}

Status ReflexBarrier::notify() {
  if (phase_ != Phase::kIdle) {
    return Status::FailedPrecondition();
  }
  phase_ = Phase::kNotified;
  // What this hart wrote before the barrier is seen by whoever leaves it.
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  // The root's flit moves only once every switch is on, that is once every other member has read
  // one of its B flits here: it reaches the root's core when all have arrived.
  return ring_.root() ? send_tagged(1, episode_) : receive_tagged(buffer_flits_, episode_);
}

Status ReflexBarrier::wait() {
  if (phase_ != Phase::kNotified) {
    return Status::FailedPrecondition();
  }
  phase_ = Phase::kIdle;
  const uint32_t tag = episode_++;
  if (!ring_.root()) {
    return receive_tagged(1, tag);
  }
  // B flits of the last release, then this episode's own flit; then the next release.
  const Status received = receive_tagged(buffer_flits_ + 1, tag);
  const Status sent = send_tagged(buffer_flits_, episode_);
  return received.ok() ? sent : received;
}

Status ReflexBarrier::barrier() {
  if (const Status s = notify(); !s.ok()) {
    return s;
  }
  return wait();
}

}  // namespace tessera::drivers
