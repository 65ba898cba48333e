/*
 * Tessera ranks: one machine spread over several QEMU processes, which
 * Open MPI's mpirun starts (docs/ranks.md). Each process (rank) runs the
 * harts of a rectangle of boards (models/rank_split.c); the others' stay
 * halted. With time
 * windows, boards interact only at the end of each window, so the end of a
 * window is where the ranks talk:
 *
 *   - messages between boards of different ranks, and the room their
 *     admission frees at their board's egress (the mailbox model's
 *     exchange over several processes, models/mailbox_net.c), with
 *     MPI_Alltoallv;
 *   - the barrier controller's commands, with MPI_Allgatherv: every rank
 *     keeps a copy of the controller and gives it every rank's commands;
 *   - what the termination detector's boards tell its master (returned
 *     tokens, guest events), with MPI_Allgather and MPI_Allgatherv: every
 *     rank keeps a copy of the master and applies the same news to it;
 *   - what decides the next window (tessera_windows.c): whether any hart
 *     woke or anything is pending anywhere, the earliest held hart, an exit,
 *     with MPI_Allgather, each rank combining the same values the same way.
 *
 * Every rank takes part in every window's collectives, also one whose harts
 * all wait: that is the conservative synchronisation, with the board hop as
 * its lookahead.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/notify.h"
#include "system/runstate.h"
#include "system/system.h"
#include "system/cpu-timers.h"
#include "hw/riscv/tessera.h"
#include "tessera/models/barrier_ctl.h"
#include "tessera/models/mailbox.h"
#include "tessera/models/ocbus.h"
#include "tessera/models/reflex.h"
#include "trace.h"

#include <mpi.h>

static TesseraMachineState *tessera_ranks_machine;
static bool tessera_ranks_clean_end; /* every rank is ending the run */
static bool tessera_ranks_signalled; /* mpirun is ending every rank */
static Notifier tessera_ranks_shutdown_notifier;
static Notifier tessera_ranks_exit_notifier;

bool tessera_ranks_local_board(TesseraMachineState *s, uint32_t board)
{
    return s->ranks.count == 1 || s->ranks.local_boards[board];
}

bool tessera_ranks_local_hart(TesseraMachineState *s, uint32_t hart)
{
    return tessera_ranks_local_board(
        s, hart / tessera_threads_per_board(&s->shape));
}

void tessera_ranks_end_together(void)
{
    tessera_ranks_clean_end = true;
}

static void tessera_ranks_at_shutdown(Notifier *n, void *data)
{
    const ShutdownCause *cause = data;

    tessera_ranks_signalled = *cause == SHUTDOWN_CAUSE_HOST_SIGNAL;
}

/*
 * A run that ends together (an exit every rank agreed on, a deadlock every
 * rank found) finalizes; a rank that leaves on its own (an error) takes
 * every rank down with it rather than leave them waiting. One that a signal
 * ends (mpirun's, as it stops every rank) just goes.
 */
static void tessera_ranks_at_exit(Notifier *n, void *data)
{
    if (tessera_ranks_clean_end) {
        MPI_Finalize();
    } else if (!tessera_ranks_signalled) {
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/*
 * What every rank finds alike at start-up, rank 0 alone says, in one line,
 * then ends every rank; the others wait for that rather than abort first
 * (an abort of theirs could end rank 0 before it says why).
 */
static G_NORETURN void tessera_ranks_refuse(int rank, char *why)
{
    if (rank == 0) {
        error_report("tessera: %s", why);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* rank 0 never comes: its abort ends this */
    MPI_Abort(MPI_COMM_WORLD, 1);
    abort(); /* MPI_Abort does not return */
}

uint32_t *tessera_ranks_split(TesseraMachineState *s, uint32_t parts,
                              const char *what, TesseraRankRect *rects)
{
    uint32_t boards = s->boards_x * s->boards_y;
    uint32_t *board_part = g_new(uint32_t, boards);
    TesseraRankSplitStatus status = tessera_rank_split(
        s->boards_x, s->boards_y, parts, s->grid_cols, s->grid_rows, rects);

    if (status != TESSERA_RANK_SPLIT_OK) {
        g_autofree char *why = g_strdup_printf(
            "%s=%u, ranks-grid=%ux%u on %ux%u boards: %s", what, parts,
            s->grid_cols, s->grid_rows, s->boards_x, s->boards_y,
            tessera_rank_split_why(status));

        if (s->ranks.count > 1) {
            tessera_ranks_refuse(s->ranks.rank, g_steal_pointer(&why));
        }
        error_report("tessera: %s", why);
        exit(1);
    }
    tessera_rank_split_boards(rects, parts, s->boards_x, board_part);
    return board_part;
}

/*
 * Where every rank's boards are, for mpirun's report of a rank that died
 * (qemu-cmd.sh gives the file): a line "<rank> <boards>" each.
 */
static void tessera_ranks_write_map(const TesseraRankRect *rects,
                                    uint32_t ranks)
{
    const char *path = getenv("TESSERA_RANKS_MAP");
    g_autoptr(GString) map = g_string_new(NULL);
    g_autoptr(GError) err = NULL;

    if (!path || !*path) {
        return;
    }
    for (uint32_t rank = 0; rank < ranks; rank++) {
        char text[48];

        tessera_rank_rect_describe(&rects[rank], text, sizeof(text));
        g_string_append_printf(map, "%u %s\n", rank, text);
    }
    /* Written whole or not at all: a report may read it at any time */
    if (!g_file_set_contents(path, map->str, map->len, &err)) {
        warn_report("tessera: the ranks' map %s: %s", path, err->message);
    }
}

/* This rank's boards, and every board's rank. */
static void tessera_ranks_split_up(TesseraMachineState *s)
{
    TesseraRanks *r = &s->ranks;
    uint32_t boards = s->boards_x * s->boards_y;
    g_autofree TesseraRankRect *rects = g_new(TesseraRankRect, r->count);

    r->board_rank = tessera_ranks_split(s, r->count, "ranks", rects);
    r->local_boards = g_new0(bool, boards);
    for (uint32_t b = 0; b < boards; b++) {
        r->local_boards[b] = r->board_rank[b] == r->rank;
    }
    r->rect = rects[r->rank];
    tessera_rank_rect_describe(&r->rect, r->boards_text,
                               sizeof(r->boards_text));
    if (r->rank == 0) {
        tessera_ranks_write_map(rects, r->count);
    }
}

void tessera_ranks_init(TesseraMachineState *s)
{
    TesseraRanks *r = &s->ranks;
    uint32_t boards = s->boards_x * s->boards_y;
    int provided, size, rank;

    tessera_ranks_machine = s;
    r->count = s->ranks_opt;
    r->rank = 0;
    if (r->count == 1) {
        return;
    }
    if (r->count > boards) {
        error_report("tessera: ranks=%u: more ranks than the %u boards",
                     r->count, boards);
        exit(1);
    }
    if (!icount_enabled()) {
        error_report("tessera: ranks=%u needs -icount (the deterministic "
                     "mode)", r->count);
        exit(1);
    }
    if (s->window_groups != 1) {
        error_report("tessera: ranks=%u and window-groups=%u: one or the "
                     "other", r->count, s->window_groups);
        exit(1);
    }
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) !=
        MPI_SUCCESS || provided < MPI_THREAD_SERIALIZED) {
        error_report("tessera: ranks=%u: MPI did not start (run it with "
                     "mpirun, or ./tessera run --ranks N)", r->count);
        exit(1);
    }
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if ((uint32_t)size != r->count) {
        tessera_ranks_refuse(rank, g_strdup_printf(
            "ranks=%u, but mpirun started %d processes", r->count, size));
    }
    if (s->hostlink && rank != 0) {
        error_report("tessera: rank %d: hostlink= is rank 0's alone (the "
                     "bridge board's; qemu-cmd.sh --ranks gives it so)", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* Errors end every rank; the exit notifier says how */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    r->rank = rank;
    tessera_ranks_split_up(s);
    /* Ranks imply windows: they are what makes the split invisible */
    s->windows_opt = ON_OFF_AUTO_ON;
    tessera_ranks_shutdown_notifier.notify = tessera_ranks_at_shutdown;
    qemu_register_shutdown_notifier(&tessera_ranks_shutdown_notifier);
    tessera_ranks_exit_notifier.notify = tessera_ranks_at_exit;
    qemu_add_exit_notifier(&tessera_ranks_exit_notifier);
    trace_tessera_ranks_init(r->rank, r->count, r->rect.x0, r->rect.y0,
                             r->rect.x1, r->rect.y1);
}

/* ---- the window's messages ------------------------------------------- */

/* Bytes bound for each rank. */
typedef struct TesseraRanksOut {
    TesseraMachineState *s;
    GByteArray **to;
} TesseraRanksOut;

/* A record for the rank of `board`. */
static void tessera_ranks_put(TesseraRanksOut *out, uint32_t board,
                              const void *record, size_t size)
{
    g_byte_array_append(out->to[out->s->ranks.board_rank[board]], record,
                        size);
}

static void tessera_ranks_put_transit(void *opaque,
                                      const TesseraMailboxTransit *t)
{
    tessera_ranks_put(opaque, t->dest_board, t, sizeof(*t));
}

static void tessera_ranks_put_credit(void *opaque,
                                     const TesseraMailboxCredit *c)
{
    tessera_ranks_put(opaque, c->src_board, c, sizeof(*c));
}

/*
 * Where each rank's `counts` bytes of records of `size` go in one buffer:
 * `displs`, and the total. Counts that are no whole records, or more than
 * 2 GiB in all, end every rank.
 */
static size_t tessera_ranks_place(TesseraRanks *r, const int *counts,
                                  int *displs, size_t size)
{
    size_t sum = 0;

    for (uint32_t i = 0; i < r->count; i++) {
        if (counts[i] < 0 || counts[i] % size != 0 ||
            (size_t)counts[i] > INT_MAX - sum) {
            error_report("tessera: rank %u: rank %u sent %d bytes, not whole "
                         "records", r->rank, i, counts[i]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        displs[i] = sum;
        sum += counts[i];
    }
    return sum;
}

/*
 * Sends every rank its bytes and returns what all ranks sent this one, as
 * records of `size` bytes (*n of them; g_free the result).
 */
static void *tessera_ranks_alltoall(TesseraRanks *r, GByteArray **to,
                                    size_t size, size_t *n)
{
    g_autofree int *send_counts = g_new(int, r->count);
    g_autofree int *send_displs = g_new(int, r->count);
    g_autofree int *recv_counts = g_new(int, r->count);
    g_autofree int *recv_displs = g_new(int, r->count);
    g_autofree uint8_t *send = NULL;
    uint8_t *recv;
    size_t total = 0, received;

    for (uint32_t i = 0; i < r->count; i++) {
        if (to[i]->len > INT_MAX - total) {
            error_report("tessera: rank %u: more than 2 GiB for one window's "
                         "exchange", r->rank);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        send_counts[i] = to[i]->len;
        send_displs[i] = total;
        total += to[i]->len;
    }
    send = g_malloc(MAX(total, 1));
    for (uint32_t i = 0; i < r->count; i++) {
        if (to[i]->len) { /* an empty array may have no data at all */
            memcpy(send + send_displs[i], to[i]->data, to[i]->len);
            g_byte_array_set_size(to[i], 0);
        }
    }
    MPI_Alltoall(send_counts, 1, MPI_INT, recv_counts, 1, MPI_INT,
                 MPI_COMM_WORLD);
    received = tessera_ranks_place(r, recv_counts, recv_displs, size);
    recv = g_malloc(MAX(received, 1));
    MPI_Alltoallv(send, send_counts, send_displs, MPI_BYTE, recv,
                  recv_counts, recv_displs, MPI_BYTE, MPI_COMM_WORLD);
    *n = received / size;
    return recv;
}

uint32_t tessera_ranks_exchange(TesseraMachineState *s, uint64_t at)
{
    TesseraRanks *r = &s->ranks;
    TesseraMailbox *m = s->mailbox->model;
    g_autofree GByteArray **to = g_new(GByteArray *, r->count);
    TesseraRanksOut out = { .s = s, .to = to };
    g_autofree TesseraMailboxTransit *arrived = NULL;
    g_autofree TesseraMailboxCredit *credits = NULL;
    uint32_t entered;
    size_t n;

    if (r->count == 1) {
        return tessera_mailbox_exchange(m, at);
    }
    for (uint32_t i = 0; i < r->count; i++) {
        to[i] = g_byte_array_new();
    }
    tessera_mailbox_take_leaving(m, tessera_ranks_put_transit, &out);
    arrived = tessera_ranks_alltoall(r, to, sizeof(*arrived), &n);
    for (size_t i = 0; i < n; i++) {
        if (!tessera_mailbox_arrive(m, &arrived[i])) {
            error_report("tessera: rank %u: a message from another rank "
                         "names no board of this one", r->rank);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    entered = tessera_mailbox_exchange_admit(m, at, tessera_ranks_put_credit,
                                             &out);
    credits = tessera_ranks_alltoall(r, to, sizeof(*credits), &n);
    for (size_t i = 0; i < n; i++) {
        if (!tessera_mailbox_credit(m, &credits[i])) {
            error_report("tessera: rank %u: room returned by another rank "
                         "that no egress of this one holds", r->rank);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    tessera_mailbox_exchange_refill(m, at);
    for (uint32_t i = 0; i < r->count; i++) {
        g_byte_array_unref(to[i]);
    }
    trace_tessera_ranks_exchange(r->rank, at, entered);
    return entered;
}

/*
 * Every rank's `n` records of `size` bytes, in rank order (g_free the
 * result; *total of them); *mine is where this rank's begin.
 */
static void *tessera_ranks_allgatherv(TesseraRanks *r, const void *records,
                                      size_t n, size_t size, size_t *total,
                                      size_t *mine)
{
    g_autofree int *counts = g_new(int, r->count);
    g_autofree int *displs = g_new(int, r->count);
    int bytes;
    size_t sum;
    uint8_t *all;

    if (n > INT_MAX / size) {
        error_report("tessera: rank %u: more than 2 GiB for one window",
                     r->rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    bytes = n * size;
    MPI_Allgather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    sum = tessera_ranks_place(r, counts, displs, size);
    all = g_malloc(MAX(sum, 1));
    if (sum != 0) {
        MPI_Allgatherv(records, bytes, MPI_BYTE, all, counts, displs,
                       MPI_BYTE, MPI_COMM_WORLD);
    }
    *total = sum / size;
    *mine = displs[r->rank] / size;
    return all;
}

/* ---- the barrier controller's window ---------------------------------- */

uint32_t tessera_ranks_barrier_exchange(TesseraMachineState *s, uint64_t at,
                                        uint64_t posted)
{
    TesseraRanks *r = &s->ranks;
    TesseraBarrierCtl *b = s->barrier_ctl->model;
    const TesseraBarrierCtlPost *fresh;
    g_autofree TesseraBarrierCtlPost *all = NULL;
    size_t n, total, mine;

    n = tessera_barrier_ctl_fresh(b, &fresh);
    if (r->count > 1 && posted != 0) {
        /* Every rank's copy of the controller takes every rank's commands */
        all = tessera_ranks_allgatherv(r, fresh, n, sizeof(*fresh), &total,
                                       &mine);
        for (size_t i = 0; i < total; i++) {
            if ((i < mine || i >= mine + n) &&
                !tessera_barrier_ctl_post_remote(b, &all[i])) {
                error_report("tessera: rank %u: a barrier command from "
                             "another rank that no hart could have posted",
                             r->rank);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
    }
    return tessera_barrier_ctl_exchange(b, at);
}

/* ---- the reflex switches' window --------------------------------------- */

uint32_t tessera_ranks_reflex_window(TesseraMachineState *s, uint64_t ops)
{
    TesseraRanks *r = &s->ranks;
    struct TesseraReflex *x = tessera_reflex_model();
    const TesseraReflexOp *mine;
    g_autofree TesseraReflexOp *all = NULL;
    size_t n, me;
    uint32_t moved;

    if (x == NULL) {
        return 0;
    }
    if (!tessera_reflex_window_ok(x)) {
        error_report("tessera: rank %u: out of memory for the window's reflex "
                     "CSRs", r->rank);
        if (r->count > 1) {
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        abort();
    }
    n = tessera_reflex_window_ops(x, &mine);
    if (r->count > 1 && ops != 0) {
        all = tessera_ranks_allgatherv(r, mine, n, sizeof(*mine), &n, &me);
        moved = tessera_reflex_window_end(x, all, n);
    } else {
        moved = tessera_reflex_window_end(x, NULL, 0);
    }
    tessera_reflex_after_window();
    return moved;
}

/* ---- the open-collector bus's window ---------------------------------- */

uint32_t tessera_ranks_ocbus_window(TesseraMachineState *s, uint64_t until,
                                    uint64_t drives)
{
    TesseraRanks *r = &s->ranks;
    TesseraOcbus *b = tessera_ocbus_model();
    const TesseraOcbusDrive *mine;
    g_autofree TesseraOcbusDrive *all = NULL;
    g_autofree TesseraOcbusTimes *times_of = NULL;
    TesseraOcbusTimes times;
    size_t n, me;
    uint32_t changed;
    bool ok;

    if (b == NULL || drives == 0) {
        return 0; /* no rank's harts drove anything new */
    }
    n = tessera_ocbus_window(b, &mine, &times);
    if (r->count > 1) {
        times_of = g_new(TesseraOcbusTimes, r->count);
        MPI_Allgather(&times, sizeof(times), MPI_BYTE, times_of,
                      sizeof(times), MPI_BYTE, MPI_COMM_WORLD);
        for (uint32_t i = 0; i < r->count; i++) {
            tessera_ocbus_times_add(&times, &times_of[i]);
        }
        mine = all = tessera_ranks_allgatherv(r, mine, n, sizeof(*mine), &n,
                                              &me);
    }
    changed = tessera_ocbus_window_end(b, mine, n, &times, until, &ok);
    if (!ok) {
        error_report("tessera: rank %u: a bus drive from another rank names "
                     "no hart, or lines the machine lacks", r->rank);
        if (r->count > 1) {
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        abort();
    }
    return changed;
}

/* ---- the termination detector's window ------------------------------- */

/* A rank's news for the master, and how many returns follow it. */
typedef struct TesseraRanksIdlePart {
    TesseraTermdetNews news;
    uint64_t returns;
} TesseraRanksIdlePart;

/*
 * Every rank's returns, in rank order, into *all (g_free it); their news
 * summed into *news. Returns how many.
 */
static size_t tessera_ranks_idle_gather(TesseraRanks *r,
                                        const TesseraTermdetReturn *mine,
                                        size_t n, TesseraTermdetNews *news,
                                        TesseraTermdetReturn **all)
{
    g_autofree TesseraRanksIdlePart *parts = g_new(TesseraRanksIdlePart,
                                                   r->count);
    g_autofree int *counts = g_new(int, r->count);
    g_autofree int *displs = g_new(int, r->count);
    TesseraRanksIdlePart part = { .news = *news, .returns = n };
    size_t total = 0;

    MPI_Allgather(&part, sizeof(part), MPI_BYTE, parts, sizeof(part),
                  MPI_BYTE, MPI_COMM_WORLD);
    memset(news, 0, sizeof(*news));
    for (uint32_t i = 0; i < r->count; i++) {
        /* A board returns a token once a round: at most every board */
        if (parts[i].returns > (uint64_t)(INT_MAX / sizeof(**all)) - total) {
            error_report("tessera: rank %u: rank %u sent %" PRIu64 " token "
                         "returns in one window", r->rank, i,
                         parts[i].returns);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        tessera_termdet_news_add(news, &parts[i].news);
        counts[i] = parts[i].returns * sizeof(**all);
        displs[i] = total * sizeof(**all);
        total += parts[i].returns;
    }
    *all = g_new(TesseraTermdetReturn, MAX(total, 1));
    if (total != 0) {
        MPI_Allgatherv(mine, n * sizeof(*mine), MPI_BYTE, *all, counts,
                       displs, MPI_BYTE, MPI_COMM_WORLD);
    }
    return total;
}

uint32_t tessera_ranks_idle_window(TesseraMachineState *s)
{
    TesseraRanks *r = &s->ranks;
    TesseraMailbox *m = s->mailbox->model;
    const TesseraTermdetReturn *mine;
    g_autofree TesseraTermdetReturn *all = NULL;
    TesseraTermdetNews news;
    bool changes;
    size_t n;

    n = tessera_mailbox_idle_window(m, &mine, &news);
    changes = tessera_mailbox_idle_window_pending(m);
    if (r->count > 1) {
        n = tessera_ranks_idle_gather(r, mine, n, &news, &all);
        mine = all;
    }
    /* Whatever another rank's part, every rank applies the same */
    if (!tessera_mailbox_idle_window_end(m, mine, n, &news)) {
        error_report("tessera: rank %u: token returns from another rank "
                     "that do not fit the round under way", r->rank);
        if (r->count > 1) {
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        abort();
    }
    return n + changes;
}

void *tessera_ranks_gather(TesseraMachineState *s, const void *data,
                           size_t bytes, size_t *total)
{
    TesseraRanks *r = &s->ranks;
    g_autofree int *counts = NULL;
    g_autofree int *displs = NULL;
    uint8_t *all = NULL;
    int count = bytes;
    size_t sum = 0;

    if (bytes > INT_MAX) {
        error_report("tessera: rank %u: more than 2 GiB of console lines in "
                     "one window", r->rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (r->rank == 0) {
        counts = g_new(int, r->count);
        displs = g_new(int, r->count);
    }
    MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (r->rank == 0) {
        for (uint32_t i = 0; i < r->count; i++) {
            if (counts[i] < 0 || (size_t)counts[i] > INT_MAX - sum) {
                error_report("tessera: rank 0: more than 2 GiB of console "
                             "lines in one window");
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            displs[i] = sum;
            sum += counts[i];
        }
        all = g_malloc(MAX(sum, 1));
    }
    MPI_Gatherv(data, count, MPI_BYTE, all, counts, displs, MPI_BYTE, 0,
                MPI_COMM_WORLD);
    *total = sum;
    return all;
}

void *tessera_ranks_bcast(TesseraMachineState *s, const void *data,
                          size_t bytes)
{
    void *copy = g_malloc(MAX(bytes, 1));

    if (bytes > INT_MAX) {
        error_report("tessera: rank %u: more than 2 GiB to broadcast",
                     s->ranks.rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (s->ranks.rank == 0 && bytes) {
        memcpy(copy, data, bytes);
    }
    MPI_Bcast(copy, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    return copy;
}

/* ---- what decides the next window ------------------------------------- */

void tessera_ranks_agree(TesseraMachineState *s, TesseraWindowVote *v)
{
    TesseraRanks *r = &s->ranks;
    g_autofree TesseraWindowVote *all = NULL;
    TesseraWindowVote sum;

    if (r->count == 1) {
        return;
    }
    all = g_new(TesseraWindowVote, r->count);
    MPI_Allgather(v, sizeof(*v), MPI_BYTE, all, sizeof(*v), MPI_BYTE,
                  MPI_COMM_WORLD);
    sum = all[0];
    for (uint32_t i = 1; i < r->count; i++) {
        const TesseraWindowVote *o = &all[i];

        sum.go |= o->go;
        sum.pending |= o->pending;
        sum.moved += o->moved;
        sum.held += o->held;
        sum.posted += o->posted;
        sum.earliest = MIN(sum.earliest, o->earliest);
        if (o->exit_at < sum.exit_at ||
            (o->exit_at == sum.exit_at && o->exit_hart < sum.exit_hart)) {
            sum.exit_at = o->exit_at;
            sum.exit_hart = o->exit_hart;
            sum.exit_value = o->exit_value;
            sum.exit_code = o->exit_code;
        }
        sum.checked_in += o->checked_in;
        sum.host_frames += o->host_frames;
        sum.host_may_send |= o->host_may_send;
        sum.ocbus_drives += o->ocbus_drives;
        sum.reflex_ops += o->reflex_ops;
        sum.output += o->output;
        if (o->reset_at < sum.reset_at ||
            (o->reset_at == sum.reset_at && o->reset_hart < sum.reset_hart)) {
            sum.reset_at = o->reset_at;
            sum.reset_hart = o->reset_hart;
        }
        if (o->fail_at < sum.fail_at ||
            (o->fail_at == sum.fail_at && o->fail_hart < sum.fail_hart)) {
            sum.fail_at = o->fail_at;
            sum.fail_hart = o->fail_hart;
            sum.fail_code = o->fail_code;
        }
    }
    *v = sum;
}
