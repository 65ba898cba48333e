// The protocol-independent part of the software detectors (software.h). It uses only the HAL and
// the drivers: the mailbox core for messages, sysinfo for the machine's shape, the console and
// the exit device for a broken protocol.
#include "tessera/termination/software.h"

#include <stdint.h>

#include "tessera/drivers/exit.h"
#include "tessera/drivers/mailbox_core.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/termination/detector.h"
#include "tessera/termination/thread.h"

namespace tessera::termination {

SoftwareCore::SoftwareCore()
    : send_slot_(static_cast<volatile uint32_t*>(own_send_slot())), me_(own_thread_id()) {
  const tessera::drivers::Sysinfo sysinfo;
  shape_ = sysinfo.shape();
  index_ = sysinfo.hart_index();
  threads_ = tessera_num_threads(&shape_);
  per_board_ = tessera_threads_per_board(&shape_);
  boards_ = shape_.boards_x * shape_.boards_y;
}

uint32_t SoftwareCore::thread_at(uint32_t dense_index) const {
  return tessera_thread_at(&shape_, dense_index);
}

void SoftwareCore::protocol_error(const char* what, uint32_t a, uint32_t b) const {
  drivers::ExitDevice().fail_protocol("termination", what, a, b, kProtocolErrorExit);
}

// ---- Receiving --------------------------------------------------------------------------------

bool SoftwareCore::is_copy(const volatile void* msg) const {
  const uintptr_t p = reinterpret_cast<uintptr_t>(msg);
  const uintptr_t base = reinterpret_cast<uintptr_t>(&copies_[0][0]);
  return p >= base && p < base + sizeof(copies_);
}

volatile uint32_t* SoftwareCore::poll() {
  if (queue_size_ > 0) {
    const uint32_t i = queue_[queue_head_];
    queue_head_ = (queue_head_ + 1) % kCopies;
    queue_size_--;
    return copies_[i];
  }
  if (tessera_mbox_can_recv()) {
    return static_cast<volatile uint32_t*>(tessera_mbox_pointer(tessera_mbox_recv()));
  }
  return nullptr;
}

volatile uint32_t* SoftwareCore::wait_next() {
  for (;;) {
    volatile uint32_t* msg = poll();
    if (msg != nullptr) {
      return msg;
    }
    (void)tessera_mbox_wait_until(TESSERA_WAIT_CAN_RECV);
  }
}

void SoftwareCore::drop(volatile void* msg) {
  if (is_copy(msg)) {
    const uint32_t i = static_cast<uint32_t>(
        (reinterpret_cast<uintptr_t>(msg) - reinterpret_cast<uintptr_t>(&copies_[0][0])) /
        sizeof(copies_[0]));
    copy_in_use_ &= ~(1u << i);
  } else {
    tessera_mbox_free(tessera_mbox_bus_address(msg));
  }
}

void SoftwareCore::free(volatile void* msg) {
  drop(msg);
}

void SoftwareCore::accept_application(volatile uint32_t* msg) {
  const uint32_t header = msg[0];
  received_++;
  black_ = true;
  ready_ = msg;
  const uint32_t mine = epoch_ & wire::kEpochMask;
  const uint32_t theirs = wire::epoch(header);
  if (theirs == mine) {
    return;
  }
  // Sent by a thread already released from our current episode: it has terminated. Only a
  // thread blocked in idle can see this (a terminated episode has every thread in idle).
  if (theirs != ((mine + 1) & wire::kEpochMask) || !in_idle_ || wire::result(header) == 0) {
    protocol_error("application message from an unexpected episode", header, epoch_);
  }
  release(static_cast<int>(wire::result(header)));
}

void SoftwareCore::release(int result) {
  epoch_++;
  last_result_ = result;
  release_ = result;
}

// ---- Sending ----------------------------------------------------------------------------------

bool SoftwareCore::keep_copy() {
  if (copy_in_use_ == (1u << kCopies) - 1) {
    return false;
  }
  uint32_t i = 0;
  while (copy_in_use_ & (1u << i)) {
    i++;
  }
  const uint32_t slot = tessera_mbox_recv();
  const volatile uint32_t* msg = static_cast<const volatile uint32_t*>(tessera_mbox_pointer(slot));
  for (uint32_t k = 0; k < 16; k++) {
    copies_[i][k] = msg[k];
  }
  tessera_mbox_free(slot);
  copy_in_use_ |= 1u << i;
  copies_kept_++;
  queue_[(queue_head_ + queue_size_) % kCopies] = static_cast<uint8_t>(i);
  queue_size_++;
  return true;
}

// Waits for can-send without ever refusing to receive: a thread stuck in a send while its own
// receive slots fill up could complete a cycle of full mailboxes. Messages taken out here are
// kept as copies, looked at later in arrival order.
void SoftwareCore::wait_can_send() {
  while (!tessera_mbox_can_send()) {
    if (copy_in_use_ != (1u << kCopies) - 1) {
      (void)tessera_mbox_wait_until(TESSERA_WAIT_CAN_SEND | TESSERA_WAIT_CAN_RECV);
      if (!tessera_mbox_can_send() && tessera_mbox_can_recv()) {
        (void)keep_copy();
      }
    } else {
      (void)tessera_mbox_wait_until(TESSERA_WAIT_CAN_SEND);
    }
  }
}

void SoftwareCore::send(uint32_t dest, volatile void* msg, uint32_t flits) {
  wait_can_send();
  volatile uint32_t* words = static_cast<volatile uint32_t*>(msg);
  words[0] = wire::header(wire::kApp, epoch_, static_cast<uint32_t>(last_result_));
  tessera_mbox_set_len(flits - 1);
  tessera_mbox_send(dest, tessera_mbox_bus_address(msg));
  sent_++;
}

void SoftwareCore::multicast(uint32_t mailbox, uint32_t mask_hi, uint32_t mask_lo,
                             volatile void* msg, uint32_t flits) {
  wait_can_send();
  volatile uint32_t* words = static_cast<volatile uint32_t*>(msg);
  words[0] = wire::header(wire::kApp, epoch_, static_cast<uint32_t>(last_result_));
  tessera_mbox_set_len(flits - 1);
  tessera_mbox_multicast(mailbox, mask_hi, mask_lo, tessera_mbox_bus_address(msg));
  sent_ += static_cast<uint32_t>(__builtin_popcount(mask_hi) + __builtin_popcount(mask_lo));
}

void SoftwareCore::send_control(uint32_t dest, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3) {
  wait_can_send();
  volatile uint32_t* slot = send_slot_;
  const uint32_t saved[4] = {slot[0], slot[1], slot[2], slot[3]};
  slot[0] = w0;
  slot[1] = w1;
  slot[2] = w2;
  slot[3] = w3;
  tessera_mbox_set_len(0);
  tessera_mbox_send(dest, tessera_mbox_bus_address(slot));
  // The message was copied out when it was sent (docs/mailbox.md): the slot is free again.
  slot[0] = saved[0];
  slot[1] = saved[1];
  slot[2] = saved[2];
  slot[3] = saved[3];
}

}  // namespace tessera::termination
