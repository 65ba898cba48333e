/*
 * Tessera mailboxes: the Tinsel CSRs of every hart, driving the mailbox and
 * network model (models/mailbox.c), and the network's host port on a
 * chardev (the host link).
 *
 * A CSR that must wait never blocks the host thread: under the BQL the model
 * records the hart as a waiter, the hart halts and the CSR instruction is
 * restarted (EXCP_HLT restores the pc), to be executed again once the model
 * wakes it. Re-issuing a CSR is idempotent in the model.
 *
 * The host link's framing and its rules (bad headers, frames to no thread,
 * holding a frame the network refuses) are the model's
 * (models/hostlink.c); this file moves bytes between it and the chardev.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include <sys/resource.h>
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "system/reset.h"
#include "system/runstate.h"
#include "system/cpu-timers.h"
#include "chardev/char.h"
#include "trace/control.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/riscv/tessera.h"
#include "tessera/models/hostlink.h"
#include "tessera/models/mailbox.h"
#include "trace.h"

static TesseraMailboxState *tessera_mbox;

/*
 * riscv_machine_prefetch: what this hart's first mailbox CSR will read,
 * and the registers of the hart after it, asked for before its turn. Its
 * index comes from the CPU's place in the machine's array, not from
 * cpu_index, which is in a line of the CPU not yet in the caches.
 */
static void tessera_mailbox_prefetch_hart(CPUState *cs)
{
    TesseraMailboxState *s = tessera_mbox;
    uint32_t hart = container_of(cs, RISCVCPU, parent_obj) -
                    s->machine->harts;

    tessera_mailbox_prefetch(s->model, hart, hart + 1);
}

static void tessera_mailbox_wake(void *opaque, uint32_t hart)
{
    TesseraMailboxState *s = opaque;

    /* Its arguments cost a look at the hart: only when it is on */
    if (trace_event_get_state_backends(TRACE_TESSERA_MBOX_WAKE)) {
        trace_tessera_mbox_wake(tessera_hart_thread_id(hart),
                                tessera_time_now(hart));
    }
    tessera_machine_wake(s->machine, hart);
}

static const char *const tessera_leave_why[] = {
    [TESSERA_TERMDET_LEAVE_MESSAGE] = "message",
    [TESSERA_TERMDET_LEAVE_ABANDONED] = "abandoned",
    [TESSERA_TERMDET_LEAVE_RELEASED] = "released",
};

static const char *const tessera_round_outcome[] = {
    [TESSERA_TERMDET_OUTCOME_FAILED] = "failed",
    [TESSERA_TERMDET_OUTCOME_STALLED] = "stalled",
    [TESSERA_TERMDET_OUTCOME_DETECTED] = "detected",
};

static const char *tessera_name_of(const char *const *names, size_t n,
                                   uint32_t value)
{
    return value < n && names[value] ? names[value] : "?";
}
#define TESSERA_NAME(names, value) \
    tessera_name_of(names, ARRAY_SIZE(names), value)

/* Termination detection events: board events name the board as x,y. */
static void tessera_mailbox_termdet_event(TesseraMailboxState *s,
                                          const TesseraMailboxEvent *e)
{
    const TesseraTermdetEvent *t = &e->termdet;
    uint32_t bx = t->board % s->machine->boards_x;
    uint32_t by = t->board / s->machine->boards_x;

    switch (t->kind) {
    case TESSERA_TERMDET_EVENT_IDLE_ENTER:
        trace_tessera_idle_enter(e->thread, t->time, t->value);
        break;
    case TESSERA_TERMDET_EVENT_IDLE_LEAVE:
        trace_tessera_idle_leave(e->thread, t->time,
                                 TESSERA_NAME(tessera_leave_why, t->value));
        break;
    case TESSERA_TERMDET_EVENT_ROUND_START:
        trace_tessera_termdet_round(t->round, t->time);
        break;
    case TESSERA_TERMDET_EVENT_TOKEN:
        trace_tessera_termdet_token(bx, by, t->round, t->time);
        break;
    case TESSERA_TERMDET_EVENT_RETURN:
        trace_tessera_termdet_return(bx, by, t->round, t->time);
        break;
    case TESSERA_TERMDET_EVENT_ROUND_END:
        trace_tessera_termdet_round_end(t->round, t->time,
                                        TESSERA_NAME(tessera_round_outcome,
                                                     t->value));
        break;
    case TESSERA_TERMDET_EVENT_RELEASE:
        trace_tessera_termdet_release(bx, by, t->round, t->time);
        break;
    case TESSERA_TERMDET_EVENT_ENABLE_START:
        trace_tessera_termdet_enable_start(t->round, t->time);
        break;
    case TESSERA_TERMDET_EVENT_ENABLE:
        trace_tessera_termdet_enable(bx, by, t->round, t->time);
        break;
    case TESSERA_TERMDET_EVENT_EPISODE_END:
        trace_tessera_termdet_episode_end(t->round, t->time);
        break;
    }
}

/*
 * Whether any of the mailbox's, tinselIdle's or the detector's trace events
 * is on (a few of them are the adapter's own, not the model's: tracing one
 * of those only costs speed). The model builds every event it reports,
 * several for each hart at each tinselIdle synchronisation, so without one
 * of these events it gets no hook at all. They are therefore chosen at
 * startup (-trace), as ./tessera trace does; turning one on later from a
 * monitor has no effect.
 */
static bool tessera_mailbox_events_traced(void)
{
    static const char *const patterns[] = {
        "tessera_mbox_*", "verbose_tessera_mbox_*", "tessera_idle_*",
        "tessera_termdet_*",
    };

    for (size_t i = 0; i < ARRAY_SIZE(patterns); i++) {
        TraceEventIter iter;
        TraceEvent *ev;

        trace_event_iter_init_pattern(&iter, patterns[i]);
        while ((ev = trace_event_iter_next(&iter)) != NULL) {
            if (trace_event_get_state_dynamic(ev)) {
                return true;
            }
        }
    }
    return false;
}

/* The model's events, as trace events (docs/tracing.md). */
static void tessera_mailbox_event(void *opaque, const TesseraMailboxEvent *e)
{
    TesseraMailboxState *s = opaque;

    switch (e->kind) {
    case TESSERA_MAILBOX_EVENT_SEND:
        if (e->mask) {
            trace_tessera_mbox_multicast(e->thread, e->time, e->msg, e->peer,
                                         e->mask, e->copies, e->flits);
        } else {
            trace_tessera_mbox_send(e->thread, e->time, e->msg, e->peer,
                                    e->flits);
        }
        break;
    case TESSERA_MAILBOX_EVENT_DELIVER:
        trace_tessera_mbox_deliver(e->thread, e->time, e->msg, e->peer,
                                   e->slot, e->flits);
        break;
    case TESSERA_MAILBOX_EVENT_RECEIVE:
        trace_tessera_mbox_receive(e->thread, e->time, e->msg, e->slot);
        break;
    case TESSERA_MAILBOX_EVENT_FREE:
        if (e->msg) {
            trace_tessera_mbox_free(e->thread, e->time, e->msg, e->slot);
        } else {
            trace_verbose_tessera_mbox_handover(e->thread, e->time, e->slot);
        }
        break;
    case TESSERA_MAILBOX_EVENT_TO_HOST:
        trace_tessera_mbox_to_host(e->thread, e->time, e->msg, e->flits);
        break;
    case TESSERA_MAILBOX_EVENT_FROM_HOST:
        trace_tessera_mbox_from_host(e->thread, e->time, e->msg, e->flits);
        break;
    case TESSERA_MAILBOX_EVENT_BLOCK:
        trace_tessera_mbox_block(e->thread, e->time, e->value);
        break;
    case TESSERA_MAILBOX_EVENT_RESUME:
        trace_tessera_mbox_resume(e->thread, e->time, e->value);
        break;
    case TESSERA_MAILBOX_EVENT_TERMDET:
        tessera_mailbox_termdet_event(s, e);
        break;
    }
}

/* Each board's and the host's message counts, which a trace's events must
 * add up to (the end of a run, and before a reset clears them). */
static void tessera_mailbox_trace_counts(TesseraMailboxState *s)
{
    TesseraMachineState *m = s->machine;
    TesseraMailboxCounts c;

    if (!trace_event_get_state_backends(TRACE_TESSERA_MBOX_COUNTS) &&
        !trace_event_get_state_backends(TRACE_TESSERA_MBOX_HOST_COUNTS)) {
        return;
    }
    for (uint32_t b = 0; b < m->boards_x * m->boards_y; b++) {
        c = tessera_mailbox_board_counts(s->model, b);
        trace_tessera_mbox_counts(b % m->boards_x, b / m->boards_x, c.sent,
                                  c.received);
    }
    c = tessera_mailbox_host_counts(s->model);
    trace_tessera_mbox_host_counts(c.sent, c.received);
}

/*
 * The run's totals, for the host-time and ranks benches (tests/bench/host.sh,
 * ranks.sh).
 */
static void tessera_mailbox_trace_run_counts(TesseraMailboxState *s)
{
    TesseraMachineState *m = s->machine;
    uint64_t messages = tessera_mailbox_host_counts(s->model).sent;

    if (trace_event_get_state_backends(TRACE_TESSERA_RUN_MEMORY)) {
        struct rusage usage;

        /* This process's peak resident memory (KiB on Linux) */
        if (getrusage(RUSAGE_SELF, &usage) == 0) {
            trace_tessera_run_memory(m->ranks.rank, usage.ru_maxrss);
        }
    }
    if (!trace_event_get_state_backends(TRACE_TESSERA_RUN_COUNTS) &&
        !trace_event_get_state_backends(TRACE_TESSERA_RUN_WINDOWS)) {
        return;
    }
    for (uint32_t b = 0; b < m->boards_x * m->boards_y; b++) {
        messages += tessera_mailbox_board_counts(s->model, b).sent;
    }
    trace_tessera_run_counts(tessera_clocks_retired_total(m->time.clocks),
                             s->csr_ops, messages);
    trace_tessera_run_windows(m->ranks.rank, m->windows.count);
}

void tessera_mailbox_run_ends(void)
{
    TesseraMailboxState *s = tessera_mbox;
    int hart = tessera_current_hart_index();

    if (!s || !s->model) {
        return;
    }
    if (hart >= 0) {
        tessera_time_now(hart); /* accounts the running hart's slice */
    }
    tessera_mailbox_trace_run_counts(s);
    s->run_counts_traced = true;
}

static void tessera_mailbox_at_shutdown(Notifier *n, void *data)
{
    TesseraMailboxState *s = container_of(n, TesseraMailboxState, shutdown);

    tessera_mailbox_trace_counts(s);
    /* An end the guest did not make (a deadlock, a signal): counted now */
    if (!s->run_counts_traced) {
        tessera_mailbox_trace_run_counts(s);
    }
}

/*
 * With windows, messages to the host wait for their window's end and then
 * go out in order of (cycle they reach the host, thread, issue), all of
 * them from rank 0, which holds the host link: as console lines do.
 */
typedef struct TesseraHostFrame {
    uint64_t cycle;
    uint32_t thread;
    uint32_t seq;            /* issue order, for a thread's equal cycles */
    uint32_t flits;
    uint8_t data[TESSERA_BYTES_PER_SLOT];
} TesseraHostFrame;

static GArray *tessera_mailbox_to_host_pending; /* of TesseraHostFrame */

static void tessera_mailbox_write_to_host(TesseraMailboxState *s,
                                          uint32_t src, const uint8_t *msg,
                                          uint32_t flits, uint64_t time)
{
    TesseraHostlinkHeader header = {
        .thread = src,
        .flits = flits,
        .cycle = time,
    };
    uint8_t frame[TESSERA_HOSTLINK_MAX_FRAME_BYTES];

    if (!qemu_chr_fe_backend_connected(&s->hostlink)) {
        qemu_log_mask(LOG_GUEST_ERROR, "tessera-mailbox: thread 0x%x sent a "
                      "message to the host, but no host link is attached "
                      "(machine option hostlink=<chardev id>); dropped\n",
                      src);
        return;
    }
    qemu_chr_fe_write_all(&s->hostlink, frame,
                          tessera_hostlink_encode(&header, msg, frame));
}

static bool tessera_mailbox_to_host(void *opaque, uint32_t src,
                                    const uint8_t *msg, uint32_t flits,
                                    uint64_t time)
{
    TesseraMailboxState *s = opaque;

    if (s->machine->windows_on) {
        TesseraHostFrame f = {
            .cycle = time,
            .thread = src,
            .seq = tessera_mailbox_to_host_pending->len,
            .flits = MIN(flits, TESSERA_MAX_FLITS),
        };

        memcpy(f.data, msg, f.flits * TESSERA_BYTES_PER_FLIT);
        g_array_append_val(tessera_mailbox_to_host_pending, f);
        return true;
    }
    tessera_mailbox_write_to_host(s, src, msg, flits, time);
    return true;
}

static int tessera_host_frame_order(gconstpointer a, gconstpointer b)
{
    const TesseraHostFrame *x = a, *y = b;

    if (x->cycle != y->cycle) {
        return x->cycle < y->cycle ? -1 : 1;
    }
    if (x->thread != y->thread) {
        return x->thread < y->thread ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

uint32_t tessera_mailbox_window_to_host(void)
{
    return tessera_mailbox_to_host_pending ? tessera_mailbox_to_host_pending->len
                                           : 0;
}

void tessera_mailbox_end_window(TesseraMachineState *m)
{
    TesseraMailboxState *s = tessera_mbox;
    GArray *p = tessera_mailbox_to_host_pending;
    g_autofree TesseraHostFrame *gathered = NULL;
    TesseraHostFrame *all;
    size_t n;

    if (!s || !p) {
        return;
    }
    all = (TesseraHostFrame *)p->data;
    n = p->len;
    if (m->ranks.count > 1) {
        all = gathered = tessera_ranks_gather(m, p->data, n * sizeof(*all),
                                              &n);
        n /= sizeof(*all);
    }
    if (n != 0) { /* all may be NULL then, which qsort() must not get */
        qsort(all, n, sizeof(*all), tessera_host_frame_order);
    }
    for (size_t i = 0; i < n; i++) {
        tessera_mailbox_write_to_host(s, all[i].thread, all[i].data,
                                      all[i].flits, all[i].cycle);
    }
    g_array_set_size(p, 0);
}

/*
 * With windows the host's messages, too, wait for the end of their window:
 * rank 0, which holds the host link, keeps them (the termination detector
 * counts them as they come); at the window's end every rank takes those for
 * its boards, and each board's go into the network in order, at the
 * window's end in modelled time. A board whose mailbox refuses one keeps
 * it, and those after it, for a later window.
 */
typedef struct TesseraHostIn {
    uint32_t thread;
    uint32_t flits;
    uint8_t data[TESSERA_BYTES_PER_SLOT];
} TesseraHostIn;

/* Frames rank 0 keeps in a window before it stops reading the link. */
#define TESSERA_HOST_IN_MAX 256

static GArray *tessera_host_in;      /* of TesseraHostIn: this window's */
static GArray *tessera_host_waiting; /* for this rank's boards, refused */

static void tessera_mailbox_offer_from_host(TesseraMailboxState *s);

uint32_t tessera_mailbox_host_frames(void)
{
    return tessera_host_in ? tessera_host_in->len : 0;
}

bool tessera_mailbox_host_pending(void)
{
    return tessera_mailbox_host_frames() != 0 ||
           (tessera_host_waiting && tessera_host_waiting->len != 0);
}

uint32_t tessera_mailbox_host_window(TesseraMachineState *m, uint64_t at,
                                     uint32_t frames)
{
    TesseraMailboxState *s = tessera_mbox;
    uint32_t per_board = tessera_threads_per_board(&m->shape);
    g_autofree bool *blocked = g_new0(bool, m->boards_x * m->boards_y);
    g_autofree TesseraHostIn *sent = NULL;
    const TesseraHostIn *in = (const TesseraHostIn *)tessera_host_in->data;
    uint32_t entered = 0;
    guint kept = 0;

    if (m->ranks.count > 1 && frames != 0) {
        in = sent = tessera_ranks_bcast(m, tessera_host_in->data,
                                        frames * sizeof(*in));
    }
    for (uint32_t i = 0; i < frames; i++) {
        if (tessera_ranks_local_hart(m, tessera_dense_index(&m->shape,
                                                            in[i].thread))) {
            g_array_append_val(tessera_host_waiting, in[i]);
        }
    }
    g_array_set_size(tessera_host_in, 0);
    for (guint i = 0; i < tessera_host_waiting->len; i++) {
        TesseraHostIn f = g_array_index(tessera_host_waiting, TesseraHostIn, i);
        uint32_t board = tessera_dense_index(&m->shape, f.thread) / per_board;

        if (blocked[board] ||
            !tessera_mailbox_inject_sent(s->model, f.thread, f.data, f.flits,
                                         at)) {
            blocked[board] = true;
            g_array_index(tessera_host_waiting, TesseraHostIn, kept++) = f;
            continue;
        }
        entered++;
    }
    g_array_set_size(tessera_host_waiting, kept);
    tessera_mailbox_offer_from_host(s); /* a frame the full window held */
    return entered;
}

/*
 * Offers the frame from the host that the parser holds, if any; one the
 * network refuses stays held, and the chardev is not read meanwhile.
 */
static void tessera_mailbox_offer_from_host(TesseraMailboxState *s)
{
    TesseraHostlinkHeader header;
    const uint8_t *payload;

    if (!s->rx) {
        return;
    }
    payload = tessera_hostlink_parser_frame(s->rx, &header);
    if (payload && s->machine->windows_on) {
        TesseraHostIn in = {
            .thread = header.thread, /* the parser passes threads that exist */
            .flits = MIN(header.flits, TESSERA_MAX_FLITS),
        };

        if (tessera_host_in->len >= TESSERA_HOST_IN_MAX) {
            return; /* held until the window ends */
        }
        memcpy(in.data, payload, in.flits * TESSERA_BYTES_PER_FLIT);
        g_array_append_val(tessera_host_in, in);
        tessera_mailbox_host_sent(s->model, 0);
        tessera_hostlink_parser_release(s->rx);
        qemu_chr_fe_accept_input(&s->hostlink);
        tessera_windows_host_news(s->machine, true);
        return;
    }
    if (payload && tessera_mailbox_inject(s->model, header.thread, payload,
                                          header.flits, 0)) {
        tessera_hostlink_parser_release(s->rx);
        tessera_machine_kick_woken(s->machine);
        qemu_chr_fe_accept_input(&s->hostlink);
    }
}

static RISCVException tessera_mailbox_op(CPURISCVState *env, int csrno,
                                         target_ulong *ret_value,
                                         target_ulong new_value,
                                         target_ulong write_mask)
{
    TesseraMailboxState *s = tessera_mbox;
    CPUState *cs = env_cpu(env);
    uint32_t hart = cs->cpu_index;
    uint32_t thread = env->mhartid;
    uint32_t value = new_value & write_mask, result = 0;
    uint64_t now;
    TesseraAccess a;

    if (ret_value) {
        *ret_value = 0;
    }
    /* The debugger may look, but must not change or wait on anything. */
    if (env->debugger) {
        if (write_mask) {
            return RISCV_EXCP_ILLEGAL_INST;
        }
        BQL_LOCK_GUARD();
        tessera_mailbox_peek_csr(s->model, hart, csrno, &result);
        if (ret_value) {
            *ret_value = result;
        }
        return RISCV_EXCP_NONE;
    }
    s->csr_ops++;
    if (tessera_csr_is_mailbox_command(csrno) && write_mask == 0) {
        return RISCV_EXCP_NONE;
    }
    /*
     * A valid write of a send register (length, pointer, multicast mask)
     * touches this hart's registers alone: no lock, no clock. The BQL
     * guards the model against the main loop (the host link), which never
     * touches a running thread's send registers; only this thread runs
     * this path. Its trace event wants the full path's resume time.
     */
    if (write_mask == UINT32_MAX &&
        !trace_event_get_state_backends(TRACE_VERBOSE_TESSERA_MBOX_CSR) &&
        tessera_mailbox_csr_quick(s->model, hart, csrno, value, &result)) {
        if (ret_value) {
            *ret_value = result;
        }
        return RISCV_EXCP_NONE;
    }

    BQL_LOCK_GUARD();
    now = tessera_time_now(hart);
    if (tessera_windows_hold(s->machine, hart, now)) {
        return (RISCVException)EXCP_HLT;
    }
    a = tessera_mailbox_csr(s->model, hart, csrno, value, now);
    tessera_machine_kick_woken(s->machine);
    tessera_mailbox_offer_from_host(s);
    switch (a.status) {
    case TESSERA_ACCESS_DONE:
        trace_verbose_tessera_mbox_csr(thread, a.resume_at, csrno, value,
                                       a.value);
        if (csrno == TESSERA_CSR_CAN_SEND && a.value == 0) {
            trace_tessera_mbox_backpressure(thread, now);
        }
        break;
    case TESSERA_ACCESS_BLOCKED:
        if (value & TESSERA_WAIT_CAN_SEND) {
            trace_tessera_mbox_backpressure(thread, now);
        }
        break;
    case TESSERA_ACCESS_FAULT:
        trace_tessera_mbox_fault(thread, now, csrno, value, a.code);
        break;
    default:
        break;
    }
    return tessera_csr_complete(s->machine, env, "tessera-mailbox", csrno,
                                true, value, &a, ret_value);
}

/*
 * One set of operations per CSR, because gdb names each register after its
 * operations (target/riscv/gdbstub.c): the CSR's macro in tessera/hw/regs.h
 * in lower case (TESSERA_CSR_CAN_SEND is $can_send), the rule the gdb
 * commands of boards/tessera/gdb/ follow too.
 */
#define TESSERA_MAILBOX_CSR(suffix) { TESSERA_CSR_##suffix, #suffix }
static const struct {
    int csrno;
    const char *macro_suffix;
} tessera_mailbox_csrs[] = {
    TESSERA_MAILBOX_CSR(FREE),
    TESSERA_MAILBOX_CSR(CAN_SEND),
    TESSERA_MAILBOX_CSR(CAN_RECV),
    TESSERA_MAILBOX_CSR(SEND_LEN),
    TESSERA_MAILBOX_CSR(SEND_PTR),
    TESSERA_MAILBOX_CSR(SEND),
    TESSERA_MAILBOX_CSR(RECV),
    TESSERA_MAILBOX_CSR(WAIT_UNTIL),
    TESSERA_MAILBOX_CSR(MCAST_HI),
    TESSERA_MAILBOX_CSR(MCAST_LO),
    TESSERA_MAILBOX_CSR(MCAST_SEND),
    TESSERA_MAILBOX_CSR(MBOX_FAULT),
    TESSERA_MAILBOX_CSR(RECV_FREE),
};
static riscv_csr_operations
    tessera_mailbox_csr_ops[ARRAY_SIZE(tessera_mailbox_csrs)];

/*
 * No more than the parser takes without stopping: bytes after a frame that
 * ends up held could not be given back.
 */
static int tessera_mailbox_can_receive(void *opaque)
{
    TesseraMailboxState *s = opaque;

    return tessera_hostlink_parser_room(s->rx);
}

static void tessera_mailbox_receive(void *opaque, const uint8_t *buf,
                                    int size)
{
    TesseraMailboxState *s = opaque;

    BQL_LOCK_GUARD();
    while (size > 0 && tessera_hostlink_parser_room(s->rx) > 0) {
        TesseraHostlinkHeader header;
        TesseraHostlinkEvent event;
        char why[160];
        size_t used;

        event = tessera_hostlink_parser_push(s->rx, buf, size, &used, &header);
        buf += used;
        size -= used;
        if (event == TESSERA_HOSTLINK_FRAME) {
            s->host_finished = false;
            tessera_mailbox_offer_from_host(s);
        } else if (event == TESSERA_HOSTLINK_END_OF_INPUT_FRAME) {
            trace_tessera_mbox_host_finished();
            s->host_finished = true;
            tessera_windows_host_news(s->machine, false);
        } else if (event != TESSERA_HOSTLINK_NEED_MORE) {
            tessera_hostlink_describe(event, &header, why, sizeof(why));
            error_report("tessera host link: %s", why);
        }
    }
}

static void tessera_mailbox_chr_event(void *opaque, QEMUChrEvent event)
{
    TesseraMailboxState *s = opaque;

    if (event == CHR_EVENT_OPENED) {
        s->host_closed = false;
    } else if (event == CHR_EVENT_CLOSED) {
        trace_tessera_mbox_host_closed();
        s->host_closed = true;
        tessera_windows_host_news(s->machine, false);
    }
}

bool tessera_mailbox_host_may_send(TesseraMailboxState *s)
{
    return s->rx && !s->host_closed && !s->host_finished;
}

bool tessera_mailbox_host_frame_held(TesseraMailboxState *s,
                                     uint32_t *thread)
{
    TesseraHostlinkHeader header;

    if (!s->rx || !tessera_hostlink_parser_frame(s->rx, &header)) {
        return false;
    }
    *thread = header.thread;
    return true;
}

static void tessera_mailbox_realize(DeviceState *dev, Error **errp)
{
    TesseraMailboxState *s = TESSERA_MAILBOX(dev);
    TesseraMachineState *m = s->machine;
    TesseraMailboxConfig cfg = {
        .shape = m->shape,
        .tile_hop_cycles = m->tile_hop_cycles,
        .board_hop_cycles = m->board_hop_cycles,
        .buffer_flits = m->buffer_flits,
        .idle_master = m->idle_master,
        .waits = m->waits,
        .windows = m->windows_on,
        .local_boards = m->ranks.local_boards,
    };
    TesseraMailboxHost host = {
        .opaque = s,
        /* Every tile's scratchpad is a window of this one block */
        .scratch = memory_region_get_ram_ptr(&m->scratch_ram),
        .wake = tessera_mailbox_wake,
        .to_host = tessera_mailbox_to_host,
        .event = tessera_mailbox_events_traced() ? tessera_mailbox_event
                                                 : NULL,
    };
    size_t listed = 0;

    if (tessera_mbox) {
        error_setg(errp, "tessera-mailbox: only one per machine");
        return;
    }
    s->model = tessera_mailbox_new(&cfg, &host);
    if (!s->model) {
        error_setg(errp, "tessera-mailbox: the model refused the "
                   "configuration");
        return;
    }
    if (qemu_chr_fe_backend_connected(&s->hostlink)) {
        s->rx = tessera_hostlink_parser_new(&m->shape);
        if (!s->rx) {
            error_setg(errp, "tessera-mailbox: out of memory for the host "
                       "link");
            return;
        }
        qemu_chr_fe_set_handlers(&s->hostlink, tessera_mailbox_can_receive,
                                 tessera_mailbox_receive,
                                 tessera_mailbox_chr_event, NULL, s, NULL,
                                 true);
    }
    tessera_mbox = s;
    riscv_machine_prefetch = tessera_mailbox_prefetch_hart;
    tessera_mailbox_to_host_pending = g_array_new(false, false,
                                                  sizeof(TesseraHostFrame));
    tessera_host_in = g_array_new(false, false, sizeof(TesseraHostIn));
    tessera_host_waiting = g_array_new(false, false, sizeof(TesseraHostIn));
    s->shutdown.notify = tessera_mailbox_at_shutdown;
    qemu_register_shutdown_notifier(&s->shutdown);
    /* On no bus, so not reset with the bus tree: reset with the machine */
    qemu_register_resettable(OBJECT(dev));
    for (uint32_t csr = 0; csr < CSR_TABLE_SIZE; csr++) {
        listed += tessera_csr_is_mailbox(csr);
    }
    /* The table lists every mailbox CSR of regs.h */
    g_assert(listed == ARRAY_SIZE(tessera_mailbox_csrs));
    for (size_t i = 0; i < ARRAY_SIZE(tessera_mailbox_csrs); i++) {
        riscv_csr_operations *ops = &tessera_mailbox_csr_ops[i];

        g_assert(tessera_csr_is_mailbox(tessera_mailbox_csrs[i].csrno));
        ops->name = g_ascii_strdown(tessera_mailbox_csrs[i].macro_suffix, -1);
        ops->predicate = tessera_csr_present;
        ops->op = tessera_mailbox_op;
        tessera_register_csr(tessera_mailbox_csrs[i].csrno, ops);
    }
}

/*
 * Every slot, message, waiter and count back to power-on. The host link is
 * not part of the machine: its parser keeps its place in the stream, and a
 * frame it holds is offered to the new boot at the next CSR.
 */
static void tessera_mailbox_reset_hold(Object *obj, ResetType type)
{
    TesseraMailboxState *s = TESSERA_MAILBOX(obj);

    if (s->model) {
        /* The counts end the boot; the reset's own events start the next */
        tessera_mailbox_trace_counts(s);
        if (!s->run_counts_traced) {
            tessera_mailbox_trace_run_counts(s);
        }
        s->run_counts_traced = false;
        s->csr_ops = 0;
        trace_tessera_mbox_reset();
        tessera_mailbox_reset(s->model);
    }
}

static const Property tessera_mailbox_properties[] = {
    DEFINE_PROP_LINK("machine", TesseraMailboxState, machine,
                     TYPE_TESSERA_MACHINE, TesseraMachineState *),
    DEFINE_PROP_CHR("chardev", TesseraMailboxState, hostlink),
};

static void tessera_mailbox_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->realize = tessera_mailbox_realize;
    rc->phases.hold = tessera_mailbox_reset_hold;
    dc->desc = "Tessera mailboxes, network and host link";
    dc->user_creatable = false;
    device_class_set_props(dc, tessera_mailbox_properties);
}

static const TypeInfo tessera_mailbox_info = {
    .name = TYPE_TESSERA_MAILBOX,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(TesseraMailboxState),
    .class_init = tessera_mailbox_class_init,
};

static void tessera_mailbox_register_types(void)
{
    type_register_static(&tessera_mailbox_info);
}

type_init(tessera_mailbox_register_types)
