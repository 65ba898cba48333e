// The mailbox side of the software barriers (endpoint.h): only the HAL and the drivers' mailbox
// core, console and exit device, so it runs on the target and on the host machine alike.
#include "tessera/barrier/endpoint.h"

#include <stdint.h>

#include "tessera/drivers/exit.h"
#include "tessera/drivers/mailbox_core.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/csr.h"
#include "tessera/hw/regs.h"

namespace tessera::barrier {

namespace {

uint32_t own_thread_id() {
  return hal::csr_read<TESSERA_CSR_HART_ID>();
}

volatile uint32_t* own_send_slot(uint32_t me) {
  const drivers::Sysinfo sysinfo;
  const uint32_t threads_per_tile = sysinfo.cores_per_tile() * sysinfo.threads_per_core();
  return static_cast<volatile uint32_t*>(
      tessera_mbox_pointer(tessera_mbox_slot_address(me, threads_per_tile, 0)));
}

}  // namespace

Endpoint::Endpoint() : send_slot_(own_send_slot(own_thread_id())), me_(own_thread_id()) {}

void Endpoint::protocol_error(const char* what, uint32_t a, uint32_t b) const {
  drivers::ExitDevice().fail_protocol("barrier", what, a, b, kProtocolErrorExit);
}

// ---- Receiving ----------------------------------------------------------------------------------

void Endpoint::count_barrier(const volatile uint32_t* msg) {
  const uint32_t header = msg[0];
  const uint32_t tag = wire::tag(header);
  const uint32_t mine = episode_[tag] & wire::kEpisodeMask;
  const uint32_t theirs = wire::episode(header);
  // A sender can be at most one episode ahead: it left ours, so we had entered it.
  if (theirs != mine && theirs != ((mine + 1) & wire::kEpisodeMask)) {
    protocol_error("barrier message from an episode that is neither this one nor the next", header,
                   msg[1]);
  }
  ArrivalCount& count = arrived_[tag][theirs & 1u][wire::slot(header)];
  if (count == static_cast<ArrivalCount>(~ArrivalCount{0})) {
    protocol_error("more barrier messages of one slot than a group can send", header, msg[1]);
  }
  count++;
  barrier_received_++;
}

void Endpoint::take_one() {
  const uint32_t slot = tessera_mbox_recv();
  const volatile uint32_t* msg = static_cast<const volatile uint32_t*>(tessera_mbox_pointer(slot));
  if (wire::kind(msg[0]) == wire::kBarrier) {
    count_barrier(msg);
  } else {
    if (copies_full()) {
      protocol_error("application messages fill the barrier endpoint's copies", msg[0], kCopies);
    }
    uint32_t i = 0;
    while (copies_used_ & (1u << i)) {
      i++;
    }
    for (uint32_t k = 0; k < 16; k++) {
      copies_[i][k] = msg[k];
    }
    copies_used_ |= 1u << i;
    queue_[(queue_head_ + queue_size_) % kCopies] = static_cast<uint8_t>(i);
    queue_size_++;
  }
  tessera_mbox_free(slot);
}

void Endpoint::await(uint32_t tag, uint32_t slot, uint32_t count) {
  ArrivalCount& arrived = arrived_[tag & 3u][episode_[tag & 3u] & 1u][slot];
  while (arrived < count) {
    if (!tessera_mbox_can_recv()) {
      (void)tessera_mbox_wait_until(TESSERA_WAIT_CAN_RECV);
    }
    take_one();
  }
  arrived = static_cast<ArrivalCount>(arrived - count);
}

// ---- Sending ------------------------------------------------------------------------------------

// Never stops receiving while it waits: threads stuck in sends with full mailboxes could
// otherwise wait for each other in a cycle.
void Endpoint::wait_can_send() {
  while (!tessera_mbox_can_send()) {
    (void)tessera_mbox_wait_until(TESSERA_WAIT_CAN_SEND | TESSERA_WAIT_CAN_RECV);
    if (!tessera_mbox_can_send() && tessera_mbox_can_recv()) {
      take_one();
    }
  }
}

// Writes a barrier message of (tag, slot) into the send slot, has `issue` send it, and puts back
// what the program had prepared there (the message was copied out when it was sent).
template <typename Issue>
void Endpoint::send_barrier(uint32_t tag, uint32_t slot, Issue issue) {
  wait_can_send();
  volatile uint32_t* out = send_slot_;
  const uint32_t saved[2] = {out[0], out[1]};
  out[0] = wire::header(wire::kBarrier, tag, slot, episode_[tag & 3u]);
  out[1] = me_;
  tessera_mbox_set_len(0);
  issue(tessera_mbox_bus_address(out));
  out[0] = saved[0];
  out[1] = saved[1];
}

void Endpoint::send(uint32_t dest, uint32_t tag, uint32_t slot) {
  send_barrier(tag, slot, [dest](uint32_t address) { tessera_mbox_send(dest, address); });
  barrier_sent_++;
}

void Endpoint::multicast(uint32_t mailbox, uint64_t mask, uint32_t tag, uint32_t slot) {
  send_barrier(tag, slot, [mailbox, mask](uint32_t address) {
    tessera_mbox_multicast(mailbox, static_cast<uint32_t>(mask >> 32), static_cast<uint32_t>(mask),
                           address);
  });
  barrier_sent_ += static_cast<uint32_t>(__builtin_popcountll(mask));
}

// ---- The program's messages ---------------------------------------------------------------------

void Endpoint::send_application(uint32_t dest, volatile void* msg, uint32_t flits) {
  wait_can_send();
  volatile uint32_t* words = static_cast<volatile uint32_t*>(msg);
  words[0] = wire::header(wire::kApplication, 0, 0, 0);
  tessera_mbox_set_len(flits - 1);
  tessera_mbox_send(dest, tessera_mbox_bus_address(msg));
}

bool Endpoint::can_recv() {
  while (queue_size_ == 0) {
    if (!tessera_mbox_can_recv()) {
      return false;
    }
    take_one();
  }
  return true;
}

volatile void* Endpoint::recv() {
  while (!can_recv()) {
    (void)tessera_mbox_wait_until(TESSERA_WAIT_CAN_RECV);
  }
  const uint32_t i = queue_[queue_head_];
  queue_head_ = (queue_head_ + 1) % kCopies;
  queue_size_--;
  return copies_[i];
}

bool Endpoint::is_copy(const volatile void* msg) const {
  const uintptr_t p = reinterpret_cast<uintptr_t>(msg);
  const uintptr_t base = reinterpret_cast<uintptr_t>(&copies_[0][0]);
  return p >= base && p < base + sizeof(copies_);
}

void Endpoint::free(volatile void* msg) {
  if (!is_copy(msg)) {
    protocol_error("free of a message the endpoint did not hand out",
                   static_cast<uint32_t>(reinterpret_cast<uintptr_t>(msg)), 0);
  }
  const uint32_t i = static_cast<uint32_t>(
      (reinterpret_cast<uintptr_t>(msg) - reinterpret_cast<uintptr_t>(&copies_[0][0])) /
      sizeof(copies_[0]));
  copies_used_ &= ~(1u << i);
}

}  // namespace tessera::barrier
