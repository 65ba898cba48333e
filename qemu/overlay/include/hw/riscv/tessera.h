/*
 * Tessera: a Tinsel-style mesh of boards of tiles of multithreaded
 * RV32IMF cores (see docs/machine.md in the Tessera repository).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_RISCV_TESSERA_H
#define HW_RISCV_TESSERA_H

#include "qapi/qapi-types-common.h"
#include "hw/boards.h"
#include "hw/sysbus.h"
#include "chardev/char-fe.h"
#include "target/riscv/cpu.h"
#include "tessera/hw/machine_params.h"
#include "tessera/hw/regs.h"
#include "tessera/models/access.h"
#include "tessera/models/clock.h"
#include "tessera/models/rank_split.h"
#include "tessera/models/sysinfo.h"
#include "tessera/models/termdet.h"
#include "tessera/models/waits.h"

#define TYPE_TESSERA_MACHINE MACHINE_TYPE_NAME("tessera")
OBJECT_DECLARE_SIMPLE_TYPE(TesseraMachineState, TESSERA_MACHINE)

#define TYPE_TESSERA_CONSOLE "tessera-console"
OBJECT_DECLARE_SIMPLE_TYPE(TesseraConsoleState, TESSERA_CONSOLE)

#define TYPE_TESSERA_SYSINFO "tessera-sysinfo"
OBJECT_DECLARE_SIMPLE_TYPE(TesseraSysinfoState, TESSERA_SYSINFO)

#define TYPE_TESSERA_EXIT "tessera-exit"
OBJECT_DECLARE_SIMPLE_TYPE(TesseraExitState, TESSERA_EXIT)

#define TYPE_TESSERA_MSWI "tessera-mswi"
OBJECT_DECLARE_SIMPLE_TYPE(TesseraMswiState, TESSERA_MSWI)

#define TYPE_TESSERA_MAILBOX "tessera-mailbox"
OBJECT_DECLARE_SIMPLE_TYPE(TesseraMailboxState, TESSERA_MAILBOX)

#define TYPE_TESSERA_OCBUS "tessera-ocbus"
OBJECT_DECLARE_SIMPLE_TYPE(TesseraOcbusState, TESSERA_OCBUS)

#define TYPE_TESSERA_REFLEX "tessera-reflex"
OBJECT_DECLARE_SIMPLE_TYPE(TesseraReflexState, TESSERA_REFLEX)

#define TYPE_TESSERA_BARRIER_CTL "tessera-barrier-ctl"
OBJECT_DECLARE_SIMPLE_TYPE(TesseraBarrierCtlState, TESSERA_BARRIER_CTL)
/* What the machine does on a deadlock (machine option deadlock=). */
typedef enum TesseraDeadlockAction {
    TESSERA_DEADLOCK_EXIT,   /* report, exit 125 */
    TESSERA_DEADLOCK_STOP,   /* report, pause for the debugger */
    TESSERA_DEADLOCK_OFF,    /* wait */
} TesseraDeadlockAction;
/* Upper bounds of the machine properties. */

typedef struct TesseraTile {
    MemoryRegion space;      /* what the tile's harts see */
    MemoryRegion io_alias;   /* the shared system bus, underneath */
    MemoryRegion dram_alias; /* the board's DRAM */
    MemoryRegion scratch;    /* the mailbox scratchpad, in scratch_ram */
    Object *container;       /* QOM parent of its harts and regions */
} TesseraTile;

/* Modelled time of every hart (tessera_time.c over models/clock.c). */
typedef struct TesseraTime {
    TesseraClocks *clocks;
} TesseraTime;

/* Time windows (tessera_windows.c, docs/ranks.md); on under -icount. */
typedef struct TesseraWindows {
    bool on;
    uint32_t groups;         /* groups of boards taking turns (1: none) */
    uint32_t *board_group;   /* [board], the ranks' split; NULL: 1 group */
    uint32_t active;         /* the group running its part of the window */
    uint64_t length;         /* cycles: board-hop-cycles */
    uint64_t end;            /* the window is [end - length, end) */
    unsigned long *held;     /* harts held until the window reaches them */
    uint32_t num_held;
    uint32_t refund;         /* hart held by its running instruction */
    uint64_t count;          /* windows ended */
    bool stalled;            /* windows can change nothing until a hart runs */
    bool ended;              /* an exit ended the run */
    /* The earliest exit written in this window: the run ends at its end */
    uint64_t exit_at;        /* UINT64_MAX: none */
    uint32_t exit_hart;
    uint32_t exit_value;     /* what it wrote */
    int exit_code;
    /* The earliest guest reset written: the machine resets at its end */
    uint64_t reset_at;       /* UINT64_MAX: none */
    uint32_t reset_hart;
    /* The earliest non-zero status a hart checked in with (sysinfo) */
    uint64_t fail_at;        /* UINT64_MAX: none */
    uint32_t fail_hart;
    int fail_code;
} TesseraWindows;

/* Ranks: the machine over several processes (tessera_ranks.c). */
typedef struct TesseraRanks {
    uint32_t count;          /* processes; 1: this one runs every board */
    uint32_t rank;           /* this process */
    TesseraRankRect rect;    /* its boards */
    char boards_text[48];    /* its boards, as messages name them */
    uint32_t *board_rank;    /* [board]; NULL with one rank */
    bool *local_boards;      /* [board]; NULL with one rank */
    bool quiet;              /* no rank has anything to do: all agreed */
    bool host_wait;          /* ... but the host may send (rank 0) */
} TesseraRanks;

/*
 * What one rank knows when a window ends. Every rank combines every rank's
 * vote the same way (tessera_ranks_agree), so all decide alike.
 */
typedef struct TesseraWindowVote {
    uint64_t go;             /* a hart woke or was let go on */
    uint64_t pending;        /* something waits for a window to end */
    uint64_t moved;          /* messages and commands the exchange moved */
    uint64_t held;           /* harts held */
    uint64_t posted;         /* barrier controller commands on their way */
    uint64_t earliest;       /* clock of the earliest held hart */
    uint64_t exit_at;        /* the earliest exit written; UINT64_MAX: none */
    uint64_t exit_hart;
    uint64_t exit_value;
    uint64_t exit_code;
    uint64_t checked_in;     /* harts that checked in (sysinfo) */
    uint64_t fail_at;        /* the earliest non-zero check-in status */
    uint64_t fail_hart;
    uint64_t fail_code;
    uint64_t host_frames;    /* the host's messages rank 0 holds */
    uint64_t host_may_send;  /* the host link is open (rank 0) */
    uint64_t ocbus_drives;   /* harts whose bus drive changed in the window */
    uint64_t reflex_ops;     /* reflex CSRs of the window, for the others */
    uint64_t reset_at;       /* the earliest guest reset; UINT64_MAX: none */
    uint64_t reset_hart;
    uint64_t output;         /* console lines and messages to the host held */
} TesseraWindowVote;

struct TesseraMachineState {
    MachineState parent_obj;

    /* properties */
    uint32_t boards_x, boards_y;
    uint32_t tiles_x, tiles_y;
    uint32_t cores_per_tile, threads_per_core;
    uint32_t clock_mhz;
    uint32_t tile_hop_cycles;
    uint32_t board_hop_cycles;
    uint32_t dram_mib;
    uint32_t partition_kib;
    uint32_t cpi;
    uint32_t buffer_flits;
    uint32_t ocbus_lines, ocbus_settle_cycles;
    uint32_t reflex_buffer_flits, reflex_hop_cycles;
    uint32_t barrier_tile_x, barrier_tile_y;
    char *hostlink;          /* chardev id of the host link, or NULL */
    char *barrier_log;       /* chardev id of the barrier command log */
    char *preload;           /* preload file (models/preload.c), or NULL */
    uint8_t *preload_data;   /* its contents, written at every reset */
    size_t preload_size;
    int idle_master;         /* TesseraTermdetMaster */
    int deadlock;            /* TesseraDeadlockAction */
    bool console_ids;        /* console lines start with the thread id */
    OnOffAuto windows_opt;   /* time windows (tessera_windows.c) */
    bool windows_on;         /* ... as decided at machine init */
    uint32_t window_groups;  /* boards' groups taking turns in a window */
    uint32_t ranks_opt;      /* processes the machine is spread over */
    uint32_t grid_cols, grid_rows; /* ranks-grid=CxR; 0: automatic split */

    TesseraShape shape;
    uint32_t num_harts;
    RISCVCPU *harts;         /* indexed by dense hart index */
    MemoryRegion *board_dram;
    MemoryRegion scratch_ram; /* every tile's scratchpad, one after another */
    AddressSpace *board_as;  /* for loading the image into each board */
    TesseraTile *tiles;      /* board-major, then tile y, tile x */
    DeviceState **mswi;
    TesseraTime time;
    TesseraWindows windows;
    TesseraRanks ranks;
    TesseraMailboxState *mailbox;
    TesseraReflexState *reflex;
    TesseraBarrierCtlState *barrier_ctl;
    unsigned long *woken;    /* harts woken since the last kick */
    bool any_woken;
    TesseraSysinfoState *sysinfo;
    unsigned long *parked;   /* harts stuck at their own trap vector */
    TesseraWaits *waits;     /* who waits on what, for deadlock reports */
};

/* The console: per-hart line assembly on a chardev. */
struct TesseraConsoleState {
    SysBusDevice parent_obj;
    MemoryRegion mmio;
    CharBackend chr;
    uint32_t num_harts;
    bool thread_ids;         /* prefix each line with "<thread id>: " */
    struct TesseraConsole *model;
    Notifier exit;
};

/* Machine facts, per-hart partitions and the boot check-in register. */
struct TesseraSysinfoState {
    SysBusDevice parent_obj;
    MemoryRegion mmio;
    TesseraShape shape;
    uint32_t clock_mhz;
    uint32_t dram_size;
    uint32_t partition_size;
    uint32_t reflex_buffer_flits;
    TesseraTiming timing;
    struct TesseraSysinfo *model;
    TesseraConsoleState *console; /* flushed when the run ends */
};

/* The exit device: pass, fail, reset. */
struct TesseraExitState {
    SysBusDevice parent_obj;
    MemoryRegion mmio;
    TesseraConsoleState *console; /* flushed when the run ends */
};

/* One board's msip registers (ACLINT MSWI layout). */
struct TesseraMswiState {
    SysBusDevice parent_obj;
    MemoryRegion mmio;
    uint32_t board;
    uint32_t num_harts;
    struct TesseraMswi *model;
    qemu_irq *irqs;
};

/* Mailboxes and the host link (tessera_mailbox.c). */
struct TesseraMailboxState {
    DeviceState parent_obj;
    TesseraMachineState *machine;
    struct TesseraMailbox *model;
    CharBackend hostlink;
    struct TesseraHostlinkParser *rx; /* frames from the host */
    Notifier shutdown;       /* traces the counters when the run ends */
    uint64_t csr_ops;        /* the harts' mailbox CSR operations */
    bool run_counts_traced;  /* the guest's end traced the boot's totals */
    bool host_closed;        /* the host link's connection is gone */
    bool host_finished;      /* the host said it has finished sending */
};

/* The open-collector bus lines and their wait CSR (tessera_ocbus.c). */
struct TesseraOcbusState {
    SysBusDevice parent_obj;
    MemoryRegion mmio;
    TesseraMachineState *machine;
    struct TesseraOcbus *model;
};

/* The machine's bus model (NULL before it is realized). */
struct TesseraOcbus *tessera_ocbus_model(void);
/* The reflex switches' model (NULL before the machine has them). */
struct TesseraReflex *tessera_reflex_model(void);
/* After a window's end: the guest errors the model found there. */
void tessera_reflex_after_window(void);

/* The reflex switches (tessera_reflex.c). */
struct TesseraReflexState {
    DeviceState parent_obj;
    TesseraMachineState *machine;
    struct TesseraReflex *model;
};

/* The counting barrier controller (tessera_barrier_ctl.c). */
struct TesseraBarrierCtlState {
    DeviceState parent_obj;
    TesseraMachineState *machine;
    struct TesseraBarrierCtl *model;
    CharBackend log;         /* the command log, if attached */
    uint64_t *entered;       /* per hart: 1 + the value of its outstanding
                              * ENTER, 0 if none (for the trace) */
};

/* CSR predicate of every Tessera CSR: present for every hart, any mode. */
RISCVException tessera_csr_present(CPURISCVState *env, int csrno);

/*
 * Registers a device CSR: riscv_set_csr_ops(), and translated code chains
 * past it (qemu/patches/0023-*), since no device operation changes what
 * translation depends on.
 */
void tessera_register_csr(int csrno, riscv_csr_operations *ops);

/* Modelled cycle count of a hart; exact for the running hart at a CSR. */
uint64_t tessera_time_now(uint32_t hart);
/* Moves a hart's clock forward to `cycles` (a wait that ended then). */
void tessera_time_advance_to(uint32_t hart, uint64_t cycles);
void tessera_time_init(TesseraTime *t, uint32_t num_harts, uint32_t cpi);

/*
 * Lets a hart that halted in a blocking CSR run again (it re-executes the
 * CSR); the kick is deferred to tessera_machine_kick_woken() so that waking
 * many harts costs one kick under round-robin TCG. Call with the BQL.
 */
void tessera_machine_wake(TesseraMachineState *s, uint32_t hart);
void tessera_machine_kick_woken(TesseraMachineState *s);

/* Dense index of the hart running the current access, or -1 if none. */
int tessera_current_hart_index(void);
/* Thread id (mhartid) of a hart, for trace events; UINT32_MAX if none. */
uint32_t tessera_hart_thread_id(int hart);

/*
 * Checks thread `id` in with `status` on its behalf, as if it had written
 * the check-in register (a hart the machine has stopped). Call with the BQL.
 */
void tessera_sysinfo_check_in_for(TesseraSysinfoState *s, uint32_t id,
                                  uint32_t status);

/*
 * True if a host may still send: a host link is attached, connected, and
 * the host has not said it has finished sending.
 */
bool tessera_mailbox_host_may_send(TesseraMailboxState *s);
/*
 * The guest ends the run (exit device, last check-in): traces the boot's
 * totals (tessera_run_counts) as of this instruction, before the harts that
 * still run go on until QEMU stops them.
 */
void tessera_mailbox_run_ends(void);
/* With windows: the window's messages to the host go out (from rank 0). */
void tessera_mailbox_end_window(TesseraMachineState *m);
/* With windows: the messages to the host held for the window's end. */
uint32_t tessera_mailbox_window_to_host(void);
/* With windows: the host's messages of this window (rank 0 keeps them),
 * whether any wait here, and at the window's end (modelled time `at`,
 * `frames` of them on rank 0, as every rank agreed) those for this rank's
 * boards into the network. Returns how many entered. */
uint32_t tessera_mailbox_host_frames(void);
bool tessera_mailbox_host_pending(void);
uint32_t tessera_mailbox_host_window(TesseraMachineState *m, uint64_t at,
                                     uint32_t frames);
/* True if a frame from the host waits for room; *thread is its target. */
bool tessera_mailbox_host_frame_held(TesseraMailboxState *s,
                                     uint32_t *thread);

/*
 * The access contract (tessera_access.c): a CSR operation's answer from its
 * device model, under the BQL. Returns what the operation returns: DONE and
 * GUEST_ERROR (logged) move the hart's clock and read the value; BLOCKED
 * halts the hart to re-execute the CSR when the model wakes it; FAULT
 * (logged) and UNKNOWN raise an illegal instruction.
 */
RISCVException tessera_csr_complete(TesseraMachineState *m,
                                    CPURISCVState *env, const char *device,
                                    int csrno, bool write, uint32_t value,
                                    const TesseraAccess *a,
                                    target_ulong *ret_value);
/*
 * The same for a register of a device's window (never BLOCKED): returns
 * what the access reads; hart -1 (no current hart) moves no clock.
 */
uint64_t tessera_mmio_complete(const char *device, int hart, hwaddr addr,
                               bool write, uint64_t value,
                               const TesseraAccess *a);

/* Time windows (tessera_windows.c). */
void tessera_windows_init(TesseraMachineState *s);
void tessera_windows_reset(TesseraMachineState *s);
/*
 * At an operation whose outcome may depend on another board: if the hart's
 * clock `now` has passed the window's end, holds it (halted) until the
 * window reaches it, and returns true; the caller then ends the operation
 * with EXCP_HLT, to execute it again. Call with the BQL.
 */
bool tessera_windows_hold(TesseraMachineState *s, uint32_t hart,
                          uint64_t now);
/*
 * With window groups: a wake of a hart whose group is not running is kept
 * for its group's turn (returns true; the hart stays halted).
 */
bool tessera_windows_defer_wake(TesseraMachineState *s, uint32_t hart);
/* A window has yet to end: held harts or messages between boards. */
bool tessera_windows_pending(TesseraMachineState *s);
/* The host link sent a frame, or finished or closed: a machine stopped for
 * want of work looks again. */
void tessera_windows_host_news(TesseraMachineState *s, bool frame);
/*
 * With windows, an exit (END_RUN) written by `hart` at `cycle` ends the run
 * at the end of the window, with the earliest exit of that window: what
 * other boards do in that window does not depend on when the exit ran on
 * the host, or on which process.
 */
/* A guest reset written at `cycle`: the machine resets at the window's end
 * (the earliest by cycle, then hart; an exit in the same window wins). */
void tessera_windows_post_reset(TesseraMachineState *s, uint32_t hart,
                                uint64_t cycle);
void tessera_windows_post_exit(TesseraMachineState *s, uint32_t hart,
                               uint64_t cycle, uint32_t value, int code);

/*
 * With windows, a hart checked in with `status` at `cycle` (sysinfo): when
 * every hart has, the run ends at the window's end with the earliest
 * non-zero status by (cycle, hart), whichever process ran which hart.
 */
void tessera_windows_check_in(TesseraMachineState *s, uint32_t hart,
                              uint64_t cycle, uint32_t status);
/* Ends the run with `code` as the last check-in does (sysinfo). */
void tessera_sysinfo_end_run(int code);

/* Ranks (tessera_ranks.c, docs/ranks.md). */
void tessera_ranks_init(TesseraMachineState *s);
/*
 * The boards split into `parts` rectangles (the ranks, or window groups
 * that take turns as ranks would; models/rank_split.c, ranks-grid=): each
 * board's part, in a new array. Exits with one line if the split is refused.
 */
uint32_t *tessera_ranks_split(TesseraMachineState *s, uint32_t parts,
                              const char *what, TesseraRankRect *rects);
/* Whether this process runs the hart (always, with one rank). */
bool tessera_ranks_local_hart(TesseraMachineState *s, uint32_t hart);
/* Whether this process runs the board: only its memory is loaded here. */
bool tessera_ranks_local_board(TesseraMachineState *s, uint32_t board);
/* The window's messages between boards: over MPI with several ranks.
 * Returns how many entered the network here. */
uint32_t tessera_ranks_exchange(TesseraMachineState *s, uint64_t at);
/* The termination detector's master hears every rank's boards (termdet.h,
 * "time windows") and decides alike on every rank. Returns how much it
 * heard: 0 when nothing changed. */
uint32_t tessera_ranks_idle_window(TesseraMachineState *s);
/* The barrier controller's commands of the window, carried out alike on
 * every rank (barrier_ctl.h; `posted`: the commands on their way on every
 * rank, as they agreed: none, nothing to hand over). Returns how many. */
uint32_t tessera_ranks_barrier_exchange(TesseraMachineState *s, uint64_t at,
                                        uint64_t posted);
/* The open-collector bus's window (ocbus.h): every rank's drives and times
 * to every rank's copy of the bus, which takes its new value (`drives`:
 * how many changed on every rank, as they agreed). Returns the lines that
 * changed. */
/*
 * The reflex switches at a window's end: every rank's CSRs of the window to
 * every copy (`ops`: how many, over every rank), then the flits waiting for
 * the window move. Returns how many moved.
 */
uint32_t tessera_ranks_reflex_window(TesseraMachineState *s, uint64_t ops);
uint32_t tessera_ranks_ocbus_window(TesseraMachineState *s, uint64_t until,
                                    uint64_t drives);
/* Gathers every rank's `bytes` into rank 0's result (*total bytes; g_free
 * it); other ranks get NULL and *total 0. */
void *tessera_ranks_gather(TesseraMachineState *s, const void *data,
                           size_t bytes, size_t *total);
/* Rank 0's `bytes` at `data`, on every rank (g_free the copy). */
void *tessera_ranks_bcast(TesseraMachineState *s, const void *data,
                          size_t bytes);
/* Combines every rank's vote into *v (nothing to do with one rank). */
void tessera_ranks_agree(TesseraMachineState *s, TesseraWindowVote *v);
/* With several ranks: `what` cannot run across them yet; ends every rank
 * with one line. Nothing with one rank. */
/* The run ends on every rank alike: MPI finalizes at exit, not aborts. */
void tessera_ranks_end_together(void);

/* The run ends with `code`: every console line out (the window's too),
 * the mailbox's last counts traced, QEMU told to exit. */
void tessera_run_ends(TesseraConsoleState *console, int code);
/* Ends the run with `code`, as `hart` asked at `cycle` by writing `value`
 * (the exit device's END_RUN). */
void tessera_exit_end_run(int hart, uint64_t cycle, uint64_t value, int code);
/* The guest's reset (exit device): the machine resets, as a whole. */
void tessera_exit_reset_machine(int hart, uint64_t cycle);

/* Deadlock detection (tessera_deadlock.c). */
void tessera_deadlock_init(TesseraMachineState *s);
/* A hart has blocked in a device: check soon (without icount only). */
void tessera_deadlock_maybe(TesseraMachineState *s);
/* Over ranks, once every rank agrees that nothing is pending (call on every
 * rank alike): every rank's waits go to rank 0, which reports them all. */
void tessera_deadlock_gather(TesseraMachineState *s);

/* Prints every partial console line (before the machine exits). */
void tessera_console_flush_lines(TesseraConsoleState *s);
/* With windows: writes the lines that wait for the window's end, every
 * rank's (call on every rank alike). */
void tessera_console_end_window(TesseraMachineState *m);
/* With windows: the console lines held for the window's end. */
uint32_t tessera_console_window_lines(void);

#endif
