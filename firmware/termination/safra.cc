// Safra's token ring (safra.h has the protocol and why it is correct).
#include "tessera/termination/safra.h"

#include <stdint.h>

#include "tessera/termination/software.h"

namespace tessera::termination {

namespace {
constexpr uint32_t kFlagBlack = 1u << 0;
constexpr uint32_t kFlagVote = 1u << 1;
}  // namespace

Safra::Safra() {
  master_ = index() == 0;
  const uint32_t next = (index() + 1) % threads();
  next_is_master_ = next == 0;
  next_ = thread_at(next);
}

void Safra::on_control(const volatile uint32_t* msg) {
  const uint32_t header = msg[0];
  if (wire::kind(header) == kToken) {
    if (have_token_ || (master_ && !token_out_)) {
      protocol_error("safra: unexpected token", msg[3], lap_);
    }
    have_token_ = true;
    q_ = msg[1];
    token_black_ = (msg[2] & kFlagBlack) != 0;
    token_vote_ = (msg[2] & kFlagVote) != 0;
    lap_ = msg[3];
    return;
  }
  // Release: pass it on at once, then end the episode here (unless an application message from
  // a released thread has ended it already: then the episode numbers agree).
  if (!next_is_master_) {
    send_control(next_, header, 0, 0, 0);
  }
  if (wire::epoch(header) != (epoch_ & wire::kEpochMask)) {
    if (master_ || wire::epoch(header) != ((epoch_ + 1) & wire::kEpochMask) || !in_idle_ ||
        wire::result(header) == 0) {
      protocol_error("safra: release in an unexpected state", header, epoch_);
    }
    release(static_cast<int>(wire::result(header)));
  }
}

void Safra::start_lap() {
  black_ = false;
  token_out_ = true;
  lap_++;
  if (threads() == 1) {
    // A ring of one: the token is back at once.
    have_token_ = true;
    q_ = 0;
    token_black_ = false;
    token_vote_ = true;
    return;
  }
  send_control(next_, wire::header(kToken, 0, 0), 0, kFlagVote, lap_);
}

void Safra::decide() {
  have_token_ = false;
  token_out_ = false;
  round_trips_++;
  if (!token_black_ && !black_ && q_ + balance() == 0) {
    const int result = token_vote_ && vote_ ? kTerminatedAllVoted : kTerminated;
    release(result);
    if (threads() > 1) {
      send_control(next_, wire::header(kRelease, epoch_, static_cast<uint32_t>(result)), 0, 0, 0);
    }
  }
}

bool Safra::step() {
  if (!idle_now()) {
    return false;
  }
  if (master_) {
    if (have_token_) {
      decide();
      return true;
    }
    if (!token_out_) {
      start_lap();
      return true;
    }
    return false;
  }
  if (have_token_) {
    have_token_ = false;
    const uint32_t flags =
        (token_black_ || black_ ? kFlagBlack : 0) | (token_vote_ && vote_ ? kFlagVote : 0);
    black_ = false;
    send_control(next_, wire::header(kToken, 0, 0), q_ + balance(), flags, lap_);
    return true;
  }
  return false;
}

void Safra::progress() {
  // Bounded: with a ring of one the master may start a lap, fail it once on its own colour and
  // start another; after that a failure means a message is on its way to it.
  for (int i = 0; i < 4 && step(); i++) {
  }
}

}  // namespace tessera::termination
