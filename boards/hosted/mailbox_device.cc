#include "mailbox_device.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "bus_error.h"

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
    : tile_shift_(tessera_tile_shift(&machine.shape())),
      host_sink_(params.host_sink),
      waiters_(machine, mutex_, "the mailbox") {
  const TesseraShape& shape = machine.shape();
  const size_t tiles = size_t{shape.boards_x} * shape.boards_y * shape.tiles_x * shape.tiles_y;
  scratch_.reset(new (kScratchAlign) uint8_t[tiles * TESSERA_SCRATCH_SIZE]());
  known_true_ = std::make_unique<uint8_t[]>(tessera_num_threads(&shape));
  const TesseraMailboxConfig config{shape,
                                    params.tile_hop_cycles,
                                    params.board_hop_cycles,
                                    params.buffer_flits,
                                    params.idle_master,
                                    waiters_.registry(),
                                    false,
                                    nullptr,
                                    params.untimed_mailbox};
  TesseraMailboxHost host{};
  host.opaque = this;
  host.scratchpad = &MailboxDevice::scratchpad;
  host.wake = &MailboxDevice::wake;
  host.to_host = &MailboxDevice::to_host;
  model_ = tessera_mailbox_new(&config, &host);
  if (model_ == nullptr) {
    throw std::invalid_argument(
        "tessera host: the mailbox model rejects this shape or these parameters "
        "(see tessera_mailbox_new)");
  }
}

MailboxDevice::~MailboxDevice() {
  tessera_mailbox_free(model_);
}

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
  std::lock_guard lock(mutex_);
  const uint8_t* p = tile_scratch(hart) + offset;
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

void MailboxDevice::mmio_write32(Hart& hart, uint32_t offset, uint32_t value) {
  std::lock_guard lock(mutex_);
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
  const bool send_register = csr == TESSERA_CSR_SEND_LEN || csr == TESSERA_CSR_SEND_PTR ||
                             csr == TESSERA_CSR_MCAST_HI || csr == TESSERA_CSR_MCAST_LO;
  // The registers of the next send, written by their own hart: no lock, as QEMU's wrapper does.
  if (uint32_t old = 0;
      send_register && tessera_mailbox_csr_quick(model_, hart.index(), csr, value, &old)) {
    return old;
  }
  const bool poll = csr == TESSERA_CSR_CAN_RECV || csr == TESSERA_CSR_CAN_SEND;
  uint8_t& known = known_true_[hart.index()];
  if (poll && (known & known_bit(csr))) {
    return 1;
  }
  std::unique_lock lock(mutex_);
  // The end of a receive loop: nothing to free, nothing received.
  if (uint32_t read = 0; csr == TESSERA_CSR_RECV_FREE && value == 0 &&
                         tessera_mailbox_recv_free_none(model_, hart.index(), &read)) {
    return read;
  }
  if (uint32_t read = 0; poll && read_only(hart, csr, read)) {
    known = known_now(hart);
    return read;
  }
  const TesseraAccess access = waiters_.until_done(
      lock, hart,
      [&] { return tessera_mailbox_csr(model_, hart.index(), csr, value, hart.cycles()); },
      [&] { return blocked_on(tessera_mailbox_waiting(model_, hart.index())); });
  // Refreshed only for a hart that polls (a bit was set): one that never polls (POLite's
  // combined path asks RECV_FREE instead) does not pay two model calls an access. A clear bit
  // only sends the next poll through the lock, which sets it again.
  if (known != 0) known = known_now(hart);
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
bool MailboxDevice::read_only(Hart& hart, uint16_t csr, uint32_t& value) const {
  if (tessera_mailbox_waiting(model_, hart.index()) != 0 ||
      tessera_termdet_pending(tessera_mailbox_termdet(model_)) != 0) {
    return false;
  }
  value = csr == TESSERA_CSR_CAN_RECV ? tessera_mailbox_can_recv(model_, hart.index())
                                      : tessera_mailbox_can_send(model_, hart.index());
  return true;
}

// What only the hart itself can make false: a message to receive (its RECV takes them) and a free
// outbound register (its send fills it). Under mutex_.
uint8_t MailboxDevice::known_now(const Hart& hart) const {
  return (tessera_mailbox_can_recv(model_, hart.index()) ? known_bit(TESSERA_CSR_CAN_RECV) : 0) |
         (tessera_mailbox_can_send(model_, hart.index()) ? known_bit(TESSERA_CSR_CAN_SEND) : 0);
}

// Called by the model with mutex_ held.
uint8_t* MailboxDevice::scratchpad(void* opaque, uint32_t tile_index) {
  auto* self = static_cast<MailboxDevice*>(opaque);
  return self->scratch_.get() + size_t{tile_index} * TESSERA_SCRATCH_SIZE;
}

void MailboxDevice::wake(void* opaque, uint32_t hart_index) {
  static_cast<MailboxDevice*>(opaque)->waiters_.wake(hart_index);
}

bool MailboxDevice::to_host(void* opaque, uint32_t src_thread_id, const uint8_t* msg,
                            uint32_t flits, uint64_t time) {
  auto* self = static_cast<MailboxDevice*>(opaque);
  HostMessage message{src_thread_id,
                      std::vector<uint8_t>(msg, msg + size_t{flits} * TESSERA_BYTES_PER_FLIT),
                      flits, time};
  if (self->host_sink_ && !self->host_sink_(message)) {
    return false;
  }
  self->host_messages_.push_back(std::move(message));
  return true;
}

std::vector<HostMessage> MailboxDevice::host_messages() const {
  std::lock_guard lock(mutex_);
  return host_messages_;
}

bool MailboxDevice::inject(uint32_t dest_thread_id, const uint8_t* bytes, uint32_t flits,
                           uint64_t time) {
  std::lock_guard lock(mutex_);
  return tessera_mailbox_inject(model_, dest_thread_id, bytes, flits, time);
}

void MailboxDevice::host_ready() {
  std::lock_guard lock(mutex_);
  tessera_mailbox_host_ready(model_);
}

TesseraMailboxCounts MailboxDevice::board_counts(uint32_t board_index) const {
  std::lock_guard lock(mutex_);
  return tessera_mailbox_board_counts(model_, board_index);
}

TesseraMailboxCounts MailboxDevice::thread_counts(uint32_t hart_index) const {
  std::lock_guard lock(mutex_);
  return tessera_mailbox_thread_counts(model_, hart_index);
}

TesseraMailboxCounts MailboxDevice::host_counts() const {
  std::lock_guard lock(mutex_);
  return tessera_mailbox_host_counts(model_);
}

uint64_t MailboxDevice::latency(uint32_t src_id, uint32_t dest_id, uint32_t flits) const {
  std::lock_guard lock(mutex_);
  return tessera_mailbox_latency(model_, src_id, dest_id, flits);
}

TesseraTermdetStats MailboxDevice::idle_stats() const {
  std::lock_guard lock(mutex_);
  TesseraTermdetStats stats;
  tessera_mailbox_idle_stats(model_, &stats);
  return stats;
}

uint64_t MailboxDevice::idle_round_trip() const {
  std::lock_guard lock(mutex_);
  return tessera_mailbox_idle_rtt(model_);
}

}  // namespace tessera::host
