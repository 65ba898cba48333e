// The harts asleep in one device's blocking operation: each sleeps on a
// condition variable of its own until the device's model wakes it (never a
// spin), shows in Machine::blocked_on meanwhile, and stops with MachineExit
// when the run ends or with Deadlock when every running hart is asleep in
// this device and nothing has happened in it for MachineParams::deadlock_grace.
// The wait registry (tessera/models/waits.h) the device's model reports to
// lives here and words the deadlock report.
//
// Not locked itself: every call is made under the owning device's mutex,
// the one wait() is given.
#pragma once

#include <stdint.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "tessera/host/machine.h"
#include "tessera/models/waits.h"

namespace tessera::host {

class HartWaiters {
 public:
  // `device` names it in the deadlock report ("the mailbox").
  HartWaiters(Machine& machine, const MachineParams& params, std::string device);

  // Given to the device's model.
  TesseraWaits* registry() const { return waits_.get(); }

  // Before each call into the model that may block `hart_index`: a wake from
  // then on counts.
  void arm(uint32_t hart_index) { waiters_[hart_index].woken = false; }
  // After anything that may change the device: deadlock detection waits a
  // whole grace period without one.
  void changed() { epoch_++; }
  // Sleeps until the model wakes `hart` (shown as `what` meanwhile); throws
  // Deadlock or MachineExit.
  void wait(std::unique_lock<std::mutex>& lock, Hart& hart, BlockedOn what);
  // The model's wake callback.
  void wake(uint32_t hart_index);
  // The run has ended: harts asleep here (or falling asleep later) stop with
  // MachineExit, as if the process had ended.
  void machine_ended(int code);

 private:
  struct Waiter {
    std::condition_variable cv;
    bool woken = false;
  };

  std::string deadlock_report() const;

  Machine& machine_;
  const std::string device_;
  const bool detect_deadlock_;
  const std::chrono::milliseconds deadlock_grace_;
  std::unique_ptr<TesseraWaits, void (*)(TesseraWaits*)> waits_{nullptr, tessera_waits_free};
  std::vector<Waiter> waiters_;    // by hart index
  std::vector<uint32_t> blocked_;  // hart indices asleep in wait()
  std::string deadlock_report_;    // set when the deadlock is declared
  uint64_t epoch_ = 0;             // counts everything that may change the device
  bool deadlocked_ = false;
  std::optional<int> ended_;
};

}  // namespace tessera::host
