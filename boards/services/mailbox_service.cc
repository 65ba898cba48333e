// Tessera's mailbox in software (mailbox_service.h, docs/boards.md). The rules are those of the
// mailbox model (models/mailbox_csr.c, models/mailbox_idle.c), without the network and its time.
#include "mailbox_service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/board/board.h"
#include "tessera/hal/scratch.h"
#include "tessera/hw/regs.h"
#include "threads.h"

namespace tessera::board::mailbox {
namespace {

// A board's threads are one tile, and a multicast mask names at most 64 threads.
constexpr uint32_t kMaxThreads = 64;
constexpr uint16_t kNoSlot = 0xffff;
constexpr uint32_t kWaitBits = TESSERA_WAIT_CAN_SEND | TESSERA_WAIT_CAN_RECV;
constexpr uint32_t kIdleBits = TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE;

enum SlotState : uint8_t {
  kSoftware,  // software's, empty (every slot at reset)
  kFree,      // given to hardware, empty: a message may go in
  kQueued,    // holds a message its thread has not received yet
  kReceived,  // software's again, holding a received message until it is freed
};

// A queue of slots, linked through Mailbox::next.
struct SlotQueue {
  uint16_t head = kNoSlot;
  uint16_t tail = kNoSlot;
};

enum class Idle : uint8_t { kNone, kWaiting, kReleased };

struct Box {
  uint32_t send_len = 0;  // flits - 1 of the next send
  uint32_t send_ptr = 0;
  uint32_t mcast_hi = 0, mcast_lo = 0;
  uint32_t fault = TESSERA_FAULT_NONE;
  // The outbound message: the receivers it has not reached yet, and its words, taken when it
  // was sent (as the hardware takes them into the network).
  uint64_t out_to = 0;
  uint32_t out_flits = 0;
  uint32_t out_words[TESSERA_BYTES_PER_SLOT / 4];
  SlotQueue free;   // empty slots this thread gave to hardware
  SlotQueue ready;  // messages for it, oldest first
  Idle idle = Idle::kNone;
  bool vote = false;
  uint32_t release = 0;  // a latched release: (1 << 2) | (every vote true << 3)
};

struct Mailbox {
  Box* boxes;
  uint8_t* state;  // per slot of the tile
  uint16_t* next;  // per slot: the next slot of its queue
  uint32_t threads;
  uint32_t slots_per_thread;
  uint32_t idle_threads;
  uint64_t in_flight;    // copies sent and not yet received and freed
  uint32_t next_sender;  // where the search for a blocked sender starts (round robin)
  TesseraShape shape;
};

[[gnu::section(".tessera_services")]] Mailbox mb;

void push(SlotQueue& q, uint16_t slot) {
  mb.next[slot] = kNoSlot;
  if (q.tail == kNoSlot) {
    q.head = slot;
  } else {
    mb.next[q.tail] = slot;
  }
  q.tail = slot;
}

uint16_t pop(SlotQueue& q) {
  const uint16_t slot = q.head;
  q.head = mb.next[slot];
  if (q.head == kNoSlot) q.tail = kNoSlot;
  return slot;
}

bool empty(const SlotQueue& q) {
  return q.head == kNoSlot;
}

uint32_t slot_address(uint32_t slot) {
  return TESSERA_SCRATCH_BASE + slot * TESSERA_BYTES_PER_SLOT;
}

// The slot a bus address names, or -1 if it names none (outside the scratchpad, misaligned).
int32_t slot_of(uint32_t address) {
  if (address < TESSERA_SCRATCH_BASE || address - TESSERA_SCRATCH_BASE >= TESSERA_SCRATCH_SIZE ||
      address % TESSERA_BYTES_PER_SLOT != 0) {
    return -1;
  }
  return static_cast<int32_t>((address - TESSERA_SCRATCH_BASE) / TESSERA_BYTES_PER_SLOT);
}

uint32_t holds(uint32_t index, uint32_t conditions) {
  const Box& b = mb.boxes[index];
  uint32_t held = 0;
  if ((conditions & TESSERA_WAIT_CAN_SEND) != 0 && b.out_to == 0) held |= TESSERA_WAIT_CAN_SEND;
  if ((conditions & TESSERA_WAIT_CAN_RECV) != 0 && !empty(b.ready)) held |= TESSERA_WAIT_CAN_RECV;
  return held;
}

// Copies the sender's outbound message into an empty slot of each receiver that has one.
void deliver(uint32_t sender) {
  Box& from = mb.boxes[sender];
  for (uint32_t to = 0; to < mb.threads && from.out_to != 0; ++to) {
    Box& dest = mb.boxes[to];
    if ((from.out_to >> to & 1) == 0 || empty(dest.free)) continue;
    const uint16_t slot = pop(dest.free);
    memcpy(const_cast<void*>(hal::scratch_pointer(slot_address(slot))), from.out_words,
           from.out_flits * TESSERA_BYTES_PER_FLIT);
    mb.state[slot] = kQueued;
    push(dest.ready, slot);
    from.out_to &= ~(uint64_t{1} << to);
    threads::wake(to);
  }
  if (from.out_to == 0) threads::wake(sender);
}

// Thread `to` has an empty slot again: the blocked senders toward it, from a rotating start so
// that no sender waits for ever behind the others.
void deliver_to(uint32_t to) {
  for (uint32_t k = 0; k < mb.threads && !empty(mb.boxes[to].free); ++k) {
    const uint32_t sender = (mb.next_sender + k) % mb.threads;
    if ((mb.boxes[sender].out_to >> to & 1) != 0) deliver(sender);
  }
  mb.next_sender = (mb.next_sender + 1) % mb.threads;
}

// Every thread in tinselIdle and no message undelivered: release them all.
void check_termination() {
  if (mb.idle_threads != mb.threads || mb.in_flight != 0) return;
  bool every_vote = true;
  for (uint32_t i = 0; i < mb.threads; ++i) every_vote = every_vote && mb.boxes[i].vote;
  for (uint32_t i = 0; i < mb.threads; ++i) {
    Box& b = mb.boxes[i];
    b.idle = Idle::kReleased;
    b.release = TESSERA_WAIT_IDLE | (every_vote ? TESSERA_WAIT_IDLE_VOTE : 0);
    threads::wake(i);
  }
  mb.idle_threads = 0;
}

// A thread in a tinselIdle call issued something else: the call is over (a release not yet
// given is dropped, as on Tessera).
void abandon_idle(Box& b) {
  if (b.idle == Idle::kWaiting) --mb.idle_threads;
  b.idle = Idle::kNone;
}

TesseraMailboxFault send(uint32_t index, uint64_t to) {
  Box& b = mb.boxes[index];
  if (b.out_to != 0) return TESSERA_FAULT_SEND_BUSY;
  const int32_t slot = slot_of(b.send_ptr);
  if (slot < 0) return TESSERA_FAULT_BAD_SLOT;
  if (to == 0) return TESSERA_FAULT_NONE;
  b.out_flits = b.send_len + 1;
  memcpy(b.out_words, const_cast<const void*>(hal::scratch_pointer(b.send_ptr)),
         b.out_flits * TESSERA_BYTES_PER_FLIT);
  b.out_to = to;
  mb.in_flight += static_cast<uint64_t>(__builtin_popcountll(to));
  deliver(index);
  return TESSERA_FAULT_NONE;
}

// A message to the host goes out on the console, one line (docs/boards.md), which HostLink
// decodes on the other end of the serial port; the host takes it at once:
//   tessera-board: host 0x<sender> <flits> <word> ... (flits * 4 words, 8 hex digits each)
TesseraMailboxFault to_host(uint32_t index) {
  Box& b = mb.boxes[index];
  if (b.out_to != 0) return TESSERA_FAULT_SEND_BUSY;
  if (slot_of(b.send_ptr) < 0) return TESSERA_FAULT_BAD_SLOT;
  const volatile uint32_t* words =
      static_cast<const volatile uint32_t*>(hal::scratch_pointer(b.send_ptr));
  const uint32_t flits = b.send_len + 1;
  char line[40 + TESSERA_MAX_FLITS * 4 * 9];
  int n = snprintf(line, sizeof line, "tessera-board: host 0x%lx %lu",
                   static_cast<unsigned long>(tessera_thread_at(&mb.shape, index)),
                   static_cast<unsigned long>(flits));
  for (uint32_t k = 0; k < flits * TESSERA_BYTES_PER_FLIT / 4; ++k) {
    n += snprintf(line + n, sizeof line - static_cast<size_t>(n), " %08lx",
                  static_cast<unsigned long>(words[k]));
  }
  console_line(line, static_cast<size_t>(n));
  return TESSERA_FAULT_NONE;
}

TesseraMailboxFault unicast(uint32_t index, uint32_t dest) {
  if (dest == tessera_host_id(&mb.shape)) return to_host(index);
  if (!tessera_thread_exists(&mb.shape, dest)) return TESSERA_FAULT_BAD_DESTINATION;
  return send(index, uint64_t{1} << tessera_dense_index(&mb.shape, dest));
}

TesseraMailboxFault multicast(uint32_t index, uint32_t mailbox) {
  const Box& b = mb.boxes[index];
  const uint64_t mask = uint64_t{b.mcast_hi} << 32 | b.mcast_lo;
  if (mailbox != 0 || (mb.threads < 64 && (mask >> mb.threads) != 0)) {
    return TESSERA_FAULT_BAD_DESTINATION;
  }
  return send(index, mask);
}

TesseraMailboxFault free_slot(uint32_t index, uint32_t address) {
  const int32_t slot = slot_of(address);
  if (slot < 0) return TESSERA_FAULT_BAD_SLOT;
  switch (mb.state[slot]) {
    case kFree:
    case kQueued:
      return TESSERA_FAULT_DOUBLE_FREE;
    case kReceived:
      --mb.in_flight;
      break;
    default:
      break;
  }
  // The slot goes to the thread that frees it, as on Tessera.
  mb.state[slot] = kFree;
  push(mb.boxes[index].free, static_cast<uint16_t>(slot));
  deliver_to(index);
  check_termination();
  return TESSERA_FAULT_NONE;
}

TesseraMailboxFault receive(uint32_t index, uint32_t* result) {
  Box& b = mb.boxes[index];
  if (empty(b.ready)) return TESSERA_FAULT_RECV_EMPTY;
  const uint16_t slot = pop(b.ready);
  mb.state[slot] = kReceived;
  *result = slot_address(slot);
  return TESSERA_FAULT_NONE;
}

// tinselIdle: WAIT_UNTIL with an idle bit (tessera_mailbox_csr in models/.../mailbox.h).
TesseraAccess idle(uint32_t index, uint32_t conditions) {
  Box& b = mb.boxes[index];
  // A message available always ends the call (tinselIdle then returns 0).
  const uint32_t wanted = (conditions & kWaitBits) | TESSERA_WAIT_CAN_RECV;
  if (b.idle == Idle::kReleased) {
    b.idle = Idle::kNone;
    return tessera_access_done(b.release | holds(index, wanted), 0);
  }
  if (const uint32_t held = holds(index, wanted); held != 0) {
    abandon_idle(b);
    return tessera_access_done(held, 0);
  }
  if (b.idle == Idle::kNone) {
    b.idle = Idle::kWaiting;
    b.vote = (conditions & TESSERA_WAIT_IDLE_VOTE) != 0;
    ++mb.idle_threads;
    check_termination();
    if (b.idle == Idle::kReleased) return idle(index, conditions);
  }
  return tessera_access_blocked(0);
}

TesseraAccess faulted(Box& b, TesseraMailboxFault code) {
  b.fault = code;
  return tessera_access_fault(code, tessera_mailbox_fault_name(code), 0);
}

TesseraAccess wait_until(uint32_t index, uint32_t conditions) {
  if (conditions == 0 || (conditions & ~(kWaitBits | kIdleBits)) != 0) {
    return faulted(mb.boxes[index], TESSERA_FAULT_BAD_WAIT);
  }
  if ((conditions & kIdleBits) != 0) return idle(index, conditions);
  abandon_idle(mb.boxes[index]);
  const uint32_t held = holds(index, conditions);
  return held != 0 ? tessera_access_done(held, 0) : tessera_access_blocked(0);
}

}  // namespace

void init() {
  // A second init (a board booted again, or a test) starts from nothing.
  free(mb.boxes);
  free(mb.state);
  free(mb.next);
  mb = Mailbox{};
  const Layout board = layout();
  mb.shape = board.shape;
  mb.threads = tessera_num_threads(&board.shape);
  mb.slots_per_thread = TESSERA_SLOTS_PER_TILE / mb.threads;
  mb.boxes = static_cast<Box*>(calloc(mb.threads, sizeof(Box)));
  mb.state = static_cast<uint8_t*>(calloc(TESSERA_SLOTS_PER_TILE, 1));
  mb.next = static_cast<uint16_t*>(calloc(TESSERA_SLOTS_PER_TILE, sizeof(uint16_t)));
  if (mb.threads > kMaxThreads || tessera_threads_per_tile(&board.shape) != mb.threads ||
      mb.slots_per_thread < 2 || mb.boxes == nullptr || mb.state == nullptr || mb.next == nullptr) {
    static const char kNoRoom[] =
        "tessera-board: no mailbox: the threads must be one tile of at most 64, with 2 slots each";
    console_line(kNoRoom, sizeof kNoRoom - 1);
    finish(1);
  }
  for (uint32_t i = 0; i < mb.threads; ++i) mb.boxes[i] = Box{};
}

uint32_t peek(uint32_t index, uint32_t csr) {
  const Box& b = mb.boxes[index];
  switch (csr) {
    case TESSERA_CSR_CAN_SEND:
      return b.out_to == 0 ? 1 : 0;
    case TESSERA_CSR_CAN_RECV:
      return empty(b.ready) ? 0 : 1;
    case TESSERA_CSR_MBOX_FAULT:
      return b.fault;
    default:
      return 0;
  }
}

TesseraAccess csr(uint32_t index, uint32_t csr, uint32_t value, bool write) {
  Box& b = mb.boxes[index];
  uint32_t result = 0;
  if (!write && tessera_csr_is_mailbox_command(csr)) return tessera_access_done(0, 0);
  if (csr != TESSERA_CSR_WAIT_UNTIL && csr != TESSERA_CSR_MBOX_FAULT) abandon_idle(b);
  TesseraMailboxFault fault = TESSERA_FAULT_NONE;
  switch (csr) {
    case TESSERA_CSR_WAIT_UNTIL:
      return wait_until(index, value);
    case TESSERA_CSR_CAN_SEND:
    case TESSERA_CSR_CAN_RECV:
    case TESSERA_CSR_MBOX_FAULT:
      return tessera_access_done(peek(index, csr), 0);
    case TESSERA_CSR_SEND_LEN:
      if (value >= TESSERA_MAX_FLITS) {
        fault = TESSERA_FAULT_BAD_LENGTH;
      } else {
        b.send_len = value;
      }
      break;
    case TESSERA_CSR_SEND_PTR:
      b.send_ptr = value;
      break;
    case TESSERA_CSR_MCAST_HI:
      b.mcast_hi = value;
      break;
    case TESSERA_CSR_MCAST_LO:
      b.mcast_lo = value;
      break;
    case TESSERA_CSR_SEND:
      fault = unicast(index, value);
      break;
    case TESSERA_CSR_MCAST_SEND:
      fault = multicast(index, value);
      break;
    case TESSERA_CSR_FREE:
      fault = free_slot(index, value);
      break;
    case TESSERA_CSR_RECV:
      fault = receive(index, &result);
      break;
    default:
      break;
  }
  if (fault != TESSERA_FAULT_NONE) return faulted(b, fault);
  return tessera_access_done(result, 0);
}

}  // namespace tessera::board::mailbox
