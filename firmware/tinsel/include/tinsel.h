/*
 * The Tinsel API on Tessera, so that programs written for the reference hardware build unchanged,
 * in C (gnu11) as Tinsel compiles them and in C++20. Both spellings of the API are here: the
 * original one (tinselSlot, tinselAlloc, tinselSend from any slot) and the later public release's
 * (tinselSendSlot, tinselFree, tinselMulticast, tinselIdle). docs/tinsel.md lists what is
 * compatible and what differs; docs/mailbox.md has the mailbox itself.
 *
 * A zero-cost layer: every mailbox call is one call of the mailbox driver's core
 * (tessera/drivers/mailbox_core.h), which inlines to the CSR instructions themselves; the shape
 * facts are sysinfo reads. In C++ every access goes through the HAL facades, so the same header
 * runs Tinsel-style programs on the host machine (boards/hosted) in unit tests; in C (the target
 * and the dev boards) they go through the HAL's C face (tessera/hal/c_api.h).
 *
 * Shapes. One image runs on every -M tessera shape unless it is built for one: programs of
 * tessera_add_tinsel_app get a config.h with Tinsel's compile-time constants (TinselMeshXBits,
 * TinselLogThreadsPerBoard, ...) for the shape they are built for, and their image records that
 * shape (the machine refuses to boot it on another). Without config.h the same facts are runtime
 * functions: tinselThreadsPerCore(), tinselLogThreadsPerMailbox(), tinselMsgsPerThread(), ...
 *
 * Slots. Every receive slot of a thread is given to hardware before main for v2 programs (the
 * default), as the later release's programs expect; v1 programs (TINSEL_API v1) call tinselAlloc
 * on tinselSlot(1..tinselMsgsPerThread()-1) themselves. Slot 0 is the thread's send slot.
 *
 * Misuse (sending while tinselCanSend() is 0, receiving with nothing waiting, freeing a slot
 * twice, a bad destination, slot or length) traps, and the trap report names the fault.
 */
#ifndef TESSERA_TINSEL_H
#define TESSERA_TINSEL_H

#include <stdint.h>

#include "io.h"
#include "tessera/drivers/mailbox_core.h"
#include "tessera/hw/regs.h"

#ifdef TESSERA_TINSEL_CONFIG
#include <config.h>
#endif

/* ---- How the header reaches the machine ----------------------------------------------------- */

#ifdef __cplusplus
#include "tessera/hal/csr.h"
#include "tessera/hal/dram.h"
#include "tessera/hal/mmio.h"
#define TESSERA_TINSEL_CSR_READ_(csr) (::tessera::hal::csr_read<(csr)>())
#define TESSERA_TINSEL_DRAM_(address) (::tessera::hal::dram_pointer(address))
#define TESSERA_TINSEL_CSR_WRITE_(csr, value) (::tessera::hal::csr_write<(csr)>(value))
#define TESSERA_TINSEL_SYSINFO_(reg) (::tessera::hal::mmio_read32(TESSERA_SYSINFO_BASE + (reg)))
#define TESSERA_TINSEL_EXTERN_C_ extern "C"
#elif defined(__riscv)
/* C, on the target or a dev board: the HAL's C face (tessera/hal/c_api.h). */
#include "tessera/hal/c_api.h"
#define TESSERA_TINSEL_CSR_READ_(csr) TESSERA_HAL_CSR_READ(csr)
#define TESSERA_TINSEL_CSR_WRITE_(csr, value) TESSERA_HAL_CSR_WRITE(csr, value)
#define TESSERA_TINSEL_SYSINFO_(reg) tessera_hal_mmio_read32(TESSERA_SYSINFO_BASE + (reg))
#define TESSERA_TINSEL_DRAM_(address) ((void *)(uintptr_t)(address))
#define TESSERA_TINSEL_EXTERN_C_ extern
#else
#error "tinsel.h: C only on the target and the dev boards (the host backend is C++)"
#endif

/* A call that cannot exist on Tessera stops the build with a message that says why. */
#define TESSERA_TINSEL_PRAGMA_(text) _Pragma(#text)
#define TESSERA_TINSEL_UNAVAILABLE_(why) (TESSERA_TINSEL_PRAGMA_(GCC error why) 0)

/* clang-format off: each message must stay one string literal for #pragma GCC error */
#define tinselKeySend(...) \
    TESSERA_TINSEL_UNAVAILABLE_("tinselKeySend: Tessera has no programmable routers, so no routing keys; send to thread ids with tinselSend or tinselMulticast (docs/tinsel.md)")
#define tinselUseRoutingKey(...) \
    TESSERA_TINSEL_UNAVAILABLE_("tinselUseRoutingKey: Tessera has no programmable routers, so no routing keys (docs/tinsel.md)")
#define tinselProgRouterSent(...) \
    TESSERA_TINSEL_UNAVAILABLE_("tinselProgRouterSent: Tessera has no programmable routers to count (docs/tinsel.md)")
#define tinselProgRouterSentInterBoard(...) \
    TESSERA_TINSEL_UNAVAILABLE_("tinselProgRouterSentInterBoard: Tessera has no programmable routers to count (docs/tinsel.md)")
#define tinselCacheFlush(...) \
    TESSERA_TINSEL_UNAVAILABLE_("tinselCacheFlush: Tessera has no data cache; a store reaches its board's DRAM at once, so there is nothing to flush (docs/tinsel.md)")
#define tinselFlushLine(...) \
    TESSERA_TINSEL_UNAVAILABLE_("tinselFlushLine: Tessera has no data cache; a store reaches its board's DRAM at once, so there is nothing to flush (docs/tinsel.md)")
#define tinselWriteInstr(...) \
    TESSERA_TINSEL_UNAVAILABLE_("tinselWriteInstr: Tessera has no separate instruction memory to write; the whole image is loaded at boot (docs/tinsel.md)")
#define tinselCreateThread(...) \
    TESSERA_TINSEL_UNAVAILABLE_("tinselCreateThread: every hardware thread runs main from boot; there is no run queue to add a thread to (docs/tinsel.md)")
#define tinselKillThread(...) \
    TESSERA_TINSEL_UNAVAILABLE_("tinselKillThread: there is no run queue to leave; return from main to stop a thread (docs/tinsel.md)")
#define tinselAccId(...) \
    TESSERA_TINSEL_UNAVAILABLE_("tinselAccId: Tessera has no custom accelerators (docs/tinsel.md)")
/* clang-format on */

/* Tinsel's POLite build compiles device code with -DTINSEL, and programs test it after including
 * this header (#ifdef TINSEL around tinselCycleCount or tinselId calls); on the harts it is set. */
#if defined(__riscv) && !defined(TINSEL)
#define TINSEL 1
#endif

/* Tinsel's tinsel-interface.h defines INLINE, and programs use it for their own functions. */
#ifndef INLINE
#define INLINE inline __attribute__((always_inline))
#endif

/* ---- Message format: fixed, as on Tinsel --------------------------------------------------- */

#ifndef TESSERA_TINSEL_CONFIG
#define TinselLogBytesPerFlit 4
#define TinselLogWordsPerFlit 2
#define TinselWordsPerFlit 4
#define TinselMaxFlitsPerMsg 4
#define TinselLogMaxFlitsPerMsg 2
#define TinselLogBytesPerMsg 6
#define TinselLogWordsPerMsg 4
#endif
#define TinselBytesPerMsg (1 << TinselLogBytesPerMsg)
#define TinselWordsPerMsg (1 << TinselLogWordsPerMsg)

/* Thread wakeup conditions: a logical OR of these (C++ has operator| for them). */
typedef enum {
    TINSEL_CAN_SEND = TESSERA_WAIT_CAN_SEND,
    TINSEL_CAN_RECV = TESSERA_WAIT_CAN_RECV
} TinselWakeupCond;

#ifdef __cplusplus
inline TinselWakeupCond operator|(TinselWakeupCond a, TinselWakeupCond b)
{
    return static_cast<TinselWakeupCond>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}
#endif

/* ---- The runtime's side (firmware/tinsel: perf.cc; firmware/runtime: the heap) ------------- */

/* Start of the calling hart's free partition memory, after its thread-local block. */
TESSERA_TINSEL_EXTERN_C_ void *tessera_heap_base(void);
/* Performance counters of the calling thread (perf.cc): on while counting, and the cycles it
 * spent waiting (tinselWaitUntil, tinselIdle) while counting. */
TESSERA_TINSEL_EXTERN_C_ __thread uint32_t tessera_tinsel_counting;
TESSERA_TINSEL_EXTERN_C_ __thread uint64_t tessera_tinsel_idle_cycles;

/* ---- Identity and time --------------------------------------------------------------------- */

/* Global thread id of the caller (mhartid). */
static inline uint32_t tinselId(void)
{
    return TESSERA_TINSEL_CSR_READ_(TESSERA_CSR_HART_ID);
}

/* Modelled cycle count of the caller, low 32 bits. */
static inline uint32_t tinselCycleCount(void)
{
    return TESSERA_TINSEL_CSR_READ_(TESSERA_CSR_CYCLE);
}

/* Bits 32..39 of the cycle count: Tinsel's counter is 40 bits wide. */
static inline uint32_t tinselCycleCountU(void)
{
    return TESSERA_TINSEL_CSR_READ_(TESSERA_CSR_CYCLEH) & 0xff;
}

/* The whole 64-bit modelled cycle count (a Tessera addition). */
static inline uint64_t tesseraCycleCount64(void)
{
    uint32_t high, low;
    do {
        high = TESSERA_TINSEL_CSR_READ_(TESSERA_CSR_CYCLEH);
        low = TESSERA_TINSEL_CSR_READ_(TESSERA_CSR_CYCLE);
    } while (high != TESSERA_TINSEL_CSR_READ_(TESSERA_CSR_CYCLEH));
    return (uint64_t)high << 32 | low;
}

/* Prints the word as a console line of the caller's, "emit 0x%08x" (CSR 0x80f, as Tinsel's
 * simulator prints it; the hardware prints nothing). */
static inline void tinselEmit(uint32_t x)
{
    TESSERA_TINSEL_CSR_WRITE_(TESSERA_CSR_EMIT, x);
}

/* A byte to the caller's console line (Tinsel: the DebugLink UART); it never refuses. */
static inline uint32_t tinselUartTryPut(uint8_t x)
{
    putchar(x);
    return 1;
}

/* Bit 8 set with a byte from the host in bits 7..0, or 0: the host has no byte channel to a
 * thread here, so there is never a byte (docs/tinsel.md). */
static inline uint32_t tinselUartTryGet(void)
{
    return 0;
}

/* Thread id of the host (messages sent to it leave the machine on the host link). */
static inline uint32_t tinselHostId(void)
{
    return TESSERA_TINSEL_SYSINFO_(TESSERA_SYSINFO_HOST_ID);
}

/* The host of the caller's box: there is one host. */
static inline uint32_t tinselMyBridgeId(void)
{
    return tinselHostId();
}

/* ---- Shape (compile-time constants in config.h, runtime facts here) ------------------------ */

static inline uint32_t tinselThreadsPerCore(void)
{
    return TESSERA_TINSEL_SYSINFO_(TESSERA_SYSINFO_THREADS_PER_CORE);
}
static inline uint32_t tinselCoresPerTile(void)
{
    return TESSERA_TINSEL_SYSINFO_(TESSERA_SYSINFO_CORES_PER_TILE);
}
static inline uint32_t tinselThreadsPerTile(void)
{
    return tinselCoresPerTile() * tinselThreadsPerCore();
}
static inline uint32_t tinselLogThreadsPerCore(void)
{
    return tessera_log2_ceil(tinselThreadsPerCore());
}
static inline uint32_t tinselLogCoresPerTile(void)
{
    return tessera_log2_ceil(tinselCoresPerTile());
}
static inline uint32_t tinselLogThreadsPerTile(void)
{
    return tessera_log2_ceil(tinselThreadsPerTile());
}
/* A mailbox serves a tile: Tinsel's "per mailbox" names. */
static inline uint32_t tinselThreadsPerMailbox(void)
{
    return tinselThreadsPerTile();
}
static inline uint32_t tinselLogThreadsPerMailbox(void)
{
    return tinselLogThreadsPerTile();
}
static inline uint32_t tinselTilesX(void)
{
    return TESSERA_TINSEL_SYSINFO_(TESSERA_SYSINFO_TILES_X);
}
static inline uint32_t tinselTilesY(void)
{
    return TESSERA_TINSEL_SYSINFO_(TESSERA_SYSINFO_TILES_Y);
}
static inline uint32_t tinselBoardsX(void)
{
    return TESSERA_TINSEL_SYSINFO_(TESSERA_SYSINFO_BOARDS_X);
}
static inline uint32_t tinselBoardsY(void)
{
    return TESSERA_TINSEL_SYSINFO_(TESSERA_SYSINFO_BOARDS_Y);
}
static inline uint32_t tinselNumThreads(void)
{
    return TESSERA_TINSEL_SYSINFO_(TESSERA_SYSINFO_NUM_HARTS);
}
/* Slots each thread owns, the send slot included (Tinsel's TinselMsgsPerThread). */
static inline uint32_t tinselMsgsPerThread(void)
{
    return tessera_mbox_slots_per_thread(tinselThreadsPerTile());
}
static inline uint32_t tinselLogMsgsPerThread(void)
{
    return tessera_log2_ceil(tinselMsgsPerThread());
}

/* The machine's shape, for the thread-id arithmetic below. */
static inline TesseraShape tessera_tinsel_shape_(void)
{
    TesseraShape s;
    s.boards_x = tinselBoardsX();
    s.boards_y = tinselBoardsY();
    s.tiles_x = tinselTilesX();
    s.tiles_y = tinselTilesY();
    s.cores_per_tile = tinselCoresPerTile();
    s.threads_per_core = tinselThreadsPerCore();
    return s;
}

/* Thread id of a thread given by its coordinates (tiles are Tinsel's mailboxes). */
static inline uint32_t tinselToAddr(uint32_t boardX, uint32_t boardY, uint32_t tileX,
                                    uint32_t tileY, uint32_t coreId, uint32_t threadId)
{
    const TesseraShape shape = tessera_tinsel_shape_();
    TesseraCoords c;
    c.board_x = boardX;
    c.board_y = boardY;
    c.tile_x = tileX;
    c.tile_y = tileY;
    c.core = coreId;
    c.thread = threadId;
    return tessera_thread_id(&shape, &c);
}

/* The coordinates of thread id addr: the inverse of tinselToAddr. */
static inline void tinselFromAddr(uint32_t addr, uint32_t *boardX, uint32_t *boardY,
                                  uint32_t *tileX, uint32_t *tileY, uint32_t *coreId,
                                  uint32_t *threadId)
{
    const TesseraShape shape = tessera_tinsel_shape_();
    const TesseraCoords c = tessera_coords(&shape, addr);
    *boardX = c.board_x;
    *boardY = c.board_y;
    *tileX = c.tile_x;
    *tileY = c.tile_y;
    *coreId = c.core;
    *threadId = c.thread;
}

/* ---- Slots --------------------------------------------------------------------------------- */

/* The caller's n-th slot, n < tinselMsgsPerThread() (original API; slot 0 is for sending). */
static inline volatile void *tinselSlot(uint32_t n)
{
    return tessera_mbox_pointer(tessera_mbox_slot_address(tinselId(), tinselThreadsPerTile(), n));
}

/* The caller's send slot. */
static inline volatile void *tinselSendSlot(void)
{
    return tinselSlot(0);
}

/* Defined in tessera_tinsel_runtime's extra_send_slot.cc; referenced only by
 * tinselSendSlotExtra, so an image links it exactly when it uses the extra slot. */
TESSERA_TINSEL_EXTERN_C_ const unsigned char tessera_tinsel_extra_send_slot;

/* A second send slot: the caller's slot 1. An image that calls this links
 * tessera_tinsel_extra_send_slot, and its v2 start-up then keeps slot 1 back from receiving (on
 * Tinsel, HostLinkParams::useExtraSendSlot asks the boot loader for the same). */
static inline volatile void *tinselSendSlotExtra(void)
{
    /* The address goes through an asm operand, so the reference survives optimisation. */
    __asm__ volatile("" : : "r"(&tessera_tinsel_extra_send_slot));
    return tinselSlot(1);
}

/* Gives a slot to hardware for receiving: tinselAlloc (original) and tinselFree (later) are the
 * same operation. */
static inline void tinselFree(volatile void *msg)
{
    tessera_mbox_free(tessera_mbox_bus_address(msg));
}
static inline void tinselAlloc(volatile void *msg)
{
    tinselFree(msg);
}

/* ---- Sending and receiving ----------------------------------------------------------------- */

static inline int tinselCanSend(void)
{
    return (int)tessera_mbox_can_send();
}

static inline int tinselCanRecv(void)
{
    return (int)tessera_mbox_can_recv();
}

/* The next message is n + 1 flits long. */
static inline void tinselSetLen(int n)
{
    tessera_mbox_set_len((uint32_t)n);
}

/* Sends the message at msg (a slot of the caller's tile) to thread dest (or tinselHostId()). */
static inline void tinselSend(int dest, volatile void *msg)
{
    tessera_mbox_send((uint32_t)dest, tessera_mbox_bus_address(msg));
}

/* Sends the message at msg to each thread k of mailbox mboxDest (thread id >>
 * tinselLogThreadsPerMailbox()) with bit k of destMaskHigh:destMaskLow set. */
static inline void tinselMulticast(uint32_t mboxDest, uint32_t destMaskHigh, uint32_t destMaskLow,
                                   volatile void *msg)
{
    tessera_mbox_multicast(mboxDest, destMaskHigh, destMaskLow, tessera_mbox_bus_address(msg));
}

/* The slot of the oldest waiting message, now the caller's (free it when done). */
static inline volatile void *tinselRecv(void)
{
    return tessera_mbox_pointer(tessera_mbox_recv());
}

/* Sleeps until one of the conditions holds. */
static inline void tinselWaitUntil(TinselWakeupCond cond)
{
    if (tessera_tinsel_counting) {
        const uint64_t before = tesseraCycleCount64();
        (void)tessera_mbox_wait_until((uint32_t)cond);
        tessera_tinsel_idle_cycles += tesseraCycleCount64() - before;
        return;
    }
    (void)tessera_mbox_wait_until((uint32_t)cond);
}

/* Sleeps until a message is waiting (returns 0) or every thread of the machine is in tinselIdle
 * with no message undelivered (returns 1, or 3 if every thread voted true). docs/idle.md. */
static inline int tinselIdle(int vote)
{
    if (tessera_tinsel_counting) {
        const uint64_t before = tesseraCycleCount64();
        const int result = tessera_mbox_idle(vote);
        tessera_tinsel_idle_cycles += tesseraCycleCount64() - before;
        return result;
    }
    return tessera_mbox_idle(vote);
}

/* ---- Memory -------------------------------------------------------------------------------- */

/*
 * A thread's partition (machine property partition-kib, P bytes) holds, from the bottom: its
 * thread-local block, then its "DRAM" heap up to P/2, its "SRAM" heap from P/2 to 3P/4, and its
 * stack, which grows down from the top. Tessera has no SRAM: the second heap is ordinary DRAM of
 * the same partition, sized 1 << TinselLogBytesPerSRAMPartition (P/4) in config.h.
 */
static inline void *tinselHeapBase(void)
{
    return tessera_heap_base();
}

static inline void *tinselHeapBaseSRAM(void)
{
    return TESSERA_TINSEL_DRAM_(TESSERA_TINSEL_SYSINFO_(TESSERA_SYSINFO_PARTITION_BASE) +
                                TESSERA_TINSEL_SYSINFO_(TESSERA_SYSINFO_PARTITION_SIZE) / 2);
}

/* ---- Performance counters (perf.cc) -------------------------------------------------------- */

/* Reset, start and stop the caller's counters. */
TESSERA_TINSEL_EXTERN_C_ void tinselPerfCountReset(void);
TESSERA_TINSEL_EXTERN_C_ void tinselPerfCountStart(void);
TESSERA_TINSEL_EXTERN_C_ void tinselPerfCountStop(void);
/* Cache events: Tessera has no data cache, so these count nothing and read 0. */
TESSERA_TINSEL_EXTERN_C_ uint32_t tinselMissCount(void);
TESSERA_TINSEL_EXTERN_C_ uint32_t tinselHitCount(void);
TESSERA_TINSEL_EXTERN_C_ uint32_t tinselWritebackCount(void);
/* Modelled cycles the caller spent waiting in tinselWaitUntil and tinselIdle while counting, low
 * 32 bits and bits 32..39 (Tinsel counts a core's idle cycles; Tessera a thread's). */
TESSERA_TINSEL_EXTERN_C_ uint32_t tinselCPUIdleCount(void);
TESSERA_TINSEL_EXTERN_C_ uint32_t tinselCPUIdleCountU(void);

#endif /* TESSERA_TINSEL_H */
