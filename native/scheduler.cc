#include "tessera/native/scheduler.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace tessera::native {

using host::Hart;
using host::HartScope;
using host::MachineExit;

SchedulerOptions SchedulerOptions::from_environment() {
  SchedulerOptions options;
  // A worker per host core unless told: over parts (HostLink), each runs its own boards' harts.
  options.workers = std::max(std::thread::hardware_concurrency(), 1u);
  if (const char* w = getenv("TESSERA_NATIVE_WORKERS"); w && atoi(w) > 0) {
    options.workers = static_cast<unsigned>(atoi(w));
  }
  if (const char* k = getenv("TESSERA_NATIVE_STACK_KIB"); k && atoi(k) > 0) {
    options.stack_bytes = static_cast<size_t>(atoi(k)) << 10;
  }
  options.print_stats = getenv("TESSERA_NATIVE_STATS") != nullptr;
  return options;
}

Scheduler::Scheduler(SchedulerOptions options) : options_(options) {}

Scheduler::~Scheduler() {
  (void)wait();
}

void Scheduler::start(host::Machine& machine, std::function<void(Hart&)> program) {
  machine_ = &machine;
  program_ = std::move(program);
  tasks_.reserve(machine.num_harts());
  for (uint32_t i = 0; i < machine.num_harts(); i++) {
    auto task = std::make_unique<Task>();
    Task* t = task.get();
    t->hart = &machine.hart_at(i);
    t->hart->set_give_way_at(t->hart->accesses() + options_.yield_every);
    t->fiber = std::make_unique<Fiber>(
        [this, t] {
          try {
            HartScope scope(*t->hart);
            program_(*t->hart);
          } catch (const MachineExit&) {
            // The hart ended the run; the code is in the machine's exit_code().
          } catch (const std::exception& e) {
            {
              std::lock_guard lock(mutex_);
              if (!failure_) failure_ = Failure{t->hart->id(), e.what()};
            }
            machine_->end_run(1);  // as a trap ends a QEMU run
          } catch (...) {
            {
              std::lock_guard lock(mutex_);
              if (!failure_) failure_ = Failure{t->hart->id(), "an unknown exception"};
            }
            machine_->end_run(1);
          }
        },
        options_.stack_bytes);
    tasks_.push_back(std::move(task));
  }
  const uint32_t parts = machine.mailbox_parts();
  parts_ = parts > 1;
  lane_of_.assign(tasks_.size(), 0);
  if (parts_) {
    for (uint32_t i = 0; i < tasks_.size(); i++) lane_of_[i] = machine.mailbox_part_of(i);
  }
  live_ = static_cast<uint32_t>(tasks_.size());
  for (uint32_t l = 0; l < (parts_ ? parts : 1); l++) {
    auto lane = std::make_unique<Lane>();
    lane->bits.assign((tasks_.size() + 63) / 64, 0);
    lanes_.push_back(std::move(lane));
  }
  for (auto& t : tasks_) push(t.get());
  // Counted before any starts: the last to find nothing to run knows it is the last.
  num_workers_ = parts_ ? parts : std::max(options_.workers, 1u);
  for (uint32_t w = 0; w < num_workers_; w++) {
    workers_.emplace_back([this, w] { work(parts_ ? w : 0); });
  }
}

std::optional<Scheduler::Failure> Scheduler::wait() {
  for (std::thread& w : workers_) {
    if (w.joinable()) w.join();
  }
  if (options_.print_stats && !tasks_.empty() && !stats_printed_ && live_ == 0) {
    stats_printed_ = true;
    uint64_t accesses = 0;
    for (auto& t : tasks_) accesses += t->hart->accesses();
    fprintf(stderr, "native: %zu harts, %llu accesses\n", tasks_.size(),
            (unsigned long long)accesses);
    for (size_t l = 0; l < lanes_.size(); l++) {
      const Lane& lane = *lanes_[l];
      fprintf(stderr,
              "native: %s %zu: %llu resumes, %llu sleeps, %llu exchanges, %llu waits for work, "
              "%llu windows\n",
              parts_ ? "part" : "lane", l, (unsigned long long)lane.resumes.load(),
              (unsigned long long)lane.sleeps.load(), (unsigned long long)lane.exchanges.load(),
              (unsigned long long)lane.waits.load(), (unsigned long long)lane.windows.load());
    }
  }
  std::lock_guard lock(mutex_);
  return failure_;
}

bool Scheduler::finished() const {
  return !tasks_.empty() && live_ == 0;
}

bool Scheduler::stuck() const {
  std::lock_guard lock(mutex_);
  return live_ > 0 && stuck_at_ == activity();
}

void Scheduler::push(Task* task) {
  Lane& lane = *lanes_[lane_of_[task->hart->index()]];
  std::lock_guard lock(lane.mutex);
  enqueue(lane, task);
  lane.ready.notify_one();
}

void Scheduler::enqueue(Lane& lane, Task* task) {
  const uint32_t i = task->hart->index();
  lane.bits[i / 64] |= uint64_t{1} << (i % 64);
  lane.count++;
  lane.activity++;
}

void Scheduler::mail(uint32_t part) {
  if (!parts_ || part >= lanes_.size()) return;
  Lane& lane = *lanes_[part];
  std::lock_guard lock(lane.mutex);
  lane.mail = true;
  lane.activity++;
  lane.ready.notify_one();
}

uint64_t Scheduler::activity() const {
  uint64_t sum = 0;
  for (const auto& lane : lanes_) {
    std::lock_guard lock(lane->mutex);
    sum += lane->activity;
  }
  return sum;
}

bool Scheduler::nothing_runnable() const {
  for (const auto& lane : lanes_) {
    std::lock_guard lock(lane->mutex);
    if (lane->count != 0 || lane->mail) return false;
  }
  return true;
}

// In index order, round and round, as the emulator's round robin takes its harts: neighbours
// share a tile's scratchpad and the model's records of the tile, and their memory lies side by
// side, so the caches keep what the next hart needs.
Scheduler::Task* Scheduler::pop_runnable(Lane& lane) {
  const size_t words = lane.bits.size();
  size_t w = lane.cursor / 64;
  uint64_t bits = lane.bits[w] & (~uint64_t{0} << (lane.cursor % 64));
  while (bits == 0) {
    w = w + 1 == words ? 0 : w + 1;
    bits = lane.bits[w];
  }
  const unsigned bit = static_cast<unsigned>(__builtin_ctzll(bits));
  lane.bits[w] &= ~(uint64_t{1} << bit);
  const uint32_t i = static_cast<uint32_t>(w * 64 + bit);
  lane.count--;
  lane.cursor = i + 1 == tasks_.size() ? 0 : i + 1;
  return tasks_[i].get();
}

// Under mutex_ (`lock`), with every worker quiet: the window over the parts, then the verdict.
// True if the window changed something: the caller looks again.
bool Scheduler::all_quiet(std::unique_lock<std::mutex>& lock) {
  const uint64_t before = activity();
  if (parts_) {
    windowing_ = true;
    lock.unlock();
    const uint32_t heard = machine_->mailbox_idle_window();
    lanes_[0]->windows.fetch_add(1, std::memory_order_relaxed);
    lock.lock();
    windowing_ = false;
    // Something moved or a detector's round went on: the workers look again (the last to be
    // quiet makes the next window).
    if (heard != 0) return true;
  }
  if (!nothing_runnable() || live_ == 0) return false;
  // Stuck as long as nothing is queued or handed over from here on (stuck() compares).
  stuck_at_ = before;
  if (on_change) {
    lock.unlock();
    on_change();
    lock.lock();
  }
  return false;
}

void Scheduler::work(uint32_t index) {
  Lane& lane = *lanes_[index];
  // The mailbox's lock (this part's), held across the fibers this worker runs: every access of a
  // vertex program takes it, and a hart's take of a lock its worker holds costs a compare and a
  // count. Let go between two fibers when another thread (the host's, another worker, a window)
  // waits for it, and before this worker waits for a runnable hart (a wake comes under that lock).
  host::DeviceMutex& hot = machine_->mailbox_lock(index);
  bool holding = false;
  // Fibers run since this worker's last exchange: it hands over and takes in every
  // exchange_every fibers, and whenever it runs out of harts.
  const uint32_t every = std::max(options_.exchange_every, 1u);
  uint32_t since = 0;
  // The lane's own mutex, not the scheduler's: two workers over parts share no lock on the way of
  // a fiber. Never held while taking the mailbox's lock: a wake takes it under that one.
  std::unique_lock lock(lane.mutex);
  for (;;) {
    // What other parts handed over.
    if (lane.mail && (lane.count == 0 || since >= every)) {
      lane.mail = false;
      since = 0;
      lock.unlock();
      if (!holding) {
        hot.lock();
        holding = true;
      }
      (void)machine_->mailbox_exchange(index);
      lane.exchanges.fetch_add(1, std::memory_order_relaxed);
      lock.lock();
      continue;
    }
    if (lane.count == 0 && parts_ && since != 0) {  // what this part's harts left for others
      since = 0;
      lock.unlock();
      if (machine_->mailbox_has_mail(index)) {
        (void)machine_->mailbox_exchange(index);
        lane.exchanges.fetch_add(1, std::memory_order_relaxed);
      }
      lock.lock();
      continue;
    }
    if (lane.count == 0) {
      if (holding) {
        hot.unlock();
        holding = false;
      }
      if (live_ == 0) return;  // every hart has finished
      lock.unlock();
      bool again = false;
      {
        // The last worker with nothing to run, while no other has any either: the window
        // (parts), again while windows change something, and then stuck.
        std::unique_lock all(mutex_);
        if (++quiet_ == num_workers_ && !windowing_ && stuck_at_ != activity() &&
            nothing_runnable()) {
          again = all_quiet(all);
        }
        if (again) quiet_--;
      }
      lock.lock();
      if (again) continue;
      lane.waits.fetch_add(1, std::memory_order_relaxed);
      lane.ready.wait(lock, [&] { return lane.count > 0 || lane.mail || live_ == 0; });
      lock.unlock();
      {
        std::lock_guard all(mutex_);
        quiet_--;
      }
      lock.lock();
      continue;
    }
    Task* t = pop_runnable(lane);
    lock.unlock();
    if (!holding) {
      hot.lock();
      holding = true;
    }

    t->state.store(kRunning);
    lane.resumes.fetch_add(1, std::memory_order_relaxed);
    (void)host::exchange_current_hart(t->hart);
    t->fiber->resume();
    (void)host::exchange_current_hart(nullptr);

    const bool done = t->fiber->finished();
    bool gave_way = false;
    if (done) {
      t->state.store(kFinished);
    } else if (host::DeviceLock* device = t->unlock_after_switch) {
      // Asleep only now that it is off its stack: a wake under the device's lock finds it so.
      t->unlock_after_switch = nullptr;
      t->state.store(kSleeping);
      // The lock object lets go before the mutex is free: another worker may then wake and
      // resume the hart at once, whose sleep() locks again through that object (EDEADLK if it
      // still owned).
      device->release()->unlock();
    } else {
      t->state.store(kRunnable);
      gave_way = true;
    }
    // What the fibers left for other parts, and what they handed this one, once this fiber is
    // asleep (an exchange may wake it).
    if (parts_ && ++since >= every && machine_->mailbox_has_mail(index)) {
      (void)machine_->mailbox_exchange(index);
      lane.exchanges.fetch_add(1, std::memory_order_relaxed);
      since = 0;
    }
    if (hot.contended()) {
      hot.unlock();
      holding = false;
    }
    if (done && --live_ == 0) {
      for (auto& other : lanes_) {
        std::lock_guard wake(other->mutex);
        other->ready.notify_all();
      }
      if (on_change) on_change();
    }
    lock.lock();
    if (gave_way) enqueue(lane, t);
  }
}

void Scheduler::sleep(Hart& hart, host::DeviceLock& lock) {
  Task& t = *tasks_[hart.index()];
  host::DeviceMutex& device = *lock.mutex();
  t.unlock_after_switch = &lock;  // the worker releases it once this fiber is off its stack
  lanes_[lane_of_[hart.index()]]->sleeps.fetch_add(1, std::memory_order_relaxed);
  t.fiber->suspend();
  lock = std::unique_lock(device);
}

void Scheduler::wake(uint32_t hart_index) {
  if (hart_index >= tasks_.size()) return;
  Task& t = *tasks_[hart_index];
  int sleeping = kSleeping;
  if (t.state.compare_exchange_strong(sleeping, kRunnable)) push(&t);
}

void Scheduler::access(Hart& hart) {
  hart.set_give_way_at(hart.accesses() + options_.yield_every);
  if (hart.index() >= tasks_.size()) return;  // not started: no fiber to give way
  tasks_[hart.index()]->fiber->suspend();
}

}  // namespace tessera::native
