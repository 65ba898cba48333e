/*
 * Tessera reflex switches: the reflex CSRs of every hart, driving the reflex
 * switch model (models/reflex.c, docs/reflex.md).
 *
 * As in tessera_mailbox.c, a CSR that must wait (RECV on an empty inbound
 * buffer, WAIT_SEND on a full outbound one) never blocks the host thread:
 * under the BQL the model records the hart as a waiter, the hart halts and
 * the CSR instruction is restarted (EXCP_HLT restores the pc), to run again
 * once the model wakes it. Every rule, guest errors included, is the
 * model's; this file logs what the model reports and moves time.
 *
 * With time windows a hart whose clock passed the window's end is held at
 * a reflex CSR, as at a mailbox one, and flits whose paths leave their
 * board move at the window's end (tessera_ranks_reflex_window); over ranks
 * every rank keeps a copy of every switch and takes the others' CSRs there.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "system/reset.h"
#include "hw/qdev-properties.h"
#include "hw/riscv/tessera.h"
#include "tessera/models/reflex.h"
#include "trace/control.h"
#include "trace.h"

static TesseraReflexState *tessera_reflex;

struct TesseraReflex *tessera_reflex_model(void)
{
    return tessera_reflex ? tessera_reflex->model : NULL;
}

static void tessera_reflex_wake(void *opaque, uint32_t hart)
{
    TesseraReflexState *s = opaque;

    /* Its arguments cost a look at the hart: only when it is on */
    if (trace_event_get_state_backends(TRACE_TESSERA_REFLEX_WAKE)) {
        trace_tessera_reflex_wake(tessera_hart_thread_id(hart),
                                  tessera_time_now(hart));
    }
    tessera_machine_wake(s->machine, hart);
}

/* Errors the model found away from the CSR of the hart that caused them. */
static void tessera_reflex_log_taken_errors(TesseraReflexState *s)
{
    const char *error;
    uint32_t hart;

    while ((error = tessera_reflex_take_error(s->model, &hart)) != NULL) {
        /* Over ranks, every copy finds it: the hart's own rank says it */
        if (tessera_ranks_local_hart(s->machine, hart)) {
            qemu_log_mask(LOG_GUEST_ERROR, "tessera-reflex: thread 0x%x: %s\n",
                          tessera_hart_thread_id(hart), error);
        }
    }
}

static RISCVException tessera_reflex_op(CPURISCVState *env, int csrno,
                                        target_ulong *ret_value,
                                        target_ulong new_value,
                                        target_ulong write_mask)
{
    TesseraReflexState *s = tessera_reflex;
    CPUState *cs = env_cpu(env);
    uint32_t hart = cs->cpu_index;
    uint32_t thread = env->mhartid;
    bool write = write_mask != 0;
    uint32_t value = new_value & write_mask;
    uint64_t now;
    TesseraAccess a;

    if (ret_value) {
        *ret_value = 0;
    }
    /* A debugger must not receive, wait or end a hart's wait (any call
     * of the model does): its reads read 0, its writes are refused. */
    if (env->debugger) {
        return write ? RISCV_EXCP_ILLEGAL_INST : RISCV_EXCP_NONE;
    }

    BQL_LOCK_GUARD();
    now = tessera_time_now(hart);
    if (tessera_windows_hold(s->machine, hart, now)) {
        return (RISCVException)EXCP_HLT;
    }
    a = tessera_reflex_csr(s->model, hart, csrno, write, value, now);
    tessera_reflex_log_taken_errors(s);
    if (a.status == TESSERA_ACCESS_BLOCKED) {
        trace_tessera_reflex_block(thread, now, csrno);
    } else if (a.status != TESSERA_ACCESS_DONE) {
        trace_tessera_reflex_guest_error(thread, now, csrno, value);
    } else if (csrno == TESSERA_CSR_REFLEX_SEND) {
        trace_tessera_reflex_send(thread, a.resume_at, value);
    } else if (csrno == TESSERA_CSR_REFLEX_RECV) {
        trace_tessera_reflex_recv(thread, a.resume_at, a.value);
    }
    return tessera_csr_complete(s->machine, env, "tessera-reflex", csrno,
                                write, value, &a, ret_value);
}

/* One set of operations per CSR, named for gdb as in tessera_mailbox.c. */
#define TESSERA_REFLEX_CSR(suffix) { TESSERA_CSR_##suffix, #suffix }
static const struct {
    int csrno;
    const char *macro_suffix;
} tessera_reflex_csrs[] = {
    TESSERA_REFLEX_CSR(REFLEX_SEND),
    TESSERA_REFLEX_CSR(REFLEX_RECV),
    TESSERA_REFLEX_CSR(REFLEX_ROUTE),
    TESSERA_REFLEX_CSR(REFLEX_NEXT),
    TESSERA_REFLEX_CSR(REFLEX_STATUS),
    TESSERA_REFLEX_CSR(REFLEX_WAIT_SEND),
};
static riscv_csr_operations
    tessera_reflex_csr_ops[ARRAY_SIZE(tessera_reflex_csrs)];

static void tessera_reflex_realize(DeviceState *dev, Error **errp)
{
    TesseraReflexState *s = TESSERA_REFLEX(dev);
    TesseraMachineState *m = s->machine;
    TesseraReflexConfig cfg = {
        .shape = m->shape,
        .buffer_flits = m->reflex_buffer_flits,
        .hop_cycles = m->reflex_hop_cycles,
        .waits = m->waits,
    };
    TesseraReflexHost host = {
        .opaque = s,
        .wake = tessera_reflex_wake,
    };
    size_t listed = 0;

    if (tessera_reflex) {
        error_setg(errp, "tessera-reflex: only one per machine");
        return;
    }
    s->model = tessera_reflex_new(&cfg, &host);
    if (s->model && m->windows_on &&
        !tessera_reflex_use_windows(s->model, m->ranks.count > 1
                                                  ? m->ranks.local_boards
                                                  : NULL)) {
        tessera_reflex_free(s->model);
        s->model = NULL;
    }
    if (!s->model) {
        error_setg(errp, "tessera-reflex: the model refused the "
                   "configuration (reflex-buffer-flits must be %u..%u)",
                   TESSERA_MIN_reflex_buffer_flits,
                   TESSERA_LIMIT_reflex_buffer_flits);
        return;
    }
    tessera_reflex = s;
    /* On no bus, so not reset with the bus tree: reset with the machine */
    qemu_register_resettable(OBJECT(dev));
    for (uint32_t csr = 0; csr < CSR_TABLE_SIZE; csr++) {
        listed += tessera_csr_is_reflex(csr);
    }
    /* The table lists every reflex CSR of regs.h */
    g_assert(listed == ARRAY_SIZE(tessera_reflex_csrs));
    for (size_t i = 0; i < ARRAY_SIZE(tessera_reflex_csrs); i++) {
        riscv_csr_operations *ops = &tessera_reflex_csr_ops[i];

        g_assert(tessera_csr_is_reflex(tessera_reflex_csrs[i].csrno));
        ops->name = g_ascii_strdown(tessera_reflex_csrs[i].macro_suffix, -1);
        ops->predicate = tessera_csr_present;
        ops->op = tessera_reflex_op;
        tessera_register_csr(tessera_reflex_csrs[i].csrno, ops);
    }
}

/* Every buffer, route and waiter back to power-on. */
static void tessera_reflex_reset_hold(Object *obj, ResetType type)
{
    TesseraReflexState *s = TESSERA_REFLEX(obj);

    if (s->model) {
        tessera_reflex_reset(s->model);
    }
}

static const Property tessera_reflex_properties[] = {
    DEFINE_PROP_LINK("machine", TesseraReflexState, machine,
                     TYPE_TESSERA_MACHINE, TesseraMachineState *),
};

static void tessera_reflex_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->realize = tessera_reflex_realize;
    rc->phases.hold = tessera_reflex_reset_hold;
    dc->desc = "Tessera reflex switches";
    dc->user_creatable = false;
    device_class_set_props(dc, tessera_reflex_properties);
}

static const TypeInfo tessera_reflex_info = {
    .name = TYPE_TESSERA_REFLEX,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(TesseraReflexState),
    .class_init = tessera_reflex_class_init,
};

static void tessera_reflex_register_types(void)
{
    type_register_static(&tessera_reflex_info);
}

type_init(tessera_reflex_register_types)

void tessera_reflex_after_window(void)
{
    if (tessera_reflex) {
        tessera_reflex_log_taken_errors(tessera_reflex);
    }
}
