#include "mailbox_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>

#include "fuzz_check.h"
#include "shape_oracle.h"
#include "tessera/hw/machine_params.h"

namespace fuzz {
namespace {

// The mailbox CSRs of docs/mailbox.md, listed here rather than taken from
// the model's own predicate.
constexpr uint32_t kMailboxCsrs[] = {
    TESSERA_CSR_FREE,     TESSERA_CSR_CAN_SEND, TESSERA_CSR_CAN_RECV,   TESSERA_CSR_SEND_LEN,
    TESSERA_CSR_SEND_PTR, TESSERA_CSR_SEND,     TESSERA_CSR_RECV,       TESSERA_CSR_WAIT_UNTIL,
    TESSERA_CSR_MCAST_HI, TESSERA_CSR_MCAST_LO, TESSERA_CSR_MCAST_SEND, TESSERA_CSR_MBOX_FAULT,
    TESSERA_CSR_RECV_FREE};

constexpr uint32_t kCanSend = TESSERA_WAIT_CAN_SEND;
constexpr uint32_t kCanRecv = TESSERA_WAIT_CAN_RECV;
constexpr uint32_t kIdleBit = TESSERA_WAIT_IDLE;
constexpr uint32_t kVoteBit = TESSERA_WAIT_IDLE_VOTE;
constexpr uint32_t kIdleBits = kIdleBit | kVoteBit;

bool is_mailbox_csr(uint32_t csr) {
  for (uint32_t c : kMailboxCsrs) {
    if (c == csr) {
      return true;
    }
  }
  return false;
}

// Slot number of a bus address, or -1 (docs/mailbox.md, "Slots").
int slot_of_address(uint32_t address) {
  if (address < TESSERA_SCRATCH_BASE || address - TESSERA_SCRATCH_BASE >= TESSERA_SCRATCH_SIZE ||
      (address - TESSERA_SCRATCH_BASE) % TESSERA_BYTES_PER_SLOT != 0) {
    return -1;
  }
  return static_cast<int>((address - TESSERA_SCRATCH_BASE) / TESSERA_BYTES_PER_SLOT);
}

uint32_t address_of(uint32_t slot) {
  return TESSERA_SCRATCH_BASE + slot * TESSERA_BYTES_PER_SLOT;
}

uint32_t le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

void put_le32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; i++) {
    p[i] = static_cast<uint8_t>(v >> (8 * i));
  }
}

uint64_t distance(uint64_t a, uint64_t b) {
  return a > b ? a - b : b - a;
}

template <typename T>
std::unique_ptr<T[]> reuse(std::vector<std::unique_ptr<T[]>>& pool) {
  if (pool.empty()) {
    return nullptr;
  }
  std::unique_ptr<T[]> block = std::move(pool.back());
  pool.pop_back();
  return block;
}

// Small values, powers of two and the edges of every limit mailbox.h and
// termdet.h name.
uint32_t interesting_u32(FuzzInput& in) {
  static const uint32_t kEdges[] = {
      0,     1,     2,     3,        4,        5,          6,          7,         8,
      63,    64,    65,    255,      256,      511,        512,        513,       1024,
      65535, 65536, 65537, 1u << 20, 1u << 31, 0x80000001, 0xfffffffe, 0xffffffff};
  const uint8_t b = in.byte();
  if (b < 0x80) {
    return 1 + b % 8;
  }
  if (b < 0xf0) {
    return in.pick(kEdges);
  }
  return in.u32();
}

// TESSERA_FUZZ_TRACE=1: print every CSR, to follow a crashing input.
bool tracing() {
  static const bool on = getenv("TESSERA_FUZZ_TRACE") != nullptr;
  return on;
}

uint8_t* no_scratchpad(void*, uint32_t) {
  return nullptr;
}
void no_wake(void*, uint32_t) {}
bool no_host(void*, uint32_t, const uint8_t*, uint32_t, uint64_t) {
  return true;
}

}  // namespace

// ---- set-up ---------------------------------------------------------------

MailboxSetup decode_mailbox_setup(FuzzInput& in, uint32_t max_harts, uint32_t max_wide_harts) {
  MailboxSetup setup;
  TesseraMailboxConfig& c = setup.config;
  TesseraShape& s = c.shape;

  s.boards_x = 1 + in.below(8);
  s.boards_y = 1 + in.below(8);
  const uint8_t t = in.byte();
  s.tiles_x = 1u << (t & 1);
  s.tiles_y = 1u << ((t >> 1) & 1);
  s.cores_per_tile = 1u << ((t >> 2) & 3);
  const uint32_t thread_bits = (t >> 4) & 7;
  const bool wide = (t & 0x80) != 0;
  s.threads_per_core = 1u << (wide ? thread_bits : thread_bits % 4);
  // At least 2 slots per thread, or the model refuses the machine.
  while (s.cores_per_tile * s.threads_per_core > TESSERA_SLOTS_PER_TILE / 2) {
    s.threads_per_core /= 2;
  }
  while (tessera_num_threads(&s) > (wide ? max_wide_harts : max_harts)) {
    if (s.boards_y > 1) {
      s.boards_y--;
    } else if (s.boards_x > 1) {
      s.boards_x--;
    } else if (s.tiles_y > 1) {
      s.tiles_y /= 2;
    } else if (s.tiles_x > 1) {
      s.tiles_x /= 2;
    } else {
      s.threads_per_core /= 2;
    }
  }

  const uint8_t buffer = in.byte();
  c.buffer_flits =
      (buffer & 0x80) ? TESSERA_DEFAULT_buffer_flits : TESSERA_MAX_FLITS + (buffer & 0x1f);
  c.tile_hop_cycles = in.below(8);
  c.board_hop_cycles = in.byte();
  const uint8_t flags = in.byte();
  c.idle_master = (flags & 1) ? TESSERA_TERMDET_MASTER_CENTRE : TESSERA_TERMDET_MASTER_ORIGIN;
  setup.interrupts = (flags & 2) != 0;
  setup.host_refuses = (flags & 4) != 0;
  setup.probe_config = (flags & 8) != 0;
  // Time windows (docs/ranks.md): messages between boards wait at their board's egress for an
  // exchange, which the input makes at any point (steps 0xd0..0xd7).
  c.windows = (flags & 16) != 0;
  // Untimed (native mode's model): the same deliveries, pair order and termination, no time on
  // the way. Not with windows (tessera_mailbox_new refuses the two).
  c.untimed = (flags & 32) != 0 && !c.windows;
  setup.final_votes = in.byte();
  return setup;
}

void probe_mailbox_config(FuzzInput& in) {
  TesseraMailboxConfig c{};
  c.shape.boards_x = interesting_u32(in);
  c.shape.boards_y = interesting_u32(in);
  c.shape.tiles_x = interesting_u32(in);
  c.shape.tiles_y = interesting_u32(in);
  c.shape.cores_per_tile = interesting_u32(in);
  c.shape.threads_per_core = interesting_u32(in);
  c.tile_hop_cycles = in.u32();
  c.board_hop_cycles = in.u32();
  c.buffer_flits = interesting_u32(in);
  // Written as raw bytes: an enum value the C++ side may not hold.
  const uint32_t master = in.below(4);
  static_assert(sizeof(c.idle_master) == sizeof(master));
  memcpy(&c.idle_master, &master, sizeof(master));

  TesseraMailboxHost host{};
  host.scratchpad = no_scratchpad;
  host.wake = no_wake;
  host.to_host = no_host;
  const uint32_t missing = in.below(8);
  if (missing == 1) {
    host.scratchpad = nullptr;
  } else if (missing == 2) {
    host.wake = nullptr;
  } else if (missing == 3) {
    host.to_host = nullptr;
  }

  // mailbox.h: what tessera_mailbox_new refuses.
  const TesseraShape& s = c.shape;
  bool valid = fuzz::shape_numberable(s);
  uint64_t threads = 0, tiles = 0;
  if (valid) {
    const uint64_t per_tile = uint64_t{s.cores_per_tile} * s.threads_per_core;
    valid = per_tile <= TESSERA_SLOTS_PER_TILE / 2;
    tiles = uint64_t{s.boards_x} * s.boards_y * s.tiles_x * s.tiles_y;
    threads = tiles * per_tile;
  }
  valid =
      valid && c.buffer_flits >= TESSERA_MAX_FLITS && master <= 1 && (missing == 0 || missing > 3);

  if (!valid) {
    TesseraMailbox* m = tessera_mailbox_new(&c, &host);
    FUZZ_CHECK(m == nullptr,
               "tessera_mailbox_new took an invalid configuration: boards %ux%u tiles %ux%u "
               "cores %u threads %u buffer %u master %u missing callback %u",
               s.boards_x, s.boards_y, s.tiles_x, s.tiles_y, s.cores_per_tile, s.threads_per_core,
               c.buffer_flits, master, missing);
    tessera_mailbox_free(m);
  } else if (threads <= 4096 && tiles <= 1024) {
    TesseraMailbox* m = tessera_mailbox_new(&c, &host);
    FUZZ_CHECK(m != nullptr,
               "tessera_mailbox_new refused a valid configuration: boards %ux%u tiles %ux%u "
               "cores %u threads %u buffer %u",
               s.boards_x, s.boards_y, s.tiles_x, s.tiles_y, s.cores_per_tile, s.threads_per_core,
               c.buffer_flits);
    tessera_mailbox_free(m);
  }
}

MailboxHarness::MailboxHarness(const MailboxSetup& setup)
    : shape_(setup.config.shape),
      config_(setup.config),
      interrupts_(setup.interrupts),
      final_votes_(setup.final_votes),
      host_accepts_(!setup.host_refuses),
      events_(setup.config.shape, setup.config.untimed) {
  tpt_ = tessera_threads_per_tile(&shape_);
  spt_ = TESSERA_SLOTS_PER_TILE / tpt_;
  tile_shift_ = tessera_tile_shift(&shape_);
  num_harts_ = tessera_num_threads(&shape_);
  num_tiles_ = num_harts_ / tpt_;
  host_id_ = tessera_host_id(&shape_);

  TesseraMailboxHost host{};
  host.opaque = this;
  host.scratchpad = [](void* self, uint32_t tile) {
    return static_cast<MailboxHarness*>(self)->scratch(tile);
  };
  host.wake = [](void* self, uint32_t hart) { static_cast<MailboxHarness*>(self)->on_wake(hart); };
  host.to_host = [](void* self, uint32_t src, const uint8_t* msg, uint32_t flits, uint64_t time) {
    return static_cast<MailboxHarness*>(self)->on_host_message(src, msg, flits, time);
  };
  host.inject_ready = [](void* self) {
    auto* h = static_cast<MailboxHarness*>(self);
    h->inject_ready_ = true;
    h->refused_.assign(h->refused_.size(), false);
  };
  host.event = [](void* self, const TesseraMailboxEvent* e) {
    static_cast<MailboxHarness*>(self)->events_.on_event(*e);
  };
  waits_ = tessera_waits_new(&shape_);
  FUZZ_CHECK(waits_ != nullptr, "tessera_waits_new refused the shape");
  config_.waits = waits_;
  model_ = tessera_mailbox_new(&config_, &host);
  FUZZ_CHECK(model_ != nullptr,
             "tessera_mailbox_new refused boards %ux%u tiles %ux%u cores %u "
             "threads %u buffer %u",
             shape_.boards_x, shape_.boards_y, shape_.tiles_x, shape_.tiles_y,
             shape_.cores_per_tile, shape_.threads_per_core, config_.buffer_flits);
  FUZZ_CHECK(tessera_mailbox_slots_per_thread(model_) == spt_, "slots per thread %u, not %u",
             tessera_mailbox_slots_per_thread(model_), spt_);

  harts_.resize(num_harts_);
  for (uint32_t h = 0; h < num_harts_; h++) {
    harts_[h].send_ptr = address_of(first_slot(h));
  }
  scratch_.resize(num_tiles_);
  slots_.resize(num_tiles_);
  tile_unreceived_.assign(num_tiles_, 0);
  refused_.assign(num_tiles_, false);
}

MailboxHarness::~MailboxHarness() {
  tessera_mailbox_free(model_);
  tessera_waits_free(waits_);
  for (auto& block : scratch_) {
    if (block) {
      scratch_pool().push_back(std::move(block));
    }
  }
  for (auto& block : slots_) {
    if (block) {
      slot_pool().push_back(std::move(block));
    }
  }
}

// Per-tile blocks outlive one input: fresh ones for every input would spend
// much of the time in page faults.
std::vector<std::unique_ptr<uint8_t[]>>& MailboxHarness::scratch_pool() {
  static std::vector<std::unique_ptr<uint8_t[]>> pool;
  return pool;
}

std::vector<std::unique_ptr<MailboxHarness::Slot[]>>& MailboxHarness::slot_pool() {
  static std::vector<std::unique_ptr<Slot[]>> pool;
  return pool;
}

// ---- callbacks ------------------------------------------------------------

uint8_t* MailboxHarness::scratch(uint32_t tile) {
  FUZZ_CHECK(tile < num_tiles_, "scratchpad of tile %u of %u", tile, num_tiles_);
  if (!scratch_[tile]) {
    scratch_[tile] = reuse(scratch_pool());
    if (scratch_[tile]) {
      memset(scratch_[tile].get(), 0, TESSERA_SCRATCH_SIZE);
    } else {
      scratch_[tile] = std::make_unique<uint8_t[]>(TESSERA_SCRATCH_SIZE);
    }
  }
  return scratch_[tile].get();
}

void MailboxHarness::on_wake(uint32_t hart) {
  FUZZ_CHECK(hart < num_harts_, "wake() names hart %u of %u", hart, num_harts_);
  if (tracing()) {
    fprintf(stderr, "  wake %u: idle %u undelivered %llu\n", hart, num_idle_,
            static_cast<unsigned long long>(undelivered_));
  }
  wakes_.push_back({hart, terminal(), all_voted_true()});
  harts_[hart].woken = true;
}

bool MailboxHarness::on_host_message(uint32_t src_id, const uint8_t* msg, uint32_t flits,
                                     uint64_t time) {
  FUZZ_CHECK(flits >= 1 && flits <= TESSERA_MAX_FLITS, "to_host() with %u flits", flits);
  FUZZ_CHECK(is_thread(src_id), "to_host() from 0x%x, no thread", src_id);
  if (tracing()) {
    fprintf(stderr, "  to_host from 0x%x: %s\n", src_id, host_accepts_ ? "taken" : "refused");
  }
  if (!host_accepts_) {
    return false;
  }
  const uint32_t tag_value = le32(msg);
  FUZZ_CHECK(tag_value >= 1 && tag_value <= messages_.size() && le32(msg + 4) == ~tag_value,
             "the host got a message no thread sent (tag 0x%x)", tag_value);
  const uint32_t index = tag_value - 1;
  const Message& m = messages_[index];
  Copy& copy = copies_[m.first_copy];
  FUZZ_CHECK(m.num_copies == 1 && copy.receiver == kHostHart,
             "message %u from 0x%x to a thread reached the host", index, m.src_id);
  FUZZ_CHECK(copy.state != CopyState::kRefused,
             "message %u was refused with a fault, yet "
             "reached the host",
             index);
  FUZZ_CHECK(copy.state == CopyState::kPending, "the host took message %u twice", index);
  FUZZ_CHECK(src_id == m.src_id, "message %u from 0x%x reached the host as from 0x%x", index,
             m.src_id, src_id);
  FUZZ_CHECK(flits == m.flits, "message %u of %u flits reached the host with %u", index, m.flits,
             flits);
  FUZZ_CHECK(memcmp(msg, m.bytes, flits * TESSERA_BYTES_PER_FLIT) == 0,
             "message %u reached the host changed", index);
  const uint64_t earliest = m.sent_now + expected_latency(src_id, host_id_);
  FUZZ_CHECK(time >= earliest, "message %u reached the host at %llu, before %llu", index,
             static_cast<unsigned long long>(time), static_cast<unsigned long long>(earliest));
  check_order(m.src, kHostHart, index);
  copy.state = CopyState::kDone;
  undelivered_--;
  host_unreceived_--;
  host_taken_++;
  if (on_to_host) {
    on_to_host(src_id, msg, flits, time);
  }
  return true;
}

// ---- geometry -------------------------------------------------------------

bool MailboxHarness::is_thread(uint32_t id) const {
  return tessera_thread_exists(&shape_, id);
}

uint32_t MailboxHarness::hart_of(uint32_t id) const {
  return tessera_dense_index(&shape_, id);
}

uint32_t MailboxHarness::thread_id(uint32_t hart) const {
  return tessera_thread_at(&shape_, hart);
}

// docs/mailbox.md, "Uncontended latency", written out again; untimed, none.
uint64_t MailboxHarness::expected_latency(uint32_t src_id, uint32_t dest_id) const {
  uint64_t latency = 0, sx = 0, sy = 0, dx = 0, dy = 0;
  if (config_.untimed) {
    return 0;
  }
  auto grid = [&](uint32_t id, uint64_t& gx, uint64_t& gy) {
    const TesseraCoords c = tessera_coords(&shape_, id);
    gx = uint64_t{c.board_x} * shape_.tiles_x + c.tile_x;
    gy = uint64_t{c.board_y} * shape_.tiles_y + c.tile_y;
  };
  if (src_id == host_id_) {
    latency += config_.board_hop_cycles;
  } else {
    grid(src_id, sx, sy);
  }
  if (dest_id == host_id_) {
    latency += config_.board_hop_cycles;
  } else {
    grid(dest_id, dx, dy);
  }
  auto axis = [&](uint64_t from, uint64_t to, uint32_t tiles) {
    const uint64_t hops = distance(from, to), crossings = distance(from / tiles, to / tiles);
    return (hops - crossings) * config_.tile_hop_cycles + crossings * config_.board_hop_cycles;
  };
  return latency + axis(sx, dx, shape_.tiles_x) + axis(sy, dy, shape_.tiles_y);
}

MailboxHarness::Slot& MailboxHarness::slot(uint32_t tile, uint32_t n) {
  if (!slots_[tile]) {
    slots_[tile] = reuse(slot_pool());
    if (slots_[tile]) {
      std::fill(slots_[tile].get(), slots_[tile].get() + TESSERA_SLOTS_PER_TILE, Slot{});
    } else {
      slots_[tile] = std::make_unique<Slot[]>(TESSERA_SLOTS_PER_TILE);
    }
  }
  return slots_[tile][n];
}

bool MailboxHarness::terminal() const {
  uint32_t idle = num_idle_;
  if (idle_caller_ != kNone && harts_[idle_caller_].state != HartState::kIdle) {
    idle++;
  }
  return idle == num_harts_ && undelivered_ == 0;
}

bool MailboxHarness::all_voted_true() const {
  return idle_false_votes_ == 0 && (idle_caller_ == kNone || idle_caller_vote_);
}

uint64_t MailboxHarness::rounds_started() const {
  TesseraTermdetStats stats;
  tessera_mailbox_idle_stats(model_, &stats);
  return stats.rounds_started;
}

// ---- calls into the model ---------------------------------------------------

MailboxHarness::CsrOutcome MailboxHarness::csr(uint32_t hart, uint32_t csrno, uint32_t value) {
  const bool exists = hart < num_harts_;
  const uint64_t now = exists ? harts_[hart].now : 0;
  const uint64_t rounds_before = rounds_started();
  CsrOutcome o{};
  o.value = 0xdeadbeef;
  o.resume_at = ~now;
  wakes_.clear();
  // What a debugger sees is what the CSR then returns: the state, or the old value of a
  // csrrw register (tessera_mailbox_peek_csr).
  uint32_t peeked = 0xdeadbeef;
  const bool peekable = tessera_mailbox_peek_csr(model_, hart, csrno, &peeked);
  // The quick answer of a RECV_FREE that frees and finds nothing, where it gives one, is the full
  // call's (tessera_mailbox_recv_free_none; both change nothing, so the full call runs as ever).
  uint32_t quick = 0xdeadbeef;
  const bool quick_taken = csrno == TESSERA_CSR_RECV_FREE && value == 0 &&
                           tessera_mailbox_recv_free_none(model_, hart, &quick);
  // As QEMU does before a hart's turn: the prefetch hint, which must change nothing (the
  // checks after the call compare the model with the harness's own account).
  tessera_mailbox_prefetch(model_, hart, hart + 1);
  const TesseraAccess a = tessera_mailbox_csr(model_, hart, csrno, value, now);
  FUZZ_CHECK(!quick_taken || (a.status == TESSERA_ACCESS_DONE && a.value == quick &&
                              a.resume_at == now && (a.value & ~TESSERA_RECV_FREE_CAN_SEND) == 0),
             "RECV_FREE 0 of hart %u: the quick path read 0x%x, the full call %d 0x%x at %llu "
             "(now %llu)",
             hart, quick, static_cast<int>(a.status), a.value,
             static_cast<unsigned long long>(a.resume_at), static_cast<unsigned long long>(now));
  o.result = a.status;
  o.value = a.value;
  o.resume_at = a.resume_at;
  o.fault = static_cast<TesseraMailboxFault>(a.code);
  const bool mailbox_csr = exists && is_mailbox_csr(csrno);
  FUZZ_CHECK(peekable == mailbox_csr, "peek of csr 0x%x of hart %u: %d", csrno, hart, peekable);
  FUZZ_CHECK(o.result != TESSERA_ACCESS_DONE || o.value == peeked ||
                 csrno == TESSERA_CSR_WAIT_UNTIL ||
                 // the slot it frees first may take a waiting message, which it then receives
                 (csrno == TESSERA_CSR_RECV_FREE && value != 0),
             "csr 0x%x of hart %u returned 0x%x, a debugger saw 0x%x before", csrno, hart, o.value,
             peeked);
  if (tracing()) {
    fprintf(stderr,
            "hart %u csr 0x%x value 0x%x now %llu -> result %d value 0x%x resume %llu "
            "fault %d wakes %zu\n",
            hart, csrno, value, static_cast<unsigned long long>(now), o.result, o.value,
            static_cast<unsigned long long>(o.resume_at), o.fault, wakes_.size());
  }
  switch (o.result) {
    case TESSERA_ACCESS_DONE:
      FUZZ_CHECK(mailbox_csr && o.fault == TESSERA_FAULT_NONE && o.resume_at >= now,
                 "csr 0x%x of hart %u: DONE with fault %d, resume %llu < now %llu", csrno, hart,
                 o.fault, static_cast<unsigned long long>(o.resume_at),
                 static_cast<unsigned long long>(now));
      harts_[hart].now = o.resume_at;
      break;
    case TESSERA_ACCESS_BLOCKED:
      FUZZ_CHECK(mailbox_csr && csrno == TESSERA_CSR_WAIT_UNTIL, "csr 0x%x blocked", csrno);
      break;
    case TESSERA_ACCESS_FAULT:
      FUZZ_CHECK(mailbox_csr && o.fault >= TESSERA_FAULT_BAD_DESTINATION &&
                     o.fault <= TESSERA_FAULT_BAD_WAIT,
                 "csr 0x%x of hart %u: FAULT with code %d", csrno, hart, o.fault);
      harts_[hart].last_fault = o.fault;
      break;
    case TESSERA_ACCESS_UNKNOWN:
      FUZZ_CHECK(!mailbox_csr, "csr 0x%x of hart %u of %u answered UNKNOWN", csrno, hart,
                 num_harts_);
      break;
    default:
      FUZZ_CHECK(false, "csr 0x%x: result %d", csrno, o.result);
  }
  if (o.result != TESSERA_ACCESS_DONE) {
    FUZZ_CHECK(o.value == 0 && o.resume_at == now,
               "csr 0x%x of hart %u: result %d with value 0x%x, resume %llu (now %llu)", csrno,
               hart, o.result, o.value, static_cast<unsigned long long>(o.resume_at),
               static_cast<unsigned long long>(now));
  }
  after_call(rounds_before);
  return o;
}

// A hart halted in a CSR issues another one: only an interrupt handler or a
// debugger could. Any mailbox CSR ends a wait; anything but the same
// tinselIdle call ends that call, and drops a release not yet given.
void MailboxHarness::leave_halt(uint32_t hart, uint32_t csrno, uint32_t value) {
  if (hart >= num_harts_ || !is_mailbox_csr(csrno)) {
    return;
  }
  Hart& s = harts_[hart];
  const bool idle_wait = csrno == TESSERA_CSR_WAIT_UNTIL && (value & kIdleBits) != 0;
  switch (s.state) {
    case HartState::kRunning:
      return;
    case HartState::kWaiting:
      s.state = HartState::kRunning;
      return;
    case HartState::kIdle:
      if (idle_wait) {
        return;
      }
      num_idle_--;
      if (!s.vote) {
        idle_false_votes_--;
      }
      s.state = HartState::kRunning;
      return;
    case HartState::kReleased:
      if (!idle_wait) {
        s.state = HartState::kRunning;
      }
      return;
  }
}

void MailboxHarness::halt(uint32_t hart, HartState state, uint32_t value) {
  Hart& s = harts_[hart];
  if (!s.listed) {
    halted_.push_back(hart);
    s.listed = true;
  }
  s.state = state;
  s.wait_value = value;
  s.woken = false;
  if (state == HartState::kIdle) {
    num_idle_++;
    s.vote = (value & kVoteBit) != 0;
    if (!s.vote) {
      idle_false_votes_++;
    }
  }
}

// After each call: the harts blocked in tinselIdle that the detector released
// in it. A hart already woken (for a message, say) is not woken again, so
// they are found by their detector state. The releases of one call come
// together (one run of phase 2), so what held when one of them was woken by
// its release held at the release. A hart whose awaited conditions do not
// hold after the call was woken by its release; a wake of one whose
// conditions hold may have been for them, earlier. If no wake is sure to be
// a release, the state after the call is used: within one call the shadow
// only moves toward terminal (the host takes messages), so that never
// blames a correct release.
void MailboxHarness::after_call(uint64_t rounds_before) {
  TesseraTermdetStats stats;
  tessera_mailbox_idle_stats(model_, &stats);
  if (stats.detections == detections_seen_) {
    wakes_.clear();
    return;  // no release in this call
  }
  detections_seen_ = stats.detections;
  const TesseraTermdet* td = tessera_mailbox_termdet(model_);
  auto released = [&](uint32_t h) {
    return harts_[h].state == HartState::kIdle &&
           tessera_termdet_hart_state(td, h, nullptr, nullptr) == TESSERA_TERMDET_RELEASED;
  };
  Wake at_release{kNone, terminal(), all_voted_true()};
  for (const Wake& w : wakes_) {
    if (released(w.hart) && holds(w.hart, (harts_[w.hart].wait_value & kCanSend) | kCanRecv) == 0) {
      at_release = w;
      break;
    }
  }
  wakes_.clear();
  for (size_t i = 0; i < halted_.size(); i++) {
    const uint32_t h = halted_[i];
    if (!released(h)) {
      continue;
    }
    judge_release(h, at_release.terminal, at_release.all_voted_true, rounds_before);
    Hart& s = harts_[h];
    num_idle_--;
    if (!s.vote) {
      idle_false_votes_--;
    }
    s.state = HartState::kReleased;
    s.woken = true;
    tessera_termdet_hart_state(td, h, &s.released, nullptr);
  }
}

// DESIGN 1.2: a release only when every thread is blocked in tinselIdle and
// no message is undelivered (received and freed); result 3 only if every
// one voted true; one result per episode.
void MailboxHarness::judge_release(uint32_t hart, bool was_terminal, bool voted_true,
                                   uint64_t rounds_before) {
  uint32_t result = 0;
  TesseraTermdetStats stats;
  tessera_mailbox_idle_stats(model_, &stats);
  tessera_termdet_hart_state(tessera_mailbox_termdet(model_), hart, &result, nullptr);
  FUZZ_CHECK(result == TESSERA_TERMDET_RESULT_RELEASED || result == TESSERA_TERMDET_RESULT_VOTED,
             "hart %u released with result %u", hart, result);
  // The mailbox runs every protocol step after each call (docs/idle.md): the
  // release and re-enable phases end within the call, and a new round starts.
  FUZZ_CHECK(stats.rounds_started > rounds_before && stats.episodes == stats.detections,
             "a release whose phases did not complete within the call (rounds %llu -> %llu, "
             "detections %llu, episodes %llu)",
             static_cast<unsigned long long>(rounds_before),
             static_cast<unsigned long long>(stats.rounds_started),
             static_cast<unsigned long long>(stats.detections),
             static_cast<unsigned long long>(stats.episodes));
  uint32_t idle = num_idle_;
  if (idle_caller_ != kNone && harts_[idle_caller_].state != HartState::kIdle) {
    idle++;
  }
  FUZZ_CHECK(was_terminal,
             "false termination: hart %u released while %u of %u harts are blocked in "
             "tinselIdle and %llu message copies are undelivered",
             hart, idle, num_harts_, static_cast<unsigned long long>(undelivered_));
  FUZZ_CHECK(
      result == (voted_true ? TESSERA_TERMDET_RESULT_VOTED : TESSERA_TERMDET_RESULT_RELEASED),
      "hart %u released with %u although every hart voted %s", hart, result,
      voted_true ? "true" : "not true");
  if (stats.detections != episode_) {
    episode_ = stats.detections;
    episode_result_ = result;
  }
  FUZZ_CHECK(result == episode_result_, "episode %llu released harts with %u and with %u",
             static_cast<unsigned long long>(episode_), episode_result_, result);
}

void MailboxHarness::check_no_missed_wake() {
  const TesseraTermdet* td = tessera_mailbox_termdet(model_);
  size_t keep = 0;
  for (uint32_t h : halted_) {
    Hart& s = harts_[h];
    if (s.state == HartState::kRunning) {
      s.listed = false;
      continue;
    }
    halted_[keep++] = h;
    const TesseraTermdetHartState idle = tessera_termdet_hart_state(td, h, nullptr, nullptr);
    if (s.state == HartState::kReleased) {
      FUZZ_CHECK(idle == TESSERA_TERMDET_RELEASED, "released hart %u is %d to the detector", h,
                 idle);
      continue;
    }
    FUZZ_CHECK((idle == TESSERA_TERMDET_IDLE) == (s.state == HartState::kIdle),
               "hart %u: the detector says %d, the hart is %s", h, idle,
               s.state == HartState::kIdle ? "in tinselIdle" : "waiting");
    if (s.woken) {
      continue;
    }
    const uint32_t bits =
        s.state == HartState::kIdle ? (s.wait_value & kCanSend) | kCanRecv : s.wait_value & 3;
    FUZZ_CHECK(!((bits & kCanSend) && tessera_mailbox_can_send(model_, h)),
               "missed wake: hart %u waits for can-send (0x%x), which holds", h, s.wait_value);
    FUZZ_CHECK(!((bits & kCanRecv) && tessera_mailbox_can_recv(model_, h)),
               "missed wake: hart %u waits for can-recv (0x%x), which holds", h, s.wait_value);
    const uint32_t registered =
        s.state == HartState::kIdle ? bits | kIdleBit | (s.wait_value & kVoteBit) : bits;
    FUZZ_CHECK(tessera_mailbox_waiting(model_, h) == registered,
               "hart %u waits for 0x%x, the model has 0x%x", h, registered,
               tessera_mailbox_waiting(model_, h));
    FUZZ_CHECK(tessera_waits_operation(waits_, h) != nullptr,
               "hart %u waits for 0x%x, but the wait registry says it is not stopped", h,
               registered);
  }
  halted_.resize(keep);
}

// ---- the ledger -------------------------------------------------------------

void MailboxHarness::tag(uint8_t* bytes, uint32_t message) const {
  put_le32(bytes, message + 1);
  put_le32(bytes + 4, ~(message + 1));
}

uint32_t MailboxHarness::new_message(uint32_t src, uint32_t src_id, uint32_t flits,
                                     uint64_t sent_now, const uint8_t* bytes) {
  Message m{};
  m.src = src;
  m.src_id = src_id;
  m.flits = flits;
  m.sent_now = sent_now;
  m.first_copy = static_cast<uint32_t>(copies_.size());
  memcpy(m.bytes, bytes, sizeof(m.bytes));
  messages_.push_back(m);
  return static_cast<uint32_t>(messages_.size() - 1);
}

void MailboxHarness::add_copy(uint32_t message, uint32_t receiver) {
  copies_.push_back({message, receiver, CopyState::kPending});
  messages_[message].num_copies++;
  undelivered_++;
  if (receiver == kHostHart) {
    host_unreceived_++;
  } else {
    harts_[receiver].unreceived++;
    tile_unreceived_[tile_of(receiver)]++;
  }
  if (messages_[message].src != kHostHart) {
    harts_[messages_[message].src].copies_sent++;
  }
}

// The model refused a message registered before the call.
void MailboxHarness::refuse(uint32_t message) {
  const Message& m = messages_[message];
  for (uint32_t i = m.first_copy; i < m.first_copy + m.num_copies; i++) {
    Copy& c = copies_[i];
    FUZZ_CHECK(c.state == CopyState::kPending, "refused message %u was delivered", message);
    c.state = CopyState::kRefused;
    undelivered_--;
    if (c.receiver == kHostHart) {
      host_unreceived_--;
    } else {
      harts_[c.receiver].unreceived--;
      tile_unreceived_[tile_of(c.receiver)]--;
    }
    if (m.src != kHostHart) {
      harts_[m.src].copies_sent--;
    }
  }
}

void MailboxHarness::check_order(uint32_t src, uint32_t receiver, uint32_t message) {
  const uint64_t key = uint64_t{src} << 32 | receiver;
  auto it = last_in_pair_.find(key);
  if (it != last_in_pair_.end()) {
    FUZZ_CHECK(message > it->second, "out of order: message %u from %u reached %u after message %u",
               message, src, receiver, it->second);
    it->second = message;
  } else {
    last_in_pair_.emplace(key, message);
  }
}

// Hart `hart` got slot n of its tile from RECV: checks what is in it.
uint32_t MailboxHarness::received(uint32_t hart, uint32_t tile, uint32_t n, uint64_t resume_at) {
  const uint8_t* bytes = scratch(tile) + size_t{n} * TESSERA_BYTES_PER_SLOT;
  const uint32_t tag_value = le32(bytes);
  FUZZ_CHECK(tag_value >= 1 && tag_value <= messages_.size() && le32(bytes + 4) == ~tag_value,
             "hart %u received a message nobody sent (tag 0x%x)", hart, tag_value);
  const uint32_t index = tag_value - 1;
  const Message& m = messages_[index];
  uint32_t c = kNone;
  for (uint32_t i = m.first_copy; i < m.first_copy + m.num_copies; i++) {
    if (copies_[i].receiver == hart) {
      c = i;
    }
  }
  FUZZ_CHECK(c != kNone, "message %u from 0x%x reached hart %u, which it was not sent to", index,
             m.src_id, hart);
  FUZZ_CHECK(copies_[c].state != CopyState::kRefused,
             "message %u was refused with a fault, yet hart %u received it", index, hart);
  FUZZ_CHECK(copies_[c].state == CopyState::kPending, "hart %u received message %u twice", hart,
             index);
  FUZZ_CHECK(memcmp(bytes, m.bytes, m.flits * TESSERA_BYTES_PER_FLIT) == 0,
             "message %u reached hart %u changed", index, hart);
  // Untimed, the receiver takes a message at its own time, whatever the sender's was.
  const uint64_t earliest =
      config_.untimed ? 0 : m.sent_now + expected_latency(m.src_id, thread_id(hart));
  FUZZ_CHECK(resume_at >= earliest, "hart %u received message %u at %llu, before %llu", hart, index,
             static_cast<unsigned long long>(resume_at), static_cast<unsigned long long>(earliest));
  check_order(m.src, hart, index);
  events_.bind(hart, index);
  copies_[c].state = CopyState::kReceived;
  harts_[hart].unreceived--;
  tile_unreceived_[tile]--;
  return c;
}

// ---- guest operations -------------------------------------------------------

void MailboxHarness::step(FuzzInput& in) {
  const uint8_t kind = in.byte();
  if (kind >= 0xe0) {
    host_step(in);
    check_no_missed_wake();
    return;
  }
  if (kind >= 0xd8) {
    op_unknown(in);
    check_no_missed_wake();
    return;
  }
  if (kind >= 0xd0 && config_.windows) {
    exchange(in);
    check_no_missed_wake();
    return;
  }
  const uint32_t h = in.below(num_harts_);
  if (harts_[h].state != HartState::kRunning && !interrupts_) {
    // Halted: all it can do is issue its CSR again (a spurious wake or not).
    op_reissue(h);
    check_no_missed_wake();
    return;
  }
  switch (kind % 15) {
    case 0:
      op_free(h, in);
      break;
    case 1:
      op_recv_free(h, in);
      break;
    case 2:
      op_send(h, in);
      break;
    case 3:
      op_recv(h);
      break;
    case 4:
      op_set_len(h, in);
      break;
    case 5:
      op_set_ptr(h, in);
      break;
    case 6:
      op_mcast_mask(h, in);
      break;
    case 7:
      op_multicast(h, in);
      break;
    case 8:
      op_can(h, in.flag());
      break;
    case 9:
      op_wait(h, in);
      break;
    case 10: {
      const bool vote = in.flag();
      op_idle(h, vote, in.below(4));
      break;
    }
    case 11:
      op_reissue(h);
      break;
    case 12:
      op_read_fault(h);
      break;
    case 13:
      op_write_slot(h, in);
      break;
    default: {
      // Time passes on the hart: a little, or a lot.
      static const uint32_t kSpans[] = {1, 16, 1000, 1u << 20, 0xffffffffu};
      harts_[h].now += in.below(in.pick(kSpans));
      break;
    }
  }
  check_no_missed_wake();
}

uint32_t MailboxHarness::pick_slot_address(uint32_t hart, FuzzInput& in) {
  static const uint32_t kOutside[] = {0,
                                      TESSERA_SCRATCH_BASE - TESSERA_BYTES_PER_SLOT,
                                      TESSERA_SCRATCH_BASE - 1,
                                      TESSERA_SCRATCH_BASE + TESSERA_SCRATCH_SIZE,
                                      TESSERA_SCRATCH_BASE + TESSERA_SCRATCH_SIZE - 1,
                                      0xffffffc0};
  switch (in.below(8)) {
    case 0:
    case 1:
    case 2:
    case 3:
      return address_of(first_slot(hart) + in.below(spt_));
    case 4:
      return address_of(in.below(TESSERA_SLOTS_PER_TILE));
    case 5:
      return address_of(in.below(TESSERA_SLOTS_PER_TILE)) + 1 +
             in.below(TESSERA_BYTES_PER_SLOT - 1);
    case 6:
      return in.pick(kOutside);
    default:
      return in.u32();
  }
}

// A thread, the host, a missing board position, or any id.
uint32_t MailboxHarness::pick_destination(FuzzInput& in) {
  switch (in.below(8)) {
    case 0:
    case 1:
    case 2:
    case 3:
      return thread_id(in.below(num_harts_));
    case 4:
      return host_id_;
    case 5: {
      // Every field within its width: holes where an extent is not a
      // power of two, and rows at and above the host's.
      TesseraCoords c{};
      c.board_x = in.below(1u << fuzz::log2_ceil(shape_.boards_x));
      c.board_y = in.below(shape_.boards_y + 3);
      c.tile_x = in.below(shape_.tiles_x);
      c.tile_y = in.below(shape_.tiles_y);
      c.core = in.below(shape_.cores_per_tile);
      c.thread = in.below(shape_.threads_per_core);
      return tessera_thread_id(&shape_, &c);
    }
    case 6:
      return host_id_ + 1 + in.below(4);
    default:
      return in.u32();
  }
}

bool MailboxHarness::may_give(uint32_t hart, uint32_t tile, uint32_t n) {
  const uint32_t owner = range_owner(tile, n);
  // Every hart keeps a slot of its own range that no other hart holds, so
  // that it can always receive (the drain at the end relies on it).
  return !slot(tile, n).hardware && (owner == hart || harts_[owner].lent_slots + 1 < spt_);
}

void MailboxHarness::op_free(uint32_t hart, FuzzInput& in) {
  const uint32_t address = pick_slot_address(hart, in);
  const int n = slot_of_address(address);
  if (n >= 0 && !slot(tile_of(hart), n).hardware && !may_give(hart, tile_of(hart), n)) {
    return;
  }
  free_slot(hart, address);
}

bool MailboxHarness::free_slot(uint32_t hart, uint32_t address) {
  const int n = slot_of_address(address);
  const uint32_t tile = tile_of(hart);
  const uint64_t now = harts_[hart].now;
  leave_halt(hart, TESSERA_CSR_FREE, address);
  const CsrOutcome o = csr(hart, TESSERA_CSR_FREE, address);
  if (n < 0) {
    FUZZ_CHECK(o.result == TESSERA_ACCESS_FAULT && o.fault == TESSERA_FAULT_BAD_SLOT,
               "FREE 0x%x by hart %u: result %d fault %d, not bad slot", address, hart, o.result,
               o.fault);
    return false;
  }
  Slot& s = slot(tile, n);
  if (s.hardware) {
    FUZZ_CHECK(o.result == TESSERA_ACCESS_FAULT && o.fault == TESSERA_FAULT_DOUBLE_FREE,
               "FREE of slot %d of tile %u, which hardware owns (given by hart %u), by hart %u: "
               "result %d fault %d",
               n, tile, s.giver, hart, o.result, o.fault);
    return false;
  }
  FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE && o.value == 0 && o.resume_at == now,
             "FREE of software slot %d of tile %u by hart %u: result %d fault %d", n, tile, hart,
             o.result, o.fault);
  freed(hart, tile, static_cast<uint32_t>(n));
  return true;
}

// Software slot n of `tile` went to hardware by a FREE of `hart`.
void MailboxHarness::freed(uint32_t hart, uint32_t tile, uint32_t n) {
  Slot& s = slot(tile, n);
  if (s.copy != kNone) {
    copies_[s.copy].state = CopyState::kDone;
    undelivered_--;
    harts_[hart].copies_freed++;
    s.copy = kNone;
  }
  s.hardware = true;
  s.giver = hart;
  const uint32_t owner = range_owner(tile, n);
  if (owner != hart) {
    harts_[owner].lent_slots++;
  }
}

// The end of a window: every message at an egress enters the network or stays there, nothing is
// lost or made twice (the copies' oracle checks that as they are received), and no sender's
// can-send goes from true to false.
void MailboxHarness::exchange(FuzzInput& in) {
  uint64_t at = 0;
  for (const Hart& h : harts_) {
    at = std::max(at, h.now);
  }
  at += in.below(1000);
  std::vector<bool> could(num_harts_);
  for (uint32_t h = 0; h < num_harts_; h++) {
    could[h] = tessera_mailbox_can_send(model_, h);
  }
  const uint32_t before = tessera_mailbox_outbox_count(model_);
  const uint32_t entered = tessera_mailbox_exchange(model_, at);
  FUZZ_CHECK(entered <= before && tessera_mailbox_outbox_count(model_) >= before - entered,
             "an exchange of %u messages entered %u and left %u", before, entered,
             tessera_mailbox_outbox_count(model_));
  for (uint32_t h = 0; h < num_harts_; h++) {
    FUZZ_CHECK(!could[h] || tessera_mailbox_can_send(model_, h),
               "an exchange took hart %u's can-send away", h);
  }
  after_call(rounds_started());
  idle_window();
}

void MailboxHarness::idle_window() {
  const uint64_t rounds_before = rounds_started();
  const TesseraTermdetReturn* r = nullptr;
  TesseraTermdetNews news{};
  const size_t n = tessera_mailbox_idle_window(model_, &r, &news);
  const std::vector<TesseraTermdetReturn> returns(r, r + n);
  FUZZ_CHECK(tessera_mailbox_idle_window_end(model_, returns.data(), returns.size(), &news),
             "the model refused its own token returns");
  after_call(rounds_before);
}

void MailboxHarness::op_send(uint32_t hart, FuzzInput& in) {
  const uint32_t dest = pick_destination(in);
  Hart& s = harts_[hart];
  const uint32_t tile = tile_of(hart);
  const int n = slot_of_address(s.send_ptr);
  if (slot(tile, n).hardware) {
    return;  // hardware owns the slot: the payload could not carry a tag
  }
  const bool to_host = dest == host_id_;
  const bool dest_ok = to_host || is_thread(dest);
  const bool busy = !tessera_mailbox_can_send(model_, hart);
  const uint32_t receiver = to_host ? kHostHart : dest_ok ? hart_of(dest) : kNone;
  // With nothing queued toward the destination the message cannot be held (with windows, one to
  // another board may wait at its board's egress).
  const bool crosses =
      config_.windows && !to_host && dest_ok &&
      receiver / tessera_threads_per_board(&shape_) != hart / tessera_threads_per_board(&shape_);
  const bool must_leave =
      dest_ok && !busy && !crosses &&
      (to_host ? host_accepts_ && host_unreceived_ == 0 : tile_unreceived_[tile_of(receiver)] == 0);
  uint8_t* bytes = scratch(tile) + size_t(n) * TESSERA_BYTES_PER_SLOT;
  const uint32_t message = static_cast<uint32_t>(messages_.size());
  tag(bytes, message);
  const uint64_t now = s.now;
  // Registered before the call: to_host() runs inside it.
  new_message(hart, thread_id(hart), s.send_len + 1, now, bytes);
  if (dest_ok) {
    add_copy(message, receiver);
  }
  leave_halt(hart, TESSERA_CSR_SEND, dest);
  const CsrOutcome o = csr(hart, TESSERA_CSR_SEND, dest);
  if (!dest_ok || busy) {
    FUZZ_CHECK(o.result == TESSERA_ACCESS_FAULT &&
                   ((!dest_ok && o.fault == TESSERA_FAULT_BAD_DESTINATION) ||
                    (busy && o.fault == TESSERA_FAULT_SEND_BUSY)),
               "SEND to 0x%x by hart %u (destination %s, %s): result %d fault %d", dest, hart,
               dest_ok ? "valid" : "invalid", busy ? "busy" : "free", o.result, o.fault);
    refuse(message);
    return;
  }
  FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE && o.value == 0,
             "SEND to 0x%x by hart %u: result %d fault %d", dest, hart, o.result, o.fault);
  check_send_resume(hart, now, o.resume_at);
  if (must_leave) {
    FUZZ_CHECK(tessera_mailbox_can_send(model_, hart),
               "SEND to 0x%x by hart %u stayed in the outbound register with nothing queued "
               "toward it",
               dest, hart);
  }
}

// docs/idle.md, "Timing model": a board's sends are disabled from a
// detection D until phase 3 reaches it at D + rtt + L h_b; a send issued
// before then completes then. Written out again from the machine's shape.
void MailboxHarness::check_send_resume(uint32_t hart, uint64_t now, uint64_t resume_at) const {
  TesseraTermdetStats stats;
  tessera_mailbox_idle_stats(model_, &stats);
  uint64_t enabled = 0;
  if (stats.detections > 0) {
    const uint32_t board = hart / tessera_threads_per_board(&shape_);
    const uint64_t x = board % shape_.boards_x, y = board / shape_.boards_x;
    const bool centre = config_.idle_master == TESSERA_TERMDET_MASTER_CENTRE;
    auto hops = [&](uint64_t bx, uint64_t by) {
      return centre ? distance(bx, shape_.boards_x / 2) + distance(by, shape_.boards_y / 2)
                    : bx + by + 1;
    };
    uint64_t farthest = 0;
    for (uint64_t by = 0; by < shape_.boards_y; by++) {
      for (uint64_t bx = 0; bx < shape_.boards_x; bx++) {
        farthest = std::max(farthest, hops(bx, by));
      }
    }
    const uint64_t l = config_.board_hop_cycles;
    enabled = stats.last_detection + 2 * l * farthest + l * hops(x, y);
  }
  FUZZ_CHECK(resume_at == std::max(now, enabled),
             "a send by hart %u at %llu completed at %llu, not %llu", hart,
             static_cast<unsigned long long>(now), static_cast<unsigned long long>(resume_at),
             static_cast<unsigned long long>(std::max(now, enabled)));
}

bool MailboxHarness::op_recv(uint32_t hart) {
  const bool can = tessera_mailbox_can_recv(model_, hart);
  leave_halt(hart, TESSERA_CSR_RECV, 0);
  const CsrOutcome o = csr(hart, TESSERA_CSR_RECV, 0);
  if (!can) {
    FUZZ_CHECK(o.result == TESSERA_ACCESS_FAULT && o.fault == TESSERA_FAULT_RECV_EMPTY,
               "RECV by hart %u with can-recv 0: result %d fault %d", hart, o.result, o.fault);
    return false;
  }
  FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE, "RECV by hart %u with can-recv 1: result %d fault %d",
             hart, o.result, o.fault);
  took(hart, o.value, o.resume_at);
  return true;
}

// RECV (or RECV_FREE) by `hart` gave it the slot at bus address `address`, at resume_at.
void MailboxHarness::took(uint32_t hart, uint32_t address, uint64_t resume_at) {
  const uint32_t tile = tile_of(hart);
  const int n = slot_of_address(address);
  FUZZ_CHECK(n >= 0, "RECV by hart %u returned 0x%x, not a slot", hart, address);
  Slot& s = slot(tile, n);
  FUZZ_CHECK(s.hardware && s.giver == hart,
             "RECV by hart %u returned slot %d of tile %u, which it did not give (%s, by %u)", hart,
             n, tile, s.hardware ? "hardware's" : "software's", s.giver);
  s.copy = received(hart, tile, n, resume_at);
  s.hardware = false;
  const uint32_t owner = range_owner(tile, n);
  if (owner != hart) {
    harts_[owner].lent_slots--;
  }
  last_received_slot_ = static_cast<uint32_t>(n);
}

// RECV_FREE: a FREE of the address (0: none; a receive loop frees what it took last), then a
// RECV if a message waits, can-send in bit 0; a bad slot faults as FREE, changing nothing.
void MailboxHarness::op_recv_free(uint32_t hart, FuzzInput& in) {
  const uint32_t tile = tile_of(hart);
  uint32_t address = 0;
  switch (in.below(4)) {
    case 0:
      break;
    case 1:
      address = pick_slot_address(hart, in);
      break;
    default:
      address = last_received_slot_ != kNone
                    ? TESSERA_SCRATCH_BASE + last_received_slot_ * TESSERA_BYTES_PER_SLOT
                    : 0;
      break;
  }
  const int n = address == 0 ? -1 : slot_of_address(address);
  if (n >= 0 && !slot(tile, n).hardware && !may_give(hart, tile, n)) {
    address = 0;
  }
  const bool bad_slot = address != 0 && n < 0;
  const bool double_free = n >= 0 && address != 0 && slot(tile, n).hardware;
  const uint64_t now = harts_[hart].now;
  leave_halt(hart, TESSERA_CSR_RECV_FREE, address);
  const CsrOutcome o = csr(hart, TESSERA_CSR_RECV_FREE, address);
  if (bad_slot || double_free) {
    FUZZ_CHECK(o.result == TESSERA_ACCESS_FAULT &&
                   o.fault == (bad_slot ? TESSERA_FAULT_BAD_SLOT : TESSERA_FAULT_DOUBLE_FREE),
               "RECV_FREE 0x%x by hart %u: result %d fault %d, not %s", address, hart, o.result,
               o.fault, bad_slot ? "bad slot" : "double free");
    return;
  }
  FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE, "RECV_FREE 0x%x by hart %u: result %d fault %d",
             address, hart, o.result, o.fault);
  if (address != 0) {
    freed(hart, tile, static_cast<uint32_t>(n));
  }
  FUZZ_CHECK(
      ((o.value & TESSERA_RECV_FREE_CAN_SEND) != 0) == tessera_mailbox_can_send(model_, hart),
      "RECV_FREE by hart %u read can-send %u, CAN_SEND would read %d", hart,
      o.value & TESSERA_RECV_FREE_CAN_SEND, tessera_mailbox_can_send(model_, hart));
  const uint32_t taken = o.value & ~(TESSERA_BYTES_PER_SLOT - 1);
  if (taken == 0) {
    // Nothing waited, or the step would have taken it.
    FUZZ_CHECK(!tessera_mailbox_can_recv(model_, hart) && o.resume_at == now,
               "RECV_FREE by hart %u took nothing: can-recv %d, resumes at %llu (now %llu)", hart,
               tessera_mailbox_can_recv(model_, hart), static_cast<unsigned long long>(o.resume_at),
               static_cast<unsigned long long>(now));
    return;
  }
  took(hart, taken, o.resume_at);
}

void MailboxHarness::op_set_len(uint32_t hart, FuzzInput& in) {
  const uint32_t value = in.flag() ? in.below(TESSERA_MAX_FLITS) : in.u32();
  Hart& s = harts_[hart];
  const uint64_t now = s.now;
  leave_halt(hart, TESSERA_CSR_SEND_LEN, value);
  const CsrOutcome o = csr(hart, TESSERA_CSR_SEND_LEN, value);
  if (value >= TESSERA_MAX_FLITS) {
    FUZZ_CHECK(o.result == TESSERA_ACCESS_FAULT && o.fault == TESSERA_FAULT_BAD_LENGTH,
               "SEND_LEN %u: result %d fault %d", value, o.result, o.fault);
    return;
  }
  FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE && o.value == s.send_len && o.resume_at == now,
             "SEND_LEN %u by hart %u: result %d, old value %u (expected %u)", value, hart, o.result,
             o.value, s.send_len);
  s.send_len = value;
}

void MailboxHarness::op_set_ptr(uint32_t hart, FuzzInput& in) {
  const uint32_t value = pick_slot_address(hart, in);
  Hart& s = harts_[hart];
  const uint64_t now = s.now;
  leave_halt(hart, TESSERA_CSR_SEND_PTR, value);
  const CsrOutcome o = csr(hart, TESSERA_CSR_SEND_PTR, value);
  if (slot_of_address(value) < 0) {
    FUZZ_CHECK(o.result == TESSERA_ACCESS_FAULT && o.fault == TESSERA_FAULT_BAD_SLOT,
               "SEND_PTR 0x%x: result %d fault %d", value, o.result, o.fault);
    return;
  }
  FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE && o.value == s.send_ptr && o.resume_at == now,
             "SEND_PTR 0x%x by hart %u: result %d, old value 0x%x (expected 0x%x)", value, hart,
             o.result, o.value, s.send_ptr);
  s.send_ptr = value;
}

void MailboxHarness::op_mcast_mask(uint32_t hart, FuzzInput& in) {
  const bool high = in.flag();
  uint32_t value = in.u32();
  if (in.flag()) {
    // Only threads the tile has.
    const uint64_t threads = tpt_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << tpt_) - 1;
    value &= static_cast<uint32_t>(high ? threads >> 32 : threads);
  }
  Hart& s = harts_[hart];
  uint32_t& reg = high ? s.mcast_hi : s.mcast_lo;
  const uint32_t csrno = high ? TESSERA_CSR_MCAST_HI : TESSERA_CSR_MCAST_LO;
  const uint64_t now = s.now;
  leave_halt(hart, csrno, value);
  const CsrOutcome o = csr(hart, csrno, value);
  FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE && o.value == reg && o.resume_at == now,
             "MCAST_%s 0x%x by hart %u: result %d, old value 0x%x (expected 0x%x)",
             high ? "HI" : "LO", value, hart, o.result, o.value, reg);
  reg = value;
}

void MailboxHarness::op_multicast(uint32_t hart, FuzzInput& in) {
  uint32_t mailbox;
  if (in.below(4) < 3) {
    mailbox = thread_id(in.below(num_tiles_) * tpt_) >> tile_shift_;
  } else {
    mailbox = in.flag() ? host_id_ >> tile_shift_ : in.u32();
  }
  Hart& s = harts_[hart];
  const uint64_t mask = uint64_t{s.mcast_hi} << 32 | s.mcast_lo;
  const bool dest_ok = mailbox <= (UINT32_MAX >> tile_shift_) && is_thread(mailbox << tile_shift_);
  const bool mask_ok = tpt_ >= TESSERA_MAILBOX_MCAST_THREADS || (mask >> tpt_) == 0;
  const bool busy = !tessera_mailbox_can_send(model_, hart);
  const bool sends = dest_ok && mask_ok && !busy && mask != 0;
  const uint32_t tile = tile_of(hart);
  const int n = slot_of_address(s.send_ptr);
  if (sends && slot(tile, n).hardware) {
    return;  // untaggable, as for SEND
  }
  const uint32_t base = dest_ok ? hart_of(mailbox << tile_shift_) : 0;
  const bool must_leave = sends && tile_unreceived_[tile_of(base)] == 0;
  const uint32_t message = static_cast<uint32_t>(messages_.size());
  const uint64_t now = s.now;
  if (sends) {
    uint8_t* bytes = scratch(tile) + size_t(n) * TESSERA_BYTES_PER_SLOT;
    tag(bytes, message);
    new_message(hart, thread_id(hart), s.send_len + 1, now, bytes);
    for (uint32_t k = 0; k < 64; k++) {
      if (mask >> k & 1) {
        add_copy(message, base + k);
      }
    }
  }
  leave_halt(hart, TESSERA_CSR_MCAST_SEND, mailbox);
  const CsrOutcome o = csr(hart, TESSERA_CSR_MCAST_SEND, mailbox);
  if (!dest_ok || !mask_ok) {
    FUZZ_CHECK(o.result == TESSERA_ACCESS_FAULT && (o.fault == TESSERA_FAULT_BAD_DESTINATION ||
                                                    (busy && o.fault == TESSERA_FAULT_SEND_BUSY)),
               "MCAST_SEND to mailbox 0x%x mask 0x%llx by hart %u: result %d fault %d", mailbox,
               static_cast<unsigned long long>(mask), hart, o.result, o.fault);
    return;
  }
  if (busy) {
    FUZZ_CHECK(o.result == TESSERA_ACCESS_FAULT && o.fault == TESSERA_FAULT_SEND_BUSY,
               "MCAST_SEND while busy: result %d fault %d", o.result, o.fault);
    return;
  }
  FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE && o.value == 0,
             "MCAST_SEND to mailbox 0x%x mask 0x%llx by hart %u: result %d fault %d", mailbox,
             static_cast<unsigned long long>(mask), hart, o.result, o.fault);
  if (mask == 0) {
    FUZZ_CHECK(o.resume_at == now && tessera_mailbox_can_send(model_, hart),
               "an empty multicast took time or held the outbound register");
  } else {
    check_send_resume(hart, now, o.resume_at);
  }
  if (must_leave) {
    FUZZ_CHECK(tessera_mailbox_can_send(model_, hart),
               "MCAST_SEND by hart %u stayed in the outbound register with nothing queued "
               "toward mailbox 0x%x",
               hart, mailbox);
  }
}

void MailboxHarness::op_can(uint32_t hart, bool send) {
  const uint32_t csrno = send ? TESSERA_CSR_CAN_SEND : TESSERA_CSR_CAN_RECV;
  const bool expected =
      send ? tessera_mailbox_can_send(model_, hart) : tessera_mailbox_can_recv(model_, hart);
  const uint64_t now = harts_[hart].now;
  leave_halt(hart, csrno, 0);
  const CsrOutcome o = csr(hart, csrno, 0);
  FUZZ_CHECK(
      o.result == TESSERA_ACCESS_DONE && o.value == (expected ? 1u : 0u) && o.resume_at == now,
      "CAN_%s by hart %u: result %d value %u, expected %d", send ? "SEND" : "RECV", hart, o.result,
      o.value, expected);
}

uint32_t MailboxHarness::holds(uint32_t hart, uint32_t bits) const {
  uint32_t h = 0;
  if ((bits & kCanSend) && tessera_mailbox_can_send(model_, hart)) {
    h |= kCanSend;
  }
  if ((bits & kCanRecv) && tessera_mailbox_can_recv(model_, hart)) {
    h |= kCanRecv;
  }
  return h;
}

void MailboxHarness::op_wait(uint32_t hart, FuzzInput& in) {
  uint32_t value;
  switch (in.below(4)) {
    case 0:
    case 1:
      value = 1 + in.below(3);
      break;
    case 2:
      value = 0;
      break;
    default:
      value = in.u32();
      break;
  }
  const HartState state = harts_[hart].state;
  if ((value & kIdleBits) != 0 && (value & ~0xfu) == 0) {
    op_idle(hart, (value & kVoteBit) != 0, value & 3);
    return;
  }
  if ((value & kIdleBits) != 0 && (state == HartState::kIdle || state == HartState::kReleased)) {
    // Not modelled: a faulting tinselIdle issued inside a tinselIdle call.
    // The fault leaves the call open (docs/mailbox.md: a fault changes
    // nothing), yet the trap resumes the hart. See docs/fuzzing.md.
    op_reissue(hart);
    return;
  }
  const bool bad = value == 0 || (value & ~0xfu) != 0;
  leave_halt(hart, TESSERA_CSR_WAIT_UNTIL, value);
  const uint32_t holding = holds(hart, value);
  const CsrOutcome o = csr(hart, TESSERA_CSR_WAIT_UNTIL, value);
  if (bad) {
    FUZZ_CHECK(o.result == TESSERA_ACCESS_FAULT && o.fault == TESSERA_FAULT_BAD_WAIT,
               "WAIT_UNTIL 0x%x: result %d fault %d", value, o.result, o.fault);
    return;
  }
  if (holding != 0) {
    FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE && o.value == holding,
               "WAIT_UNTIL 0x%x by hart %u with 0x%x holding: result %d value 0x%x", value, hart,
               holding, o.result, o.value);
    return;
  }
  FUZZ_CHECK(o.result == TESSERA_ACCESS_BLOCKED,
             "WAIT_UNTIL 0x%x by hart %u with nothing holding: result %d value 0x%x", value, hart,
             o.result, o.value);
  halt(hart, HartState::kWaiting, value);
}

// tinselIdle(vote), with bits 0/1 of WAIT_UNTIL beside the idle bits.
void MailboxHarness::op_idle(uint32_t hart, bool vote, uint32_t extra_bits) {
  Hart& s = harts_[hart];
  if (s.state == HartState::kIdle || s.state == HartState::kReleased) {
    op_reissue(hart);  // the same call, issued again
    return;
  }
  const uint32_t value = kIdleBit | (vote ? kVoteBit : 0) | (extra_bits & 3);
  const uint32_t wanted = (value & kCanSend) | kCanRecv;
  leave_halt(hart, TESSERA_CSR_WAIT_UNTIL, value);
  const uint32_t holding = holds(hart, wanted);
  const uint64_t rounds_before = rounds_started();
  idle_caller_ = holding == 0 ? hart : kNone;
  idle_caller_vote_ = vote;
  // What holds as the call starts holds when it releases the caller: a
  // tinselIdle call changes no message, and the releases of other harts it
  // causes are applied to the shadow only after it returns.
  const bool was_terminal = terminal();
  const bool voted_true = all_voted_true();
  const CsrOutcome o = csr(hart, TESSERA_CSR_WAIT_UNTIL, value);
  if (holding != 0) {
    FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE && o.value == holding,
               "tinselIdle 0x%x by hart %u with 0x%x holding: result %d value 0x%x", value, hart,
               holding, o.result, o.value);
    return;
  }
  if (o.result == TESSERA_ACCESS_BLOCKED) {
    idle_caller_ = kNone;
    halt(hart, HartState::kIdle, value);
    return;
  }
  // Termination detected inside this very call: the caller's release comes
  // back at once.
  FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE && (o.value & kIdleBit) != 0,
             "tinselIdle 0x%x by hart %u with nothing holding: result %d value 0x%x", value, hart,
             o.result, o.value);
  judge_release(hart, was_terminal, voted_true, rounds_before);
  idle_caller_ = kNone;
  uint32_t result = 0;
  tessera_termdet_hart_state(tessera_mailbox_termdet(model_), hart, &result, nullptr);
  FUZZ_CHECK(o.value >> 2 == result && (o.value & ~wanted & 3) == 0,
             "tinselIdle by hart %u returned 0x%x, the detector's result is %u", hart, o.value,
             result);
}

void MailboxHarness::op_reissue(uint32_t hart) {
  Hart& s = harts_[hart];
  const uint32_t value = s.wait_value;
  switch (s.state) {
    case HartState::kRunning:
      return;
    case HartState::kWaiting: {
      const uint32_t holding = holds(hart, value);
      const CsrOutcome o = csr(hart, TESSERA_CSR_WAIT_UNTIL, value);
      if (holding != 0) {
        FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE && o.value == holding,
                   "WAIT_UNTIL 0x%x issued again by hart %u with 0x%x holding: result %d "
                   "value 0x%x",
                   value, hart, holding, o.result, o.value);
        s.state = HartState::kRunning;
      } else {
        FUZZ_CHECK(o.result == TESSERA_ACCESS_BLOCKED,
                   "WAIT_UNTIL 0x%x issued again by hart %u: result %d value 0x%x", value, hart,
                   o.result, o.value);
        s.woken = false;
      }
      return;
    }
    case HartState::kIdle: {
      const uint32_t holding = holds(hart, (value & kCanSend) | kCanRecv);
      const CsrOutcome o = csr(hart, TESSERA_CSR_WAIT_UNTIL, value);
      if (holding != 0) {
        // A message is available: tinselIdle returns 0.
        FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE && o.value == holding,
                   "tinselIdle issued again by hart %u with 0x%x holding: result %d value 0x%x",
                   hart, holding, o.result, o.value);
        num_idle_--;
        if (!s.vote) {
          idle_false_votes_--;
        }
        s.state = HartState::kRunning;
      } else {
        FUZZ_CHECK(o.result == TESSERA_ACCESS_BLOCKED,
                   "tinselIdle issued again by hart %u: result %d value 0x%x", hart, o.result,
                   o.value);
        s.woken = false;
      }
      return;
    }
    case HartState::kReleased: {
      const uint32_t wanted = (value & kCanSend) | kCanRecv;
      const CsrOutcome o = csr(hart, TESSERA_CSR_WAIT_UNTIL, value);
      FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE && o.value >> 2 == s.released &&
                     (o.value & ~wanted & 3) == 0,
                 "released hart %u issued tinselIdle again: result %d value 0x%x, released "
                 "with %u",
                 hart, o.result, o.value, s.released);
      s.state = HartState::kRunning;
      return;
    }
  }
}

void MailboxHarness::op_read_fault(uint32_t hart) {
  Hart& s = harts_[hart];
  const uint32_t expected = s.last_fault;
  leave_halt(hart, TESSERA_CSR_MBOX_FAULT, 0);
  const CsrOutcome o = csr(hart, TESSERA_CSR_MBOX_FAULT, 0);
  FUZZ_CHECK(o.result == TESSERA_ACCESS_DONE && o.value == expected,
             "MBOX_FAULT of hart %u: result %d value %u, expected %u", hart, o.result, o.value,
             expected);
}

// The guest writes into a slot that software owns.
void MailboxHarness::op_write_slot(uint32_t hart, FuzzInput& in) {
  const uint32_t tile = tile_of(hart);
  const uint32_t n =
      in.flag() ? first_slot(hart) + in.below(spt_) : in.below(TESSERA_SLOTS_PER_TILE);
  const uint32_t offset = in.below(TESSERA_BYTES_PER_SLOT);
  const uint32_t length = in.below(TESSERA_BYTES_PER_SLOT - offset + 1);
  if (slot(tile, n).hardware) {
    return;
  }
  in.take(scratch(tile) + size_t{n} * TESSERA_BYTES_PER_SLOT + offset, length);
}

// A CSR that is not the mailbox's, or a hart that does not exist.
void MailboxHarness::op_unknown(FuzzInput& in) {
  static const uint32_t kNeighbours[] = {0x800, 0x801, 0x804, 0x80b, 0x80c, 0x80d,
                                         0x80e, 0x80f, 0x810, 0x815, 0x816, 0x81f,
                                         0xf14, 0xc00, 0xc80, 0x7ff, 0x820, 0x302};
  uint32_t csrno = in.flag() ? in.pick(kNeighbours) : in.u32();
  const uint32_t hart = in.flag() ? in.below(num_harts_) : num_harts_ + in.below(1u << 16);
  if (hart < num_harts_ && is_mailbox_csr(csrno)) {
    csrno = 0x80d;  // a real mailbox CSR belongs to the other operations
  }
  csr(hart, csrno, in.u32());
}

// ---- the host -------------------------------------------------------------

void MailboxHarness::host_step(FuzzInput& in) {
  switch (in.below(6)) {
    case 0:
    case 1:
    case 2: {
      const uint32_t dest = pick_destination(in);
      static const uint32_t kBadFlits[] = {0, 5, 16, 0xffffffff};
      const uint32_t flits = in.below(8) < 7 ? 1 + in.below(TESSERA_MAX_FLITS) : in.pick(kBadFlits);
      uint8_t payload[TESSERA_BYTES_PER_SLOT];
      in.take(payload, in.below(sizeof(payload) + 1));
      const uint64_t time = in.flag() ? 0 : in.u32();
      inject(dest, flits, payload, time);
      break;
    }
    case 3: {
      const uint32_t dest = pick_destination(in);
      const bool can = tessera_mailbox_host_can_inject(model_, dest);
      if (!is_thread(dest)) {
        FUZZ_CHECK(!can, "host_can_inject to 0x%x, which is no thread", dest);
      } else if (tile_unreceived_[tile_of(hart_of(dest))] == 0) {
        FUZZ_CHECK(can, "host_can_inject to 0x%x refused with nothing queued toward it", dest);
      } else if (!can) {
        refused_[tile_of(hart_of(dest))] = true;
      }
      break;
    }
    case 4:
      host_accepts_ = !host_accepts_;
      break;
    default:
      host_ready();
      break;
  }
}

bool MailboxHarness::inject(uint32_t dest_id, uint32_t flits, const uint8_t* payload,
                            uint64_t time) {
  const bool valid = is_thread(dest_id) && flits >= 1 && flits <= TESSERA_MAX_FLITS;
  uint8_t bytes[TESSERA_BYTES_PER_SLOT];
  memcpy(bytes, payload, sizeof(bytes));
  const uint32_t message = static_cast<uint32_t>(messages_.size());
  tag(bytes, message);
  const uint32_t dest = valid ? hart_of(dest_id) : 0;
  const bool must_take = valid && tile_unreceived_[tile_of(dest)] == 0;
  if (valid) {
    new_message(kHostHart, host_id_, flits, time, bytes);
    add_copy(message, dest);
  }
  const uint64_t rounds_before = rounds_started();
  wakes_.clear();
  const bool taken = tessera_mailbox_inject(model_, dest_id, bytes, flits, time);
  if (tracing()) {
    fprintf(stderr, "host inject to 0x%x flits %u time %llu -> %d wakes %zu\n", dest_id, flits,
            static_cast<unsigned long long>(time), taken, wakes_.size());
  }
  after_call(rounds_before);
  if (!valid) {
    FUZZ_CHECK(!taken, "inject of %u flits to 0x%x (no thread, or bad length) was taken", flits,
               dest_id);
    return false;
  }
  FUZZ_CHECK(taken || !must_take, "inject to 0x%x refused with nothing queued toward it", dest_id);
  if (taken) {
    host_sent_++;
  } else {
    refuse(message);
    refused_[tile_of(dest)] = true;
  }
  return taken;
}

void MailboxHarness::host_ready() {
  const uint64_t rounds_before = rounds_started();
  wakes_.clear();
  tessera_mailbox_host_ready(model_);
  if (tracing()) {
    fprintf(stderr, "host ready (accepts %d) wakes %zu\n", host_accepts_, wakes_.size());
  }
  after_call(rounds_before);
  FUZZ_CHECK(!host_accepts_ || host_unreceived_ == 0,
             "host_ready() left %u messages for a host that takes everything", host_unreceived_);
}

bool MailboxHarness::take_inject_ready() {
  const bool was = inject_ready_;
  inject_ready_ = false;
  return was;
}

// ---- the end of a scenario --------------------------------------------------

void MailboxHarness::finish() {
  finish_delivery();
  quiesce();
}

void MailboxHarness::finish_delivery() {
  drain();
  check_counts();
  events_.check_all_freed();
}

// Receivers give slots and receive until every accepted message has been
// received and freed, or taken by the host. Harts halted in a CSR are
// interrupted to do so.
void MailboxHarness::drain() {
  host_accepts_ = true;
  host_ready();
  // Received copies not yet freed: the range owner frees them.
  for (uint32_t tile = 0; tile < num_tiles_; tile++) {
    if (!slots_[tile]) {
      continue;
    }
    for (uint32_t n = 0; n < TESSERA_SLOTS_PER_TILE; n++) {
      const Slot& s = slots_[tile][n];
      if (!s.hardware && s.copy != kNone) {
        FUZZ_CHECK(free_slot(range_owner(tile, n), address_of(n)), "drain: freeing slot %u", n);
      }
    }
  }
  // Bounded: each pass receives something or gives a slot, and slots run out.
  bool progress = true;
  while (undelivered_ > 0 && progress) {
    progress = false;
    check_no_missed_wake();  // senders admitted as receivers drain, say
    host_ready();
    // With windows, what waits at an egress moves at the exchanges: windows go on ending.
    if (config_.windows && tessera_mailbox_outbox_count(model_) != 0) {
      uint64_t at = 0;
      for (const Hart& h : harts_) {
        at = std::max(at, h.now);
      }
      progress = tessera_mailbox_exchange(model_, at) != 0;
      after_call(rounds_started());
    }
    for (uint32_t h = 0; h < num_harts_; h++) {
      if (harts_[h].unreceived == 0) {
        continue;
      }
      const uint32_t tile = tile_of(h);
      while (tessera_mailbox_can_recv(model_, h)) {
        FUZZ_CHECK(op_recv(h), "drain: RECV by hart %u", h);
        const uint32_t n = last_received_slot_;
        // Give it back at once, to the receiver if the slot may go to it.
        FUZZ_CHECK(free_slot(may_give(h, tile, n) ? h : range_owner(tile, n), address_of(n)),
                   "drain: freeing slot %u", n);
        progress = true;
      }
      if (harts_[h].unreceived == 0) {
        continue;
      }
      // Messages wait for a slot, or in a sender's outbound register: give
      // one more slot of its own range.
      for (uint32_t k = 0; k < spt_; k++) {
        const uint32_t n = first_slot(h) + k;
        if (!slot(tile, n).hardware) {
          FUZZ_CHECK(free_slot(h, address_of(n)), "drain: hart %u giving slot %u", h, n);
          progress = true;
          break;
        }
      }
    }
  }
  FUZZ_CHECK(undelivered_ == 0,
             "%llu accepted message copies were never delivered, though every receiver gave "
             "slots and received",
             static_cast<unsigned long long>(undelivered_));
  for (uint32_t tile = 0; tile < num_tiles_; tile++) {
    FUZZ_CHECK(!refused_[tile],
               "the host was refused toward tile %u and never told it had room again", tile);
  }
}

// docs/mailbox.md, "Counts": per thread, per board and for the host, once
// everything is delivered.
void MailboxHarness::check_counts() {
  const uint32_t per_board = tessera_threads_per_board(&shape_);
  const uint32_t boards = shape_.boards_x * shape_.boards_y;
  std::vector<TesseraMailboxCounts> board_sums(boards, TesseraMailboxCounts{0, 0});
  uint64_t sent = 0, received = 0;
  uint32_t waiting = 0;
  for (uint32_t h = 0; h < num_harts_; h++) {
    // The registry holds exactly the harts the model has blocked.
    const bool blocked = tessera_mailbox_waiting(model_, h) != 0;
    FUZZ_CHECK(blocked == (tessera_waits_operation(waits_, h) != nullptr),
               "hart %u: the model %s it, the wait registry %s", h,
               blocked ? "has blocked" : "has not blocked",
               blocked ? "does not list it" : "lists it");
    waiting += blocked;
    const TesseraMailboxCounts c = tessera_mailbox_thread_counts(model_, h);
    FUZZ_CHECK(c.sent == harts_[h].copies_sent && c.received == harts_[h].copies_freed,
               "hart %u counts sent %llu received %llu, expected %llu and %llu", h,
               static_cast<unsigned long long>(c.sent), static_cast<unsigned long long>(c.received),
               static_cast<unsigned long long>(harts_[h].copies_sent),
               static_cast<unsigned long long>(harts_[h].copies_freed));
    board_sums[h / per_board].sent += c.sent;
    board_sums[h / per_board].received += c.received;
    sent += c.sent;
    received += c.received;
  }
  for (uint32_t b = 0; b < boards; b++) {
    const TesseraMailboxCounts c = tessera_mailbox_board_counts(model_, b);
    FUZZ_CHECK(c.sent == board_sums[b].sent && c.received == board_sums[b].received,
               "board %u counts disagree with its threads'", b);
  }
  FUZZ_CHECK(tessera_waits_count(waits_) == waiting, "the wait registry counts %u, the model %u",
             tessera_waits_count(waits_), waiting);
  const TesseraMailboxCounts host = tessera_mailbox_host_counts(model_);
  FUZZ_CHECK(
      host.sent == host_sent_ && host.received == host_taken_,
      "host counts sent %llu received %llu, expected %llu and %llu",
      static_cast<unsigned long long>(host.sent), static_cast<unsigned long long>(host.received),
      static_cast<unsigned long long>(host_sent_), static_cast<unsigned long long>(host_taken_));
  FUZZ_CHECK(sent + host.sent == received + host.received,
             "with nothing in flight, %llu sent but %llu received",
             static_cast<unsigned long long>(sent + host.sent),
             static_cast<unsigned long long>(received + host.received));
}

// Nothing is in flight: every hart calls tinselIdle, and the call of the
// last one must end in a release of every hart (no missed termination).
void MailboxHarness::quiesce() {
  check_no_missed_wake();
  for (uint32_t h = 0; h < num_harts_; h++) {
    if (harts_[h].state == HartState::kReleased || harts_[h].state == HartState::kWaiting) {
      op_reissue(h);
    }
  }
  std::vector<uint32_t> entering;
  for (uint32_t h = 0; h < num_harts_; h++) {
    if (harts_[h].state != HartState::kIdle) {
      entering.push_back(h);
    }
  }
  // With windows every hart may be in tinselIdle already, the master not told yet: it releases
  // them at a window's end.
  for (int w = 0; w < 8 && config_.windows && entering.empty(); w++) {
    idle_window();
    for (uint32_t h = 0; h < num_harts_; h++) {
      if (harts_[h].state == HartState::kReleased) {
        op_reissue(h);
      }
      if (harts_[h].state != HartState::kIdle) {
        entering.push_back(h);
      }
    }
  }
  FUZZ_CHECK(!entering.empty(),
             "missed termination: every hart is blocked in tinselIdle and nothing is in "
             "flight, yet none was released");
  for (size_t i = 0; i < entering.size(); i++) {
    op_idle(entering[i], (final_votes_ >> (i % 8) & 1) == 0, 0);
  }
  const uint32_t last = entering.back();
  if (config_.windows) {
    // The master hears at window ends: a few of them (a round may fail on colours first).
    for (int w = 0; w < 8 && harts_[last].state == HartState::kIdle; w++) {
      idle_window();
    }
    for (uint32_t h = 0; h < num_harts_; h++) {
      FUZZ_CHECK(harts_[h].state == HartState::kReleased,
                 "missed termination with windows: hart %u not released after 8 window ends", h);
    }
  } else {
    FUZZ_CHECK(harts_[last].state == HartState::kRunning,
               "missed termination: every hart called tinselIdle with nothing in flight, and "
               "the last one (%u) was not released",
               last);
    // Released in its own call: everybody else must have been woken.
    for (uint32_t h = 0; h < num_harts_; h++) {
      FUZZ_CHECK(h == last || harts_[h].state == HartState::kReleased,
                 "termination detected, but hart %u was not released", h);
    }
  }
  for (uint32_t h = 0; h < num_harts_; h++) {
    op_reissue(h);
  }
  check_no_missed_wake();
}

}  // namespace fuzz
