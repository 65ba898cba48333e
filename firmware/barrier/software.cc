#include "tessera/barrier/software.h"

#include <stdint.h>

namespace tessera::barrier {

SoftwareBarrier::SoftwareBarrier(Endpoint& endpoint, const Group& group, Planner planner,
                                 uint32_t param)
    : endpoint_(endpoint), group_(group), planner_(planner), param_(param) {}

Status SoftwareBarrier::init() {
  rank_ = group_.rank_of(endpoint_.thread_id());
  if (rank_ == Group::kNotMember || group_.tag() >= Group::kMaxTags) {
    return Status::InvalidArgument();
  }
  schedule_ = Schedule();
  planner_(group_, rank_, param_, schedule_);
  if (schedule_.overflowed()) {
    return Status::Internal();
  }
  next_step_ = schedule_.size();
  first_episode_ = endpoint_.episode(group_.tag());
  episode_ = 0;
  return OkStatus();
}

void SoftwareBarrier::notify() {
  if (next_step_ != schedule_.size()) {
    endpoint_.protocol_error("notify before the previous episode's wait", episode_, next_step_);
  }
  episode_++;
  endpoint_.enter(group_.tag(), first_episode_ + episode_);
  next_step_ = 0;
  while (next_step_ < schedule_.size() && schedule_[next_step_].op != Op::kRecv) {
    run(schedule_[next_step_++]);
  }
}

void SoftwareBarrier::wait() {
  while (next_step_ < schedule_.size()) {
    run(schedule_[next_step_++]);
  }
}

void SoftwareBarrier::run(const Step& step) {
  const uint32_t tag = group_.tag();
  switch (step.op) {
    case Op::kSend:
      endpoint_.send(group_.member(step.a), tag, step.slot);
      break;
    case Op::kSendRanks:
      for (uint32_t r = step.a; r < step.a + step.b; r++) {
        endpoint_.send(group_.member(r), tag, step.slot);
      }
      break;
    case Op::kMulticast:
      endpoint_.multicast(step.a, uint64_t{step.b} << 32 | step.c, tag, step.slot);
      break;
    case Op::kRecv:
      endpoint_.await(tag, step.slot, step.a);
      break;
  }
}

}  // namespace tessera::barrier
