// The calling thread's mailbox as the software barriers share it with the program: one per
// thread, made on the thread that uses it and passed to every software barrier of that thread.
//
// Barrier messages are one flit whose word 0 is a header (below). Receiving one only counts it,
// by group tag, episode parity and slot (schedule.h), and gives the slot back at once. So a
// barrier never holds mailbox slots, and a partner that has already entered the next episode
// can send to a thread still finishing this one: its message lands in the other parity.
//
// A program that also sends its own messages while barriers run sends, receives and frees them
// through the Endpoint, like a termination detector (tessera/termination/detector.h): word 0 of
// each application message belongs to the endpoint (kReservedWords), and application messages
// that arrive while a barrier waits are kept as copies (up to kCopies) for recv(). Messages to or
// from the host id are not the endpoint's business.
//
// Header (word 0 of every message the endpoint sends):
//   bits 31..30  kind: 0 application, 3 barrier
//   bits 29..28  group tag (Group::tag)
//   bits 27..23  slot
//   bits 22..0   episode number of the sender (mod 2^23)
// Word 1 of a barrier message is the sender's thread id, for the error report.
//
// A message of a group tag whose episode is neither the receiver's current one nor the next is
// a broken protocol: the endpoint prints
//   FAIL barrier: thread 0x<id> (index <dense index>): <what> (0x<a>, 0x<b>)
// and ends the run with kProtocolErrorExit.
#pragma once

#include <stdint.h>

#include "tessera/barrier/group.h"
#include "tessera/barrier/limits.h"
#include "tessera/barrier/schedule.h"

namespace tessera::barrier {

inline constexpr int kProtocolErrorExit = 121;

namespace wire {
inline constexpr uint32_t kApplication = 0;
inline constexpr uint32_t kBarrier = 3;
inline constexpr uint32_t kEpisodeMask = (1u << 23) - 1;

constexpr uint32_t header(uint32_t kind, uint32_t tag, uint32_t slot, uint32_t episode) {
  return kind << 30 | (tag & 3u) << 28 | (slot & 31u) << 23 | (episode & kEpisodeMask);
}
constexpr uint32_t kind(uint32_t header) {
  return header >> 30;
}
constexpr uint32_t tag(uint32_t header) {
  return (header >> 28) & 3u;
}
constexpr uint32_t slot(uint32_t header) {
  return (header >> 23) & 31u;
}
constexpr uint32_t episode(uint32_t header) {
  return header & kEpisodeMask;
}
}  // namespace wire

static_assert(Group::kMaxTags == 4 && Schedule::kSlots == 32, "the header's field widths");

class Endpoint {
 public:
  static constexpr uint32_t kReservedWords = 1;
  static constexpr uint32_t kCopies = kEndpointCopies;  // limits.h

  // Reads the calling thread's id, its send slot and the machine's host id.
  Endpoint();
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  uint32_t thread_id() const { return me_; }

  // ---- For the barriers -----------------------------------------------------------------
  // The calling thread has entered `episode` of the barriers with this tag. Episodes are
  // numbered per tag across every barrier object of the thread, so a new barrier over a tag
  // carries on from the last one's episode (every member must then use the same sequence).
  void enter(uint32_t tag, uint32_t episode) { episode_[tag & 3u] = episode; }
  uint32_t episode(uint32_t tag) const { return episode_[tag & 3u]; }
  // One barrier message of (tag, slot, current episode of tag) to a thread; multicast: to each
  // thread k of `mailbox` with bit k of `mask`. Both wait for can-send, receiving meanwhile.
  void send(uint32_t dest, uint32_t tag, uint32_t slot);
  void multicast(uint32_t mailbox, uint64_t mask, uint32_t tag, uint32_t slot);
  // Sleeps (in the mailbox's WAIT_UNTIL) until `count` messages of (tag, slot) of the current
  // episode of tag have arrived, and consumes them.
  void await(uint32_t tag, uint32_t slot, uint32_t count);
  // Barrier messages this thread has sent (a multicast counts once per receiver) and received.
  uint32_t barrier_sent() const { return barrier_sent_; }
  uint32_t barrier_received() const { return barrier_received_; }

  // ---- For the program's own messages ---------------------------------------------------------
  volatile void* send_slot() const { return send_slot_; }
  // Sends `flits` (1..4) of msg (a slot of this tile) to `dest`, word 0 set to the endpoint's
  // application header; waits for can-send, receiving meanwhile.
  void send_application(uint32_t dest, volatile void* msg, uint32_t flits);
  bool can_recv();        // an application message is available (never waits)
  volatile void* recv();  // the oldest one (waits for it)
  void free(volatile void* msg);

  [[noreturn]] void protocol_error(const char* what, uint32_t a, uint32_t b) const;

 private:
  // Takes the oldest message out of the mailbox (there is one): counts a barrier message and
  // frees it, keeps an application message as a copy.
  void take_one();
  void count_barrier(const volatile uint32_t* msg);
  void wait_can_send();
  template <typename Issue>
  void send_barrier(uint32_t tag, uint32_t slot, Issue issue);
  bool copies_full() const { return copies_used_ == (1u << kCopies) - 1; }
  bool is_copy(const volatile void* msg) const;

  volatile uint32_t* send_slot_;
  uint32_t me_;
  uint32_t episode_[Group::kMaxTags] = {};
  // Arrived, not yet consumed: by tag, episode parity and slot.
  ArrivalCount arrived_[Group::kMaxTags][2][Schedule::kSlots] = {};
  uint32_t barrier_sent_ = 0;
  uint32_t barrier_received_ = 0;

  // Application messages taken out while a barrier waited, in arrival order.
  uint32_t copies_[kCopies][16];
  uint32_t copies_used_ = 0;  // bit i: copies_[i] holds a message (queued or handed out)
  uint8_t queue_[kCopies];
  uint32_t queue_head_ = 0;
  uint32_t queue_size_ = 0;
};

}  // namespace tessera::barrier
