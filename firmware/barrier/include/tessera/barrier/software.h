// A software barrier: a planner's schedule (schedule.h) run over mailbox messages through the
// thread's Endpoint. Each algorithm is a planner; the classes of algorithms.h name them.
//
// Split phase: notify() enters the next episode and makes the sends that need nothing from
// anyone (a leaf's arrival, a first round), never waiting for another thread; wait() runs the
// rest of the schedule and returns once the episode is complete. barrier() is both.
#pragma once

#include <stdint.h>

#include "tessera/barrier/endpoint.h"
#include "tessera/barrier/group.h"
#include "tessera/barrier/schedule.h"
#include "tessera/status.h"

namespace tessera::barrier {

// Writes rank's steps of one episode of a group of `size` ranks. `param` is the algorithm's
// knob (a fan-in; 0 where there is none). `group` gives placement to the planners that use it
// (a multicast needs the members' mailboxes).
using Planner = void (*)(const Group& group, uint32_t rank, uint32_t param, Schedule& out);

class SoftwareBarrier {
 public:
  SoftwareBarrier(Endpoint& endpoint, const Group& group, Planner planner, uint32_t param);

  // Once, before the first notify: plans the caller's schedule. InvalidArgument if the caller is
  // not a member of the group or its tag is out of range; Internal if the planner overflowed.
  [[nodiscard]] Status init();
  void notify();
  void wait();
  void barrier() {
    notify();
    wait();
  }
  // After the last episode: nothing to give back (every message was consumed).
  void finish() {}

  uint32_t episode() const { return episode_; }  // episodes entered through this object
  uint32_t rank() const { return rank_; }
  const Group& group() const { return group_; }
  const Schedule& schedule() const { return schedule_; }

 private:
  void run(const Step& step);

  Endpoint& endpoint_;
  Group group_;
  Planner planner_;
  uint32_t param_;
  uint32_t rank_ = Group::kNotMember;
  uint32_t episode_ = 0;
  uint32_t first_episode_ = 0;  // the tag's episode on the endpoint before this object's first
  uint32_t next_step_ = 0;      // of the current episode; schedule_.size() once it is complete
  Schedule schedule_;
};

}  // namespace tessera::barrier
