// What the software detectors (ClockTree, Safra) share: the message header, the counters, the
// receive path that separates control messages from application messages, and idle() itself.
// A protocol class derives from Software<Protocol> and supplies two hooks:
//
//   void on_control(const volatile uint32_t* msg);  // a control message of the protocol
//   void progress();                                // act on the state (forward, report, decide)
//
// docs/idle.md ("Software baselines") explains the protocols and why they are correct.
//
// Message header (word 0 of every message a software detector sends or receives):
//
//   bits 31..30  kind: 0 application, 1 and 2 control (meaning chosen by the protocol)
//   bits 29..2   episode number (mod 2^28) of the sender, or carried by a control message
//   bits  1..0   result of the sender's latest episode (0 before the first; 1 or 3)
//
// Control messages are one flit: word 0 the header, words 1..3 protocol data.
//
// Episodes. Each thread counts the episodes (idle synchronisations) it has been released
// from. An application message carries its sender's count. The receiver of a message whose
// count is one ahead of its own knows that its current episode has terminated (the sender was
// released from it); it takes the result from the header, ends its idle() with that result
// and keeps the message for its next idle() call, which returns 0 at once. So a released
// thread that sends at once can never make another thread return 0 in the episode that has
// just ended, without a third phase that disables sending (as the hardware needs).
#pragma once

#include <stdint.h>

#include "tessera/drivers/mailbox_core.h"
#include "tessera/termination/detector.h"

namespace tessera::termination {

namespace wire {
inline constexpr uint32_t kApp = 0;
inline constexpr uint32_t kControl1 = 1;
inline constexpr uint32_t kControl2 = 2;
inline constexpr uint32_t kEpochMask = (1u << 28) - 1;

constexpr uint32_t header(uint32_t kind, uint32_t epoch, uint32_t result) {
  return kind << 30 | (epoch & kEpochMask) << 2 | (result & 3u);
}
constexpr uint32_t kind(uint32_t header) { return header >> 30; }
constexpr uint32_t epoch(uint32_t header) { return (header >> 2) & kEpochMask; }
constexpr uint32_t result(uint32_t header) { return header & 3u; }
}  // namespace wire

// Exit status of a run that a software detector ends because its protocol was broken (a bug,
// or a program that breaks the rules of detector.h). The detector prints one line saying what
// happened through the console driver,
//   FAIL termination: thread 0x<id> (index <dense index>): <what> (0x<a>, 0x<b>)
// ends the run through the exit device driver with this status, and stops the thread (on the
// host machine the exit device throws tessera::host::MachineExit).
inline constexpr int kProtocolErrorExit = 120;

// Everything that does not depend on the protocol.
class SoftwareCore {
 public:
  static constexpr uint32_t kReservedWords = 1;
  // Messages a thread can take out of its mailbox and keep as copies while it waits to send
  // (so that it never stops receiving while it waits); beyond that it waits for can-send only.
  static constexpr uint32_t kCopies = 8;

  volatile void* send_slot() { return send_slot_; }
  // Application sends: header, count, send.
  void send(uint32_t dest, volatile void* msg, uint32_t flits);
  void multicast(uint32_t mailbox, uint32_t mask_hi, uint32_t mask_lo, volatile void* msg,
                 uint32_t flits);
  void free(volatile void* msg);
  uint64_t round_trips() const { return round_trips_; }

  // For tests and reports.
  uint32_t episode() const { return epoch_; }
  uint32_t sent() const { return sent_; }
  uint32_t received() const { return received_; }
  // Messages taken out of the mailbox into copies while waiting for can-send.
  uint32_t copies_kept() const { return copies_kept_; }

 protected:
  SoftwareCore();

  // Thread id of a dense index, and the machine's size.
  uint32_t thread_at(uint32_t dense_index) const;
  uint32_t index() const { return index_; }
  uint32_t threads() const { return threads_; }
  uint32_t threads_per_board() const { return per_board_; }
  uint32_t boards() const { return boards_; }

  // The next message nobody has looked at yet: a kept copy first, then the mailbox. Null if
  // there is none (poll) / waits for one (wait_next). Software<P>::look_at then hands a control
  // message to the protocol and drops it, and an application message to accept_application.
  volatile uint32_t* poll();
  volatile uint32_t* wait_next();
  // Gives a message's slot back (or drops the copy).
  void drop(volatile void* msg);
  // An application message has been taken out of the mailbox (or out of a copy): it is counted,
  // blackens this thread and becomes ready_; one from the next episode first ends the current
  // one (see above).
  void accept_application(volatile uint32_t* msg);

  // A one-flit control message, sent from the send slot, whose first flit is kept as it was.
  void send_control(uint32_t dest, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3);

  // The calling thread is blocked in idle() with nothing to hand to the program: the state in
  // which it may take part in a wave or pass a token on.
  bool idle_now() const { return in_idle_ && ready_ == nullptr && release_ == 0; }
  // The current episode has terminated with `result`: idle() returns it.
  void release(int result);
  // Signed count of this thread: application messages sent minus received (mod 2^32).
  uint32_t balance() const { return sent_ - received_; }

  [[noreturn]] void protocol_error(const char* what, uint32_t a, uint32_t b) const;

  // Counters and colour (black = received an application message since the last snapshot
  // this thread reported).
  uint32_t sent_ = 0;
  uint32_t received_ = 0;
  bool black_ = false;
  // Episodes this thread has been released from, and the result of the latest.
  uint32_t epoch_ = 0;
  int last_result_ = 0;
  // idle() state.
  bool in_idle_ = false;
  bool vote_ = true;
  int release_ = 0;                     // the current idle() call returns this (0: not yet)
  volatile uint32_t* ready_ = nullptr;  // an application message for the program
  uint64_t round_trips_ = 0;

 private:
  void wait_can_send();
  bool keep_copy();  // takes one message out of the mailbox into a copy; false if no room
  bool is_copy(const volatile void* msg) const;

  volatile uint32_t* send_slot_;
  uint32_t me_;
  uint32_t index_;
  uint32_t threads_;
  uint32_t per_board_;
  uint32_t boards_;
  TesseraShape shape_;

  // Copies, in arrival order: queue_ holds indices into copies_ of copies nobody has looked at.
  uint32_t copies_[kCopies][16];
  uint32_t copy_in_use_ = 0;  // bit i: copies_[i] holds a message (queued or handed out)
  uint32_t copies_kept_ = 0;
  uint8_t queue_[kCopies];
  uint32_t queue_head_ = 0;
  uint32_t queue_size_ = 0;
};

template <typename Protocol>
class Software : public SoftwareCore {
 public:
  int idle(bool vote) {
    if (ready_ != nullptr) {
      return kMessageAvailable;
    }
    in_idle_ = true;
    vote_ = vote;
    for (;;) {
      protocol().progress();
      if (release_ != 0) {
        break;
      }
      look_at(wait_next());
      if (release_ != 0) {
        break;
      }
      if (ready_ != nullptr) {
        in_idle_ = false;
        return kMessageAvailable;
      }
    }
    const int result = release_;
    release_ = 0;
    in_idle_ = false;
    return result;
  }

  bool can_recv() {
    while (ready_ == nullptr) {
      volatile uint32_t* msg = poll();
      if (msg == nullptr) {
        return false;
      }
      look_at(msg);
    }
    return true;
  }

  volatile void* recv() {
    while (!can_recv()) {
      (void)tessera_mbox_wait_until(TESSERA_WAIT_CAN_RECV);
    }
    volatile uint32_t* msg = ready_;
    ready_ = nullptr;
    return msg;
  }

 protected:
  Software() = default;

 private:
  Protocol& protocol() { return static_cast<Protocol&>(*this); }

  void look_at(volatile uint32_t* msg) {
    if (wire::kind(msg[0]) == wire::kApp) {
      accept_application(msg);
    } else {
      protocol().on_control(msg);
      drop(msg);
    }
  }
};

}  // namespace tessera::termination
