// Reflex switch driver and the reflex barrier (docs/reflex.md, DESIGN 1.4).
//
// Every hart has a reflex switch: a port to its core and one to the next switch. A hart
// configures its own switch (ReflexSwitch::configure: the next switch's thread id, and the route
// of flits from the previous switch), sends 32-bit flits to the next switch and receives the
// flits its switch delivers to its core. Flow control is by credits on B-flit buffers
// (Sysinfo::reflex_buffer_flits): a send waits (in the WAIT_SEND CSR) while the outbound buffer
// is full; a receive waits (in the RECV CSR) while the inbound one is empty. Never a spin.
//
// A ring (ReflexRing) is an ordered list of members, the first its root: each member's next
// switch is its successor (the last's is the root); the root's route is CORE (the ring is broken
// there and the root's core is wired in series), the others' BOTH (multicast to the core and on).
//
// The reflex barrier (ReflexBarrier) runs over any ring, split phase:
//   ReflexBarrier barrier(ring);
//   (void)barrier.init();      // every member, once: configures its switch; the root sends B
//   ...
//   (void)barrier.notify();    // returns at once: "I have arrived" (after a memory fence)
//   ... work that needs no one else ...
//   (void)barrier.wait();      // returns once every member has notified in this episode
//   (void)barrier.barrier();   // notify + wait
// Counts (B = buffer flits): init, the root sends B flits; notify, the root sends 1 flit and the
// others receive B; wait, the root receives B + 1 and sends B, the others receive 1. A
// non-root's notify may wait for the root's previous release to arrive; the root's notify may
// wait for outbound room only while a straggler has not yet read the previous release.
//
// Objects hold the calling hart's facts: construct them on the hart that uses them.
#pragma once

#include <stdint.h>

#include "tessera/hw/regs.h"
#include "tessera/status.h"

namespace tessera::drivers {

// Where a switch sends a flit that arrives from the previous switch (TESSERA_REFLEX_ROUTE_*).
enum class ReflexRoute : uint32_t {
  kOff = TESSERA_REFLEX_ROUTE_OFF,          // unconfigured: passes nothing
  kCore = TESSERA_REFLEX_ROUTE_CORE,        // to the core only (a ring's root)
  kForward = TESSERA_REFLEX_ROUTE_FORWARD,  // to the next switch only
  kBoth = TESSERA_REFLEX_ROUTE_BOTH,        // multicast: the core and the next switch
};

// TESSERA_CSR_REFLEX_STATUS, decoded.
struct ReflexStatus {
  uint32_t inbound;        // flits waiting to be received
  uint32_t outbound_room;  // flits that may be sent without waiting
};

// The calling hart's reflex switch.
class ReflexSwitch {
 public:
  // Sets the next switch (a thread id), then the route. InvalidArgument for a next that is no
  // thread of the machine or a route above kBoth; FailedPrecondition if the switch refused
  // (a route that passes flits on with no next switch: the hardware logs a guest error).
  [[nodiscard]] Status configure(uint32_t next_thread_id, ReflexRoute route) const;
  // Back to unconfigured (route kOff, no next switch): passes nothing.
  void unconfigure() const;
  uint32_t next() const;  // a thread id, or TESSERA_REFLEX_NO_NEXT
  ReflexRoute route() const;

  // Waits for outbound room (WAIT_SEND), then sends. FailedPrecondition if the switch refused the
  // flit (no next switch, or its path is a ring with no root; a guest error).
  [[nodiscard]] Status send(uint32_t flit) const;
  // Waits for a flit (RECV) and returns it.
  uint32_t receive() const;
  ReflexStatus status() const;
};

// The calling hart's place in a ring.
class ReflexRing {
 public:
  ReflexRing() = default;  // no ring: join() fails
  // Every hart of the machine in dense-index order; the root is dense index 0.
  static ReflexRing all_harts();
  // members[0..count) in ring order, the root first; every member passes the same list.
  // InvalidArgument if count is 0, an id names no thread, or the calling hart is not a member
  // exactly once. (Rings that share a hart cannot both use its one switch.)
  [[nodiscard]] static Status of(const uint32_t* members, uint32_t count, ReflexRing* ring);

  // Configures the calling hart's switch for this ring.
  [[nodiscard]] Status join() const;

  bool root() const { return root_; }
  uint32_t next() const { return next_; }  // the successor's thread id
  uint32_t size() const { return size_; }

 private:
  ReflexRing(uint32_t next, bool root, uint32_t size) : next_(next), root_(root), size_(size) {}

  uint32_t next_ = TESSERA_REFLEX_NO_NEXT;
  bool root_ = false;
  uint32_t size_ = 0;
};

class ReflexBarrier {
 public:
  // B from sysinfo. One per member hart; every member of the ring must make one.
  explicit ReflexBarrier(const ReflexRing& ring);

  // Once per ring, on every member, before the first notify: configures the member's switch; the
  // root then sends B flits. Members may call it in any order (flits wait at switches not yet
  // configured). FailedPrecondition if called twice.
  [[nodiscard]] Status init();
  // Arrival in the next episode. FailedPrecondition before init or twice without a wait.
  [[nodiscard]] Status notify();
  // Returns once every member has notified in this episode. FailedPrecondition without a notify.
  // DataLoss if a flit of another episode arrives (the ring's switches were used for something
  // else meanwhile).
  [[nodiscard]] Status wait();
  [[nodiscard]] Status barrier();

  uint32_t buffer_flits() const { return buffer_flits_; }
  uint32_t episode() const { return episode_; }  // completed episodes

 private:
  enum class Phase : uint8_t { kNew, kIdle, kNotified };

  // Receives `count` flits, each of which must carry `tag`.
  [[nodiscard]] Status receive_tagged(uint32_t count, uint32_t tag) const;
  [[nodiscard]] Status send_tagged(uint32_t count, uint32_t tag) const;

  ReflexRing ring_;
  ReflexSwitch switch_;
  uint32_t buffer_flits_;
  uint32_t episode_ = 0;
  Phase phase_ = Phase::kNew;
};

}  // namespace tessera::drivers
