// One thread's part of one episode of a software barrier, as data: the sends it makes and the
// messages it waits for, in order. A software algorithm is a planner that writes this for each
// rank of a group; SoftwareBarrier runs it over mailbox messages and the performance model
// (model.h) replays every rank's schedule in modelled time. So what runs and what is predicted
// come from one description.
//
// Every message is one flit that says only "this step of this episode happened": its slot names
// the step. Messages of a slot are counted, not stored, so a rank's Recv(slot, n) completes once
// n messages of that slot of the current episode have arrived, in any order and whenever they
// came. A planner gives each receive step its own slot (a round number, a child's index), and
// every message sent to a rank is waited for by it in the same episode.
#pragma once

#include <stdint.h>

#include "tessera/barrier/limits.h"

namespace tessera::barrier {

enum class Op : uint8_t {
  kSend,       // one message to rank a
  kSendRanks,  // one message to each of the b ranks a, a + 1, ..., a + b - 1
  kMulticast,  // one message to each thread k of mailbox a with bit k of (b:c) set (hi:lo)
  kRecv,       // waits until a messages of this slot have arrived
};

struct Step {
  Op op;
  uint8_t slot;
  uint32_t a;
  uint32_t b;
  uint32_t c;
};

class Schedule {
 public:
  // Enough for the butterfly's two virtual ranks in each of log2 65536 rounds, and for the root
  // of gather-broadcast on the largest mesh (a send per board and a multicast per tile).
  static constexpr uint32_t kMachineSteps = 96;
  // Enough for every planner on a board's machine (limits.h; planners_test checks it): 16
  // steps take 256 bytes of a thread's stack where 96 take 1.5 KiB.
  static constexpr uint32_t kBoardSteps = 16;
  static constexpr uint32_t kMaxSteps = kPlanForBoard ? kBoardSteps : kMachineSteps;
  static constexpr uint32_t kSlots = 32;

  void send(uint32_t rank, uint32_t slot) { add({Op::kSend, narrow(slot), rank, 0, 0}); }
  void send_ranks(uint32_t first, uint32_t count, uint32_t slot) {
    if (count != 0) {
      add({Op::kSendRanks, narrow(slot), first, count, 0});
    }
  }
  void multicast(uint32_t mailbox, uint64_t mask, uint32_t slot) {
    if (mask != 0) {
      add({Op::kMulticast, narrow(slot), mailbox, static_cast<uint32_t>(mask >> 32),
           static_cast<uint32_t>(mask)});
    }
  }
  void recv(uint32_t slot, uint32_t count) {
    if (count != 0) {
      add({Op::kRecv, narrow(slot), count, 0, 0});
    }
  }

  uint32_t size() const { return size_; }
  const Step& operator[](uint32_t i) const { return steps_[i]; }
  const Step* begin() const { return steps_; }
  const Step* end() const { return steps_ + size_; }
  // A planner asked for more than kMaxSteps steps or a slot >= kSlots: the schedule is unusable.
  bool overflowed() const { return overflowed_; }

 private:
  uint8_t narrow(uint32_t slot) {
    if (slot >= kSlots) {
      overflowed_ = true;
      return 0;
    }
    return static_cast<uint8_t>(slot);
  }
  void add(const Step& step) {
    if (size_ == kMaxSteps) {
      overflowed_ = true;
      return;
    }
    steps_[size_++] = step;
  }

  Step steps_[kMaxSteps];
  uint32_t size_ = 0;
  bool overflowed_ = false;
};

}  // namespace tessera::barrier
