// Facts of the calling thread that the detectors need, read through the HAL and the drivers
// (the values tinselId() and tinselSendSlot() give).
#pragma once

#include <stdint.h>

#include "tessera/drivers/mailbox_core.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/csr.h"
#include "tessera/hw/regs.h"

namespace tessera::termination {

// The calling thread's id (mhartid).
inline uint32_t own_thread_id() {
  return hal::csr_read<TESSERA_CSR_HART_ID>();
}

// Threads of the calling thread's tile.
inline uint32_t own_threads_per_tile() {
  const drivers::Sysinfo sysinfo;
  return sysinfo.cores_per_tile() * sysinfo.threads_per_core();
}

// The calling thread's send slot: its first slot.
inline volatile void* own_send_slot() {
  return tessera_mbox_pointer(tessera_mbox_slot_address(own_thread_id(), own_threads_per_tile(), 0));
}

}  // namespace tessera::termination
