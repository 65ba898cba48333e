// Asynchronous clock tree (clock_tree.h has the protocol and why it is correct).
#include "tessera/termination/clock_tree.h"

#include <stdint.h>

#include "tessera/termination/software.h"

namespace tessera::termination {

namespace {
constexpr uint32_t kFlagBlack = 1u << 0;
constexpr uint32_t kFlagVote = 1u << 1;
}  // namespace

ClockTree::ClockTree(uint32_t fanout) {
  if (fanout < 1 || fanout > kMaxFanout) {
    protocol_error("clock tree fan-out out of range", fanout, kMaxFanout);
  }
  const uint32_t per_board = threads_per_board();
  const uint32_t board = index() / per_board;
  const uint32_t local = index() % per_board;
  root_ = index() == 0;
  if (local > 0) {
    parent_ = thread_at(board * per_board + (local - 1) / fanout);
  } else if (board > 0) {
    parent_ = thread_at(((board - 1) / fanout) * per_board);
  }
  for (uint32_t k = 1; k <= fanout; k++) {
    const uint32_t child = local * fanout + k;
    if (child < per_board) {
      children_[num_children_++] = thread_at(board * per_board + child);
    }
  }
  if (local == 0) {
    for (uint32_t k = 1; k <= fanout; k++) {
      const uint32_t child = board * fanout + k;
      if (child < boards()) {
        children_[num_children_++] = thread_at(child * per_board);
      }
    }
  }
}

void ClockTree::on_control(const volatile uint32_t* msg) {
  const uint32_t header = msg[0];
  const uint32_t wave = msg[1];
  if (wire::kind(header) == kDown) {
    // Pass the token on at once, whatever this thread is doing: its subtree can start.
    for (uint32_t i = 0; i < num_children_; i++) {
      send_control(children_[i], header, wave, 0, 0);
    }
    if (wire::epoch(header) != (epoch_ & wire::kEpochMask)) {
      // The release of the current episode (unless an application message from a released
      // thread has already ended it here: then the episode numbers agree).
      if (wire::epoch(header) != ((epoch_ + 1) & wire::kEpochMask) || !in_idle_ ||
          wire::result(header) == 0) {
        protocol_error("clock tree: release in an unexpected state", header, epoch_);
      }
      release(static_cast<int>(wire::result(header)));
    }
    if (have_token_) {
      protocol_error("clock tree: a new wave before the previous one was acknowledged", wave,
                     wave_);
    }
    wave_ = wave;
    have_token_ = true;
    acks_pending_ = num_children_;
    acc_sum_ = 0;
    acc_black_ = false;
    acc_vote_ = true;
  } else {
    if (!have_token_ || wave != wave_ || acks_pending_ == 0) {
      protocol_error("clock tree: unexpected acknowledgement", wave, wave_);
    }
    acks_pending_--;
    acc_sum_ += msg[2];
    acc_black_ = acc_black_ || (msg[3] & kFlagBlack) != 0;
    acc_vote_ = acc_vote_ && (msg[3] & kFlagVote) != 0;
  }
}

void ClockTree::start_wave(int result) {
  wave_++;
  const uint32_t header = wire::header(kDown, epoch_, static_cast<uint32_t>(result));
  for (uint32_t i = 0; i < num_children_; i++) {
    send_control(children_[i], header, wave_, 0, 0);
  }
  have_token_ = true;
  acks_pending_ = num_children_;
  acc_sum_ = 0;
  acc_black_ = false;
  acc_vote_ = true;
}

void ClockTree::progress() {
  if (root_ && !started_) {
    started_ = true;
    start_wave(0);
  }
  // A childless root (a machine of one thread) may decide twice in a row: once to clear its
  // colour, once more with it clear. If that fails too, a message is on its way to it.
  for (int i = 0; i < 2 && have_token_ && acks_pending_ == 0 && idle_now(); i++) {
    acknowledge();
  }
}

void ClockTree::acknowledge() {
  // The snapshot of this thread, taken now (it is blocked in idle), added to its subtree's.
  const uint32_t sum = acc_sum_ + balance();
  const bool black = acc_black_ || black_;
  const bool vote = acc_vote_ && vote_;
  black_ = false;
  have_token_ = false;
  if (root_) {
    decide(sum, black, vote);
  } else {
    send_control(parent_, wire::header(kUp, epoch_, 0), wave_, sum,
                 (black ? kFlagBlack : 0) | (vote ? kFlagVote : 0));
  }
}

void ClockTree::decide(uint32_t sum, bool black, bool vote) {
  round_trips_++;
  if (sum == 0 && !black) {
    const int result = vote ? kTerminatedAllVoted : kTerminated;
    release(result);
    start_wave(result);  // carries the release; its acknowledgements open the next episode
  } else {
    start_wave(0);
  }
}

}  // namespace tessera::termination
