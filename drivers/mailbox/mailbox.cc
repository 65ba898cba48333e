// The typed layer over the mailbox core (tessera/drivers/mailbox_core.h): every CSR access of
// the mailbox goes through the core's functions.
#include "tessera/drivers/mailbox.h"

#include "tessera/drivers/mailbox_core.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/csr.h"

namespace tessera::drivers {

namespace {

bool valid_length(uint32_t flits) {
  return flits >= 1 && flits <= TESSERA_MAX_FLITS;
}

}  // namespace

const char* mailbox_fault_name(uint32_t code) { return tessera_mailbox_fault_name(code); }

void Slot::write(const void* bytes, size_t size) const {
  volatile uint8_t* to = static_cast<volatile uint8_t*>(data());
  const auto* from = static_cast<const uint8_t*>(bytes);
  for (size_t i = 0; i < size && i < TESSERA_BYTES_PER_SLOT; i++) {
    to[i] = from[i];
  }
}

void Slot::read(void* bytes, size_t size) const {
  const volatile uint8_t* from = static_cast<const volatile uint8_t*>(data());
  auto* to = static_cast<uint8_t*>(bytes);
  for (size_t i = 0; i < size && i < TESSERA_BYTES_PER_SLOT; i++) {
    to[i] = from[i];
  }
}

Mailbox::Mailbox() {
  const Sysinfo sysinfo;
  shape_ = sysinfo.shape();
  host_id_ = sysinfo.host_id();
  thread_id_ = hal::csr_read<TESSERA_CSR_HART_ID>();
  tile_shift_ = tessera_tile_shift(&shape_);
}

Slot Mailbox::slot(uint32_t n) const {
  if (n >= slots_per_thread()) {
    return Slot();
  }
  return Slot::at(mailbox_slot_address(thread_id_, threads_per_tile(), n));
}

bool Mailbox::can_send() const {
  return tessera_mbox_can_send() != 0;
}

bool Mailbox::can_recv() const {
  return tessera_mbox_can_recv() != 0;
}

WaitConditions Mailbox::wait_until(WaitConditions conditions) const {
  if (conditions.empty()) {
    return WaitConditions::none();
  }
  const uint32_t holds = tessera_mbox_wait_until(conditions.bits());
  WaitConditions result = WaitConditions::none();
  if (holds & TESSERA_WAIT_CAN_SEND) {
    result = result | WaitConditions::can_send();
  }
  if (holds & TESSERA_WAIT_CAN_RECV) {
    result = result | WaitConditions::can_recv();
  }
  return result;
}

bool Mailbox::is_destination(uint32_t id) const {
  return id == host_id_ || tessera_thread_exists(&shape_, id);
}

void Mailbox::start_send(uint32_t dest, Slot slot, uint32_t flits) const {
  tessera_mbox_set_len(flits - 1);
  tessera_mbox_send(dest, slot.bus_address());
}

Status Mailbox::try_send(uint32_t dest, Slot slot, uint32_t flits) const {
  if (!slot.valid() || !valid_length(flits) || !is_destination(dest)) {
    return Status::InvalidArgument();
  }
  if (!can_send()) {
    return Status::Unavailable();
  }
  start_send(dest, slot, flits);
  return OkStatus();
}

Status Mailbox::send(uint32_t dest, Slot slot, uint32_t flits) const {
  if (!slot.valid() || !valid_length(flits) || !is_destination(dest)) {
    return Status::InvalidArgument();
  }
  (void)wait_until(WaitConditions::can_send());
  start_send(dest, slot, flits);
  return OkStatus();
}

Status Mailbox::check_multicast(uint32_t mailbox, uint64_t mask, Slot slot,
                                uint32_t flits) const {
  const uint32_t tpt = threads_per_tile();
  if (!slot.valid() || !valid_length(flits) || mailbox > (UINT32_MAX >> tile_shift_) ||
      !tessera_thread_exists(&shape_, mailbox << tile_shift_)) {
    return Status::InvalidArgument();
  }
  if (tpt < 64 && (mask >> tpt) != 0) {
    return Status::InvalidArgument();
  }
  return OkStatus();
}

void Mailbox::start_multicast(uint32_t mailbox, uint64_t mask, Slot slot, uint32_t flits) const {
  tessera_mbox_set_len(flits - 1);
  tessera_mbox_multicast(mailbox, static_cast<uint32_t>(mask >> 32), static_cast<uint32_t>(mask),
                         slot.bus_address());
}

Status Mailbox::try_multicast(uint32_t mailbox, uint64_t mask, Slot slot, uint32_t flits) const {
  if (Status s = check_multicast(mailbox, mask, slot, flits); !s.ok()) {
    return s;
  }
  if (mask == 0) {
    return OkStatus();
  }
  if (!can_send()) {
    return Status::Unavailable();
  }
  start_multicast(mailbox, mask, slot, flits);
  return OkStatus();
}

Status Mailbox::multicast(uint32_t mailbox, uint64_t mask, Slot slot, uint32_t flits) const {
  if (Status s = check_multicast(mailbox, mask, slot, flits); !s.ok()) {
    return s;
  }
  if (mask == 0) {
    return OkStatus();
  }
  (void)wait_until(WaitConditions::can_send());
  start_multicast(mailbox, mask, slot, flits);
  return OkStatus();
}

Status Mailbox::try_recv(Slot* slot) const {
  if (slot == nullptr) {
    return Status::InvalidArgument();
  }
  if (!can_recv()) {
    return Status::Unavailable();
  }
  *slot = Slot::at(tessera_mbox_recv());
  return OkStatus();
}

Slot Mailbox::recv() const {
  (void)wait_until(WaitConditions::can_recv());
  return Slot::at(tessera_mbox_recv());
}

Status Mailbox::give(Slot slot) const {
  if (!slot.valid()) {
    return Status::InvalidArgument();
  }
  tessera_mbox_free(slot.bus_address());
  return OkStatus();
}

Status Mailbox::give_receive_slots(uint32_t kept_back) const {
  for (uint32_t n = kept_back; n < receive_slot_count(); n++) {
    if (Status s = give(receive_slot(n)); !s.ok()) {
      return s;
    }
  }
  return OkStatus();
}

uint32_t Mailbox::last_fault() const {
  return tessera_mbox_last_fault();
}

}  // namespace tessera::drivers
