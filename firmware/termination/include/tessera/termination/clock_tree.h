// Software termination detection with an asynchronous clock tree (docs/idle.md, "Software
// baselines"): the master (thread 0) sends a token down a spanning tree of every thread; each
// thread passes it on to its children at once, and once its children have answered and it is
// itself blocked in idle(), it sends up an acknowledgement carrying a snapshot of its subtree:
// the sum of (application messages sent - received), whether any of them received an
// application message since its previous acknowledgement (black), and the AND of the votes.
// A wave ends when the master has its children's acknowledgements and is idle itself.
//
// Termination: a wave whose snapshot is white with a zero sum. Why that is enough:
//  - Every snapshot is taken while its thread is blocked in idle() with nothing to hand to the
//    program, and waves never overlap (the master starts wave w+1 only after wave w ended), so
//    the snapshots of wave w form a cut, and every snapshot of wave w-1 precedes every
//    snapshot of wave w.
//  - A message crossing the cut backwards (sent after its sender's snapshot, received before
//    its receiver's snapshot) was received after the receiver's wave w-1 snapshot (its send
//    follows the sender's wave w token, which follows the end of wave w-1): its receiver is
//    black. A white wave therefore has no such message, and then the sum of the snapshots is
//    exactly the number of messages sent before the cut and not received before it: zero
//    means nothing in flight across the cut.
//  - A consistent cut in which every thread is idle and no message is in flight is a terminal
//    state: nothing can happen after it, so every thread is still in the idle() call of its
//    snapshot, and its vote in the wave is the vote of that call.
// This is the counter-and-colour argument of Safra's algorithm applied to a wave instead of a
// ring lap (equivalently, Mattern's four-counter method with the second wave replaced by the
// colours). A busy program needs two waves (the first one after its last message is black);
// a tight idle loop needs one.
//
// Release: when a wave detects termination, the master starts the next wave at once with the
// result attached; every thread passes it on and returns the result from idle(). That wave's
// acknowledgements are the first snapshots of the next episode, so the release costs no round
// trip of its own.
//
// The tree: threads are numbered by dense index; board b's threads form a `fanout`-ary heap
// over their board-local index (local 0, the board's leader, at the root), and the board
// leaders form a `fanout`-ary heap over the dense board index (board 0's leader, thread 0, is
// the master). A board leader thus has up to 2 x fanout children. The default fan-out is 4
// (docs/idle.md: each level costs about fanout x (send + receive), and the depth is
// log_fanout N, so small fan-outs win; 4 keeps the depth at 5 levels for a 1,024-thread board).
// round_trips() counts the waves the master has completed.
#pragma once

#include <stdint.h>

#include "tessera/termination/software.h"

namespace tessera::termination {

class ClockTree : public Software<ClockTree> {
 public:
  static constexpr const char* kName = "sw-clocktree";
  static constexpr uint32_t kDefaultFanout = 4;
  static constexpr uint32_t kMaxFanout = 16;

  explicit ClockTree(uint32_t fanout = kDefaultFanout);

  uint32_t wave() const { return wave_; }

 private:
  friend class Software<ClockTree>;

  // Control messages (header kind): down the tree and up.
  static constexpr uint32_t kDown = wire::kControl1;  // w1 wave; header: episode, result
  static constexpr uint32_t kUp = wire::kControl2;    // w1 wave, w2 sum, w3 flags

  void on_control(const volatile uint32_t* msg);
  void progress();
  void start_wave(int result);
  void acknowledge();
  void decide(uint32_t sum, bool black, bool vote);

  bool root_;
  uint32_t parent_ = 0;
  uint32_t num_children_ = 0;
  uint32_t children_[2 * kMaxFanout];

  bool started_ = false;      // root: the first wave has been sent
  bool have_token_ = false;   // this thread holds the current wave's token
  uint32_t wave_ = 0;
  uint32_t acks_pending_ = 0;
  uint32_t acc_sum_ = 0;
  bool acc_black_ = false;
  bool acc_vote_ = true;
};

static_assert(Detector<ClockTree>);

}  // namespace tessera::termination
