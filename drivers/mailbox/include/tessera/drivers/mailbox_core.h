/*
 * Mailbox driver core: the mailbox CSR protocol of the calling thread (docs/mailbox.md), in one
 * place. Every mailbox CSR that firmware issues is issued here:
 *
 *   tessera/drivers/mailbox_core.h   this file: static inline functions, C and C++
 *   tessera/drivers/mailbox.h        tessera::drivers::Mailbox and Slot, a typed C++ layer that
 *                                    checks arguments and answers with a Status
 *   tinsel.h                         the Tinsel API, one inline call of this core per function
 *   tessera/termination/             the termination-detection library (firmware/termination)
 *
 * Each function here inlines to its CSR instructions (a csrrw each on the target) and nothing
 * else: no checks. Misuse (a bad slot, length or destination, a send while can-send is 0, a
 * receive with nothing waiting, a double free) is a mailbox fault, an illegal-instruction trap
 * on the target and tessera::host::MailboxFault on the host machine.
 *
 * Slots are named by bus addresses (TESSERA_SCRATCH_BASE + offset), which is what the CSRs take
 * and return; tessera_mbox_pointer and tessera_mbox_bus_address convert for the calling hart.
 *
 * Names are tessera_mbox_*: the device model's functions are tessera_mailbox_*, and a host test
 * may see both.
 *
 * Languages. The header is written in the common subset of C (gnu11) and C++20. The CSR and
 * scratchpad accesses go through the HAL only: in C++ its facades (tessera/hal/csr.h,
 * tessera/hal/scratch.h), so the same code runs on the target, a dev board and the host
 * backend; in C its C face (tessera/hal/c_api.h: the target and the boards, not the host), on
 * the same backends. firmware builds compile this header as C as well (mailbox_core_c.c), so it
 * stays C.
 */
#ifndef TESSERA_DRIVERS_MAILBOX_CORE_H
#define TESSERA_DRIVERS_MAILBOX_CORE_H

#include <stdint.h>

#include "tessera/hw/regs.h"

#ifdef __cplusplus
#include "tessera/hal/csr.h"
#include "tessera/hal/scratch.h"
#define TESSERA_MBOX_CSR_SWAP_(csr, value) (::tessera::hal::csr_swap<(csr)>(value))
#define TESSERA_MBOX_POINTER_(bus_address) (::tessera::hal::scratch_pointer(bus_address))
#define TESSERA_MBOX_BUS_ADDRESS_(pointer) (::tessera::hal::scratch_bus_address(pointer))
#define TESSERA_MBOX_CONSTEXPR_ constexpr
#else
#include "tessera/hal/c_api.h"
#define TESSERA_MBOX_CSR_SWAP_(csr, value) TESSERA_HAL_CSR_SWAP(csr, value)
#define TESSERA_MBOX_POINTER_(bus_address) tessera_hal_scratch_pointer(bus_address)
#define TESSERA_MBOX_BUS_ADDRESS_(pointer) tessera_hal_scratch_bus_address(pointer)
#define TESSERA_MBOX_CONSTEXPR_
#endif

/* ---- Slot layout ----------------------------------------------------------------------------
 * A tile's slots are divided evenly among its threads, in thread order; a thread's first slot
 * is its send slot, the others are for receiving. */

/* Slots each thread of a tile of `threads_per_tile` threads owns (the send slot included). */
static inline TESSERA_MBOX_CONSTEXPR_ uint32_t
tessera_mbox_slots_per_thread(uint32_t threads_per_tile)
{
    return TESSERA_SLOTS_PER_TILE / threads_per_tile;
}

/* Bus address of slot n of thread `thread_id` (slot 0: its send slot). */
static inline TESSERA_MBOX_CONSTEXPR_ uint32_t
tessera_mbox_slot_address(uint32_t thread_id, uint32_t threads_per_tile, uint32_t n)
{
    return TESSERA_SCRATCH_BASE +
           ((thread_id & (threads_per_tile - 1)) * tessera_mbox_slots_per_thread(threads_per_tile) +
            n) * TESSERA_BYTES_PER_SLOT;
}

/* Non-zero if a bus address names a slot: inside the scratchpad and 64-byte aligned. */
static inline TESSERA_MBOX_CONSTEXPR_ int tessera_mbox_slot_valid(uint32_t bus_address)
{
    return bus_address >= TESSERA_SCRATCH_BASE &&
           bus_address - TESSERA_SCRATCH_BASE < TESSERA_SCRATCH_SIZE &&
           bus_address % TESSERA_BYTES_PER_SLOT == 0;
}

/* The calling hart's pointer to a bus address of its tile's scratchpad, and back. */
static inline volatile void *tessera_mbox_pointer(uint32_t bus_address)
{
    return TESSERA_MBOX_POINTER_(bus_address);
}

static inline uint32_t tessera_mbox_bus_address(const volatile void *pointer)
{
    return TESSERA_MBOX_BUS_ADDRESS_(pointer);
}

/* ---- CSR operations -------------------------------------------------------------------------- */

/* 1 if the outbound register is empty (a send may start), else 0. */
static inline uint32_t tessera_mbox_can_send(void)
{
    return TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_CAN_SEND, 0);
}

/* 1 if a message waits for tessera_mbox_recv, else 0. */
static inline uint32_t tessera_mbox_can_recv(void)
{
    return TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_CAN_RECV, 0);
}

/* Later sends are flits_minus_one + 1 flits long (0..3). */
static inline void tessera_mbox_set_len(uint32_t flits_minus_one)
{
    (void)TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_SEND_LEN, flits_minus_one);
}

/* Sends the slot at bus address `slot` to thread `dest` (or the host id). */
static inline void tessera_mbox_send(uint32_t dest, uint32_t slot)
{
    (void)TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_SEND_PTR, slot);
    (void)TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_SEND, dest);
}

/* Sends the slot at bus address `slot` to each thread k of mailbox `mailbox` (thread id >>
 * log2(threads per tile)) with bit k of mask_hi:mask_lo set. */
static inline void tessera_mbox_multicast(uint32_t mailbox, uint32_t mask_hi, uint32_t mask_lo,
                                          uint32_t slot)
{
    (void)TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_SEND_PTR, slot);
    (void)TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_MCAST_HI, mask_hi);
    (void)TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_MCAST_LO, mask_lo);
    (void)TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_MCAST_SEND, mailbox);
}

/* Bus address of the slot holding the oldest waiting message, now the caller's. */
static inline uint32_t tessera_mbox_recv(void)
{
    return TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_RECV, 0);
}

/* A receive loop's step in one operation (RECV_FREE): gives the slot at bus address `freed` to
 * hardware as tessera_mbox_free does (0: none), then takes the oldest waiting message as
 * tessera_mbox_recv does. Reads that slot's bus address (0 if none waits), with
 * TESSERA_RECV_FREE_CAN_SEND set if a send may start: tessera_mbox_recv_free_slot and
 * tessera_mbox_recv_free_can_send take the two apart. */
static inline uint32_t tessera_mbox_recv_free(uint32_t freed)
{
    return TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_RECV_FREE, freed);
}

static inline TESSERA_MBOX_CONSTEXPR_ uint32_t tessera_mbox_recv_free_slot(uint32_t result)
{
    return result & ~(uint32_t)(TESSERA_BYTES_PER_SLOT - 1);
}

static inline TESSERA_MBOX_CONSTEXPR_ int tessera_mbox_recv_free_can_send(uint32_t result)
{
    return (result & TESSERA_RECV_FREE_CAN_SEND) != 0;
}

/* The parts of tessera_mbox_multicast, for a caller that keeps what it wrote: the slot of later
 * sends (SEND_PTR) and the multicast mask (MCAST_HI:MCAST_LO) stay as written until written
 * again, so a runtime that always sends from one slot writes SEND_PTR once. */
static inline void tessera_mbox_set_send_ptr(uint32_t slot)
{
    (void)TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_SEND_PTR, slot);
}

static inline void tessera_mbox_set_mask_hi(uint32_t mask_hi)
{
    (void)TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_MCAST_HI, mask_hi);
}

static inline void tessera_mbox_set_mask_lo(uint32_t mask_lo)
{
    (void)TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_MCAST_LO, mask_lo);
}

/* Sends SEND_LEN + 1 flits from SEND_PTR to each thread k of mailbox `mailbox` with bit k of
 * the mask set. */
static inline void tessera_mbox_multicast_masked(uint32_t mailbox)
{
    (void)TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_MCAST_SEND, mailbox);
}

/* Gives the slot at bus address `slot` to hardware for receiving (Tinsel's alloc and free); a
 * received message in it counts as received from then on. */
static inline void tessera_mbox_free(uint32_t slot)
{
    (void)TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_FREE, slot);
}

/* Sleeps until one of the TESSERA_WAIT_* conditions holds; returns those that hold. */
static inline uint32_t tessera_mbox_wait_until(uint32_t conditions)
{
    return TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_WAIT_UNTIL, conditions);
}

/* tinselIdle (docs/idle.md): sleeps until a message is available (0) or the whole machine is
 * idle with no message undelivered (1, or 3 if every thread voted true). */
static inline int tessera_mbox_idle(int vote)
{
    const uint32_t conditions =
        vote ? (TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE)
             : (TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE);
    return (int)(tessera_mbox_wait_until(conditions) >> 2);
}

/* Code of the caller's last mailbox fault (tessera::drivers::MailboxFault), 0 if none. */
static inline uint32_t tessera_mbox_last_fault(void)
{
    return TESSERA_MBOX_CSR_SWAP_(TESSERA_CSR_MBOX_FAULT, 0);
}

#endif /* TESSERA_DRIVERS_MAILBOX_CORE_H */
