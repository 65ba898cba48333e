#include "hart_waiters.h"

#include <new>

namespace tessera::host {

HartWaiters::HartWaiters(Machine& machine, DeviceMutex& device_mutex, std::string device)
    : machine_(machine),
      mutex_(device_mutex),
      device_(std::move(device)),
      waiters_(machine.num_harts()),
      woken_(machine.num_harts(), 0) {
  waits_.reset(tessera_waits_new(&machine.shape()));
  if (!waits_) {
    throw std::bad_alloc();
  }
  machine_.add_waiters(*this);
}

HartWaiters::~HartWaiters() {
  machine_.remove_waiters(*this);
}

void HartWaiters::wait(DeviceLock& lock, Hart& hart, BlockedOn what) {
  Waiter& waiter = waiters_[hart.index()];
  waiter.blocked_at = static_cast<uint32_t>(blocked_.size());
  blocked_.push_back(hart.index());
  // Before the lock is let go: whoever sees the state acts after the model has the waiter.
  if (machine_.set_blocked(hart, what)) {
    // This hart was the last one running: the machine tells every device,
    // this one included, so its lock is let go meanwhile.
    lock.unlock();
    machine_.declare_deadlock();
    lock.lock();
  }
  HartSleeper* const sleeper = machine_.params().sleeper;
  while (!woken_[hart.index()] && !ended_ && !deadlock_report_) {
    if (sleeper != nullptr) {
      sleeper->sleep(hart, lock);
    } else {
      waiter.cv.wait(lock);
    }
  }
  // The last sleeper takes this one's place: thousands of harts may sleep here at once.
  const uint32_t moved = blocked_.back();
  blocked_[waiter.blocked_at] = moved;
  waiters_[moved].blocked_at = waiter.blocked_at;
  blocked_.pop_back();
  (void)machine_.set_blocked(hart, BlockedOn::kNothing);
  if (ended_) {
    throw MachineExit(*ended_);
  }
  if (!woken_[hart.index()]) {
    throw Deadlock(*deadlock_report_);
  }
}

void HartWaiters::wake(uint32_t hart_index) {
  woken_[hart_index] = true;
  // No longer blocked from here on, although its thread has yet to run: the
  // deadlock detector must not count it.
  (void)machine_.set_blocked(machine_.hart_at(hart_index), BlockedOn::kNothing);
  notify(hart_index);
}

void HartWaiters::end(int code) {
  std::lock_guard lock(mutex_);
  if (!ended_) {
    ended_ = code;
  }
  notify_blocked();
}

// The same words as QEMU's report (docs/debugging.md), from the same registry.
std::string HartWaiters::waiting() const {
  std::lock_guard lock(mutex_);
  if (blocked_.empty()) {
    return {};
  }
  std::string waits(tessera_waits_report(waits_.get(), nullptr, 0), '\0');
  (void)tessera_waits_report(waits_.get(), waits.data(), waits.size() + 1);
  return waits;
}

void HartWaiters::deadlocked(const std::string& report) {
  std::lock_guard lock(mutex_);
  deadlock_report_ = report;
  notify_blocked();
}

void HartWaiters::notify(uint32_t hart_index) {
  if (HartSleeper* sleeper = machine_.params().sleeper) {
    sleeper->wake(hart_index);
  } else {
    waiters_[hart_index].cv.notify_one();
  }
}

void HartWaiters::notify_blocked() {
  for (const uint32_t index : blocked_) {
    notify(index);
  }
}

}  // namespace tessera::host
