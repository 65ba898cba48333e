// The harts asleep in one device's blocking operation: each sleeps on a
// condition variable of its own until the device's model wakes it (never a
// spin), shows in Machine::blocked_on meanwhile, and stops with MachineExit
// when the run ends or with Deadlock when the machine declares one (every
// running hart blocked in some device, none woken; Machine::set_blocked).
// The wait registry (tessera/models/waits.h) the device's model reports to
// lives here and words the device's part of the deadlock report.
//
// Registered with the machine, which calls end(), waiting() and deadlocked()
// from outside the device: those take the device's mutex. Every other call
// is made under that mutex, the one wait() is given.
#pragma once

#include <stdint.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tessera/host/device_mutex.h"
#include "tessera/host/machine.h"
#include "tessera/models/access.h"
#include "tessera/models/waits.h"

namespace tessera::host {

class HartWaiters {
 public:
  // `device_mutex` guards the device and its model; `device` names it in the
  // deadlock report ("the mailbox").
  HartWaiters(Machine& machine, DeviceMutex& device_mutex, std::string device);
  ~HartWaiters();
  HartWaiters(const HartWaiters&) = delete;
  HartWaiters& operator=(const HartWaiters&) = delete;

  // Given to the device's model.
  TesseraWaits* registry() const { return waits_.get(); }
  const std::string& device() const { return device_; }

  // The host machine's one blocking loop (docs/architecture.md, the access
  // contract): issues `call`, one access of the device's model made under
  // `lock`, and each time the model answers BLOCKED sleeps until it wakes the
  // hart (shown as `what()` meanwhile), then issues it again. Returns the
  // first answer that is not BLOCKED; throws Deadlock or MachineExit.
  template <typename Call, typename What>
  TesseraAccess until_done(DeviceLock& lock, Hart& hart, Call&& call, What&& what) {
    // One variable returned on every path: the first answer is made in the caller's (NRVO), and
    // read field by field there, not copied whole (a wide load of narrow stores stalls).
    woken_[hart.index()] = false;  // a wake from here on counts
    TesseraAccess access = call();
    while (access.status == TESSERA_ACCESS_BLOCKED) {
      wait(lock, hart, what());
      woken_[hart.index()] = false;
      access = call();
    }
    return access;
  }
  // The model's wake callback.
  void wake(uint32_t hart_index);

  // Called by the machine, without the device's mutex.
  // The run has ended: harts asleep here (or falling asleep later) stop with
  // MachineExit, as if the process had ended.
  void end(int code);
  // The wait registry's report of the harts asleep here; empty if none is.
  std::string waiting() const;
  // The machine is deadlocked: harts asleep here (or falling asleep later)
  // throw Deadlock(report).
  void deadlocked(const std::string& report);

 private:
  struct Waiter {
    std::condition_variable_any cv;
    uint32_t blocked_at = 0;  // its place in blocked_ while it sleeps in wait()
  };

  // Sleeps until the model wakes `hart` (shown as `what` meanwhile); throws
  // Deadlock or MachineExit.
  void wait(DeviceLock& lock, Hart& hart, BlockedOn what);
  void notify_blocked();
  // Wakes one hart's sleep: its condition variable, or the machine's HartSleeper.
  void notify(uint32_t hart_index);

  Machine& machine_;
  DeviceMutex& mutex_;  // the device's
  const std::string device_;
  std::unique_ptr<TesseraWaits, void (*)(TesseraWaits*)> waits_{nullptr, tessera_waits_free};
  std::vector<Waiter> waiters_;  // by hart index
  // By hart index: woken since its last call. Apart from waiters_, and a byte each: every access
  // clears its hart's, and thousands of harts' flags then stay in the cache.
  std::vector<uint8_t> woken_;
  std::vector<uint32_t> blocked_;               // hart indices asleep in wait(), in no order
  std::optional<std::string> deadlock_report_;  // set when the machine declares a deadlock
  std::optional<int> ended_;
};

}  // namespace tessera::host
