// A shadow of the mailbox model's trace events (TesseraMailboxEvent,
// docs/tracing.md) for the mailbox harness: it checks, from the events alone,
// what a trace relies on:
//
//   ids       every message (SEND, FROM_HOST) takes the next id; DELIVER,
//             RECEIVE, FREE and TO_HOST name a message that was sent
//   copies    each copy is delivered once to each thread the message went
//             to, into a slot, then received once by that thread, then freed
//             once by a thread of its tile, never before the step before it
//             in modelled time when it is the receiver's (a copy: the message
//             id and its slot); untimed (TesseraMailboxConfig.untimed), a
//             message takes no time and its receive is at the receiver's own
//             time, which another hart's delivery does not order
//   waits     BLOCK and RESUME alternate per thread, so do idle enter and
//             leave; every event names the thread of its hart
//
// and, with MailboxHarness's ledger, that the id a RECEIVE names is always
// the same message of the ledger (bind()).
#pragma once

#include <stdint.h>

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "fuzz_check.h"
#include "tessera/models/mailbox.h"

namespace fuzz {

class MailboxEvents {
 public:
  MailboxEvents(const TesseraShape& shape, bool untimed)
      : shape_(shape),
        untimed_(untimed),
        host_id_(tessera_host_id(&shape)),
        threads_(tessera_num_threads(&shape)),
        blocked_(threads_, false),
        idle_(threads_, false),
        last_received_(threads_, 0) {}

  void on_event(const TesseraMailboxEvent& e) {
    if (e.hart == UINT32_MAX) {
      FUZZ_CHECK(e.thread == host_id_, "event %d of no hart names 0x%x, not the host", e.kind,
                 e.thread);
    } else {
      FUZZ_CHECK(e.hart < threads_, "event %d names hart %u of %u", e.kind, e.hart, threads_);
      FUZZ_CHECK(e.thread == tessera_thread_at(&shape_, e.hart),
                 "event %d names hart %u as thread 0x%x", e.kind, e.hart, e.thread);
    }
    switch (e.kind) {
      case TESSERA_MAILBOX_EVENT_SEND:
      case TESSERA_MAILBOX_EVENT_FROM_HOST:
        on_send(e);
        break;
      case TESSERA_MAILBOX_EVENT_DELIVER: {
        Message& m = message(e);
        FUZZ_CHECK(e.peer == m.src, "message %llu from 0x%x delivered as from 0x%x", id(e), m.src,
                   e.peer);
        FUZZ_CHECK(e.flits == m.flits, "message %llu of %u flits delivered with %u", id(e), m.flits,
                   e.flits);
        FUZZ_CHECK(e.time >= m.time, "message %llu delivered at %llu, sent at %llu", id(e),
                   ull(e.time), ull(m.time));
        FUZZ_CHECK(m.delivered < m.copies, "message %llu delivered %u times, for %u copies", id(e),
                   m.delivered + 1, m.copies);
        if (m.mask == 0) {
          FUZZ_CHECK(e.thread == m.dest, "message %llu to 0x%x delivered to 0x%x", id(e), m.dest,
                     e.thread);
        } else {
          const uint32_t k = e.thread - m.dest;
          FUZZ_CHECK(e.thread >= m.dest && k < 64 && ((m.mask >> k) & 1),
                     "multicast %llu to the mailbox of 0x%x (mask 0x%llx) delivered to 0x%x", id(e),
                     m.dest, ull(m.mask), e.thread);
        }
        m.delivered++;
        FUZZ_CHECK(delivered_to_.insert((e.msg << 32) | e.hart).second,
                   "message %llu delivered to 0x%x twice", id(e), e.thread);
        // Two copies of one multicast may use the same slot of a tile in turn: the first receiver
        // freed it and it went to the second.
        Copy& c = copies_[slot_key(e)];
        FUZZ_CHECK(c.state == kNone || c.state == kFreed,
                   "message %llu delivered into slot 0x%x while a copy of it is there", id(e),
                   e.slot);
        c = Copy{kDelivered, e.time, e.hart};
        break;
      }
      case TESSERA_MAILBOX_EVENT_RECEIVE: {
        const Copy& c = advance(e, kDelivered, kReceived);
        FUZZ_CHECK(c.receiver == e.hart, "message %llu for hart %u received by hart %u", id(e),
                   c.receiver, e.hart);
        last_received_[e.hart] = e.msg;
        break;
      }
      case TESSERA_MAILBOX_EVENT_FREE:
        // Any thread of the tile may free the slot of a received message.
        if (e.msg != 0) advance(e, kReceived, kFreed);
        break;
      case TESSERA_MAILBOX_EVENT_TO_HOST: {
        Message& m = message(e);
        FUZZ_CHECK(m.dest == host_id_ && m.src == e.thread,
                   "the host took message %llu, sent by 0x%x to 0x%x, as from 0x%x", id(e), m.src,
                   m.dest, e.thread);
        FUZZ_CHECK(m.delivered == 0, "the host took message %llu twice", id(e));
        FUZZ_CHECK(e.time >= m.time, "the host took message %llu at %llu, sent at %llu", id(e),
                   ull(e.time), ull(m.time));
        m.delivered = 1;
        break;
      }
      case TESSERA_MAILBOX_EVENT_BLOCK:
        FUZZ_CHECK(!blocked_[e.hart], "thread 0x%x blocked twice without a resume", e.thread);
        blocked_[e.hart] = true;
        block_time_[e.hart] = e.time;
        break;
      case TESSERA_MAILBOX_EVENT_RESUME:
        FUZZ_CHECK(blocked_[e.hart], "thread 0x%x resumed without a block", e.thread);
        FUZZ_CHECK(e.time >= block_time_[e.hart], "thread 0x%x resumed at %llu, blocked at %llu",
                   e.thread, ull(e.time), ull(block_time_[e.hart]));
        blocked_[e.hart] = false;
        break;
      case TESSERA_MAILBOX_EVENT_TERMDET:
        on_termdet(e);
        break;
    }
  }

  // The ledger's message `index` is what the latest RECEIVE of `hart` named.
  void bind(uint32_t hart, uint32_t index) {
    const uint64_t msg = last_received_[hart];
    FUZZ_CHECK(msg != 0, "hart %u received ledger message %u without a RECEIVE event", hart, index);
    const auto [at, added] = ledger_of_.try_emplace(msg, index);
    FUZZ_CHECK(at->second == index, "message id %llu is ledger message %u and %u", ull(msg),
               at->second, index);
    (void)added;
  }

  // End of a scenario, every message delivered: each copy of each message
  // was received and freed (or taken by the host).
  void check_all_freed() const {
    for (const auto& [id, m] : messages_) {
      FUZZ_CHECK(m.delivered == m.copies, "message %llu: %u of %u copies delivered", ull(id),
                 m.delivered, m.copies);
    }
    for (const auto& [k, c] : copies_) {
      FUZZ_CHECK(c.state == kFreed, "message %llu for hart %u ends %s", ull(k >> 32), c.receiver,
                 c.state == kDelivered ? "unreceived" : "unfreed");
    }
  }

 private:
  enum State : uint8_t { kNone, kDelivered, kReceived, kFreed };
  struct Message {
    uint32_t src, dest, flits, copies, delivered;
    uint64_t mask, time;
  };
  struct Copy {
    State state = kNone;
    uint64_t time = 0;
    uint32_t receiver = 0;  // hart
  };

  static unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }
  static unsigned long long id(const TesseraMailboxEvent& e) { return ull(e.msg); }
  // A copy: the message and the slot it is in (tile, slot number).
  uint64_t slot_key(const TesseraMailboxEvent& e) const {
    const uint32_t n = (e.slot - TESSERA_SCRATCH_BASE) / TESSERA_BYTES_PER_SLOT;
    const uint32_t tile = e.hart >> tessera_tile_shift(&shape_);
    FUZZ_CHECK(e.slot >= TESSERA_SCRATCH_BASE && n < TESSERA_SLOTS_PER_TILE && tile < (1u << 20),
               "event %d names slot 0x%x of tile %u", e.kind, e.slot, tile);
    return (e.msg << 32) | (uint64_t{tile} << 12) | n;
  }

  void on_send(const TesseraMailboxEvent& e) {
    FUZZ_CHECK(e.flits >= 1 && e.flits <= TESSERA_MAX_FLITS, "message %llu of %u flits", id(e),
               e.flits);
    const bool from_host = e.kind == TESSERA_MAILBOX_EVENT_FROM_HOST;
    // Each source numbers its own messages: a board's threads (its index), the host's to a
    // board (boards + its index); the n-th has id n * 2 * boards + source.
    const uint32_t boards = shape_.boards_x * shape_.boards_y;
    const uint32_t board = e.hart / (threads_ / boards);
    const uint32_t source = from_host ? boards + board : board;
    FUZZ_CHECK(e.hart < threads_, "message %llu names hart %u", id(e), e.hart);
    const uint64_t want = ++issued_[source] * 2 * uint64_t{boards} + source;
    FUZZ_CHECK(e.msg == want, "message id %llu from source %u, expected %llu", id(e), source,
               ull(want));
    const uint32_t copies = e.mask ? static_cast<uint32_t>(__builtin_popcountll(e.mask)) : 1;
    FUZZ_CHECK(e.copies == copies, "message %llu with mask 0x%llx has %u copies", id(e),
               ull(e.mask), e.copies);
    FUZZ_CHECK(!from_host || (e.peer == host_id_ && e.mask == 0),
               "message %llu from the host names 0x%x", id(e), e.peer);
    FUZZ_CHECK(e.mask != 0 || e.peer == host_id_ || tessera_thread_exists(&shape_, e.peer),
               "message %llu to 0x%x, no thread", id(e), e.peer);
    messages_[e.msg] = from_host ? Message{host_id_, e.thread, e.flits, 1, 0, 0, e.time}
                                 : Message{e.thread, e.peer, e.flits, copies, 0, e.mask, e.time};
  }

  Message& message(const TesseraMailboxEvent& e) {
    const auto m = messages_.find(e.msg);
    FUZZ_CHECK(m != messages_.end(), "event %d names message %llu, never sent", e.kind, id(e));
    return m->second;
  }

  const Copy& advance(const TesseraMailboxEvent& e, State from, State to) {
    message(e);
    const auto c = copies_.find(slot_key(e));
    FUZZ_CHECK(c != copies_.end() && c->second.state == from,
               "event %d for message %llu at 0x%x, whose copy is in state %d", e.kind, id(e),
               e.thread, c == copies_.end() ? -1 : c->second.state);
    // Another thread of the tile that frees the slot has a clock of its own; untimed, so has
    // the receiver from the delivery's.
    FUZZ_CHECK(e.time >= c->second.time || e.hart != c->second.receiver ||
                   (untimed_ && from == kDelivered),
               "event %d for message %llu at %llu, after %llu", e.kind, id(e), ull(e.time),
               ull(c->second.time));
    c->second.state = to;
    c->second.time = e.time;
    return c->second;
  }

  void on_termdet(const TesseraMailboxEvent& e) {
    const TesseraTermdetEvent& t = e.termdet;
    FUZZ_CHECK(t.hart == e.hart && t.time == e.time, "termdet event %d copied wrongly", t.kind);
    if (t.kind == TESSERA_TERMDET_EVENT_IDLE_ENTER) {
      FUZZ_CHECK(!idle_[e.hart], "thread 0x%x entered idle twice", e.thread);
      idle_[e.hart] = true;
    } else if (t.kind == TESSERA_TERMDET_EVENT_IDLE_LEAVE) {
      FUZZ_CHECK(idle_[e.hart], "thread 0x%x left idle it was not in", e.thread);
      idle_[e.hart] = false;
    } else {
      FUZZ_CHECK(e.hart == UINT32_MAX, "termdet event %d names hart %u", t.kind, e.hart);
    }
  }

  TesseraShape shape_;
  bool untimed_;
  uint32_t host_id_, threads_;
  std::unordered_map<uint32_t, uint64_t> issued_;  // messages of each source
  std::unordered_map<uint64_t, Message> messages_;
  std::unordered_map<uint64_t, Copy> copies_;  // by slot_key
  std::unordered_set<uint64_t> delivered_to_;  // (id << 32 | hart)
  std::unordered_map<uint64_t, uint32_t> ledger_of_;
  std::vector<bool> blocked_, idle_;
  std::unordered_map<uint32_t, uint64_t> block_time_;
  std::vector<uint64_t> last_received_;
};

}  // namespace fuzz
