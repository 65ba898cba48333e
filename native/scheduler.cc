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
  {
    std::lock_guard lock(mutex_);
    live_ = static_cast<uint32_t>(tasks_.size());
    for (uint32_t l = 0; l < (parts_ ? parts : 1); l++) {
      auto lane = std::make_unique<Lane>();
      lane->bits.assign((tasks_.size() + 63) / 64, 0);
      lanes_.push_back(std::move(lane));
    }
    for (auto& t : tasks_) enqueue(t.get());
  }
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
    fprintf(stderr, "native: %zu harts, %llu resumes, %llu sleeps, %llu accesses\n", tasks_.size(),
            (unsigned long long)resumes_.load(), (unsigned long long)sleeps_.load(),
            (unsigned long long)accesses);
  }
  std::lock_guard lock(mutex_);
  return failure_;
}

bool Scheduler::finished() const {
  std::lock_guard lock(mutex_);
  return !tasks_.empty() && live_ == 0;
}

bool Scheduler::stuck() const {
  std::lock_guard lock(mutex_);
  return live_ > 0 && stuck_;
}

void Scheduler::push(Task* task) {
  std::lock_guard lock(mutex_);
  enqueue(task);
  lanes_[lane_of_[task->hart->index()]]->ready.notify_one();
}

void Scheduler::enqueue(Task* task) {
  const uint32_t i = task->hart->index();
  Lane& lane = *lanes_[lane_of_[i]];
  lane.bits[i / 64] |= uint64_t{1} << (i % 64);
  lane.count++;
  stuck_ = false;
}

void Scheduler::mail(uint32_t part) {
  if (!parts_ || part >= lanes_.size()) return;
  std::lock_guard lock(mutex_);
  lanes_[part]->mail = true;
  stuck_ = false;
  lanes_[part]->ready.notify_one();
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

void Scheduler::all_quiet(std::unique_lock<std::mutex>& lock) {
  if (parts_) {
    windowing_ = true;
    lock.unlock();
    const uint32_t heard = machine_->mailbox_idle_window();
    lock.lock();
    windowing_ = false;
    // Something moved or a detector's round went on: the workers look again (the last to be
    // quiet makes the next window).
    if (heard != 0) return;
  }
  if (!nothing_runnable() || live_ == 0) return;
  stuck_ = true;
  if (on_change) {
    lock.unlock();
    on_change();
    lock.lock();
  }
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
  std::unique_lock lock(mutex_);
  for (;;) {
    // What other parts handed over: never under mutex_ (a wake takes it).
    if (lane.mail && (lane.count == 0 || since >= every)) {
      lane.mail = false;
      since = 0;
      lock.unlock();
      if (!holding) {
        hot.lock();
        holding = true;
      }
      (void)machine_->mailbox_exchange(index);
      lock.lock();
      continue;
    }
    if (lane.count == 0 && parts_ && since != 0) {  // what this part's harts left for others
      since = 0;
      lock.unlock();
      if (machine_->mailbox_has_mail(index)) (void)machine_->mailbox_exchange(index);
      lock.lock();
      continue;
    }
    if (lane.count == 0) {
      if (holding) {
        hot.unlock();
        holding = false;
      }
      if (live_ == 0) return;  // every hart has finished
      // The last worker with nothing to run, while no other has any either: the window (parts),
      // and then stuck_ unless it changed something.
      if (++quiet_ == num_workers_ && !windowing_ && !stuck_ && nothing_runnable()) {
        all_quiet(lock);
        if (!stuck_) {
          quiet_--;
          continue;
        }
      }
      lane.ready.wait(lock, [&] { return lane.count > 0 || lane.mail || live_ == 0; });
      quiet_--;
      continue;
    }
    Task* t = pop_runnable(lane);
    lock.unlock();
    if (!holding) {
      hot.lock();  // never under mutex_: a wake takes mutex_ under this one
      holding = true;
    }

    t->state.store(kRunning);
    resumes_++;
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
      since = 0;
    }
    if (hot.contended()) {
      hot.unlock();
      holding = false;
    }
    lock.lock();
    bool finished = false;
    if (done) {
      finished = --live_ == 0;
    } else if (gave_way) {
      enqueue(t);
    }
    if (finished) {
      for (auto& l : lanes_) l->ready.notify_all();
      if (on_change) {
        lock.unlock();
        on_change();
        lock.lock();
      }
    }
  }
}

bool Scheduler::nothing_runnable() const {
  for (const auto& lane : lanes_) {
    if (lane->count != 0 || lane->mail) return false;
  }
  return true;
}

void Scheduler::sleep(Hart& hart, host::DeviceLock& lock) {
  Task& t = *tasks_[hart.index()];
  host::DeviceMutex& device = *lock.mutex();
  t.unlock_after_switch = &lock;  // the worker releases it once this fiber is off its stack
  sleeps_++;
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
