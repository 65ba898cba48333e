/*
 * Tessera counting barrier controller (docs/barrier-controller.md): the
 * CSRs TESSERA_CSR_BARRIER_COUNT and TESSERA_CSR_BARRIER_ENTER of every
 * hart, driving the model (models/barrier_ctl.c), and its command log on a
 * chardev (machine option barrier-log=<chardev id>).
 *
 * An ENTER that must wait blocks as the mailbox CSRs do
 * (tessera_mailbox.c): under the BQL the model records the hart as waiting,
 * the hart halts and the CSR instruction is restarted (EXCP_HLT restores
 * the pc), to be executed again once the model wakes it; the model counts
 * the same ENTER issued again as the same arrival.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "system/reset.h"
#include "chardev/char.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/riscv/tessera.h"
#include "tessera/models/barrier_ctl.h"
#include "trace.h"

static TesseraBarrierCtlState *tessera_barrier;

static void tessera_barrier_ctl_wake(void *opaque, uint32_t hart)
{
    TesseraBarrierCtlState *s = opaque;

    /* Over ranks every copy of the controller answers every hart */
    if (tessera_ranks_local_hart(s->machine, hart)) {
        tessera_machine_wake(s->machine, hart);
    }
}

/* One command of the log, whole, as a line. */
static void tessera_barrier_ctl_log(void *opaque, uint32_t hart,
                                    const char *line)
{
    TesseraBarrierCtlState *s = opaque;
    char buf[TESSERA_BARRIER_CTL_LINE_MAX + 1];
    int len = snprintf(buf, sizeof(buf), "%s\n", line);

    if (!tessera_ranks_local_hart(s->machine, hart)) {
        return; /* its own rank logs it */
    }
    if (qemu_chr_fe_backend_connected(&s->log)) {
        qemu_chr_fe_write_all(&s->log, (const uint8_t *)buf,
                              MIN(len, (int)sizeof(buf) - 1));
    }
}

static RISCVException tessera_barrier_ctl_op(CPURISCVState *env, int csrno,
                                             target_ulong *ret_value,
                                             target_ulong new_value,
                                             target_ulong write_mask)
{
    TesseraBarrierCtlState *s = tessera_barrier;
    CPUState *cs = env_cpu(env);
    uint32_t hart = cs->cpu_index;
    uint32_t thread = env->mhartid;
    uint32_t value = new_value & write_mask;
    uint32_t uid = value & TESSERA_BARRIER_UID_MASK;
    uint64_t now;
    bool again;
    TesseraAccess a;

    if (ret_value) {
        *ret_value = 0;
    }
    /* Both CSRs act on a write; a plain read (csrr) does nothing. */
    if (write_mask == 0) {
        return RISCV_EXCP_NONE;
    }
    /* The debugger may look, but must not enter or register anything. */
    if (env->debugger) {
        return RISCV_EXCP_ILLEGAL_INST;
    }

    BQL_LOCK_GUARD();
    now = tessera_time_now(hart);
    if (tessera_windows_hold(s->machine, hart, now)) {
        return (RISCVException)EXCP_HLT;
    }
    /* The same ENTER issued again after a wake (or an interrupt) */
    again = csrno == TESSERA_CSR_BARRIER_ENTER &&
            s->entered[hart] == (uint64_t)value + 1;
    if (csrno == TESSERA_CSR_BARRIER_ENTER && !again) {
        trace_tessera_barrier_enter(thread, now, uid,
                                    value >> TESSERA_BARRIER_COUNT_SHIFT);
    }
    a = tessera_barrier_ctl_csr(s->model, hart, csrno, value, now);
    if (a.status == TESSERA_ACCESS_BLOCKED) {
        if (csrno == TESSERA_CSR_BARRIER_ENTER) {
            s->entered[hart] = (uint64_t)value + 1;
        }
    } else if (csrno == TESSERA_CSR_BARRIER_ENTER) {
        /* BUSY refuses an ENTER beside the outstanding one */
        if (a.value != TESSERA_BARRIER_BUSY) {
            s->entered[hart] = 0;
        }
        trace_tessera_barrier_release(thread, a.resume_at, uid, a.value);
    } else if (a.status != TESSERA_ACCESS_UNKNOWN) {
        trace_tessera_barrier_count(thread, a.resume_at, uid,
                                    value >> TESSERA_BARRIER_COUNT_SHIFT,
                                    a.value);
    }
    return tessera_csr_complete(s->machine, env, "tessera-barrier-ctl", csrno,
                                true, value, &a, ret_value);
}

/* gdb names each register after its operations: $barrier_count, ... */
static riscv_csr_operations tessera_barrier_ctl_csr_ops[] = {
    { .name = "barrier_count", .predicate = tessera_csr_present,
      .op = tessera_barrier_ctl_op },
    { .name = "barrier_enter", .predicate = tessera_csr_present,
      .op = tessera_barrier_ctl_op },
};

static void tessera_barrier_ctl_realize(DeviceState *dev, Error **errp)
{
    TesseraBarrierCtlState *s = TESSERA_BARRIER_CTL(dev);
    TesseraMachineState *m = s->machine;
    TesseraBarrierCtlConfig cfg = {
        .shape = m->shape,
        .tile_hop_cycles = m->tile_hop_cycles,
        .board_hop_cycles = m->board_hop_cycles,
        .tile_x = m->barrier_tile_x,
        .tile_y = m->barrier_tile_y,
        .waits = m->waits,
        .windows = m->windows_on,
    };
    TesseraBarrierCtlHost host = {
        .opaque = s,
        .wake = tessera_barrier_ctl_wake,
        .log = tessera_barrier_ctl_log,
    };

    if (tessera_barrier) {
        error_setg(errp, "tessera-barrier-ctl: only one per machine");
        return;
    }
    s->model = tessera_barrier_ctl_new(&cfg, &host);
    if (!s->model) {
        /* The machine's shape has harts: the tile is what the model refused */
        error_setg(errp, "tessera: barrier-tile-x=%u,barrier-tile-y=%u is "
                   "outside the global tile grid (%ux%u tiles)",
                   m->barrier_tile_x, m->barrier_tile_y,
                   m->boards_x * m->tiles_x, m->boards_y * m->tiles_y);
        return;
    }
    s->entered = g_new0(uint64_t, m->num_harts);
    tessera_barrier = s;
    /* On no bus, so not reset with the bus tree: reset with the machine */
    qemu_register_resettable(OBJECT(dev));
    tessera_register_csr(TESSERA_CSR_BARRIER_COUNT,
                         &tessera_barrier_ctl_csr_ops[0]);
    tessera_register_csr(TESSERA_CSR_BARRIER_ENTER,
                         &tessera_barrier_ctl_csr_ops[1]);
}

/* No uid open, no count registered, nobody waiting. */
static void tessera_barrier_ctl_reset_hold(Object *obj, ResetType type)
{
    TesseraBarrierCtlState *s = TESSERA_BARRIER_CTL(obj);

    if (s->model) {
        trace_tessera_barrier_reset();
        tessera_barrier_ctl_reset(s->model);
        memset(s->entered, 0, s->machine->num_harts * sizeof(*s->entered));
    }
}

static const Property tessera_barrier_ctl_properties[] = {
    DEFINE_PROP_LINK("machine", TesseraBarrierCtlState, machine,
                     TYPE_TESSERA_MACHINE, TesseraMachineState *),
    DEFINE_PROP_CHR("chardev", TesseraBarrierCtlState, log),
};

static void tessera_barrier_ctl_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->realize = tessera_barrier_ctl_realize;
    rc->phases.hold = tessera_barrier_ctl_reset_hold;
    dc->desc = "Tessera counting barrier controller";
    dc->user_creatable = false;
    device_class_set_props(dc, tessera_barrier_ctl_properties);
}

static const TypeInfo tessera_barrier_ctl_info = {
    .name = TYPE_TESSERA_BARRIER_CTL,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(TesseraBarrierCtlState),
    .class_init = tessera_barrier_ctl_class_init,
};

static void tessera_barrier_ctl_register_types(void)
{
    type_register_static(&tessera_barrier_ctl_info);
}

type_init(tessera_barrier_ctl_register_types)
