/*
 * Termination detection model: the hardware behind tinselIdle(vote)
 * (DESIGN 1.2, docs/idle.md).
 *
 * Modelled as the hardware is, not as an omniscient check: every board
 * keeps a signed message count, an idle bit, a vote and a colour; a master
 * on a bridge board sends a token to every board, each board returns it
 * once it is idle, and the master decides from the returned tokens alone.
 * Detection, release (phase 2) and re-enabling sends (phase 3) are each one
 * master<->boards round trip of modelled time.
 *
 * Plain C, no QEMU or glib. Not thread-safe: the caller serialises every
 * call (QEMU: the BQL; host: a mutex). Threads are named by their dense
 * hart index (tessera_dense_index), boards by their dense board index
 * (y * boards_x + x); the host link is the pseudo-board
 * TESSERA_TERMDET_HOST.
 *
 * Guest events (messages sent and received, threads entering and leaving
 * idle) change board state at once. The protocol itself (tokens reaching
 * boards, boards returning them, release and enable reaching boards) is a
 * queue of pending steps that runs only when the caller runs it:
 * tessera_termdet_process() runs everything that can run (the integration
 * does that after every guest event), tessera_termdet_run_step() runs one
 * chosen step (tests interleave steps with guest events in any order).
 * Whatever the order, the model never detects termination falsely; once
 * the system has truly terminated, running the pending steps detects it.
 *
 * Times: every guest event carries the modelled cycle count of the thread
 * that causes it. Protocol steps happen at modelled times that follow from
 * the rules of docs/idle.md (board_hop_cycles per link hop between the
 * master and a board); the host order of steps and events need not follow
 * modelled time.
 */
#ifndef TESSERA_MODELS_TERMDET_H
#define TESSERA_MODELS_TERMDET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/hw/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Board index of the host link in tessera_termdet_sent / _received /
 * _send_at: messages injected by the host and taken by the host. */
#define TESSERA_TERMDET_HOST UINT32_MAX

/* What tessera_termdet_send_at answers while sending is disabled and the
 * protocol steps that re-enable it have not run yet. */
#define TESSERA_TERMDET_SEND_DISABLED UINT64_MAX

/* tinselIdle's return value for a released thread (the wait-until result
 * shifted right by 2): bit 0 = released, bit 1 = every thread voted true. */
#define TESSERA_TERMDET_RESULT_RELEASED 1u
#define TESSERA_TERMDET_RESULT_VOTED    3u

typedef enum TesseraTermdetMaster {
    /* On a bridge board one link hop off board (0,0): board (x,y) is
     * x + y + 1 hops away. The default, as in the reference hardware. */
    TESSERA_TERMDET_MASTER_ORIGIN = 0,
    /* On board (boards_x / 2, boards_y / 2) (integer division): board
     * (x,y) is |x - cx| + |y - cy| hops away, 0 for that board. */
    TESSERA_TERMDET_MASTER_CENTRE = 1,
} TesseraTermdetMaster;

typedef struct TesseraTermdetConfig {
    TesseraShape shape;         /* only boards and threads per board matter */
    uint32_t board_hop_cycles;  /* L: one hop between boards */
    TesseraTermdetMaster master;
    /* Time windows (docs/ranks.md): the master hears from the boards only
     * at the end of each window (tessera_termdet_window_end, below), so
     * that what it decides does not depend on the host order of boards
     * that one process or several run. */
    bool windows;
} TesseraTermdetConfig;

/* What tessera_termdet reports to TesseraTermdetHost.event, for tracing
 * (docs/tracing.md). Hart events name a hart and its board; board events a
 * board; master events neither (UINT32_MAX). `round` is the number of the
 * phase 1 round concerned (1, 2, ...: rounds_started when it started). */
typedef enum TesseraTermdetEventKind {
    TESSERA_TERMDET_EVENT_IDLE_ENTER,  /* hart blocked in idle; value: vote */
    TESSERA_TERMDET_EVENT_IDLE_LEAVE,  /* hart left idle; value: a
                                        * TESSERA_TERMDET_LEAVE_* */
    TESSERA_TERMDET_EVENT_ROUND_START, /* master: phase 1, tokens sent */
    TESSERA_TERMDET_EVENT_TOKEN,       /* board: the token reached it */
    TESSERA_TERMDET_EVENT_RETURN,      /* board: it returned the token; time:
                                        * when the token is back at the
                                        * master */
    TESSERA_TERMDET_EVENT_ROUND_END,   /* master: every token back; value: a
                                        * TESSERA_TERMDET_OUTCOME_* */
    TESSERA_TERMDET_EVENT_RELEASE,     /* board: phase 2 reached it, its idle
                                        * harts are released, its sends
                                        * disabled */
    TESSERA_TERMDET_EVENT_ENABLE_START,/* master: every board released,
                                        * phase 3 sent */
    TESSERA_TERMDET_EVENT_ENABLE,      /* board: phase 3 reached it, it may
                                        * send again */
    TESSERA_TERMDET_EVENT_EPISODE_END, /* master: phase 3 complete, the host
                                        * may send again */
} TesseraTermdetEventKind;

/* Why a hart left idle (IDLE_LEAVE's value). */
#define TESSERA_TERMDET_LEAVE_MESSAGE   0u /* a message became available */
#define TESSERA_TERMDET_LEAVE_ABANDONED 1u /* left without a message:
                                            * tessera_termdet_idle_abandon */
#define TESSERA_TERMDET_LEAVE_RELEASED  2u /* phase 2 released it; time: when
                                            * the release reached it */

/* How a round ended (ROUND_END's value). */
#define TESSERA_TERMDET_OUTCOME_FAILED   0u /* next round starts at once */
#define TESSERA_TERMDET_OUTCOME_STALLED  1u /* next round waits for a guest
                                             * event */
#define TESSERA_TERMDET_OUTCOME_DETECTED 2u /* termination: phase 2 starts */

typedef struct TesseraTermdetEvent {
    TesseraTermdetEventKind kind;
    uint32_t hart;   /* dense hart index, or UINT32_MAX */
    uint32_t board;  /* dense board index, or UINT32_MAX */
    uint64_t round;
    uint64_t time;   /* modelled time it happens at */
    uint32_t value;
} TesseraTermdetEvent;

typedef struct TesseraTermdetHost {
    void *opaque;
    /* hart_index has been released from idle (hart_state says RELEASED):
     * issue its wait again. Called from inside tessera_termdet_process /
     * _run_step; must not call the model. May be NULL. */
    void (*wake)(void *opaque, uint32_t hart_index);
    /* Optional (may be NULL), for tracing: something happened (above), in
     * host order, from inside the call that made it happen; must not call
     * the model. */
    void (*event)(void *opaque, const TesseraTermdetEvent *e);
} TesseraTermdetHost;

typedef enum TesseraTermdetHartState {
    TESSERA_TERMDET_ACTIVE,   /* not in idle */
    TESSERA_TERMDET_IDLE,     /* blocked in idle, not released */
    TESSERA_TERMDET_RELEASED, /* released by phase 2: idle returns the
                               * result; stays so until the thread enters
                               * idle again */
} TesseraTermdetHartState;

typedef enum TesseraTermdetStepKind {
    TESSERA_TERMDET_STEP_DELIVER, /* the detection token reaches a board */
    TESSERA_TERMDET_STEP_RETURN,  /* an idle board returns the token */
    TESSERA_TERMDET_STEP_RELEASE, /* phase 2 reaches a board */
    TESSERA_TERMDET_STEP_ENABLE,  /* phase 3 reaches a board */
} TesseraTermdetStepKind;

typedef struct TesseraTermdetStep {
    TesseraTermdetStepKind kind;
    uint32_t board;
    /* Modelled time at which it happens; for RETURN, when the token is
     * back at the master if the board is still idle when the step runs. */
    uint64_t time;
} TesseraTermdetStep;

typedef struct TesseraTermdetStats {
    uint64_t rounds_started;  /* phase 1 rounds the master started */
    uint64_t rounds;          /* phase 1 rounds completed (every token back) */
    uint64_t failed_rounds;   /* completed rounds that did not detect */
    uint64_t stalled_rounds;  /* failed rounds after which the master waited
                               * for a guest event (nothing had changed) */
    uint64_t detections;      /* successful rounds (phase 1 success) */
    uint64_t episodes;        /* detections whose phase 3 has completed */
    uint64_t round_trips;     /* rounds + 2 per completed phase 2 / 3 */
    uint64_t last_detection;  /* D of the latest detection (cycles) */
    uint64_t last_round_start;/* modelled start of the latest round */
} TesseraTermdetStats;

typedef struct TesseraTermdet TesseraTermdet;

/* NULL if the configuration is invalid (no boards, no threads, more than
 * UINT32_MAX threads, an unknown master position) or memory runs out. The
 * first detection round starts at modelled time 0: its DELIVER steps are
 * pending from the start. */
TesseraTermdet *tessera_termdet_new(const TesseraTermdetConfig *cfg,
                                    const TesseraTermdetHost *host);
void tessera_termdet_free(TesseraTermdet *td);

/* Back to the state tessera_termdet_new gave (machine reset): no hart idle,
 * every count zero, the first round starting at cycle 0, no steps pending,
 * statistics cleared. */
void tessera_termdet_reset(TesseraTermdet *td);

/* Link hops between the master and a board; UINT32_MAX for no such
 * board. */
uint32_t tessera_termdet_hops(const TesseraTermdet *td, uint32_t board);
/* One master<->boards round trip: 2 * L * (hops of the farthest board). */
uint64_t tessera_termdet_rtt(const TesseraTermdet *td);
uint32_t tessera_termdet_board_of(const TesseraTermdet *td, uint32_t hart);

/* ---- guest events ------------------------------------------------------
 * Each may enqueue protocol steps; none runs them. */

/* A message left `board` (or the host) at modelled time `time`: the board's
 * count goes up. Count a message when it is issued, a multicast once per
 * receiving thread. The caller must have had permission
 * (tessera_termdet_send_at). */
void tessera_termdet_sent(TesseraTermdet *td, uint32_t board, uint64_t time);
/* A thread of `board` freed a slot holding a message it received (or the
 * host took a message): the count goes down and the board turns black. */
void tessera_termdet_received(TesseraTermdet *td, uint32_t board,
                              uint64_t time);

/* The thread blocks in idle with `vote` at its modelled time `now` (the
 * caller has checked that no message is available for it). False, changing
 * nothing, if it is already IDLE or hart names no thread. From RELEASED it
 * starts a new episode. */
bool tessera_termdet_idle_enter(TesseraTermdet *td, uint32_t hart, bool vote,
                                uint64_t now);
/* The thread leaves idle because a message became available (idle returns
 * 0). False, changing nothing, unless it is IDLE: a RELEASED thread keeps
 * its release (the release is latched for the episode). */
bool tessera_termdet_idle_leave(TesseraTermdet *td, uint32_t hart,
                                uint64_t now);
/* The thread leaves idle without a message: its tinselIdle call was
 * abandoned (another mailbox CSR, from an interrupt handler or a debugger;
 * mailbox.h), or it ended because can-send holds (wait-until bit 0; the
 * drain that woke the thread may be rounds old by the time it issues the
 * call again). As tessera_termdet_idle_leave, and a round that has already
 * sampled the thread's board as idle fails: the protocol's argument assumes
 * that only a message ends an idle call. */
bool tessera_termdet_idle_abandon(TesseraTermdet *td, uint32_t hart,
                                  uint64_t now);

/* Where the thread stands. For RELEASED: *result is
 * TESSERA_TERMDET_RESULT_RELEASED or _VOTED and *resume_at the modelled
 * time the release reached its board; otherwise both 0. Either pointer may
 * be NULL. Idempotent. */
TesseraTermdetHartState tessera_termdet_hart_state(const TesseraTermdet *td,
                                                   uint32_t hart,
                                                   uint32_t *result,
                                                   uint64_t *resume_at);

/* Earliest modelled time >= t at which `board` (or the host) may send:
 * phase 2 disables sending from detection until phase 3 reaches the board
 * (the host: until phase 3 has completed). TESSERA_TERMDET_SEND_DISABLED
 * while sending is disabled and the steps that re-enable it have not run:
 * run them (tessera_termdet_process) and ask again. Never returns that
 * after tessera_termdet_process(). */
uint64_t tessera_termdet_send_at(const TesseraTermdet *td, uint32_t board,
                                 uint64_t t);

/* ---- protocol steps ----------------------------------------------------- */

/* Runs pending steps until none is left (or all that are left wait for a
 * board to become idle: those are not pending). Returns how many ran. */
size_t tessera_termdet_process(TesseraTermdet *td);
/* Number of pending steps, and the i-th of them (false if i is out of
 * range). The order is deterministic but otherwise unspecified. */
size_t tessera_termdet_pending(const TesseraTermdet *td);
bool tessera_termdet_pending_step(const TesseraTermdet *td, size_t i,
                                  TesseraTermdetStep *step);
/* Runs the i-th pending step; false if i is out of range. */
bool tessera_termdet_run_step(TesseraTermdet *td, size_t i);

void tessera_termdet_stats(const TesseraTermdet *td,
                           TesseraTermdetStats *stats);

/* ---- time windows -----------------------------------------------------
 *
 * With config.windows the detector is split as the machine is: boards
 * (their counts, idle bits, votes, colours, tokens) change as their guest
 * events come, in the host order of their own threads, which one board's
 * run fixes; what goes to the master (a returned token, the count of guest
 * events, an abandoned idle call that fails the round, the host link's
 * count and colour) waits for the end of the window. Then every process
 * gives every other its part (tessera_termdet_window) and each applies all
 * of them alike (tessera_termdet_window_end): the master is the same in
 * every process, and so are its decisions, whose steps (tokens out, release,
 * enable) each process then runs, and whose effects only its own boards'
 * threads see. Steps happen at the modelled times docs/idle.md gives, as
 * without windows; a board sees a token, a release or an enable at the
 * window's end after the master sent it (and at creation, the first
 * round's tokens), never earlier. The master's modelled latency to a board
 * (a link hop) is at least a window, so no board acts on news from its
 * future.
 */

/* A board returned the token of round `round` (stats.rounds_started then). */
typedef struct TesseraTermdetReturn {
    uint64_t round;
    uint64_t back;        /* when the token is back at the master */
    int64_t count;        /* the board's count, sampled */
    uint32_t board;
    uint8_t black;        /* received since it last returned the token */
    uint8_t voted;        /* every idle thread of the board voted true */
    uint8_t pad[2];
} TesseraTermdetReturn;

/* The rest of a process's news for the master in one window; news from
 * several processes adds up (tessera_termdet_news_add). */
typedef struct TesseraTermdetNews {
    uint64_t events;      /* guest events */
    int64_t host_count;   /* messages the host link sent, less those it took */
    uint8_t host_black;   /* the host link took a message */
    uint8_t abandoned;    /* an idle call abandoned after its board's token
                           * came back in the round under way */
    uint8_t pad[6];
} TesseraTermdetNews;

void tessera_termdet_news_add(TesseraTermdetNews *sum,
                              const TesseraTermdetNews *n);

/* This process's part of the window so far: its returns (valid until the
 * next call into the detector) and its news. */
size_t tessera_termdet_window(const TesseraTermdet *td,
                              const TesseraTermdetReturn **returns,
                              TesseraTermdetNews *news);
/* Whether the end of a window would change anything here: returns or news
 * the master has not heard, or a stalled master that news would restart. */
bool tessera_termdet_window_pending(const TesseraTermdet *td);
/* The window ends: `returns` and `news` are every process's parts (this
 * one's included), in any order. The master applies them, decides, and
 * every step its decision leads to runs (releases wake threads). False,
 * changing nothing, if a return names no board, another round than the one
 * under way, or a board whose token is already back (or twice), or if the
 * detector has no windows. */
bool tessera_termdet_window_end(TesseraTermdet *td,
                                const TesseraTermdetReturn *returns,
                                size_t num_returns,
                                const TesseraTermdetNews *news);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_TERMDET_H */
