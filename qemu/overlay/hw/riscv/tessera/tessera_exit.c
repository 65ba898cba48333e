/*
 * Tessera exit device: ends the run with a verdict or resets the machine
 * (models/exit.c decodes the write). It replaces QEMU's sifive_test, whose
 * encoding it keeps, so that a failure never exits with status 0 and both
 * hosts give the same status for the same write.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/riscv/tessera.h"
#include "system/runstate.h"
#include "tessera/models/exit.h"
#include "trace.h"

static TesseraExitState *tessera_exit_device;

void tessera_run_ends(TesseraConsoleState *console, int code)
{
    tessera_console_flush_lines(console);
    tessera_console_end_window(TESSERA_MACHINE(qdev_get_machine()));
    tessera_mailbox_end_window(TESSERA_MACHINE(qdev_get_machine()));
    tessera_mailbox_run_ends();
    qemu_system_shutdown_request_with_code(
        code ? SHUTDOWN_CAUSE_GUEST_PANIC : SHUTDOWN_CAUSE_GUEST_SHUTDOWN,
        code);
}

void tessera_exit_end_run(int hart, uint64_t cycle, uint64_t value, int code)
{
    trace_tessera_exit_end(tessera_hart_thread_id(hart), cycle, value, code);
    tessera_run_ends(tessera_exit_device->console, code);
}

void tessera_exit_reset_machine(int hart, uint64_t cycle)
{
    trace_tessera_exit_reset(tessera_hart_thread_id(hart), cycle);
    qemu_system_reset_request(SHUTDOWN_CAUSE_GUEST_RESET);
}

static uint64_t tessera_exit_mmio_read(void *opaque, hwaddr addr,
                                       unsigned size)
{
    TesseraAccess a = tessera_exit_read(addr);

    return tessera_mmio_complete("tessera-exit", tessera_current_hart_index(),
                                 addr, false, 0, &a);
}

static void tessera_exit_mmio_write(void *opaque, hwaddr addr, uint64_t value,
                                    unsigned size)
{
    TesseraMachineState *m = TESSERA_MACHINE(qdev_get_machine());
    int hart = tessera_current_hart_index();
    uint64_t cycle = hart >= 0 ? tessera_time_now(hart) : 0;
    TesseraAccess a = tessera_exit_write(addr, value);
    int code = a.code;

    tessera_mmio_complete("tessera-exit", hart, addr, true, value, &a);
    switch (a.effect) {
    case TESSERA_EFFECT_END_RUN:
        if (m->windows_on && hart >= 0) {
            trace_tessera_exit_posted(tessera_hart_thread_id(hart), cycle,
                                      code);
            tessera_windows_post_exit(m, hart, cycle, value, code);
        } else {
            tessera_exit_end_run(hart, cycle, value, code);
        }
        break;
    case TESSERA_EFFECT_RESET:
        if (m->windows_on && hart >= 0) {
            tessera_windows_post_reset(m, hart, cycle);
        } else {
            tessera_exit_reset_machine(hart, cycle);
        }
        break;
    default:
        break;
    }
}

/* The access sizes of sifive_test: a 16-bit write of PASS or FAIL works. */
static const MemoryRegionOps tessera_exit_ops = {
    .read = tessera_exit_mmio_read,
    .write = tessera_exit_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 2, .max_access_size = 4 },
};

static void tessera_exit_realize(DeviceState *dev, Error **errp)
{
    TesseraExitState *s = TESSERA_EXIT(dev);

    if (!s->console) {
        error_setg(errp, "tessera-exit: needs its console link");
        return;
    }
    tessera_exit_device = s;
    memory_region_init_io(&s->mmio, OBJECT(dev), &tessera_exit_ops, s,
                          TYPE_TESSERA_EXIT, TESSERA_EXIT_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(dev), &s->mmio);
}

static const Property tessera_exit_properties[] = {
    DEFINE_PROP_LINK("console", TesseraExitState, console,
                     TYPE_TESSERA_CONSOLE, TesseraConsoleState *),
};

static void tessera_exit_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->realize = tessera_exit_realize;
    dc->desc = "Tessera exit device (pass, fail, reset)";
    dc->user_creatable = false;
    device_class_set_props(dc, tessera_exit_properties);
}

static const TypeInfo tessera_exit_info = {
    .name = TYPE_TESSERA_EXIT,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(TesseraExitState),
    .class_init = tessera_exit_class_init,
};

static void tessera_exit_register_types(void)
{
    type_register_static(&tessera_exit_info);
}

type_init(tessera_exit_register_types)
