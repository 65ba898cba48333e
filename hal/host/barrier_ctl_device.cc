#include "barrier_ctl_device.h"

#include <algorithm>
#include <new>
#include <stdexcept>

#include "bus_error.h"

namespace tessera::host {

BarrierCtlDevice::BarrierCtlDevice(Machine& machine, const MachineParams& params)
    : machine_(machine),
      detect_deadlock_(params.detect_deadlock),
      deadlock_grace_(params.deadlock_grace),
      waiters_(machine.num_harts()) {
  const TesseraShape& shape = machine.shape();
  waits_.reset(tessera_waits_new(&shape));
  if (!waits_) {
    throw std::bad_alloc();
  }
  const TesseraBarrierCtlConfig config{shape,
                                       params.tile_hop_cycles,
                                       params.board_hop_cycles,
                                       params.barrier_tile_x,
                                       params.barrier_tile_y,
                                       waits_.get()};
  TesseraBarrierCtlHost host{};
  host.opaque = this;
  host.wake = &BarrierCtlDevice::wake;
  host.log = &BarrierCtlDevice::log_line;
  model_ = tessera_barrier_ctl_new(&config, &host);
  if (model_ == nullptr) {
    throw std::invalid_argument(
        "tessera host: the barrier controller's tile (" + std::to_string(params.barrier_tile_x) +
        ", " + std::to_string(params.barrier_tile_y) + ") is outside the global tile grid");
  }
}

BarrierCtlDevice::~BarrierCtlDevice() {
  tessera_barrier_ctl_free(model_);
}

std::vector<uint16_t> BarrierCtlDevice::csrs() const {
  return {TESSERA_CSR_BARRIER_COUNT, TESSERA_CSR_BARRIER_ENTER};
}

uint32_t BarrierCtlDevice::csr_swap(Hart& hart, uint16_t csr, uint32_t value) {
  std::unique_lock lock(mutex_);
  for (;;) {
    uint32_t result = 0;
    uint64_t resume_at = 0;
    const char* error = nullptr;
    waiters_[hart.index()].woken = false;
    const TesseraBarrierCtlResult r = tessera_barrier_ctl_csr(
        model_, hart.index(), csr, value, hart.cycles(), &result, &resume_at, &error);
    epoch_++;
    switch (r) {
      case TESSERA_BARRIER_CTL_DONE:
        if (error != nullptr) {
          guest_errors_.push_back("hart " + hex32(hart.id()) + ": csrrw " + hex32(csr) + ", " +
                                  hex32(value) + ": " + error);
        }
        (void)hart.wait_until(resume_at);
        return result;
      case TESSERA_BARRIER_CTL_BLOCKED:
        wait_for_wake(lock, hart);
        break;
      case TESSERA_BARRIER_CTL_UNKNOWN:
      default:
        throw_bus_error(hart, "the barrier controller model does not know CSR " + hex32(csr));
    }
  }
}

void BarrierCtlDevice::wait_for_wake(std::unique_lock<std::mutex>& lock, Hart& hart) {
  Waiter& waiter = waiters_[hart.index()];
  blocked_.push_back(hart.index());
  machine_.set_blocked(hart, BlockedOn::kBarrier);
  while (!waiter.woken && !ended_ && !deadlocked_) {
    if (!detect_deadlock_) {
      waiter.cv.wait(lock);
      continue;
    }
    const uint64_t epoch = epoch_;
    if (waiter.cv.wait_for(lock, deadlock_grace_) == std::cv_status::timeout && !waiter.woken &&
        !ended_ && epoch == epoch_ && blocked_.size() >= machine_.active_harts()) {
      deadlocked_ = true;
      std::string waits(tessera_waits_report(waits_.get(), nullptr, 0), '\0');
      (void)tessera_waits_report(waits_.get(), waits.data(), waits.size() + 1);
      deadlock_report_ =
          "tessera host: deadlock: every running hart is blocked in the barrier controller "
          "and nothing changed for " +
          std::to_string(deadlock_grace_.count()) + " ms. Waiting:\n" + waits;
      for (const uint32_t other : blocked_) {
        waiters_[other].cv.notify_one();
      }
    }
  }
  blocked_.erase(std::find(blocked_.begin(), blocked_.end(), hart.index()));
  machine_.set_blocked(hart, BlockedOn::kNothing);
  if (ended_) {
    throw MachineExit(*ended_);
  }
  if (!waiter.woken) {
    throw Deadlock(deadlock_report_);
  }
}

void BarrierCtlDevice::machine_ended(int code) {
  std::lock_guard lock(mutex_);
  if (!ended_) {
    ended_ = code;
  }
  for (const uint32_t index : blocked_) {
    waiters_[index].cv.notify_one();
  }
}

std::vector<BarrierLogLine> BarrierCtlDevice::log() const {
  std::lock_guard lock(mutex_);
  return log_;
}

std::vector<std::string> BarrierCtlDevice::guest_errors() const {
  std::lock_guard lock(mutex_);
  return guest_errors_;
}

// Called by the model with mutex_ held.
void BarrierCtlDevice::wake(void* opaque, uint32_t hart_index) {
  auto* self = static_cast<BarrierCtlDevice*>(opaque);
  Waiter& waiter = self->waiters_[hart_index];
  waiter.woken = true;
  self->machine_.set_blocked(self->machine_.hart_at(hart_index), BlockedOn::kNothing);
  waiter.cv.notify_one();
}

void BarrierCtlDevice::log_line(void* opaque, uint32_t hart_index, const char* line) {
  auto* self = static_cast<BarrierCtlDevice*>(opaque);
  self->log_.push_back({self->machine_.hart_at(hart_index).id(), line});
}

}  // namespace tessera::host
