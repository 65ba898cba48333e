/*
 * Tessera deadlock detection (docs/debugging.md, "Deadlocks").
 *
 * A deadlock: every hart is halted (in a blocking device operation or in
 * wfi) with nothing pending, no woken hart has yet to run, no timer of the
 * machine is due, and no host can still send (no host link, or the host
 * closed it, or it said it has finished sending). Nothing can then ever
 * wake a hart, so the machine reports who waits on what (from the wait
 * registry the device models fill, models/waits.c) and exits with
 * TESSERA_DEADLOCK_EXIT_STATUS, or, with deadlock=stop (./tessera debug),
 * pauses so that the debugger can look.
 *
 * In the deterministic mode (-icount), QEMU's main loop calls the check
 * when every vCPU is idle and no virtual-clock timer is pending
 * (qemu/patches/0007). Without icount, a hart that blocks in a device
 * schedules the check; a machine whose last hart to stop stops in wfi is
 * then not detected (docs/debugging.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitmap.h"
#include "qemu/error-report.h"
#include "qemu/main-loop.h"
#include "system/cpus.h"
#include "system/cpu-timers.h"
#include "system/runstate.h"
#include "hw/riscv/tessera.h"
#include "tessera/models/mailbox.h"
#include "tessera/models/sysinfo.h"
#include "tessera/models/waits.h"
#include "trace.h"

static TesseraMachineState *tessera_deadlock_machine;
static QEMUBH *tessera_deadlock_bh;
static bool tessera_deadlock_reported; /* the run is ending */
/* Harts tessera_deadlock_name_other_waits() named, unnamed on resume. */
static unsigned long *tessera_deadlock_named;

#define TESSERA_WAIT_OP_PARKED "parked at its own trap vector (checked in)"

/* Why the machine may still move, or NULL if nothing can move it. */
static const char *tessera_deadlock_hope(TesseraMachineState *s)
{
    CPUState *cs;

    if (!runstate_is_running()) {
        return "the machine is stopped";
    }
    if (qemu_shutdown_requested_get() || qemu_reset_requested_get()) {
        return "the run is ending or resetting";
    }
    if (s->any_woken) {
        return "a woken hart has yet to run";
    }
    if (tessera_windows_pending(s)) {
        return "a time window has yet to end";
    }
    if (s->ranks.count > 1 && !s->ranks.quiet) {
        return "another rank may still send";
    }
    if (!all_cpu_threads_idle()) {
        return "a hart can run";
    }
    CPU_FOREACH(cs) {
        /* gdb resumed some harts only (vCont); it may resume the rest. */
        if (cs->stopped || cs->stop) {
            return "the debugger holds a hart";
        }
    }
    if (qemu_clock_deadline_ns_all(QEMU_CLOCK_VIRTUAL,
                                   ~QEMU_TIMER_ATTR_EXTERNAL) >= 0) {
        return "a timer is due";
    }
    if (tessera_mailbox_host_may_send(s->mailbox)) {
        return "the host may still send";
    }
    return NULL;
}

/* Harts the machine stopped, not a device: named now, for the report. */
static void tessera_deadlock_name_other_waits(TesseraMachineState *s)
{
    for (uint32_t hart = 0; hart < s->num_harts; hart++) {
        uint32_t id = tessera_hart_thread_id(hart);
        const char *op;

        if (tessera_waits_operation(s->waits, hart) ||
            !tessera_ranks_local_hart(s, hart)) {
            continue;
        }
        if (test_bit(hart, s->parked)) {
            op = TESSERA_WAIT_OP_PARKED;
        } else if (tessera_sysinfo_checked_in(s->sysinfo->model, id)) {
            op = TESSERA_WAIT_OP_FINISHED;
        } else {
            op = TESSERA_WAIT_OP_WFI;
        }
        tessera_waits_block(s->waits, hart, op, tessera_time_now(hart));
        set_bit(hart, tessera_deadlock_named);
    }
}

/* Over ranks: the latest clock and the messages at egresses, every rank's */
static uint64_t tessera_deadlock_ranks_latest;
static uint32_t tessera_deadlock_ranks_egress;
/* Operations other ranks named, one copy of each text (they must outlive
 * the wait registry) */
static GHashTable *tessera_deadlock_ops;

static const char *tessera_deadlock_op(const char *text)
{
    char *op;

    if (!tessera_deadlock_ops) {
        tessera_deadlock_ops = g_hash_table_new(g_str_hash, g_str_equal);
    }
    op = g_hash_table_lookup(tessera_deadlock_ops, text);
    if (!op) {
        op = g_strdup(text);
        g_hash_table_add(tessera_deadlock_ops, op);
    }
    return op;
}

void tessera_deadlock_gather(TesseraMachineState *s)
{
    g_autoptr(GString) mine = g_string_new(NULL);
    g_autofree char *all = NULL;
    uint64_t latest = 0;
    size_t total, at;

    tessera_deadlock_name_other_waits(s);
    for (uint32_t hart = 0; hart < s->num_harts; hart++) {
        const char *op = tessera_waits_operation(s->waits, hart);

        latest = MAX(latest, tessera_time_now(hart));
        if (op && tessera_ranks_local_hart(s, hart)) {
            g_string_append_printf(mine, "w %u %" PRIu64 " %s", hart,
                                   tessera_waits_since(s->waits, hart), op);
            g_string_append_c(mine, '\0');
        }
    }
    g_string_append_printf(mine, "r %" PRIu64 " %u", latest,
                           tessera_mailbox_outbox_count(s->mailbox->model));
    g_string_append_c(mine, '\0');
    all = tessera_ranks_gather(s, mine->str, mine->len, &total);
    tessera_deadlock_ranks_latest = 0;
    tessera_deadlock_ranks_egress = 0;
    /* Rank 0 reports: every rank's waits into its registry */
    for (at = 0; all && at < total; at += strlen(all + at) + 1) {
        const char *record = all + at;
        uint32_t hart, egress;
        uint64_t since;
        int op_at = 0;

        if (sscanf(record, "w %" SCNu32 " %" SCNu64 " %n", &hart, &since,
                   &op_at) == 2 && op_at > 0 && hart < s->num_harts &&
            !tessera_ranks_local_hart(s, hart)) {
            tessera_waits_block(s->waits, hart,
                                tessera_deadlock_op(record + op_at), since);
            set_bit(hart, tessera_deadlock_named);
        } else if (sscanf(record, "r %" SCNu64 " %" SCNu32, &since,
                          &egress) == 2) {
            tessera_deadlock_ranks_latest =
                MAX(tessera_deadlock_ranks_latest, since);
            tessera_deadlock_ranks_egress += egress;
        }
    }
}

static void tessera_deadlock_check(void)
{
    TesseraMachineState *s = tessera_deadlock_machine;
    g_autofree char *report = NULL;
    g_autofree char *held = NULL;
    g_autofree char *egress = NULL;
    uint64_t latest = 0;
    uint32_t at_egress;
    uint32_t held_thread;
    size_t len;

    if (!s || s->deadlock == TESSERA_DEADLOCK_OFF ||
        tessera_deadlock_reported || tessera_deadlock_hope(s)) {
        return;
    }
    tessera_deadlock_reported = true;
    tessera_deadlock_name_other_waits(s);
    for (uint32_t hart = 0; hart < s->num_harts; hart++) {
        latest = MAX(latest, tessera_time_now(hart));
    }
    if (s->ranks.count > 1) {
        /* Every rank's part is in rank 0's registry: it alone reports */
        tessera_ranks_end_together();
        if (s->ranks.rank != 0) {
            qemu_system_shutdown_request_with_code(
                SHUTDOWN_CAUSE_GUEST_PANIC, TESSERA_DEADLOCK_EXIT_STATUS);
            return;
        }
        latest = MAX(latest, tessera_deadlock_ranks_latest);
    }
    len = tessera_waits_report(s->waits, NULL, 0);
    report = g_malloc(len + 1);
    tessera_waits_report(s->waits, report, len + 1);
    if (tessera_mailbox_host_frame_held(s->mailbox, &held_thread)) {
        held = g_strdup_printf("  the host's message to thread 0x%x waits "
                               "for room in its mailbox\n", held_thread);
    }
    at_egress = s->ranks.count > 1 ? tessera_deadlock_ranks_egress :
                s->windows.on ? tessera_mailbox_outbox_count(s->mailbox->model)
                              : 0;
    if (at_egress) {
        egress = g_strdup_printf("  %u messages to other boards wait at their "
                                 "board's egress for room in their mailboxes\n",
                                 at_egress);
    }
    trace_tessera_deadlock(tessera_waits_count(s->waits), latest);
    if (s->deadlock == TESSERA_DEADLOCK_STOP) {
        error_report("tessera: deadlock: every hart is stopped and nothing "
                     "can wake one (latest modelled cycle %" PRIu64 "); "
                     "waiting:\n%s%s%s"
                     "tessera: the machine pauses for the debugger "
                     "(machine option deadlock=stop)", latest, report,
                     held ? held : "", egress ? egress : "");
        vm_stop(RUN_STATE_PAUSED);
        return;
    }
    error_report("tessera: deadlock: every hart is stopped and nothing can "
                 "wake one (latest modelled cycle %" PRIu64 "); waiting:\n"
                 "%s%s%s"
                 "tessera: exit status %d (deadlock); machine option "
                 "deadlock=off turns detection off",
                 latest, report, held ? held : "", egress ? egress : "",
                 TESSERA_DEADLOCK_EXIT_STATUS);
    qemu_system_shutdown_request_with_code(SHUTDOWN_CAUSE_GUEST_PANIC,
                                           TESSERA_DEADLOCK_EXIT_STATUS);
}

/*
 * Paused on a deadlock (deadlock=stop), then resumed by the debugger,
 * which may have changed anything: check again from scratch.
 */
static void tessera_deadlock_vm_state(void *opaque, bool running,
                                      RunState state)
{
    TesseraMachineState *s = opaque;
    unsigned long hart;

    if (!running || !tessera_deadlock_reported ||
        s->deadlock != TESSERA_DEADLOCK_STOP) {
        return;
    }
    tessera_deadlock_reported = false;
    for (hart = find_first_bit(tessera_deadlock_named, s->num_harts);
         hart < s->num_harts;
         hart = find_next_bit(tessera_deadlock_named, s->num_harts,
                              hart + 1)) {
        tessera_waits_unblock(s->waits, hart);
    }
    bitmap_zero(tessera_deadlock_named, s->num_harts);
}

static void tessera_deadlock_bh_run(void *opaque)
{
    tessera_deadlock_check();
}

void tessera_deadlock_maybe(TesseraMachineState *s)
{
    /* Under icount the main loop calls the check when it matters. */
    if (s->deadlock != TESSERA_DEADLOCK_OFF && !icount_enabled()) {
        qemu_bh_schedule(tessera_deadlock_bh);
    }
}

void tessera_deadlock_init(TesseraMachineState *s)
{
    tessera_deadlock_machine = s;
    tessera_deadlock_named = bitmap_new(s->num_harts);
    qemu_add_vm_change_state_handler(tessera_deadlock_vm_state, s);
    tessera_deadlock_bh = qemu_bh_new(tessera_deadlock_bh_run, NULL);
    icount_idle_hook = tessera_deadlock_check;
}
