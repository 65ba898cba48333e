// Runs every hart of a host machine (boards/hosted) as a user-level fiber over a few worker
// threads: native mode's harts (docs/native.md). It is the machine's HartSleeper: a hart that
// blocks in a device switches to another runnable hart instead of blocking its worker, and is
// queued again when the device wakes it. Harts are scheduled cooperatively, round robin in index
// order; a hart that polls a register instead of sleeping gives way every `yield_every` accesses.
//
// With mailbox parts (MachineParams::mailbox_parts) each part has a worker of its own, which runs
// only that part's harts under that part's lock and its own lane's mutex, hands messages to other
// parts and takes in what they handed it (Machine::mailbox_exchange) every `exchange_every`
// fibers and whenever it runs out. When every worker has nothing to run, the last one makes the
// termination detector's window over all parts (Machine::mailbox_idle_window), again while that
// changes something; then the harts are stuck until something is queued or handed over.
//
//   Scheduler scheduler({.workers = 1});
//   MachineParams params;  params.sleeper = &scheduler;  params.detect_deadlock = false;
//   Machine machine(shape, params);
//   scheduler.start(machine, [](Hart& hart) { ... });  // returns at once
//   scheduler.wait();                                    // every hart has finished
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tessera/host/hart_sleeper.h"
#include "tessera/host/machine.h"
#include "tessera/native/fiber.h"

namespace tessera::native {

struct SchedulerOptions {
  // Worker threads. Over a machine with mailbox parts, one per part: the machine's parts are
  // what the program (HostLink) asks for with this number.
  unsigned workers = 1;
  size_t stack_bytes = size_t{256} << 10;  // per hart
  uint32_t yield_every = 4096;             // a polling hart gives way after this many accesses
  // With mailbox parts: a worker hands messages to other parts and takes in theirs after this
  // many fibers (and whenever it has no hart to run). Handed over at every fiber, a receiver is
  // woken for each few messages and resumed a third more often in all; ./tessera bench native's
  // heat ran fastest at 64 to 512.
  uint32_t exchange_every = 256;
  // From the environment: TESSERA_NATIVE_WORKERS (default: a worker per host core),
  // TESSERA_NATIVE_STACK_KIB; TESSERA_NATIVE_STATS=1 prints the harts' accesses and each lane's
  // resumes, sleeps, exchanges, waits for work and windows on stderr when they have finished.
  bool print_stats = false;
  static SchedulerOptions from_environment();
};

class Scheduler final : public host::HartSleeper {
 public:
  explicit Scheduler(SchedulerOptions options = {});
  ~Scheduler() override;  // waits for the workers
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Starts `program` on every hart of `machine` (whose params().sleeper is this), each in a
  // HartScope of its own fiber, and the workers that run them. Once only.
  void start(host::Machine& machine, std::function<void(host::Hart&)> program);
  // Waits until every hart has finished. A hart that ended the run through the exit device
  // stopped there; the first other exception of a hart ends the run (status 1), and is given
  // back here as its hart id and text.
  struct Failure {
    uint32_t hart_id;
    std::string what;
  };
  std::optional<Failure> wait();
  // Every hart has finished.
  bool finished() const;
  // No hart is running or runnable, and some have not finished: they all sleep, and only
  // something from outside (the host's messages) can wake one.
  bool stuck() const;
  // Called (on a worker) each time the harts finish or become stuck: a host waiting for them
  // checks finished() and stuck(). Set before start().
  std::function<void()> on_change;

  // HartSleeper.
  void sleep(host::Hart& hart, host::DeviceLock& lock) override;
  void wake(uint32_t hart_index) override;
  void access(host::Hart& hart) override;
  void mail(uint32_t part) override;

 private:
  enum State : int { kRunnable, kRunning, kSleeping, kFinished };
  struct Task {
    host::Hart* hart = nullptr;
    std::unique_ptr<Fiber> fiber;
    std::atomic<int> state{kRunnable};
    host::DeviceLock* unlock_after_switch = nullptr;  // set by sleep()
  };

  // The runnable harts of one part (of all, without parts), one bit each by dense index, taken
  // in index order from where the last one was taken, round and round (pop_runnable).
  struct alignas(64) Lane {
    mutable std::mutex mutex;  // guards what follows but the statistics
    std::vector<uint64_t> bits;
    uint32_t count = 0;
    uint32_t cursor = 0;
    bool mail = false;      // another part handed this one messages or room
    uint64_t activity = 0;  // harts queued and mail handed over, ever
    std::condition_variable ready;
    // For print_stats, counted by the lane's own worker (and its fibers): no line shared with
    // another worker's.
    std::atomic<uint64_t> resumes{0}, sleeps{0}, exchanges{0}, waits{0}, windows{0};
  };

  void work(uint32_t lane);
  void push(Task* task);
  void enqueue(Lane& lane, Task* task);  // under lane.mutex
  Task* pop_runnable(Lane& lane);        // under lane.mutex, with lane.count > 0
  // Under `lock` (mutex_), the last worker to run out of harts: the window over the parts, then
  // the verdict stuck if nothing changed. True if the window changed something.
  bool all_quiet(std::unique_lock<std::mutex>& lock);
  bool nothing_runnable() const;  // no lane has a runnable hart or mail (takes each lane's mutex)
  uint64_t activity() const;      // every lane's activity added up (the same)

  const SchedulerOptions options_;
  host::Machine* machine_ = nullptr;
  std::function<void(host::Hart&)> program_;
  std::vector<std::unique_ptr<Task>> tasks_;  // by dense hart index
  std::vector<std::thread> workers_;

  std::vector<uint32_t> lane_of_;  // by dense hart index
  bool parts_ = false;             // a lane per mailbox part
  uint32_t num_workers_ = 0;

  std::vector<std::unique_ptr<Lane>> lanes_;  // fixed once the workers start
  std::atomic<uint32_t> live_{0};             // harts not finished

  mutable std::mutex mutex_;  // guards what follows; taken before a lane's, never after
  uint32_t quiet_ = 0;        // workers with nothing to run
  bool windowing_ = false;    // a worker makes the window over the parts
  // The lanes' activity when every worker was last found quiet and the window changed nothing:
  // stuck while it has not changed since.
  uint64_t stuck_at_ = UINT64_MAX;
  std::optional<Failure> failure_;
  bool stats_printed_ = false;
};

}  // namespace tessera::native
