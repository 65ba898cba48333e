#include "reflex_device.h"

#include <algorithm>
#include <new>
#include <stdexcept>

#include "bus_error.h"

namespace tessera::host {

ReflexDevice::ReflexDevice(Machine& machine, const MachineParams& params)
    : machine_(machine),
      detect_deadlock_(params.detect_deadlock),
      deadlock_grace_(params.deadlock_grace),
      waiters_(machine.num_harts()) {
  waits_.reset(tessera_waits_new(&machine.shape()));
  if (!waits_) {
    throw std::bad_alloc();
  }
  const TesseraReflexConfig config{machine.shape(), params.reflex_buffer_flits,
                                   params.reflex_hop_cycles, waits_.get()};
  TesseraReflexHost host{};
  host.opaque = this;
  host.wake = &ReflexDevice::wake;
  model_.reset(tessera_reflex_new(&config, &host));
  if (!model_) {
    throw std::invalid_argument("tessera host: reflex_buffer_flits " +
                                std::to_string(params.reflex_buffer_flits) + " is outside " +
                                std::to_string(TESSERA_MIN_reflex_buffer_flits) + ".." +
                                std::to_string(TESSERA_LIMIT_reflex_buffer_flits));
  }
}

ReflexDevice::~ReflexDevice() = default;

// Every CSR regs.h calls a reflex CSR, as the QEMU wrapper registers them.
std::vector<uint16_t> ReflexDevice::csrs() const {
  constexpr uint32_t kCsrCount = 4096;  // 12-bit CSR numbers
  std::vector<uint16_t> csrs;
  for (uint32_t csr = 0; csr < kCsrCount; csr++) {
    if (tessera_csr_is_reflex(csr)) {
      csrs.push_back(static_cast<uint16_t>(csr));
    }
  }
  return csrs;
}

uint32_t ReflexDevice::csr_swap(Hart& hart, uint16_t csr, uint32_t value) {
  return access(hart, csr, true, value);
}

uint32_t ReflexDevice::csr_read(Hart& hart, uint16_t csr) {
  return access(hart, csr, false, 0);
}

uint32_t ReflexDevice::access(Hart& hart, uint16_t csr, bool write, uint32_t value) {
  std::unique_lock lock(mutex_);
  for (;;) {
    uint32_t result = 0;
    uint64_t resume_at = 0;
    const char* error = nullptr;
    const uint64_t now = hart.cycles();
    waiters_[hart.index()].woken = false;
    const TesseraReflexResult r = tessera_reflex_csr(model_.get(), hart.index(), csr, write, value,
                                                     now, &result, &resume_at, &error);
    epoch_++;
    uint32_t sender = 0;
    while (const char* taken = tessera_reflex_take_error(model_.get(), &sender)) {
      record_guest_error(machine_.hart_at(sender).id(), taken);
    }
    switch (r) {
      case TESSERA_REFLEX_DONE:
        (void)hart.wait_until(resume_at);
        return result;
      case TESSERA_REFLEX_BLOCKED:
        wait_for_wake(lock, hart,
                      csr == TESSERA_CSR_REFLEX_RECV ? BlockedOn::kReflexRecv
                                                     : BlockedOn::kReflexWaitSend);
        break;
      case TESSERA_REFLEX_GUEST_ERROR:
      default:
        (void)hart.wait_until(resume_at);
        record_guest_error(hart.id(), std::string(write ? "csrrw " : "csrr ") + hex32(csr) +
                                          ", " + hex32(value) + ": " +
                                          (error != nullptr ? error : "refused"));
        return result;
    }
  }
}

void ReflexDevice::record_guest_error(uint32_t thread_id, const std::string& what) {
  guest_errors_.push_back("tessera-reflex: thread " + hex32(thread_id) + ": " + what);
}

void ReflexDevice::wait_for_wake(std::unique_lock<std::mutex>& lock, Hart& hart, BlockedOn what) {
  Waiter& waiter = waiters_[hart.index()];
  blocked_.push_back(hart.index());
  // Before the lock is let go: whoever sees the state acts after the model has the waiter.
  machine_.set_blocked(hart, what);
  while (!waiter.woken && !ended_ && !deadlocked_) {
    if (!detect_deadlock_) {
      waiter.cv.wait(lock);
      continue;
    }
    const uint64_t epoch = epoch_;
    if (waiter.cv.wait_for(lock, deadlock_grace_) == std::cv_status::timeout && !waiter.woken &&
        !ended_ && epoch == epoch_ && blocked_.size() >= machine_.active_harts()) {
      // Every running hart is here and nothing has moved for a whole grace period.
      deadlocked_ = true;
      std::string waits(tessera_waits_report(waits_.get(), nullptr, 0), '\0');
      (void)tessera_waits_report(waits_.get(), waits.data(), waits.size() + 1);
      deadlock_report_ =
          "tessera host: deadlock: every running hart is blocked in the reflex switches and "
          "nothing changed for " +
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

void ReflexDevice::machine_ended(int code) {
  std::lock_guard lock(mutex_);
  if (!ended_) {
    ended_ = code;
  }
  for (const uint32_t index : blocked_) {
    waiters_[index].cv.notify_one();
  }
}

std::vector<std::string> ReflexDevice::guest_errors() const {
  std::lock_guard lock(mutex_);
  return guest_errors_;
}

// Called by the model with mutex_ held.
void ReflexDevice::wake(void* opaque, uint32_t hart_index) {
  auto* self = static_cast<ReflexDevice*>(opaque);
  Waiter& waiter = self->waiters_[hart_index];
  waiter.woken = true;
  // No longer blocked from here on, although its thread has yet to run.
  self->machine_.set_blocked(self->machine_.hart_at(hart_index), BlockedOn::kNothing);
  waiter.cv.notify_one();
}

}  // namespace tessera::host
