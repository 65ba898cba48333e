// Termination detection behind one interface: the hardware (tinselIdle) and two software
// baselines that run over ordinary mailbox messages (docs/idle.md, "Software baselines").
//
//   Detector det;                          // Hardware, ClockTree or Safra, one per thread
//   volatile Msg* out = static_cast<volatile Msg*>(det.send_slot());
//   out->value = 42;                       // word 0 belongs to the detector (kReservedWords)
//   det.send(dest, out, 1);                // waits for can-send, counts the message
//   for (;;) {
//     int r = det.idle(vote);              // 0: an application message is available
//     if (r != 0) break;                   // 1: terminated, some thread voted false
//     volatile Msg* in = static_cast<volatile Msg*>(det.recv());   // > 1: all voted true
//     ... in->value ...
//     det.free(in);
//   }
//
// A program written against the Detector concept runs unchanged on every backend; tests and
// benchmarks build the same source once per backend (tessera/termination/select.h).
//
// Rules for programs (every backend):
//  - Send, receive and free application messages only through the detector: the software
//    backends count the messages (the hardware counts them itself), and their receive path
//    takes the detector's own control messages out of the mailbox before the program sees
//    them. Don't call tinselRecv/tinselFree/tinselSend behind the detector's back.
//  - Word 0 of every application message belongs to the detector: the software backends write
//    their header there in send() (kReservedWords = 1; a one-flit message carries 12 bytes of
//    payload, a four-flit one 60). The hardware backend leaves it alone (kReservedWords = 0),
//    but portable programs keep it reserved.
//  - Messages to or from the host id are not seen by the software detectors (the hardware does
//    count the host link); don't mix host traffic with software termination detection.
//  - The send slot stays the program's: the software detectors send their (one-flit) control
//    messages from it too, but save and restore its first flit around each, so a message
//    prepared there survives can_recv(), recv(), idle() and send().
#pragma once

#include <stdint.h>

namespace tessera::termination {

// Results of idle(): the values tinselIdle returns.
inline constexpr int kMessageAvailable = 0;    // an application message is waiting: recv() it
inline constexpr int kTerminated = 1;          // every thread idle, some voted false
inline constexpr int kTerminatedAllVoted = 3;  // every thread idle, every one voted true

inline constexpr bool is_terminated(int result) { return result != 0; }
inline constexpr bool all_voted_true(int result) { return result > 1; }

namespace detail {
// <concepts> is part of the C++ library, which the target doesn't have.
template <typename A, typename B>
concept SameAs = __is_same(A, B) && __is_same(B, A);
}  // namespace detail

// What every backend provides. All calls are made by the thread that owns the object.
template <typename D>
concept Detector = requires(D& d, uint32_t dest, volatile void* msg, uint32_t flits, bool vote,
                            uint32_t mailbox, uint32_t mask) {
  // Words at the start of each application message that belong to the detector.
  requires D::kReservedWords <= 1;
  // Short name for reports: "hw", "sw-clocktree", "sw-safra".
  { D::kName } -> detail::SameAs<const char* const&>;
  // Sleeps until an application message is available for the caller (returns 0) or the whole
  // machine has terminated: every thread is in idle and no application message is undelivered
  // (returns 1, or > 1 if every thread's vote was true). A thread released from an episode
  // never sees a message sent after the release in that same episode: it sees it (0) in its
  // next idle call.
  { d.idle(vote) } -> detail::SameAs<int>;
  // An application message is available (never waits).
  { d.can_recv() } -> detail::SameAs<bool>;
  // The oldest application message (waits for one). Pass it to free() when done.
  { d.recv() } -> detail::SameAs<volatile void*>;
  { d.free(msg) } -> detail::SameAs<void>;
  // The slot to build outgoing messages in (the thread's send slot).
  { d.send_slot() } -> detail::SameAs<volatile void*>;
  // Sends `flits` (1..4) flits of msg (a slot of the caller's tile) to thread `dest`; waits
  // for can-send first (the hardware disables sending while it releases an episode).
  { d.send(dest, msg, flits) } -> detail::SameAs<void>;
  // tinselMulticast through the detector: one message to each thread of `mailbox` named by the
  // 64-bit mask hi:lo.
  { d.multicast(mailbox, mask, mask, msg, flits) } -> detail::SameAs<void>;
  // Protocol round trips this thread has completed as the master (software backends, for the
  // benchmark; 0 elsewhere and for the hardware, which software cannot observe).
  { d.round_trips() } -> detail::SameAs<uint64_t>;
};

}  // namespace tessera::termination
