// The Tinsel API on Tessera, so that programs written for the reference hardware build
// unchanged. Both spellings are here: the original one (tinselSlot, tinselAlloc, tinselSend from
// any slot) and the later public release's (tinselSendSlot, tinselFree, tinselMulticast).
// docs/mailbox.md has the details.
//
// A zero-cost layer over the drivers: every mailbox call is one call of the mailbox driver's
// core (tessera/drivers/mailbox_core.h), which inlines to the CSR instructions themselves; the
// shape facts come from the sysinfo driver. C++ only for now: the mailbox calls are written in
// C as well (the core is C), the shape functions, tinselId and tinselCycleCount sit on the
// C++ HAL facades and the sysinfo driver.
//
// Slots. Every receive slot of a thread is given to hardware before main for v2 programs
// (tessera_add_app(... TINSEL_API v2), the default), as the later release's programs expect;
// v1 programs (TINSEL_API v1) call tinselAlloc on tinselSlot(1..tinselMsgsPerThread()-1)
// themselves, as the original API required. Slot 0 (tinselSlot(0) == tinselSendSlot()) is the
// thread's send slot.
//
// Differences from the reference hardware:
//  - Shape constants are runtime facts (one image runs on every -M tessera shape): use
//    tinselThreadsPerCore(), tinselLogThreadsPerTile(), tinselMsgsPerThread(), ... in place of
//    TinselThreadsPerCore, TinselLogThreadsPerMailbox, TinselMsgsPerThread, ... The message
//    format constants (TinselLogBytesPerMsg, TinselMaxFlitsPerMsg, ...) are compile-time as on
//    Tinsel. A mailbox is a tile here: "per mailbox" = "per tile".
//  - tinselMulticast uses Tessera's MCAST CSRs instead of Tinsel's custom instruction.
//  - tinselIdle is hardware termination detection as on Tinsel (docs/idle.md); the master's
//    position is a machine option (idle-master=origin|centre).
//  - A message is copied out of its slot when tinselSend returns: reusing the slot at once is
//    safe here (portable programs still wait for tinselCanSend()).
//  - Misuse (sending while tinselCanSend() is 0, receiving with nothing waiting, freeing a slot
//    twice, a bad destination, slot or length) traps and the trap report names the fault.
#pragma once

#include <stdint.h>

#include "tessera/drivers/mailbox_core.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/csr.h"
#include "tessera/hw/regs.h"

// The calling hart's heap: its partition after its thread-local block (tessera/heap.h of the
// firmware runtime, which defines it).
namespace tessera {
void* heap_base();
}  // namespace tessera

typedef enum {
  TINSEL_CAN_SEND = TESSERA_WAIT_CAN_SEND,
  TINSEL_CAN_RECV = TESSERA_WAIT_CAN_RECV
} TinselWakeupCond;

#ifdef __cplusplus
inline TinselWakeupCond operator|(TinselWakeupCond a, TinselWakeupCond b) {
  return static_cast<TinselWakeupCond>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}
#endif

// Message format: fixed, as on Tinsel.
#define TinselLogBytesPerFlit 4
#define TinselLogWordsPerFlit 2
#define TinselMaxFlitsPerMsg 4
#define TinselLogMaxFlitsPerMsg 2
#define TinselLogBytesPerMsg 6
#define TinselLogWordsPerMsg 4
#define TinselBytesPerMsg 64
#define TinselWordsPerMsg 16

// ---- Identity and time --------------------------------------------------------------------

// Global thread id of the caller (mhartid).
inline uint32_t tinselId() {
  return tessera::hal::csr_read<TESSERA_CSR_HART_ID>();
}

// Modelled cycle count, low 32 bits (csrr of the read-only cycle CSR).
inline uint32_t tinselCycleCount() {
  return tessera::hal::csr_read<TESSERA_CSR_CYCLE>();
}

// Thread id of the host (messages sent to it leave the machine on the host link).
inline uint32_t tinselHostId() {
  return tessera::drivers::Sysinfo().host_id();
}

// ---- Shape (runtime facts here, constants on Tinsel) -----------------------------------------

inline uint32_t tinselThreadsPerCore() {
  return tessera::drivers::Sysinfo().threads_per_core();
}
inline uint32_t tinselCoresPerTile() {
  return tessera::drivers::Sysinfo().cores_per_tile();
}
inline uint32_t tinselThreadsPerTile() {
  const tessera::drivers::Sysinfo sysinfo;
  return sysinfo.cores_per_tile() * sysinfo.threads_per_core();
}
inline uint32_t tinselLogThreadsPerCore() {
  return tessera_log2_ceil(tinselThreadsPerCore());
}
inline uint32_t tinselLogCoresPerTile() {
  return tessera_log2_ceil(tinselCoresPerTile());
}
inline uint32_t tinselLogThreadsPerTile() {
  return tessera_log2_ceil(tinselThreadsPerTile());
}
// A mailbox serves a tile: Tinsel's "per mailbox" names.
inline uint32_t tinselThreadsPerMailbox() {
  return tinselThreadsPerTile();
}
inline uint32_t tinselLogThreadsPerMailbox() {
  return tinselLogThreadsPerTile();
}
inline uint32_t tinselTilesX() {
  return tessera::drivers::Sysinfo().tiles_x();
}
inline uint32_t tinselTilesY() {
  return tessera::drivers::Sysinfo().tiles_y();
}
inline uint32_t tinselBoardsX() {
  return tessera::drivers::Sysinfo().boards_x();
}
inline uint32_t tinselBoardsY() {
  return tessera::drivers::Sysinfo().boards_y();
}
inline uint32_t tinselNumThreads() {
  return tessera::drivers::Sysinfo().num_harts();
}
// Slots each thread owns, the send slot included (Tinsel's TinselMsgsPerThread).
inline uint32_t tinselMsgsPerThread() {
  return tessera_mbox_slots_per_thread(tinselThreadsPerTile());
}
inline uint32_t tinselLogMsgsPerThread() {
  return tessera_log2_ceil(tinselMsgsPerThread());
}

// ---- Slots ----------------------------------------------------------------------------------

// The caller's n-th slot, n < tinselMsgsPerThread() (original API; slot 0 is for sending).
inline volatile void* tinselSlot(uint32_t n) {
  return tessera_mbox_pointer(tessera_mbox_slot_address(tinselId(), tinselThreadsPerTile(), n));
}

// The caller's send slot (later API).
inline volatile void* tinselSendSlot() {
  return tinselSlot(0);
}

// Gives a slot to hardware for receiving: tinselAlloc (original) and tinselFree (later) are the
// same operation.
inline void tinselFree(volatile void* msg) {
  tessera_mbox_free(tessera_mbox_bus_address(msg));
}
inline void tinselAlloc(volatile void* msg) {
  tinselFree(msg);
}

// ---- Sending and receiving --------------------------------------------------------------------

inline int tinselCanSend() {
  return (int)tessera_mbox_can_send();
}

inline int tinselCanRecv() {
  return (int)tessera_mbox_can_recv();
}

// The next message is n + 1 flits long.
inline void tinselSetLen(int n) {
  tessera_mbox_set_len((uint32_t)n);
}

// Sends the message at msg (a slot of the caller's tile) to thread `dest` (or tinselHostId()).
inline void tinselSend(uint32_t dest, volatile void* msg) {
  tessera_mbox_send(dest, tessera_mbox_bus_address(msg));
}

// Sends the message at msg to each thread k of mailbox mboxDest (thread id >>
// tinselLogThreadsPerMailbox()) with bit k of destMaskHigh:destMaskLow set.
inline void tinselMulticast(uint32_t mboxDest, uint32_t destMaskHigh, uint32_t destMaskLow,
                            volatile void* msg) {
  tessera_mbox_multicast(mboxDest, destMaskHigh, destMaskLow, tessera_mbox_bus_address(msg));
}

// The slot of the oldest waiting message, now the caller's (free it when done).
inline volatile void* tinselRecv() {
  return tessera_mbox_pointer(tessera_mbox_recv());
}

// Sleeps until one of the conditions holds.
inline void tinselWaitUntil(TinselWakeupCond cond) {
  (void)tessera_mbox_wait_until((uint32_t)cond);
}

// Sleeps until a message is waiting (returns 0) or every thread of the machine is in tinselIdle
// with no message undelivered (returns 1, or 3 if every thread voted true). docs/idle.md.
inline int tinselIdle(int vote) {
  return tessera_mbox_idle(vote);
}

// ---- Memory -----------------------------------------------------------------------------------

// Start of the caller's free partition memory (its stack grows down from the partition's top).
inline void* tinselHeapBase() {
  return tessera::heap_base();
}
