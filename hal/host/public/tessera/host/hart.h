// A hart of the host machine and the binding of host threads to harts.
//
// Each host thread standing in for a hart holds a HartScope; the HAL host
// backend sends every CSR and MMIO access of that thread to the machine on
// behalf of the bound hart.
#pragma once

#include <stdint.h>

#include <atomic>

namespace tessera::host {

class Machine;

class Hart {
 public:
  Hart(Machine& machine, uint32_t id, uint32_t index) : machine_(machine), id_(id), index_(index) {}
  Hart(const Hart&) = delete;
  Hart& operator=(const Hart&) = delete;

  Machine& machine() const { return machine_; }
  uint32_t id() const { return id_; }        // global thread id (mhartid)
  uint32_t index() const { return index_; }  // dense index, 0..N-1

  // Modelled cycle count (the CYCLE/CYCLEH CSRs). The host machine charges
  // one cycle per CSR or MMIO access so that time moves on in every loop
  // that polls; devices that model waiting move it further.
  uint64_t cycles() const { return cycles_.load(std::memory_order_relaxed); }
  void advance_cycles(uint64_t n) { cycles_.fetch_add(n, std::memory_order_relaxed); }

 private:
  friend class HartScope;

  Machine& machine_;
  const uint32_t id_;
  const uint32_t index_;
  std::atomic<uint64_t> cycles_{0};
  std::atomic<bool> bound_{false};  // a hart is one thread at a time
};

// Binds the calling thread to a hart for the scope's lifetime; restores the
// previous binding (if any) when it ends. Throws std::logic_error if the
// hart is already bound to a thread.
class HartScope {
 public:
  explicit HartScope(Hart& hart);
  HartScope(Machine& machine, uint32_t thread_id);
  ~HartScope();
  HartScope(const HartScope&) = delete;
  HartScope& operator=(const HartScope&) = delete;

  Hart& hart() const { return hart_; }

 private:
  Hart& hart_;
  Hart* previous_;
};

// The hart bound to the calling thread; throws std::logic_error if none.
Hart& current_hart();

// The hart bound to the calling thread, or nullptr.
Hart* current_hart_or_null();

}  // namespace tessera::host
