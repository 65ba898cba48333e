// Tessera's mailbox in software (mailbox_service.h, docs/boards.md). The rules are the mailbox
// model's own (tessera/models/mailbox_rules.h): this file gives them the board's memory and
// what a board has instead of a network, a copy from slot to slot, and a termination detector
// that sees every thread.
#include "mailbox_service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/board/board.h"
#include "tessera/hal/scratch.h"
#include "tessera/hw/regs.h"
#include "tessera/models/mailbox_rules.h"
#include "threads.h"

namespace tessera::board::mailbox {
namespace {

constexpr uint32_t kNobody = UINT32_MAX;

// A thread: the rules' registers first (the callbacks get back to the Box from them), then its
// outbound message: the receivers it has not reached yet, and its words, taken when it was sent
// (as the hardware takes them into the network).
struct Box {
  TesseraMailboxRegs regs;
  uint64_t out_to;
  uint32_t out_flits;
  uint32_t out_words[TESSERA_BYTES_PER_SLOT / 4];
  bool vote;  // in tinselIdle: its vote
};

struct Mailbox {
  Box* boxes;
  TesseraMailboxTile tile;  // the board's threads are one tile
  uint32_t threads;
  uint32_t calling;       // the thread inside csr()
  uint32_t idle_threads;  // in tinselIdle
  uint64_t in_flight;     // copies sent and not yet received and freed
  uint32_t next_sender;   // where the search for a blocked sender starts (round robin)
  TesseraShape shape;
};

[[gnu::section(".tessera_services")]] Mailbox mb;

uint32_t index_of(const TesseraMailboxRegs* t) {
  return static_cast<uint32_t>(reinterpret_cast<const Box*>(t) - mb.boxes);
}

void wake_if(uint32_t index, uint32_t condition) {
  if (tessera_mailbox_rules_wakes(&mb.boxes[index].regs, condition)) threads::wake(index);
}

// The sender's message goes into `slot` of thread `to`, which gave it to hardware.
void copy_into(uint32_t sender, uint32_t to, uint32_t slot) {
  Box& from = mb.boxes[sender];
  memcpy(const_cast<void*>(hal::scratch_pointer(tessera_mailbox_slot_address(slot))),
         from.out_words, from.out_flits * TESSERA_BYTES_PER_FLIT);
  tessera_mailbox_rules_fill(&mb.tile, slot);
  tessera_slot_queue_push(&mb.tile, &mb.boxes[to].regs.recv, slot);
  from.out_to &= ~(uint64_t{1} << to);
  wake_if(to, TESSERA_WAIT_CAN_RECV);
  if (from.out_to == 0) wake_if(sender, TESSERA_WAIT_CAN_SEND);
}

// Copies the sender's outbound message into an empty slot of each receiver that has one.
void deliver(uint32_t sender) {
  for (uint32_t to = 0; to < mb.threads && mb.boxes[sender].out_to != 0; ++to) {
    TesseraMailboxRegs& dest = mb.boxes[to].regs;
    if ((mb.boxes[sender].out_to >> to & 1) == 0 || dest.free.head == TESSERA_MAILBOX_NO_SLOT) {
      continue;
    }
    copy_into(sender, to, tessera_slot_queue_pop(&mb.tile, &dest.free));
  }
}

// A message to the host goes out on the console, one line (docs/boards.md), which HostLink
// decodes on the other end of the serial port; the host takes it at once:
//   tessera-board: host 0x<sender> <flits> <word> ... (flits * 4 words, 8 hex digits each)
void to_host(uint32_t index) {
  const TesseraMailboxRegs& t = mb.boxes[index].regs;
  const volatile uint32_t* words =
      static_cast<const volatile uint32_t*>(hal::scratch_pointer(t.send_ptr));
  const uint32_t flits = t.send_len + 1;
  char line[40 + TESSERA_MAX_FLITS * 4 * 9];
  int n = snprintf(line, sizeof line, "tessera-board: host 0x%lx %lu",
                   static_cast<unsigned long>(tessera_thread_at(&mb.shape, index)),
                   static_cast<unsigned long>(flits));
  for (uint32_t k = 0; k < flits * TESSERA_BYTES_PER_FLIT / 4; ++k) {
    n += snprintf(line + n, sizeof line - static_cast<size_t>(n), " %08lx",
                  static_cast<unsigned long>(words[k]));
  }
  console_line(line, static_cast<size_t>(n));
}

// ---- what the rules leave to the board ----

bool can_send(void*, const TesseraMailboxRegs* t) {
  return reinterpret_cast<const Box*>(t)->out_to == 0;
}

uint64_t no_time(void*, const TesseraMailboxRegs*) {
  return 0;
}

uint64_t no_slot_time(void*, const TesseraMailboxRegs*, uint32_t) {
  return 0;
}

bool unicast_ok(void*, uint32_t dest) {
  return dest == tessera_host_id(&mb.shape) || tessera_thread_exists(&mb.shape, dest);
}

// The board's one tile is mailbox 0.
bool multicast_ok(void*, uint32_t mailbox) {
  return mailbox == 0;
}

uint64_t send(void*, TesseraMailboxRegs* t, uint32_t dest, uint64_t mask, uint64_t) {
  const uint32_t index = index_of(t);
  if (mask == 0 && dest == tessera_host_id(&mb.shape)) {
    to_host(index);
    return 0;
  }
  Box& b = mb.boxes[index];
  b.out_to = mask != 0 ? mask : uint64_t{1} << tessera_dense_index(&mb.shape, dest);
  b.out_flits = t->send_len + 1;
  memcpy(b.out_words, const_cast<const void*>(hal::scratch_pointer(t->send_ptr)),
         b.out_flits * TESSERA_BYTES_PER_FLIT);
  mb.in_flight += static_cast<uint64_t>(__builtin_popcountll(b.out_to));
  deliver(index);
  return 0;
}

void received(void*, TesseraMailboxRegs*, uint32_t, uint64_t) {}

// The freed slot goes to a sender blocked toward the freeing thread, from a rotating start so
// that no sender waits for ever behind the others.
bool freed(void*, TesseraMailboxRegs* t, uint32_t slot, bool held, uint64_t) {
  const uint32_t to = index_of(t);
  if (held) --mb.in_flight;
  const uint32_t start = mb.next_sender;
  mb.next_sender = (mb.next_sender + 1) % mb.threads;
  for (uint32_t k = 0; k < mb.threads; ++k) {
    const uint32_t sender = (start + k) % mb.threads;
    if ((mb.boxes[sender].out_to >> to & 1) != 0) {
      copy_into(sender, to, slot);
      return true;
    }
  }
  return false;
}

void idle_enter(void*, TesseraMailboxRegs* t, bool vote, uint64_t) {
  reinterpret_cast<Box*>(t)->vote = vote;
  ++mb.idle_threads;
}

void idle_leave(void*, TesseraMailboxRegs*, uint64_t) {
  --mb.idle_threads;
}

// The detector: in shared memory the services see every send and every free, so every thread in
// tinselIdle and no message undelivered is termination; all are released, with the AND of the
// votes.
void settle(void*) {
  if (mb.idle_threads != mb.threads || mb.in_flight != 0) return;
  bool every_vote = true;
  for (uint32_t i = 0; i < mb.threads; ++i) every_vote = every_vote && mb.boxes[i].vote;
  for (uint32_t i = 0; i < mb.threads; ++i) {
    const bool released = tessera_mailbox_rules_release(&mb.boxes[i].regs, every_vote ? 3u : 1u, 0);
    if (released && i != mb.calling) wake_if(i, TESSERA_MAILBOX_IDLE_BITS);
  }
  mb.idle_threads = 0;
}

constexpr TesseraMailboxRulesOps kOps = {
    .can_send = can_send,
    .send_time = no_time,
    .recv_time = no_slot_time,
    .unicast_ok = unicast_ok,
    .multicast_ok = multicast_ok,
    .send = send,
    .received = received,
    .freed = freed,
    .idle_enter = idle_enter,
    .idle_leave = idle_leave,
    .idle_abandon = idle_leave,
    .settle = settle,
};

}  // namespace

void init() {
  // A second init (a board booted again, or a test) starts from nothing.
  free(mb.boxes);
  free(mb.tile.state);
  free(mb.tile.next);
  mb = Mailbox{};
  const Layout board = layout();
  mb.shape = board.shape;
  mb.threads = tessera_num_threads(&board.shape);
  mb.calling = kNobody;
  mb.boxes = static_cast<Box*>(calloc(mb.threads, sizeof(Box)));
  mb.tile.state = static_cast<uint8_t*>(calloc(TESSERA_SLOTS_PER_TILE, 1));
  mb.tile.next = static_cast<uint16_t*>(calloc(TESSERA_SLOTS_PER_TILE, sizeof(uint16_t)));
  mb.tile.threads = mb.threads;
  if (mb.threads > TESSERA_MAILBOX_MCAST_THREADS ||
      tessera_threads_per_tile(&board.shape) != mb.threads ||
      TESSERA_SLOTS_PER_TILE / mb.threads < 2 || mb.boxes == nullptr || mb.tile.state == nullptr ||
      mb.tile.next == nullptr) {
    static const char kNoRoom[] =
        "tessera-board: no mailbox: the threads must be one tile of at most 64, with 2 slots each";
    console_line(kNoRoom, sizeof kNoRoom - 1);
    finish(1);
  }
  for (uint32_t i = 0; i < mb.threads; ++i) {
    tessera_mailbox_rules_power_on(&mb.tile, &mb.boxes[i].regs, i);
  }
}

uint32_t peek(uint32_t index, uint32_t csr) {
  return tessera_mailbox_rules_peek(&kOps, nullptr, &mb.boxes[index].regs, csr);
}

TesseraAccess csr(uint32_t index, uint32_t csr, uint32_t value, bool write) {
  // A read of a command (csrr) does nothing, as on -M tessera.
  if (!write && tessera_csr_is_mailbox_command(csr)) return tessera_access_done(0, 0);
  uint32_t result = 0;
  uint64_t at = 0;
  TesseraMailboxFault fault = TESSERA_FAULT_NONE;
  mb.calling = index;
  const TesseraAccessStatus status = tessera_mailbox_rules_csr(
      &kOps, nullptr, &mb.tile, &mb.boxes[index].regs, csr, value, 0, &result, &at, &fault);
  mb.calling = kNobody;
  switch (status) {
    case TESSERA_ACCESS_DONE:
      return tessera_access_done(result, 0);
    case TESSERA_ACCESS_BLOCKED:
      return tessera_access_blocked(0);
    default:
      return tessera_access_fault(fault, tessera_mailbox_fault_name(fault), 0);
  }
}

}  // namespace tessera::board::mailbox
