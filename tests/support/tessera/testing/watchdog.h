// A bound on a host-machine run whose harts could keep busy for ever (a protocol that keeps
// messages moving never looks deadlocked): if the run has not finished after `limit`, the
// watchdog ends it with kWatchdogExit, every hart then stops with MachineExit at its next device
// access, and the test fails on the exit code instead of hanging.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "tessera/host/machine.h"

namespace tessera::testing {

inline constexpr int kWatchdogExit = 99;

class Watchdog {
 public:
  Watchdog(host::Machine& machine, std::chrono::seconds limit)
      : thread_([this, &machine, limit] {
          std::unique_lock lock(mutex_);
          if (!done_cv_.wait_for(lock, limit, [this] { return done_; })) {
            machine.end_run(kWatchdogExit);
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    done_cv_.notify_one();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace tessera::testing
