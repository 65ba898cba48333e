#include "tessera/native/scheduler.h"

#include <cstdio>
#include <cstdlib>

namespace tessera::native {

using host::Hart;
using host::HartScope;
using host::MachineExit;

SchedulerOptions SchedulerOptions::from_environment() {
  SchedulerOptions options;
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
  {
    std::lock_guard lock(mutex_);
    live_ = static_cast<uint32_t>(tasks_.size());
    runnable_bits_.assign((tasks_.size() + 63) / 64, 0);
    for (auto& t : tasks_) enqueue(t.get());
  }
  for (unsigned w = 0; w < options_.workers; w++) workers_.emplace_back([this] { work(); });
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
  return live_ > 0 && running_ == 0 && runnable_count_ == 0;
}

void Scheduler::push(Task* task) {
  {
    std::lock_guard lock(mutex_);
    enqueue(task);
  }
  runnable_.notify_one();
}

void Scheduler::enqueue(Task* task) {
  const uint32_t i = task->hart->index();
  runnable_bits_[i / 64] |= uint64_t{1} << (i % 64);
  runnable_count_++;
}

// In index order, round and round, as the emulator's round robin takes its harts: neighbours
// share a tile's scratchpad and the model's records of the tile, and their memory lies side by
// side, so the caches keep what the next hart needs.
Scheduler::Task* Scheduler::pop_runnable() {
  const size_t words = runnable_bits_.size();
  size_t w = cursor_ / 64;
  uint64_t bits = runnable_bits_[w] & (~uint64_t{0} << (cursor_ % 64));
  while (bits == 0) {
    w = w + 1 == words ? 0 : w + 1;
    bits = runnable_bits_[w];
  }
  const unsigned bit = static_cast<unsigned>(__builtin_ctzll(bits));
  runnable_bits_[w] &= ~(uint64_t{1} << bit);
  const uint32_t i = static_cast<uint32_t>(w * 64 + bit);
  runnable_count_--;
  cursor_ = i + 1 == tasks_.size() ? 0 : i + 1;
  return tasks_[i].get();
}

void Scheduler::work() {
  // The mailbox's lock, held across the fibers this worker runs: every access of a vertex
  // program takes it, and a hart's take of a lock its worker holds costs a compare and a count.
  // Let go between two fibers when another thread (the host's, another worker) waits for it, and
  // before this worker waits for a runnable hart (a wake comes under that lock).
  host::DeviceMutex& hot = machine_->mailbox_lock();
  bool holding = false;
  std::unique_lock lock(mutex_);
  for (;;) {
    if (holding && runnable_count_ == 0) {
      hot.unlock();
      holding = false;
    }
    runnable_.wait(lock, [&] { return runnable_count_ > 0 || live_ == 0; });
    if (runnable_count_ == 0) return;  // every hart has finished
    Task* t = pop_runnable();
    running_++;
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
    if (hot.contended()) {
      hot.unlock();
      holding = false;
    }

    bool changed = false;
    if (t->fiber->finished()) {
      t->state.store(kFinished);
      lock.lock();
      running_--;
      changed = --live_ == 0;
      if (changed) runnable_.notify_all();
    } else if (host::DeviceLock* device = t->unlock_after_switch) {
      // Asleep only now that it is off its stack: a wake under the device's lock finds it so.
      t->unlock_after_switch = nullptr;
      t->state.store(kSleeping);
      // The lock object lets go before the mutex is free: another worker may then wake and
      // resume the hart at once, whose sleep() locks again through that object (EDEADLK if it
      // still owned).
      device->release()->unlock();
      lock.lock();
      running_--;
    } else {  // gave way
      t->state.store(kRunnable);
      lock.lock();
      running_--;
      enqueue(t);
    }
    changed = changed || (live_ > 0 && running_ == 0 && runnable_count_ == 0);
    if (changed && on_change) {
      lock.unlock();
      on_change();
      lock.lock();
    }
  }
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
