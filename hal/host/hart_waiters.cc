#include "hart_waiters.h"

#include <algorithm>
#include <new>

namespace tessera::host {

HartWaiters::HartWaiters(Machine& machine, const MachineParams& params, std::string device)
    : machine_(machine),
      device_(std::move(device)),
      detect_deadlock_(params.detect_deadlock),
      deadlock_grace_(params.deadlock_grace),
      waiters_(machine.num_harts()) {
  waits_.reset(tessera_waits_new(&machine.shape()));
  if (!waits_) {
    throw std::bad_alloc();
  }
}

void HartWaiters::wait(std::unique_lock<std::mutex>& lock, Hart& hart, BlockedOn what) {
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
      // Every running hart is here and nothing has moved for a whole grace
      // period: nobody is left to wake anybody.
      deadlocked_ = true;
      deadlock_report_ = deadlock_report();
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

// The same report as QEMU's (docs/debugging.md), from the same registry.
std::string HartWaiters::deadlock_report() const {
  std::string waits(tessera_waits_report(waits_.get(), nullptr, 0), '\0');
  (void)tessera_waits_report(waits_.get(), waits.data(), waits.size() + 1);
  return "tessera host: deadlock: every running hart is blocked in " + device_ +
         " and nothing changed for " + std::to_string(deadlock_grace_.count()) + " ms. Waiting:\n" +
         waits;
}

void HartWaiters::wake(uint32_t hart_index) {
  Waiter& waiter = waiters_[hart_index];
  waiter.woken = true;
  // No longer blocked from here on, although its thread has yet to run.
  machine_.set_blocked(machine_.hart_at(hart_index), BlockedOn::kNothing);
  waiter.cv.notify_one();
}

void HartWaiters::machine_ended(int code) {
  if (!ended_) {
    ended_ = code;
  }
  for (const uint32_t index : blocked_) {
    waiters_[index].cv.notify_one();
  }
}

}  // namespace tessera::host
