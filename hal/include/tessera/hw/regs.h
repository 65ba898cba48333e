/*
 * Tessera hardware reference: CSR numbers, memory map, register offsets.
 *
 * The single source of truth shared by the firmware (C++), the device models
 * (plain C), the host HAL backend and the QEMU machine. Plain C99 with no
 * dependency beyond <stdint.h> so that every one of those can include it.
 * docs/memory-map.md describes the same facts for people; keep them in step.
 */
#ifndef TESSERA_HW_REGS_H
#define TESSERA_HW_REGS_H

#include <stdint.h>

/* ---------------------------------------------------------------------------
 * Custom CSRs (numbers of the reference Tinsel hardware, csrrw forms only)
 * ------------------------------------------------------------------------- */
#define TESSERA_CSR_FREE        0x802 /* write: give a slot to hardware (alloc/free) */
#define TESSERA_CSR_CAN_SEND    0x803 /* read: 1 if a send may start             */
#define TESSERA_CSR_CAN_RECV    0x805 /* read: 1 if a message is waiting         */
#define TESSERA_CSR_SEND_LEN    0x806 /* write: flits - 1 of the next send       */
#define TESSERA_CSR_SEND_PTR    0x807 /* write: scratchpad slot to send from     */
#define TESSERA_CSR_SEND        0x808 /* write: destination thread id; sends     */
#define TESSERA_CSR_RECV        0x809 /* read: slot address of the next message  */
#define TESSERA_CSR_WAIT_UNTIL  0x80a /* swap: block until a condition holds     */
#define TESSERA_CSR_FROM_UART   0x80b /* read: byte from the host link           */
#define TESSERA_CSR_TO_UART     0x80c /* write: byte to the host link            */
#define TESSERA_CSR_EMIT        0x80f /* write: the word as a console line       */
/* Tessera extensions (no number of the reference hardware is reused). */
#define TESSERA_CSR_MCAST_HI    0x811 /* write: multicast mask, threads 32..63 */
#define TESSERA_CSR_MCAST_LO    0x812 /* write: multicast mask, threads 0..31  */
#define TESSERA_CSR_MCAST_SEND  0x813 /* write: mailbox id; sends to the mask  */
#define TESSERA_CSR_MBOX_FAULT  0x814 /* read: code of the last mailbox fault  */
/* Open-collector bus (docs/ocbus.md): the blocking wait beside its MMIO. */
#define TESSERA_CSR_OCBUS_WAIT  0x815 /* swap: mask | value << 8; blocks until
                                         the masked lines read value; returns
                                         the global value that satisfied it */
/* Reflex switches (docs/reflex.md): one switch per hart. */
#define TESSERA_CSR_REFLEX_SEND   0x816 /* swap: payload; 1 = the flit entered
                                           the outbound buffer, 0 = refused */
#define TESSERA_CSR_REFLEX_RECV   0x817 /* read: next inbound flit; blocks
                                           while the inbound buffer is empty */
#define TESSERA_CSR_REFLEX_ROUTE  0x818 /* read/write: TESSERA_REFLEX_ROUTE_* */
#define TESSERA_CSR_REFLEX_NEXT   0x819 /* read/write: thread id of the next
                                           switch, TESSERA_REFLEX_NO_NEXT */
#define TESSERA_CSR_REFLEX_STATUS 0x81a /* read: inbound flits | outbound
                                           free << 16 */
#define TESSERA_CSR_REFLEX_WAIT_SEND 0x81b /* read: blocks until the outbound
                                              buffer has room; returns it */
/* Counting barrier controller (docs/barrier-controller.md). Values are
 * uid | count << 16 (TESSERA_BARRIER_VALUE). */
#define TESSERA_CSR_BARRIER_COUNT 0x81c /* swap: register count for uid (0 =
                                           none); reads the count it had */
#define TESSERA_CSR_BARRIER_ENTER 0x81d /* swap: enter uid with count (0 =
                                           the registered one); blocks until
                                           released; reads TESSERA_BARRIER_* */
/* A receive loop's round trips in one (docs/mailbox.md): FREE of the slot
 * written (0: none), then RECV if a message waits, and CAN_SEND. */
#define TESSERA_CSR_RECV_FREE   0x81e /* swap: slot to free, or 0; reads the
                                         next message's slot (0: none waits)
                                         | TESSERA_RECV_FREE_CAN_SEND */
#define TESSERA_CSR_HART_ID     0xf14 /* read: global thread id (mhartid)        */
#define TESSERA_CSR_CYCLE       0xc00 /* read: modelled cycle count (low word)   */
#define TESSERA_CSR_CYCLEH      0xc80 /* read: modelled cycle count (high word)  */
#define TESSERA_CSR_MIP         0x344 /* read: pending interrupts (mip)          */
#define TESSERA_MIP_MSIP        (1u << 3) /* mip.MSIP: the hart's MSWI msip bit  */

/* True for the CSRs the mailbox implements. */
static inline int tessera_csr_is_mailbox(uint32_t csr)
{
    switch (csr) {
    case TESSERA_CSR_FREE:
    case TESSERA_CSR_CAN_SEND:
    case TESSERA_CSR_CAN_RECV:
    case TESSERA_CSR_SEND_LEN:
    case TESSERA_CSR_SEND_PTR:
    case TESSERA_CSR_SEND:
    case TESSERA_CSR_RECV:
    case TESSERA_CSR_WAIT_UNTIL:
    case TESSERA_CSR_MCAST_HI:
    case TESSERA_CSR_MCAST_LO:
    case TESSERA_CSR_MCAST_SEND:
    case TESSERA_CSR_MBOX_FAULT:
    case TESSERA_CSR_RECV_FREE:
        return 1;
    default:
        return 0;
    }
}

/* Bit 0 of what RECV_FREE reads (slot addresses are 64-byte aligned): 1 if a
 * send may start, as CAN_SEND would read after the operation. */
#define TESSERA_RECV_FREE_CAN_SEND 1u

/* True for the CSRs of the reflex switches. */
static inline int tessera_csr_is_reflex(uint32_t csr)
{
    return csr >= TESSERA_CSR_REFLEX_SEND &&
           csr <= TESSERA_CSR_REFLEX_WAIT_SEND;
}

/* True for the mailbox CSRs that act only when written: a read of one
 * (csrr, or csrrs/csrrc with x0) reads 0 and does nothing. */
static inline int tessera_csr_is_mailbox_command(uint32_t csr)
{
    switch (csr) {
    case TESSERA_CSR_FREE:
    case TESSERA_CSR_SEND_LEN:
    case TESSERA_CSR_SEND_PTR:
    case TESSERA_CSR_SEND:
    case TESSERA_CSR_MCAST_HI:
    case TESSERA_CSR_MCAST_LO:
    case TESSERA_CSR_MCAST_SEND:
        return 1;
    default:
        return 0;
    }
}

/* Mailbox faults: a bad mailbox operation traps as an illegal instruction
 * on the CSR instruction, and TESSERA_CSR_MBOX_FAULT then reads the code.
 * X(NAME, code, description) */
#define TESSERA_MAILBOX_FAULTS(X)                                              \
    X(NONE, 0, "no fault")                                                     \
    X(BAD_DESTINATION, 1, "bad destination") /* no such thread */             \
    X(BAD_SLOT, 2, "bad slot")       /* outside the scratchpad, misaligned */  \
    X(BAD_LENGTH, 3, "bad length")   /* more than 4 flits */                   \
    X(DOUBLE_FREE, 4, "double free") /* slot already owned by hardware */     \
    X(RECV_EMPTY, 5, "receive with nothing waiting")                           \
    X(SEND_BUSY, 6, "send while can-send is 0")                                \
    X(BAD_WAIT, 7, "bad wait condition") /* none, or an unknown bit */

#define TESSERA_FAULT_ENUM_(name, code, text) TESSERA_FAULT_##name = (code),
typedef enum TesseraMailboxFault {
    TESSERA_MAILBOX_FAULTS(TESSERA_FAULT_ENUM_)
} TesseraMailboxFault;
#undef TESSERA_FAULT_ENUM_

/* "double free", ...; "unknown fault" for a code outside the list. */
static inline const char *tessera_mailbox_fault_name(uint32_t code)
{
#define TESSERA_FAULT_NAME_(name, value, text)                                 \
    case (value):                                                              \
        return (text);
    switch (code) {
        TESSERA_MAILBOX_FAULTS(TESSERA_FAULT_NAME_)
    default:
        return "unknown fault";
    }
#undef TESSERA_FAULT_NAME_
}

/* Wait-until condition bits (TESSERA_CSR_WAIT_UNTIL). */
#define TESSERA_WAIT_CAN_SEND   (1u << 0)
#define TESSERA_WAIT_CAN_RECV   (1u << 1)
#define TESSERA_WAIT_IDLE       (1u << 2)
#define TESSERA_WAIT_IDLE_VOTE  (1u << 3)

/* Reflex switch routes (TESSERA_CSR_REFLEX_ROUTE): where a flit that
 * arrives from the previous switch goes. A flit from the switch's own core
 * always goes to the next switch. An unconfigured switch (OFF) passes
 * nothing: a flit whose path reaches it waits. */
#define TESSERA_REFLEX_ROUTE_OFF     0u /* not configured (reset)          */
#define TESSERA_REFLEX_ROUTE_CORE    1u /* to the core only: a ring's root,
                                           where the ring is broken        */
#define TESSERA_REFLEX_ROUTE_FORWARD 2u /* to the next switch only         */
#define TESSERA_REFLEX_ROUTE_BOTH    3u /* multicast: the core and the next */
#define TESSERA_REFLEX_NO_NEXT       0xffffffffu /* no next switch (reset) */

/* Barrier controller values and statuses (TESSERA_CSR_BARRIER_ENTER reads
 * a status; TESSERA_CSR_BARRIER_COUNT reads the previous count). */
#define TESSERA_BARRIER_UID_MASK    0xffffu /* uid: bits 0..15             */
#define TESSERA_BARRIER_COUNT_SHIFT 16      /* count: bits 16..31          */
#define TESSERA_BARRIER_VALUE(uid, count) \
    (((uint32_t)(uid) & TESSERA_BARRIER_UID_MASK) | \
     (uint32_t)(count) << TESSERA_BARRIER_COUNT_SHIFT)
#define TESSERA_BARRIER_MAX_OPEN    1024    /* uids open at once           */
#define TESSERA_BARRIER_OK          0 /* released: every participant came  */
#define TESSERA_BARRIER_NO_COUNT    1 /* count 0 and no registered count   */
#define TESSERA_BARRIER_MISMATCH    2 /* uid open with a different count   */
#define TESSERA_BARRIER_BUSY        3 /* the hart already has an entry out */
#define TESSERA_BARRIER_TOO_MANY    4 /* count above the harts there are   */
#define TESSERA_BARRIER_FULL        5 /* TESSERA_BARRIER_MAX_OPEN uids open */

/* ---------------------------------------------------------------------------
 * Memory map. Every hart sees the same map; what differs is which tile's
 * scratchpad and which board's DRAM sits behind the windows.
 * ------------------------------------------------------------------------- */
#define TESSERA_SCRATCH_BASE    0x00010000u /* this tile's mailbox scratchpad   */
/* A dev board's scratchpad is what RAM it can spare (docs/boards.md): its
 * build sets TESSERA_BOARD_SCRATCH_SIZE (boards/<board>/board.cmake). */
#ifdef TESSERA_BOARD_SCRATCH_SIZE
#define TESSERA_SCRATCH_SIZE    TESSERA_BOARD_SCRATCH_SIZE
#else
#define TESSERA_SCRATCH_SIZE    0x00010000u /* 64 KiB: 1,024 slots of 64 bytes   */
#endif
#define TESSERA_SYSINFO_BASE    0x00100000u /* machine facts, boot check-in      */
#define TESSERA_SYSINFO_SIZE    0x00001000u
#define TESSERA_EXIT_BASE       0x00101000u /* exit device: pass, fail, reset    */
#define TESSERA_EXIT_SIZE       0x00001000u
#define TESSERA_CONSOLE_BASE    0x00102000u /* line-assembling console UART      */
#define TESSERA_CONSOLE_SIZE    0x00001000u
#define TESSERA_OCBUS_BASE      0x00103000u /* open-collector bus lines          */
#define TESSERA_OCBUS_SIZE      0x00001000u
#define TESSERA_MSWI_BASE       0x02000000u /* per-board ACLINT MSWI             */
#define TESSERA_MSWI_STRIDE     0x00004000u /* board b's MSWI at BASE + b*STRIDE */
#define TESSERA_MSWI_SIZE       0x00100000u /* room for 64 boards                */
#define TESSERA_DRAM_BASE       0x80000000u /* this board's DRAM                 */
#define TESSERA_CODE_SIZE       0x00400000u /* code, data, bss: first 4 MiB      */

/* Message slots: 64 bytes each; a message is 1..4 flits of 16 bytes. */
#define TESSERA_LOG_BYTES_PER_SLOT  6
#define TESSERA_BYTES_PER_SLOT      (1u << TESSERA_LOG_BYTES_PER_SLOT)
#define TESSERA_BYTES_PER_FLIT      16u
#define TESSERA_MAX_FLITS           4u

/* Host link frames, both directions (docs/mailbox.md, "Host link"): a
 * little-endian header, then flits * TESSERA_BYTES_PER_FLIT payload bytes.
 * The codec is tessera/models/hostlink.h. */
#define TESSERA_HOSTLINK_THREAD       0u  /* u32 thread: source or destination */
#define TESSERA_HOSTLINK_FLITS        4u  /* u32 flits: 1..TESSERA_MAX_FLITS    */
#define TESSERA_HOSTLINK_CYCLE        8u  /* u64 cycle it reached the host      */
#define TESSERA_HOSTLINK_HEADER_BYTES 16u
#define TESSERA_HOSTLINK_MAX_FRAME_BYTES \
    (TESSERA_HOSTLINK_HEADER_BYTES + TESSERA_MAX_FLITS * TESSERA_BYTES_PER_FLIT)
/* Control frame, host to machine, header only: thread END_OF_INPUT with 0
 * flits says the host has finished sending (for deadlock detection). A
 * later frame opens its input again. */
#define TESSERA_HOSTLINK_END_OF_INPUT 0xffffffffu

/* Slots of a tile's scratchpad are divided evenly among its threads, in
 * thread order; each thread's first slot is its send slot, the others are
 * for receiving. */
#define TESSERA_SLOTS_PER_TILE  (TESSERA_SCRATCH_SIZE / TESSERA_BYTES_PER_SLOT)

/* ---------------------------------------------------------------------------
 * Sysinfo registers (32-bit, read-only unless noted). Registers marked
 * "per hart" answer for the hart that reads them.
 * ------------------------------------------------------------------------- */
#define TESSERA_SYSINFO_MAGIC            0x00 /* 'TSRA' */
#define TESSERA_SYSINFO_VERSION          0x04
#define TESSERA_SYSINFO_BOARDS_X         0x08
#define TESSERA_SYSINFO_BOARDS_Y         0x0c
#define TESSERA_SYSINFO_TILES_X          0x10
#define TESSERA_SYSINFO_TILES_Y          0x14
#define TESSERA_SYSINFO_CORES_PER_TILE   0x18
#define TESSERA_SYSINFO_THREADS_PER_CORE 0x1c
#define TESSERA_SYSINFO_CLOCK_MHZ        0x20
#define TESSERA_SYSINFO_DRAM_SIZE        0x24 /* bytes of DRAM per board       */
#define TESSERA_SYSINFO_PARTITION_SIZE   0x28 /* bytes of stack+heap per hart  */
#define TESSERA_SYSINFO_NUM_HARTS        0x2c /* harts in the whole machine    */
#define TESSERA_SYSINFO_HART_INDEX       0x30 /* per hart: dense index, 0..N-1 */
#define TESSERA_SYSINFO_PARTITION_BASE   0x34 /* per hart: its partition       */
#define TESSERA_SYSINFO_CHECKIN          0x38 /* write: check in; read: count  */
#define TESSERA_SYSINFO_BOARD_LEADER     0x3c /* per hart: 1 if first of board */
#define TESSERA_SYSINFO_HOST_ID          0x40 /* thread id of the host         */
#define TESSERA_SYSINFO_REFLEX_BUFFER_FLITS 0x44 /* reflex switch buffer B  */
/* Modelled timing (machine properties of the same names), for firmware that
 * predicts its own costs: the barrier library's model (docs/barriers.md). */
#define TESSERA_SYSINFO_CPI              0x48 /* cycles per instruction        */
#define TESSERA_SYSINFO_TILE_HOP_CYCLES  0x4c
#define TESSERA_SYSINFO_BOARD_HOP_CYCLES 0x50 /* L                             */
#define TESSERA_SYSINFO_OCBUS_SETTLE_CYCLES 0x54
#define TESSERA_SYSINFO_REFLEX_HOP_CYCLES 0x58
#define TESSERA_SYSINFO_BARRIER_TILE_X   0x5c /* the barrier controller's tile */
#define TESSERA_SYSINFO_BARRIER_TILE_Y   0x60

/* The values of the timing registers above, in their order. */
typedef struct TesseraTiming {
    uint32_t cpi;
    uint32_t tile_hop_cycles;
    uint32_t board_hop_cycles;
    uint32_t ocbus_settle_cycles;
    uint32_t reflex_hop_cycles;
    uint32_t barrier_tile_x;
    uint32_t barrier_tile_y;
} TesseraTiming;

#define TESSERA_SYSINFO_MAGIC_VALUE      0x41525354u /* "TSRA" little-endian */
#define TESSERA_SYSINFO_VERSION_VALUE    1u

/* Exit device: one write-only register at offset 0, with the encoding of
 * QEMU's sifive_test (models/exit.c). A FAIL code outside 1..FAIL_CODE_MAX
 * ends the run with status 1: an 8-bit exit status cannot carry it, and a
 * failure must never read as success. */
#define TESSERA_EXIT_PASS       0x5555u
#define TESSERA_EXIT_FAIL       0x3333u /* | (code << 16) */
#define TESSERA_EXIT_RESET      0x7777u /* reset the machine (QEMU only) */
#define TESSERA_EXIT_FAIL_CODE_MAX 255u

/* Exit status of a run ended by a trap: base + exception or interrupt code
 * (masked to keep it within an 8-bit status). The runtime's trap handler
 * uses it, and so does the machine for a hart it parks. */
#define TESSERA_EXIT_EXCEPTION_BASE 128u
#define TESSERA_EXIT_INTERRUPT_BASE 192u
#define TESSERA_EXIT_CAUSE_MASK     63u

/* Console: bytes written to TX join the writing hart's line; a newline, a
 * full line buffer or a write to FLUSH prints the line whole. */
#define TESSERA_CONSOLE_TX      0x00
#define TESSERA_CONSOLE_FLUSH   0x04
#define TESSERA_CONSOLE_LINE_MAX 256u

/* Open-collector bus registers (32-bit; docs/ocbus.md). Bit i of a value
 * is line i. LOCAL and LINE(i) are per hart: what the hart drives. */
#define TESSERA_OCBUS_LOCAL     0x00 /* read/write: this hart's local values */
#define TESSERA_OCBUS_GLOBAL    0x04 /* read-only: AND over every hart       */
#define TESSERA_OCBUS_LINES     0x08 /* read-only: lines of this machine     */
#define TESSERA_OCBUS_SETTLE    0x0c /* read-only: settle time in cycles     */
#define TESSERA_OCBUS_LINE(i)   (0x10 + 4 * (i)) /* write: drive line i (0 or
                                                    1); read: line i global */
/* ACWT's lines (DESIGN 1.6); the data bus adds lines DATA.. as data. */
#define TESSERA_OCBUS_VALID     0u
#define TESSERA_OCBUS_ACCEPTED  1u
#define TESSERA_OCBUS_NEXT      2u
#define TESSERA_OCBUS_DATA      3u

/* ---------------------------------------------------------------------------
 * Image header: the first TESSERA_IMAGE_HEADER_WORDS words of every image,
 * at TESSERA_DRAM_BASE, which _start jumps over (firmware/runtime/start.S).
 * The shape words name the shape the image was built for: a Tinsel-dialect
 * program compiles its thread-id layout in from config.h. All six zero
 * means any shape, as for Tessera's own images. The machine refuses to boot
 * an image built for another shape (models/image.c).
 * ------------------------------------------------------------------------- */
#define TESSERA_IMAGE_MAGIC_WORD    1u          /* word 0 is the jump        */
#define TESSERA_IMAGE_MAGIC         0x4d495354u /* "TSIM" little-endian      */
#define TESSERA_IMAGE_SHAPE_WORD    2u /* words 2..7: boards x, boards y,
                                          tiles x, tiles y, cores per tile,
                                          threads per core                */
#define TESSERA_IMAGE_HEADER_WORDS  8u

/* ---------------------------------------------------------------------------
 * Preload file (machine property preload=<file>): bytes the machine writes
 * into threads' partitions before any hart runs, and again at every reset;
 * what a host program's PGraph::write gives the vertex runtime
 * (models/preload.c). Little-endian words: a header of magic, version and
 * record count, then each record's thread id, byte offset within that
 * thread's partition and length, followed by its bytes, padded to 4.
 * ------------------------------------------------------------------------- */
#define TESSERA_PRELOAD_MAGIC          0x4c505354u /* "TSPL" little-endian */
#define TESSERA_PRELOAD_VERSION        1u
#define TESSERA_PRELOAD_HEADER_BYTES   12u
#define TESSERA_PRELOAD_RECORD_BYTES   12u

/* ---------------------------------------------------------------------------
 * Thread ids (DESIGN 1.1): most significant first board Y, board X, tile Y,
 * tile X, core in tile, thread in core. Each field is ceil(log2(extent))
 * bits wide; tile, core and thread extents are powers of two.
 * ------------------------------------------------------------------------- */
static inline uint32_t tessera_log2_ceil(uint32_t n)
{
    uint32_t bits = 0;
    while ((1u << bits) < n) {
        bits++;
    }
    return bits;
}

typedef struct TesseraShape {
    uint32_t boards_x, boards_y;
    uint32_t tiles_x, tiles_y;
    uint32_t cores_per_tile;
    uint32_t threads_per_core;
} TesseraShape;

typedef struct TesseraCoords {
    uint32_t board_x, board_y, tile_x, tile_y, core, thread;
} TesseraCoords;

static inline uint32_t tessera_threads_per_tile(const TesseraShape *s)
{
    return s->cores_per_tile * s->threads_per_core;
}

static inline uint32_t tessera_threads_per_board(const TesseraShape *s)
{
    return s->tiles_x * s->tiles_y * tessera_threads_per_tile(s);
}

static inline uint32_t tessera_num_threads(const TesseraShape *s)
{
    return s->boards_x * s->boards_y * tessera_threads_per_board(s);
}

/* Bits of a thread id below the board fields. */
static inline uint32_t tessera_board_shift(const TesseraShape *s)
{
    return tessera_log2_ceil(s->threads_per_core) +
           tessera_log2_ceil(s->cores_per_tile) +
           tessera_log2_ceil(s->tiles_x) + tessera_log2_ceil(s->tiles_y);
}

/* Bits of a thread id below the tile fields (= log2 threads per tile). */
static inline uint32_t tessera_tile_shift(const TesseraShape *s)
{
    return tessera_log2_ceil(s->threads_per_core) +
           tessera_log2_ceil(s->cores_per_tile);
}

static inline uint32_t tessera_thread_id(const TesseraShape *s,
                                         const TesseraCoords *c)
{
    uint32_t id = c->board_y;
    id = (id << tessera_log2_ceil(s->boards_x)) | c->board_x;
    id = (id << tessera_log2_ceil(s->tiles_y)) | c->tile_y;
    id = (id << tessera_log2_ceil(s->tiles_x)) | c->tile_x;
    id = (id << tessera_log2_ceil(s->cores_per_tile)) | c->core;
    id = (id << tessera_log2_ceil(s->threads_per_core)) | c->thread;
    return id;
}

static inline TesseraCoords tessera_coords(const TesseraShape *s, uint32_t id)
{
    TesseraCoords c;
    uint32_t b;
    b = tessera_log2_ceil(s->threads_per_core);
    c.thread = id & ((1u << b) - 1);
    id >>= b;
    b = tessera_log2_ceil(s->cores_per_tile);
    c.core = id & ((1u << b) - 1);
    id >>= b;
    b = tessera_log2_ceil(s->tiles_x);
    c.tile_x = id & ((1u << b) - 1);
    id >>= b;
    b = tessera_log2_ceil(s->tiles_y);
    c.tile_y = id & ((1u << b) - 1);
    id >>= b;
    b = tessera_log2_ceil(s->boards_x);
    c.board_x = id & ((1u << b) - 1);
    id >>= b;
    c.board_y = id;
    return c;
}

/* True if id names a thread that exists in this shape. */
static inline int tessera_thread_exists(const TesseraShape *s, uint32_t id)
{
    TesseraCoords c = tessera_coords(s, id);
    return c.board_x < s->boards_x && c.board_y < s->boards_y &&
           c.tile_x < s->tiles_x && c.tile_y < s->tiles_y &&
           c.core < s->cores_per_tile && c.thread < s->threads_per_core;
}

/* Dense index 0..N-1, boards in row-major order, then the board-local id. */
static inline uint32_t tessera_dense_index(const TesseraShape *s, uint32_t id)
{
    TesseraCoords c = tessera_coords(s, id);
    uint32_t board = c.board_y * s->boards_x + c.board_x;
    uint32_t local = id & ((1u << tessera_board_shift(s)) - 1);
    return board * tessera_threads_per_board(s) + local;
}

/* Thread id of dense index i: the inverse of tessera_dense_index. */
static inline uint32_t tessera_thread_at(const TesseraShape *s, uint32_t i)
{
    uint32_t per_board = tessera_threads_per_board(s);
    uint32_t board = i / per_board;
    uint32_t board_field = (board / s->boards_x)
                               << tessera_log2_ceil(s->boards_x) |
                           board % s->boards_x;
    return board_field << tessera_board_shift(s) | i % per_board;
}

/* Base address of a thread's partition in its board's DRAM: the partitions
 * follow the code window, in board-local order. */
static inline uint32_t tessera_partition_base(const TesseraShape *s,
                                              uint32_t id,
                                              uint32_t partition_size)
{
    return TESSERA_DRAM_BASE + TESSERA_CODE_SIZE +
           tessera_dense_index(s, id) % tessera_threads_per_board(s) *
               partition_size;
}

/* The host sits above every thread id: one more board row. */
static inline uint32_t tessera_host_id(const TesseraShape *s)
{
    return s->boards_y << (tessera_board_shift(s) +
                           tessera_log2_ceil(s->boards_x));
}

#endif /* TESSERA_HW_REGS_H */
