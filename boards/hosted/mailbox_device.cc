#include "mailbox_device.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "bus_error.h"
#include "tessera/models/rank_split.h"

namespace tessera::host {

namespace {

BlockedOn blocked_on(uint32_t bits) {
  if (bits & TESSERA_WAIT_IDLE) {
    return BlockedOn::kIdle;
  }
  switch (bits & (TESSERA_WAIT_CAN_SEND | TESSERA_WAIT_CAN_RECV)) {
    case TESSERA_WAIT_CAN_SEND:
      return BlockedOn::kCanSend;
    case TESSERA_WAIT_CAN_RECV:
      return BlockedOn::kCanRecv;
    case TESSERA_WAIT_CAN_SEND | TESSERA_WAIT_CAN_RECV:
      return BlockedOn::kCanSendOrRecv;
    default:
      return BlockedOn::kNothing;
  }
}

}  // namespace

MailboxFault::MailboxFault(const Hart& hart, uint16_t csr, uint32_t value, uint32_t fault)
    : std::logic_error("tessera host: hart " + hex32(hart.id()) + " (index " +
                       std::to_string(hart.index()) + "): mailbox fault " + std::to_string(fault) +
                       " (" + tessera_mailbox_fault_name(static_cast<TesseraMailboxFault>(fault)) +
                       ") on csrrw " + hex32(csr) + ", " + hex32(value)),
      csr_(csr),
      value_(value),
      fault_(fault) {}

MailboxDevice::MailboxDevice(Machine& machine, const MachineParams& params)
    : machine_(machine),
      tile_shift_(tessera_tile_shift(&machine.shape())),
      threads_per_board_(tessera_threads_per_board(&machine.shape())),
      host_sink_(params.host_sink) {
  const TesseraShape& shape = machine.shape();
  const uint32_t boards = shape.boards_x * shape.boards_y;
  const size_t tiles = size_t{boards} * shape.tiles_x * shape.tiles_y;
  const uint32_t parts = std::max(params.mailbox_parts, 1u);
  if (parts > 1 && !params.untimed_mailbox) {
    throw std::invalid_argument(
        "tessera host: mailbox parts need the untimed mailbox (a timed one would need every "
        "hart to stop at each window's end)");
  }
  // Rectangles of boards, as ranks split them (models/rank_split.h).
  part_of_board_.assign(boards, 0);
  if (parts > 1) {
    std::vector<TesseraRankRect> rects(parts);
    const TesseraRankSplitStatus split =
        tessera_rank_split(shape.boards_x, shape.boards_y, parts, 0, 0, rects.data());
    if (split != TESSERA_RANK_SPLIT_OK) {
      throw std::invalid_argument("tessera host: " + std::to_string(parts) +
                                  " mailbox parts: " + tessera_rank_split_why(split));
    }
    tessera_rank_split_boards(rects.data(), parts, shape.boards_x, part_of_board_.data());
  }
  scratch_.reset(new (kScratchAlign) uint8_t[tiles * TESSERA_SCRATCH_SIZE]());
  known_true_ = std::make_unique<uint8_t[]>(tessera_num_threads(&shape));
  for (uint32_t i = 0; i < parts; i++) {
    auto part = std::make_unique<Part>(*this, machine, i);
    if (parts > 1) {
      part->local_boards = std::make_unique<bool[]>(boards);
      for (uint32_t b = 0; b < boards; b++) part->local_boards[b] = part_of_board_[b] == i;
    }
    const TesseraMailboxConfig config{shape,
                                      params.tile_hop_cycles,
                                      params.board_hop_cycles,
                                      params.buffer_flits,
                                      params.idle_master,
                                      part->waiters.registry(),
                                      parts > 1,
                                      part->local_boards.get(),
                                      params.untimed_mailbox};
    TesseraMailboxHost host{};
    host.opaque = part.get();
    host.scratchpad = &MailboxDevice::scratchpad;
    host.wake = &MailboxDevice::wake;
    host.to_host = &MailboxDevice::to_host;
    part->model = tessera_mailbox_new(&config, &host);
    if (part->model == nullptr) {
      throw std::invalid_argument(
          "tessera host: the mailbox model rejects this shape or these parameters "
          "(see tessera_mailbox_new)");
    }
    parts_.push_back(std::move(part));
  }
}

MailboxDevice::~MailboxDevice() = default;

std::optional<MmioWindow> MailboxDevice::mmio_window() const {
  return MmioWindow{TESSERA_SCRATCH_BASE, TESSERA_SCRATCH_SIZE};
}

// Every CSR regs.h calls a mailbox CSR, as the QEMU wrapper registers them.
std::vector<uint16_t> MailboxDevice::csrs() const {
  return csrs_where(tessera_csr_is_mailbox);
}

uint8_t* MailboxDevice::tile_scratch(const Hart& hart) const {
  return scratch_.get() + size_t{hart.index() >> tile_shift_} * TESSERA_SCRATCH_SIZE;
}

uint32_t MailboxDevice::mmio_read32(Hart& hart, uint32_t offset) {
  std::lock_guard lock(part_of(hart).mutex);
  const uint8_t* p = tile_scratch(hart) + offset;
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

void MailboxDevice::mmio_write32(Hart& hart, uint32_t offset, uint32_t value) {
  std::lock_guard lock(part_of(hart).mutex);
  uint8_t* p = tile_scratch(hart) + offset;
  for (int i = 0; i < 4; i++) {
    p[i] = static_cast<uint8_t>(value >> (8 * i));
  }
}

volatile void* MailboxDevice::scratch_pointer(Hart& hart, uint32_t bus_address) {
  if (bus_address < TESSERA_SCRATCH_BASE ||
      bus_address - TESSERA_SCRATCH_BASE >= TESSERA_SCRATCH_SIZE) {
    throw_bus_error(hart,
                    "scratch_pointer: " + hex32(bus_address) + " is outside the scratchpad window");
  }
  return tile_scratch(hart) + (bus_address - TESSERA_SCRATCH_BASE);
}

uint32_t MailboxDevice::scratch_bus_address(Hart& hart, const volatile void* pointer) {
  const auto* base = tile_scratch(hart);
  const auto* p = static_cast<const volatile uint8_t*>(pointer);
  // Compare as integers: the pointer may point anywhere.
  const auto offset = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(base);
  if (reinterpret_cast<uintptr_t>(p) < reinterpret_cast<uintptr_t>(base) ||
      offset >= TESSERA_SCRATCH_SIZE) {
    throw_bus_error(hart,
                    "scratch_bus_address: the pointer is not into this hart's tile "
                    "scratchpad");
  }
  return TESSERA_SCRATCH_BASE + static_cast<uint32_t>(offset);
}

uint32_t MailboxDevice::csr_swap(Hart& hart, uint16_t csr, uint32_t value) {
  Part& part = part_of(hart);
  TesseraMailbox* const model = part.model;
  const bool send_register = csr == TESSERA_CSR_SEND_LEN || csr == TESSERA_CSR_SEND_PTR ||
                             csr == TESSERA_CSR_MCAST_HI || csr == TESSERA_CSR_MCAST_LO;
  // The registers of the next send, written by their own hart: no lock, as QEMU's wrapper does.
  if (uint32_t old = 0;
      send_register && tessera_mailbox_csr_quick(model, hart.index(), csr, value, &old)) {
    return old;
  }
  const bool poll = csr == TESSERA_CSR_CAN_RECV || csr == TESSERA_CSR_CAN_SEND;
  uint8_t& known = known_true_[hart.index()];
  if (poll && (known & known_bit(csr))) {
    return 1;
  }
  std::unique_lock lock(part.mutex);
  // The end of a receive loop: nothing to free, nothing received.
  if (uint32_t read = 0; csr == TESSERA_CSR_RECV_FREE && value == 0 &&
                         tessera_mailbox_recv_free_none(model, hart.index(), &read)) {
    return read;
  }
  if (uint32_t read = 0; poll && read_only(part, hart, csr, read)) {
    known = known_now(part, hart);
    return read;
  }
  const TesseraAccess access = part.waiters.until_done(
      lock, hart,
      [&] { return tessera_mailbox_csr(model, hart.index(), csr, value, hart.cycles()); },
      [&] { return blocked_on(tessera_mailbox_waiting(model, hart.index())); });
  // Refreshed only for a hart that polls (a bit was set): one that never polls (POLite's
  // combined path asks RECV_FREE instead) does not pay two model calls an access. A clear bit
  // only sends the next poll through the lock, which sets it again.
  if (known != 0) known = known_now(part, hart);
  if (access.status == TESSERA_ACCESS_DONE) {  // as complete() does, field by field
    (void)hart.wait_until(access.resume_at);
    return access.value;
  }
  return complete(hart, access, {AccessSite::Kind::kCsrWrite, csr, value});
}

// CAN_RECV and CAN_SEND, when the full rules would only read: the hart waits for nothing (here a
// hart issues a CSR only once its last one is done, so it is not in a tinselIdle call either),
// no step of the termination detector is pending to settle, and no trace hook is set (this
// machine sets none). The answer is then the model's, at the hart's own time (no wait), and
// nothing else changes; half of a vertex program's accesses are these polls (docs/native.md).
bool MailboxDevice::read_only(const Part& part, Hart& hart, uint16_t csr, uint32_t& value) const {
  if (tessera_mailbox_waiting(part.model, hart.index()) != 0 ||
      tessera_termdet_pending(tessera_mailbox_termdet(part.model)) != 0) {
    return false;
  }
  value = csr == TESSERA_CSR_CAN_RECV ? tessera_mailbox_can_recv(part.model, hart.index())
                                      : tessera_mailbox_can_send(part.model, hart.index());
  return true;
}

// What only the hart itself can make false: a message to receive (its RECV takes them) and a free
// outbound register (its send fills it). Under the part's lock.
uint8_t MailboxDevice::known_now(const Part& part, const Hart& hart) const {
  return (tessera_mailbox_can_recv(part.model, hart.index()) ? known_bit(TESSERA_CSR_CAN_RECV)
                                                             : 0) |
         (tessera_mailbox_can_send(part.model, hart.index()) ? known_bit(TESSERA_CSR_CAN_SEND) : 0);
}

// Called by a part's model with the part's lock held.
uint8_t* MailboxDevice::scratchpad(void* opaque, uint32_t tile_index) {
  auto& device = static_cast<Part*>(opaque)->device;
  return device.scratch_.get() + size_t{tile_index} * TESSERA_SCRATCH_SIZE;
}

void MailboxDevice::wake(void* opaque, uint32_t hart_index) {
  static_cast<Part*>(opaque)->waiters.wake(hart_index);
}

bool MailboxDevice::to_host(void* opaque, uint32_t src_thread_id, const uint8_t* msg,
                            uint32_t flits, uint64_t time) {
  auto& self = static_cast<Part*>(opaque)->device;
  HostMessage message{src_thread_id,
                      std::vector<uint8_t>(msg, msg + size_t{flits} * TESSERA_BYTES_PER_FLIT),
                      flits, time};
  std::lock_guard lock(self.host_mutex_);  // parts hand over side by side
  if (self.host_sink_ && !self.host_sink_(message)) {
    return false;
  }
  self.host_messages_.push_back(std::move(message));
  return true;
}

std::vector<HostMessage> MailboxDevice::host_messages() const {
  std::lock_guard lock(host_mutex_);
  return host_messages_;
}

bool MailboxDevice::inject(uint32_t dest_thread_id, const uint8_t* bytes, uint32_t flits,
                           uint64_t time) {
  const TesseraShape& shape = machine_.shape();
  // The part of the thread's board; a thread that does not exist is the model's to refuse.
  Part& part = tessera_thread_exists(&shape, dest_thread_id)
                   ? *parts_[part_of_hart(tessera_dense_index(&shape, dest_thread_id))]
                   : *parts_[0];
  std::lock_guard lock(part.mutex);
  return tessera_mailbox_inject(part.model, dest_thread_id, bytes, flits, time);
}

void MailboxDevice::host_ready() {
  for (auto& part : parts_) {
    std::lock_guard lock(part->mutex);
    tessera_mailbox_host_ready(part->model);
  }
}

TesseraMailboxCounts MailboxDevice::board_counts(uint32_t board_index) const {
  const Part& part = *parts_[board_index < part_of_board_.size() ? part_of_board_[board_index] : 0];
  std::lock_guard lock(part.mutex);
  return tessera_mailbox_board_counts(part.model, board_index);
}

TesseraMailboxCounts MailboxDevice::thread_counts(uint32_t hart_index) const {
  const Part& part = *parts_[part_of_hart(hart_index)];
  std::lock_guard lock(part.mutex);
  return tessera_mailbox_thread_counts(part.model, hart_index);
}

// Each part counts the host's messages that entered or left through it.
TesseraMailboxCounts MailboxDevice::host_counts() const {
  TesseraMailboxCounts sum{};
  for (const auto& part : parts_) {
    std::lock_guard lock(part->mutex);
    const TesseraMailboxCounts counts = tessera_mailbox_host_counts(part->model);
    sum.sent += counts.sent;
    sum.received += counts.received;
  }
  return sum;
}

uint64_t MailboxDevice::latency(uint32_t src_id, uint32_t dest_id, uint32_t flits) const {
  std::lock_guard lock(parts_[0]->mutex);
  return tessera_mailbox_latency(parts_[0]->model, src_id, dest_id, flits);
}

// Every part's detector takes the same windows (idle_window), so any one tells.
TesseraTermdetStats MailboxDevice::idle_stats() const {
  std::lock_guard lock(parts_[0]->mutex);
  TesseraTermdetStats stats;
  tessera_mailbox_idle_stats(parts_[0]->model, &stats);
  return stats;
}

uint64_t MailboxDevice::idle_round_trip() const {
  std::lock_guard lock(parts_[0]->mutex);
  return tessera_mailbox_idle_rtt(parts_[0]->model);
}

// ---- parts -------------------------------------------------------------------------------------

bool MailboxDevice::has_mail(uint32_t part) const {
  const Part& p = *parts_[part];
  return p.inbox_full.load(std::memory_order_acquire) ||
         (parts_.size() > 1 && tessera_mailbox_outbox_count(p.model) != 0);
}

// The steps of tessera_mailbox.h's exchange over several processes, for one part, at whatever
// moment its worker calls: untimed, nothing orders the parts' exchanges in time.
bool MailboxDevice::exchange(uint32_t index) {
  if (parts_.size() < 2) return false;
  Part& part = *parts_[index];
  std::lock_guard lock(part.mutex);
  part.leaving.resize(parts_.size());
  part.room.resize(parts_.size());
  const uint32_t left = tessera_mailbox_take_leaving(
      part.model,
      [](void* p, const TesseraMailboxTransit* t) {
        auto& self = *static_cast<Part*>(p);
        self.leaving[self.device.part_of_board_[t->dest_board]].push_back(*t);
      },
      &part);
  {
    std::lock_guard inbox(part.inbox_mutex);
    part.taking.swap(part.arrived);
    part.taking_room.swap(part.credits);
    part.inbox_full.store(false, std::memory_order_release);
  }
  for (const TesseraMailboxTransit& t : part.taking) {
    if (!tessera_mailbox_arrive(part.model, &t)) {
      throw std::logic_error("tessera host: mailbox part " + std::to_string(index) +
                             " refused a message another part handed over");
    }
  }
  const uint32_t entered = tessera_mailbox_exchange_admit(
      part.model, 0,
      [](void* p, const TesseraMailboxCredit* c) {
        auto& self = *static_cast<Part*>(p);
        self.room[self.device.part_of_board_[c->src_board]].push_back(*c);
      },
      &part);
  for (const TesseraMailboxCredit& c : part.taking_room) {
    if (!tessera_mailbox_credit(part.model, &c)) {
      throw std::logic_error("tessera host: mailbox part " + std::to_string(index) +
                             " refused room another part gave back");
    }
  }
  tessera_mailbox_exchange_refill(part.model, 0);
  const bool moved = left + entered + part.taking.size() + part.taking_room.size() != 0;
  part.taking.clear();
  part.taking_room.clear();
  for (size_t i = 0; i < parts_.size(); i++) {
    if (part.leaving[i].empty() && part.room[i].empty()) continue;
    Part& to = *parts_[i];
    {
      std::lock_guard inbox(to.inbox_mutex);
      to.arrived.insert(to.arrived.end(), part.leaving[i].begin(), part.leaving[i].end());
      to.credits.insert(to.credits.end(), part.room[i].begin(), part.room[i].end());
      to.inbox_full.store(true, std::memory_order_release);
    }
    part.leaving[i].clear();
    part.room[i].clear();
    if (HartSleeper* sleeper = machine_.params().sleeper) sleeper->mail(static_cast<uint32_t>(i));
  }
  return moved;
}

uint32_t MailboxDevice::idle_window() {
  if (parts_.size() < 2) return 0;
  uint32_t moved = 0;
  for (bool again = true; again;) {
    again = false;
    for (uint32_t i = 0; i < parts(); i++) {
      if (exchange(i)) {
        again = true;
        moved++;
      }
    }
  }
  // Every part's lock, in order, so that no hart acts between a part's share and the end.
  std::vector<std::unique_lock<DeviceMutex>> locks;
  for (auto& part : parts_) locks.emplace_back(part->mutex);
  std::vector<TesseraTermdetReturn> returns;
  TesseraTermdetNews news{};
  uint32_t changes = 0;
  for (auto& part : parts_) {
    const TesseraTermdetReturn* mine = nullptr;
    TesseraTermdetNews part_news{};
    const size_t n = tessera_mailbox_idle_window(part->model, &mine, &part_news);
    returns.insert(returns.end(), mine, mine + n);
    tessera_termdet_news_add(&news, &part_news);
    changes += tessera_mailbox_idle_window_pending(part->model) ? 1 : 0;
  }
  for (auto& part : parts_) {
    if (!tessera_mailbox_idle_window_end(part->model, returns.data(), returns.size(), &news)) {
      throw std::logic_error(
          "tessera host: the termination detector's parts do not fit the round under way");
    }
  }
  // A board sees the master's tokens at the end of the window after they were sent, and its
  // return waits for the next: a round takes windows, which the caller makes while any is due.
  for (auto& part : parts_) changes += tessera_mailbox_idle_window_pending(part->model) ? 1 : 0;
  return moved + static_cast<uint32_t>(returns.size()) + changes;
}

}  // namespace tessera::host
