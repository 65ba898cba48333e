/*
 * Tessera time windows (docs/ranks.md): what makes a board's run independent
 * of what else the process runs, so that one program gives the same
 * modelled results on one process or spread over several (ranks).
 *
 * Modelled time is cut into windows of board-hop-cycles, the shortest time
 * in which anything one board does can reach another. Within a window each
 * board runs on its own: a message to another board waits in its sender's
 * outbound register (models/mailbox_net.c). When every hart is idle, the
 * window ends: the held messages enter the network in an order that
 * depends on modelled times alone (tessera_mailbox_exchange()), and the next
 * window begins. The termination detector's master hears from the boards
 * then too (models/termdet.c, "time windows").
 *
 * A hart whose clock has passed the window's end is held (halted, its
 * instruction to be executed again) where what it does next could depend
 * on another board: at a mailbox operation, and at the end of its turn, so
 * that a hart that never waits cannot keep the window open. It runs again
 * once the window reaches its clock: whatever another board sent that
 * arrives by then is in its mailbox.
 *
 * Under round-robin TCG each turn is WINDOW_TURN_INSTRUCTIONS long (or ends
 * sooner, when the hart blocks or is held), not a share of a deadline that
 * depends on how many harts the process runs (qemu/patches/0024-*).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitmap.h"
#include "qemu/error-report.h"
#include "hw/core/cpu.h"
#include "system/cpu-timers.h"
#include "hw/riscv/tessera.h"
#include "tessera/models/barrier_ctl.h"
#include "tessera/models/mailbox.h"
#include "tessera/models/ocbus.h"
#include "tessera/models/reflex.h"
#include "tessera/models/sysinfo.h"
#include "trace/control.h"
#include "trace.h"

/*
 * Instructions in a hart's turn: long enough that switching harts costs
 * little beside it, short enough that a hart polling memory lets the others
 * run. A constant, so that turns are the same in every process.
 */
#define WINDOW_TURN_INSTRUCTIONS 16384

static TesseraMachineState *tessera_windows_machine;

/* The group of boards a hart belongs to: split as ranks would be. */
static uint32_t tessera_windows_group(TesseraMachineState *s, uint32_t hart)
{
    uint32_t boards = s->boards_x * s->boards_y;

    return s->windows.board_group[hart / (s->num_harts / boards)];
}

/* Harts here whose bus drive changed in the window. */
static uint32_t tessera_windows_ocbus_drives(void)
{
    const TesseraOcbusDrive *drives;
    TesseraOcbusTimes times;

    return tessera_ocbus_model()
               ? tessera_ocbus_window(tessera_ocbus_model(), &drives, &times)
               : 0;
}

/* Flits waiting for the window's end, and CSRs logged for other ranks. */
static uint32_t tessera_windows_reflex_pending(void)
{
    return tessera_reflex_model()
               ? tessera_reflex_window_pending(tessera_reflex_model())
               : 0;
}

/* This rank's reflex CSRs of the window. */
static uint32_t tessera_windows_reflex_ops(void)
{
    const TesseraReflexOp *ops;

    return tessera_reflex_model()
               ? tessera_reflex_window_ops(tessera_reflex_model(), &ops)
               : 0;
}

static int64_t tessera_windows_turn_budget(CPUState *cpu)
{
    return WINDOW_TURN_INSTRUCTIONS;
}

bool tessera_windows_defer_wake(TesseraMachineState *s, uint32_t hart)
{
    TesseraWindows *w = &s->windows;

    if (w->groups == 1 || tessera_windows_group(s, hart) == w->active) {
        return false;
    }
    if (!test_and_set_bit(hart, w->held)) {
        w->num_held++;
    }
    return true;
}

/* Holds the hart if its clock has passed the window's end. */
static bool tessera_windows_hold_if(TesseraMachineState *s, uint32_t hart,
                                    uint64_t now)
{
    TesseraWindows *w = &s->windows;

    if (!w->on || now < w->end) {
        return false;
    }
    if (!test_and_set_bit(hart, w->held)) {
        w->num_held++;
        if (trace_event_get_state_backends(TRACE_TESSERA_WINDOW_HOLD)) {
            trace_tessera_window_hold(tessera_hart_thread_id(hart), now,
                                      w->end);
        }
    }
    s->harts[hart].parent_obj.halted = 1;
    return true;
}

bool tessera_windows_hold(TesseraMachineState *s, uint32_t hart, uint64_t now)
{
    if (!tessera_windows_hold_if(s, hart, now)) {
        return false;
    }
    /* icount counts the instruction that ends the turn; it runs again */
    s->windows.refund = hart;
    return true;
}

static void tessera_windows_turn_end(CPUState *cpu)
{
    TesseraMachineState *s = tessera_windows_machine;
    uint32_t hart = cpu->cpu_index;

    s->windows.stalled = false; /* a hart ran: room may have appeared */
    s->ranks.quiet = false;
    if (s->windows.refund == hart) {
        tessera_clocks_unretire(s->time.clocks, hart, 1);
        s->windows.refund = UINT32_MAX;
    }
    if (!cpu->halted) {
        tessera_windows_hold_if(s, hart,
                                tessera_clocks_now(s->time.clocks, hart));
    }
}

bool tessera_windows_pending(TesseraMachineState *s)
{
    const TesseraWindows *w = &s->windows;

    return !w->stalled &&
           (w->num_held != 0 || w->exit_at != UINT64_MAX ||
            w->reset_at != UINT64_MAX ||
            (w->on &&
             (tessera_mailbox_outbox_count(s->mailbox->model) != 0 ||
              tessera_mailbox_host_pending() ||
              tessera_windows_ocbus_drives() != 0 ||
              tessera_windows_reflex_pending() != 0 ||
              tessera_mailbox_idle_window_pending(s->mailbox->model) ||
              tessera_barrier_ctl_posted(s->barrier_ctl->model) != 0 ||
              tessera_sysinfo_check_ins(s->sysinfo->model) ==
                  s->num_harts)));
}

void tessera_windows_host_news(TesseraMachineState *s, bool frame)
{
    if (!s->windows.on || s->windows.ended) {
        return;
    }
    s->windows.stalled = false;
    /*
     * Over ranks, a quiet rank 0 votes again only where the others wait for
     * it: when the host alone could move the machine. A frame always moves
     * it; the link's end, only then (the others may be gone otherwise).
     */
    if (frame || s->ranks.host_wait) {
        s->ranks.quiet = false;
        s->ranks.host_wait = false;
    }
    /*
     * Wake the round-robin thread if it sleeps (every hart idle), without
     * the kick that would cut a running hart's turn short: turns are the
     * same whatever the host does (WINDOW_TURN_INSTRUCTIONS).
     */
    qemu_cond_broadcast(first_cpu->halt_cond);
}

void tessera_windows_post_reset(TesseraMachineState *s, uint32_t hart,
                                uint64_t cycle)
{
    TesseraWindows *w = &s->windows;

    if (cycle < w->reset_at || (cycle == w->reset_at && hart < w->reset_hart)) {
        w->reset_at = cycle;
        w->reset_hart = hart;
    }
}

void tessera_windows_post_exit(TesseraMachineState *s, uint32_t hart,
                               uint64_t cycle, uint32_t value, int code)
{
    TesseraWindows *w = &s->windows;

    if (cycle < w->exit_at || (cycle == w->exit_at && hart < w->exit_hart)) {
        w->exit_at = cycle;
        w->exit_hart = hart;
        w->exit_value = value;
        w->exit_code = code;
    }
}

void tessera_windows_check_in(TesseraMachineState *s, uint32_t hart,
                              uint64_t cycle, uint32_t status)
{
    TesseraWindows *w = &s->windows;

    if (status != 0 &&
        (cycle < w->fail_at || (cycle == w->fail_at && hart < w->fail_hart))) {
        w->fail_at = cycle;
        w->fail_hart = hart;
        w->fail_code = status;
    }
}

/*
 * This rank's part of a vote, before tessera_ranks_agree(). The earliest
 * held hart's clock (a walk over the held harts) only where the next
 * window is chosen.
 */
static TesseraWindowVote tessera_windows_vote(TesseraMachineState *s,
                                              bool go, uint32_t moved,
                                              bool earliest)
{
    TesseraWindows *w = &s->windows;
    TesseraWindowVote v = {
        .go = go || s->any_woken,
        .pending = tessera_windows_pending(s),
        .moved = moved,
        .held = w->num_held,
        .posted = tessera_barrier_ctl_posted(s->barrier_ctl->model),
        .earliest = UINT64_MAX,
        .exit_at = w->exit_at,
        .reset_at = w->reset_at,
        .reset_hart = w->reset_hart,
        .exit_hart = w->exit_hart,
        .exit_value = w->exit_value,
        .exit_code = w->exit_code,
        .checked_in = tessera_sysinfo_check_ins(s->sysinfo->model),
        .fail_at = w->fail_at,
        .fail_hart = w->fail_hart,
        .fail_code = w->fail_code,
        .host_frames = tessera_mailbox_host_frames(),
        .host_may_send = tessera_mailbox_host_may_send(s->mailbox),
        .ocbus_drives = tessera_windows_ocbus_drives(),
        .reflex_ops = tessera_windows_reflex_ops(),
        .output = tessera_console_window_lines() +
                  tessera_mailbox_window_to_host(),
    };
    unsigned long hart;

    for (hart = find_first_bit(w->held, s->num_harts);
         earliest && hart < s->num_harts;
         hart = find_next_bit(w->held, s->num_harts, hart + 1)) {
        v.earliest = MIN(v.earliest, tessera_clocks_now(s->time.clocks, hart));
    }
    return v;
}

/* Every rank's votes combined; every hart checked in: the run can end. */
static void tessera_windows_agree(TesseraMachineState *s, TesseraWindowVote *v)
{
    tessera_ranks_agree(s, v);
    v->pending |= v->checked_in == s->num_harts;
}

/*
 * The run ends, or the machine resets, at this window's end: an exit or a
 * reset posted in the window (the earliest by (cycle, hart)), or every
 * hart checked in. Decided on the window's agreed vote, before the
 * exchange: the exchange would wake harts, which would run on, for as
 * long as the host takes to stop them, before the end or the reset.
 */
static bool tessera_windows_run_ends(TesseraMachineState *s,
                                     const TesseraWindowVote *v)
{
    TesseraWindows *w = &s->windows;

    if (v->exit_at == UINT64_MAX && v->reset_at == UINT64_MAX &&
        v->checked_in != s->num_harts) {
        return false;
    }
    w->ended = true; /* no window more: nothing else runs */
    w->stalled = true;
    if (v->exit_at != UINT64_MAX) {
        w->exit_at = UINT64_MAX;
        tessera_ranks_end_together();
        tessera_exit_end_run(v->exit_hart, v->exit_at, v->exit_value,
                             v->exit_code);
    } else if (v->reset_at != UINT64_MAX) {
        /* Every rank resets here; the reset starts windows anew */
        tessera_exit_reset_machine(v->reset_hart, v->reset_at);
    } else {
        tessera_ranks_end_together();
        tessera_sysinfo_end_run(v->fail_at != UINT64_MAX ? v->fail_code : 0);
    }
    return true;
}

/*
 * The window ends: messages between boards, then the next window, or the
 * end of the run. Returns what the exchange moved here.
 */
static uint32_t tessera_windows_next(TesseraMachineState *s,
                                     const TesseraWindowVote *last)
{
    TesseraWindows *w = &s->windows;
    TesseraWindowVote v;
    uint32_t exchanged, commands, injected, lines, heard, flits;

    if (tessera_windows_run_ends(s, last)) {
        return 0;
    }
    /* The first group runs first: the exchange's wakes of others wait */
    w->active = 0;
    exchanged = tessera_ranks_exchange(s, w->end);
    commands = tessera_ranks_barrier_exchange(s, w->end, last->posted);
    injected = tessera_mailbox_host_window(s, w->end, last->host_frames);
    lines = tessera_ranks_ocbus_window(s, w->end, last->ocbus_drives);
    heard = tessera_ranks_idle_window(s);
    flits = tessera_ranks_reflex_window(s, last->reflex_ops);
    w->end += w->length;
    w->count++;
    v = tessera_windows_vote(s, false, 0, true);
    tessera_windows_agree(s, &v);
    tessera_sysinfo_end_window(s->sysinfo->model, v.checked_in);
    if (!v.go && v.held && v.earliest >= w->end) {
        /* Nothing moves before the earliest held hart: its window is next */
        w->end = (v.earliest / w->length + 1) * w->length;
    }
    trace_tessera_window_end(w->count, exchanged, w->end);
    return exchanged + commands + injected + lines + heard + flits;
}

/* Lets the running group's held harts go on up to the window's end. */
static uint32_t tessera_windows_release(TesseraMachineState *s)
{
    TesseraWindows *w = &s->windows;
    uint32_t released = 0;
    unsigned long hart;

    for (hart = find_first_bit(w->held, s->num_harts); hart < s->num_harts;
         hart = find_next_bit(w->held, s->num_harts, hart + 1)) {
        if (tessera_clocks_now(s->time.clocks, hart) < w->end &&
            (w->groups == 1 || tessera_windows_group(s, hart) == w->active)) {
            clear_bit(hart, w->held);
            w->num_held--;
            released++;
            s->harts[hart].parent_obj.halted = 0;
            set_bit(hart, s->woken);
            s->any_woken = true;
        }
    }
    return released;
}

/*
 * Every hart here is idle: the next group runs its part of the window, or
 * the window ends. Returns whether any hart anywhere got work.
 */
static bool tessera_windows_end_turns(TesseraMachineState *s)
{
    TesseraWindows *w = &s->windows;
    TesseraWindowVote v;

    v = tessera_windows_vote(s, false, 0, false);
    tessera_windows_agree(s, &v);
    /* Every line of the windows since the last call is in: out they go
     * (over ranks, gathered only where some rank has any) */
    if (v.output) {
        tessera_console_end_window(s);
        tessera_mailbox_end_window(s);
    }
    if (!v.pending) {
        if (s->ranks.count > 1 && v.host_may_send) {
            /*
             * Only the host can move the machine: rank 0 waits for its
             * link (tessera_windows_host_news), the others for rank 0, in
             * their next vote.
             */
            s->ranks.quiet = s->ranks.host_wait = s->ranks.rank == 0;
            return false;
        }
        /* With ranks: nothing anywhere; deadlock detection may look */
        if (s->ranks.count > 1) {
            tessera_deadlock_gather(s);
        }
        s->ranks.quiet = true;
        return false;
    }
    for (;;) {
        uint32_t moved = 0, released;

        if (w->active + 1 < w->groups) {
            w->active++;
        } else {
            moved = tessera_windows_next(s, &v);
            if (w->ended) {
                return false;
            }
        }
        released = tessera_windows_release(s);
        v = tessera_windows_vote(s, released != 0, moved, false);
        tessera_windows_agree(s, &v);
        if (v.go) {
            return true;
        }
        if (!v.pending) {
            return false;
        }
        /*
         * An exchange that moved nothing, no hart held and no command on its
         * way: what waits at an egress waits for room that only a hart can
         * make, and every hart is stopped. Later windows would change
         * nothing: the machine is stalled (a deadlock, unless the host
         * sends), until a hart runs again.
         */
        if (w->active == 0 && !v.moved && v.held == 0 && v.posted == 0) {
            w->stalled = true;
            return false;
        }
    }
}

/*
 * QEMU's round-robin thread found every hart idle. With ranks, a rank whose
 * harts got no work still takes part in every window until the machine is
 * quiet everywhere, or the others would wait for it.
 */
static bool tessera_windows_all_idle(void)
{
    TesseraMachineState *s = tessera_windows_machine;
    bool go;

    /*
     * The run has ended, or every rank agreed that nothing can move and no
     * hart has run since: ask no other rank again (they may be gone).
     */
    if (s->windows.ended || (s->ranks.count > 1 && s->ranks.quiet)) {
        return false;
    }
    do {
        go = tessera_windows_end_turns(s);
    } while (s->ranks.count > 1 && !s->any_woken && !s->ranks.quiet &&
             !s->windows.ended);
    if (!s->any_woken) {
        return false;
    }
    tessera_machine_kick_woken(s);
    return go;
}

void tessera_windows_reset(TesseraMachineState *s)
{
    TesseraWindows *w = &s->windows;

    w->end = w->length;
    w->active = 0;
    w->count = 0;
    w->refund = UINT32_MAX;
    w->stalled = false;
    w->ended = false;
    w->exit_at = UINT64_MAX;
    w->reset_at = UINT64_MAX;
    w->reset_hart = UINT32_MAX;
    w->fail_at = UINT64_MAX;
    w->fail_hart = UINT32_MAX;
    w->fail_code = 0;
    w->exit_hart = UINT32_MAX;
    w->exit_code = 0;
    w->num_held = 0;
    bitmap_zero(w->held, s->num_harts);
    /* Other ranks' harts are not realized here (tessera_create_harts) */
    /* Only the first group starts: the others wait for their turn */
    for (uint32_t hart = 0; w->groups > 1 && hart < s->num_harts; hart++) {
        if (tessera_windows_group(s, hart) != 0) {
            set_bit(hart, w->held);
            w->num_held++;
            s->harts[hart].parent_obj.halted = 1;
        }
    }
}

void tessera_windows_init(TesseraMachineState *s)
{
    TesseraWindows *w = &s->windows;
    uint32_t boards = s->boards_x * s->boards_y;

    tessera_windows_machine = s;
    if (s->window_groups == 0 || s->window_groups > boards) {
        error_report("tessera: window-groups=%u: between 1 and the %u "
                     "boards", s->window_groups, boards);
        exit(1);
    }
    if (s->windows_opt == ON_OFF_AUTO_ON && !icount_enabled()) {
        error_report("tessera: windows=on needs -icount (the deterministic "
                     "mode)");
        exit(1);
    }
    s->windows_on = s->windows_opt == ON_OFF_AUTO_ON ||
                    (s->windows_opt == ON_OFF_AUTO_AUTO && icount_enabled());
    if (s->window_groups > 1 && !s->windows_on) {
        error_report("tessera: window-groups=%u needs windows=on",
                     s->window_groups);
        exit(1);
    }
    w->on = s->windows_on;
    w->groups = s->window_groups;
    if (w->groups > 1) {
        g_autofree TesseraRankRect *rects = g_new(TesseraRankRect, w->groups);

        w->board_group = tessera_ranks_split(s, w->groups, "window-groups",
                                             rects);
    }
    w->length = s->board_hop_cycles;
    w->held = bitmap_new(s->num_harts);
    if (w->on) {
        tessera_sysinfo_use_windows(s->sysinfo->model);
        icount_turn_budget_hook = tessera_windows_turn_budget;
        icount_turn_end_hook = tessera_windows_turn_end;
        icount_all_idle_hook = tessera_windows_all_idle;
    }
}
