// A hart of the host machine and the binding of host threads to harts.
//
// Each host thread standing in for a hart holds a HartScope; the HAL host
// backend sends every CSR and MMIO access of that thread to the machine on
// behalf of the bound hart.
#pragma once

#include <stdint.h>

#include <atomic>
#include <iosfwd>
#include <string_view>

namespace tessera::host {

class Machine;

// The blocking operation a hart's thread sleeps in, if any (Machine::blocked_on,
// Machine::wait_until_blocked). A device with a blocking operation adds its own value.
enum class BlockedOn {
  kNothing,         // running, finished, or not started
  kCanSend,         // WAIT_UNTIL can-send (tinselWaitUntil(TINSEL_CAN_SEND), a blocked send)
  kCanRecv,         // WAIT_UNTIL can-recv (tinselWaitUntil(TINSEL_CAN_RECV), a blocked receive)
  kCanSendOrRecv,   // WAIT_UNTIL either
  kIdle,            // WAIT_UNTIL with the idle bits (tinselIdle)
  kBarrier,         // the barrier controller's ENTER
  kOcbus,           // the open-collector bus's OCBUS_WAIT
  kReflexRecv,      // REFLEX_RECV on an empty inbound buffer
  kReflexWaitSend,  // REFLEX_WAIT_SEND on a full outbound buffer
};

// "can-recv", "idle", ...: for messages and gtest output.
std::string_view name(BlockedOn what);
std::ostream& operator<<(std::ostream& out, BlockedOn what);

class Hart {
 public:
  Hart(Machine& machine, uint32_t id, uint32_t index, uint32_t cpi)
      : machine_(machine), id_(id), index_(index), cpi_(cpi) {}
  Hart(const Hart&) = delete;
  Hart& operator=(const Hart&) = delete;

  Machine& machine() const { return machine_; }
  uint32_t id() const { return id_; }        // global thread id (mhartid)
  uint32_t index() const { return index_; }  // dense index, 0..N-1
  // A thread stands for this hart now (it holds a HartScope).
  bool bound() const { return bound_.load(); }

  // Modelled time, by the rule of the clock model (tessera/models/clock.h)
  // that QEMU follows too: retired instructions x cpi + cycles waited. On
  // the host an instruction is a CSR or MMIO access (Machine retires one
  // per access, before the device acts), so time moves on in every loop
  // that polls. Only the hart's own thread moves its clock; others may read
  // it once that thread has finished.
  // The model's clock of this hart is moved by this hart alone, so the hart keeps what it last
  // read there and the instructions retired since: cycles() and retire() (one per access) need no
  // call into the model, and wait_until() calls it only when the clock moves on.
  uint64_t cycles() const { return synced_ + unretired_ * cpi_; }  // the CYCLE/CYCLEH CSRs
  void retire(uint64_t instructions) { unretired_ += instructions; }
  // A device made the hart wait until `cycle`: the clock moves there if it
  // is behind. Returns the cycles added.
  uint64_t wait_until(uint64_t cycle) {
    return cycle <= cycles() ? 0 : move_clock_to(cycle);  // the first: as the model would answer
  }
  // `n` cycles of modelled work between accesses (a test's compute phase).
  void advance_cycles(uint64_t n) { (void)wait_until(cycles() + n); }

  // The hart's CSR and MMIO accesses so far. The machine counts each one and, when the count
  // reaches give_way_at(), calls its HartSleeper's access() (which moves the mark on): a
  // counter of the hart's own rather than a call per access. Never without a sleeper.
  uint64_t accesses() const { return accesses_; }
  uint64_t give_way_at() const { return give_way_at_; }
  void set_give_way_at(uint64_t count) { give_way_at_ = count; }
  // Counts one access: true when the sleeper is due.
  bool count_access() { return ++accesses_ >= give_way_at_; }

 private:
  friend class HartScope;

  uint64_t move_clock_to(uint64_t cycle);

  Machine& machine_;
  const uint32_t id_;
  const uint32_t index_;
  const uint32_t cpi_;
  std::atomic<bool> bound_{false};  // a hart is one thread at a time
  uint64_t synced_ = 0;             // the model's clock of this hart, as last read
  uint64_t unretired_ = 0;          // instructions retired since the model last heard
  uint64_t accesses_ = 0;           // the hart's own thread counts them
  uint64_t give_way_at_ = UINT64_MAX;
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

namespace detail {
// Which hart the calling thread stands for: the one piece of global state. In the header so that
// the HAL's every access reads it in line (constinit: no call to initialise it first).
extern constinit thread_local Hart* current_hart;
[[noreturn]] void no_current_hart();
}  // namespace detail

// The hart bound to the calling thread; throws std::logic_error if none.
inline Hart& current_hart() {
  Hart* const hart = detail::current_hart;
  if (hart == nullptr) detail::no_current_hart();
  return *hart;
}

// The hart bound to the calling thread, or nullptr.
Hart* current_hart_or_null();

// For a scheduler of user-level fibers (native mode): the calling thread stands for `hart` (or
// none) from now on, without binding it; returns the previous one. The scheduler sets it as it
// switches to a hart's fiber, whose HartScope did the binding.
Hart* exchange_current_hart(Hart* hart);

}  // namespace tessera::host
