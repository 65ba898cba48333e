// The lock of a device with blocking operations (HartWaiters): a mutex that the thread holding
// it may take again (recursive), which is what lets native mode's worker hold the mailbox's lock
// across the fibers it runs (native/scheduler.cc): a hart's access on that worker then takes it
// with a compare and a count, no atomic read-modify-write and no call into the C library, and
// every access of a vertex program takes it. Another thread that wants it says so (contended())
// and blocks; the worker lets go between two fibers.
#pragma once

#include <stdint.h>

#include <atomic>
#include <mutex>

namespace tessera::host {

class DeviceMutex {
 public:
  DeviceMutex() = default;
  DeviceMutex(const DeviceMutex&) = delete;
  DeviceMutex& operator=(const DeviceMutex&) = delete;

  void lock() {
    const void* const self = this_thread();
    // Only this thread ever stores its own address there.
    if (owner_.load(std::memory_order_relaxed) == self) {
      depth_++;
      return;
    }
    if (!mutex_.try_lock()) {
      contenders_.fetch_add(1, std::memory_order_relaxed);
      mutex_.lock();
      contenders_.fetch_sub(1, std::memory_order_relaxed);
    }
    owner_.store(self, std::memory_order_relaxed);
    depth_ = 1;
  }
  bool try_lock() {
    const void* const self = this_thread();
    if (owner_.load(std::memory_order_relaxed) == self) {
      depth_++;
      return true;
    }
    if (!mutex_.try_lock()) return false;
    owner_.store(self, std::memory_order_relaxed);
    depth_ = 1;
    return true;
  }
  void unlock() {
    if (--depth_ == 0) {
      owner_.store(nullptr, std::memory_order_relaxed);
      mutex_.unlock();
    }
  }

  // Whether the calling thread holds it.
  bool held() const { return owner_.load(std::memory_order_relaxed) == this_thread(); }
  // Whether another thread waits for it: a holder that takes it for a long time lets go then.
  bool contended() const { return contenders_.load(std::memory_order_relaxed) != 0; }

 private:
  static const void* this_thread() {
    static constinit thread_local char marker = 0;
    return &marker;
  }

  std::mutex mutex_;
  std::atomic<const void*> owner_{nullptr};
  uint32_t depth_ = 0;  // the owner's alone
  std::atomic<uint32_t> contenders_{0};
};

using DeviceLock = std::unique_lock<DeviceMutex>;

}  // namespace tessera::host
