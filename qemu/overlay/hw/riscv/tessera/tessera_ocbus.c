/*
 * Tessera open-collector bus: the register block of every hart's local line
 * values and the global wired-AND, and the blocking wait CSR, driving the
 * model (models/ocbus.c). The register decode, the timing and the waits are
 * the model's; this file turns its answers into QEMU actions.
 *
 * A wait that does not hold never blocks the host thread: under the BQL the
 * model records the hart as a waiter, the hart halts and the CSR is
 * restarted (EXCP_HLT restores the pc), to run again once the model wakes
 * it; the model latches the value that satisfied the wait, so a line that
 * flips back meanwhile loses nothing.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/riscv/tessera.h"
#include "tessera/models/ocbus.h"
#include "trace/control.h"
#include "trace.h"

static TesseraOcbusState *tessera_ocbus;

static void tessera_ocbus_wake(void *opaque, uint32_t hart)
{
    TesseraOcbusState *s = opaque;

    /* Its arguments cost a look at the hart: only when it is on */
    if (trace_event_get_state_backends(TRACE_TESSERA_OCBUS_WAKE)) {
        trace_tessera_ocbus_wake(tessera_hart_thread_id(hart),
                                 tessera_time_now(hart));
    }
    tessera_machine_wake(s->machine, hart);
}

struct TesseraOcbus *tessera_ocbus_model(void)
{
    return tessera_ocbus ? tessera_ocbus->model : NULL;
}

static uint64_t tessera_ocbus_read_op(void *opaque, hwaddr addr,
                                      unsigned size)
{
    TesseraOcbusState *s = opaque;
    int hart = tessera_current_hart_index();
    TesseraAccess a;

    if (hart < 0) {
        return 0;
    }
    a = tessera_ocbus_mmio_read(s->model, hart, addr, tessera_time_now(hart));
    return tessera_mmio_complete("tessera-ocbus", hart, addr, false, 0, &a);
}

static void tessera_ocbus_write_op(void *opaque, hwaddr addr,
                                   uint64_t value, unsigned size)
{
    TesseraOcbusState *s = opaque;
    int hart = tessera_current_hart_index();
    TesseraAccess a;
    uint64_t now;

    if (hart < 0) {
        return;
    }

    now = tessera_time_now(hart);
    a = tessera_ocbus_mmio_write(s->model, hart, addr, value, now);
    tessera_mmio_complete("tessera-ocbus", hart, addr, true, value, &a);
    if (a.status != TESSERA_ACCESS_DONE) {
        return;
    }
    trace_verbose_tessera_ocbus_write(tessera_hart_thread_id(hart), now,
                                      tessera_ocbus_local(s->model, hart),
                                      tessera_ocbus_read(s->model, now, NULL));
    tessera_machine_kick_woken(s->machine);
}

static const MemoryRegionOps tessera_ocbus_ops = {
    .read = tessera_ocbus_read_op,
    .write = tessera_ocbus_write_op,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
};

static RISCVException tessera_ocbus_wait_op(CPURISCVState *env, int csrno,
                                            target_ulong *ret_value,
                                            target_ulong new_value,
                                            target_ulong write_mask)
{
    TesseraOcbusState *s = tessera_ocbus;
    CPUState *cs = env_cpu(env);
    uint32_t hart = cs->cpu_index;
    uint32_t thread = env->mhartid;
    uint32_t value = new_value & write_mask;
    uint64_t now;

    TesseraAccess a;

    if (ret_value) {
        *ret_value = 0;
    }
    /* The debugger may read the lines, but never waits on them. */
    if (env->debugger) {
        if (write_mask) {
            return RISCV_EXCP_ILLEGAL_INST;
        }
        BQL_LOCK_GUARD();
        if (ret_value) {
            *ret_value = tessera_ocbus_read(s->model, 0, NULL);
        }
        return RISCV_EXCP_NONE;
    }

    BQL_LOCK_GUARD();
    now = tessera_time_now(hart);
    a = tessera_ocbus_wait_csr(s->model, hart, value, now);
    if (a.status == TESSERA_ACCESS_DONE) {
        trace_tessera_ocbus_wait(thread, a.resume_at, value & 0xff,
                                 (value >> 8) & 0xff, a.value);
    } else if (a.status == TESSERA_ACCESS_BLOCKED) {
        trace_tessera_ocbus_block(thread, now, value & 0xff,
                                  (value >> 8) & 0xff);
    }
    return tessera_csr_complete(s->machine, env, "tessera-ocbus", csrno, true,
                                value, &a, ret_value);
}

/* Named after its macro in regs.h, as gdb shows it ($ocbus_wait). */
static riscv_csr_operations tessera_ocbus_csr_ops = {
    .name = "ocbus_wait",
    .predicate = tessera_csr_present,
    .op = tessera_ocbus_wait_op,
};

static void tessera_ocbus_realize(DeviceState *dev, Error **errp)
{
    TesseraOcbusState *s = TESSERA_OCBUS(dev);
    TesseraMachineState *m = s->machine;
    TesseraOcbusConfig cfg = {
        .num_harts = m->num_harts,
        .lines = m->ocbus_lines,
        .settle_cycles = m->ocbus_settle_cycles,
        .waits = m->waits,
        .windows = m->windows_on,
    };
    TesseraOcbusHost host = {
        .opaque = s,
        .wake = tessera_ocbus_wake,
    };

    if (tessera_ocbus) {
        error_setg(errp, "tessera-ocbus: only one per machine");
        return;
    }
    s->model = tessera_ocbus_new(&cfg, &host);
    if (!s->model) {
        error_setg(errp, "tessera-ocbus: the model refused %u lines (%u..%u)",
                   m->ocbus_lines, TESSERA_OCBUS_MIN_LINES,
                   TESSERA_OCBUS_MAX_LINES);
        return;
    }
    memory_region_init_io(&s->mmio, OBJECT(dev), &tessera_ocbus_ops, s,
                          TYPE_TESSERA_OCBUS, TESSERA_OCBUS_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(dev), &s->mmio);
    tessera_ocbus = s;
    tessera_register_csr(TESSERA_CSR_OCBUS_WAIT, &tessera_ocbus_csr_ops);
}

/* Every line released, nobody waiting. */
static void tessera_ocbus_reset_hold(Object *obj, ResetType type)
{
    TesseraOcbusState *s = TESSERA_OCBUS(obj);

    if (s->model) {
        tessera_ocbus_reset(s->model);
    }
}

static const Property tessera_ocbus_properties[] = {
    DEFINE_PROP_LINK("machine", TesseraOcbusState, machine,
                     TYPE_TESSERA_MACHINE, TesseraMachineState *),
};

static void tessera_ocbus_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->realize = tessera_ocbus_realize;
    rc->phases.hold = tessera_ocbus_reset_hold;
    dc->desc = "Tessera open-collector bus lines";
    dc->user_creatable = false;
    device_class_set_props(dc, tessera_ocbus_properties);
}

static const TypeInfo tessera_ocbus_info = {
    .name = TYPE_TESSERA_OCBUS,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(TesseraOcbusState),
    .class_init = tessera_ocbus_class_init,
};

static void tessera_ocbus_register_types(void)
{
    type_register_static(&tessera_ocbus_info);
}

type_init(tessera_ocbus_register_types)
