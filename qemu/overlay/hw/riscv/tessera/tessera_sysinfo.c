/*
 * Tessera sysinfo: machine facts, per-hart partitions and the boot check-in
 * register (models/sysinfo.c). The last check-in ends the run.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/riscv/tessera.h"
#include "system/runstate.h"
#include "tessera/models/sysinfo.h"
#include "trace.h"

static uint32_t tessera_sysinfo_current_id(int hart)
{
    return RISCV_CPU(current_cpu)->env.mhartid;
}

static uint64_t tessera_sysinfo_mmio_read(void *opaque, hwaddr addr,
                                          unsigned size)
{
    TesseraSysinfoState *s = opaque;
    int hart = tessera_current_hart_index();
    TesseraAccess a;

    if (hart < 0) {
        return 0;
    }
    a = tessera_sysinfo_read(s->model, tessera_sysinfo_current_id(hart), addr);
    return tessera_mmio_complete("tessera-sysinfo", hart, addr, false, 0, &a);
}

/* Modelled cycle of thread `id`, for trace events. */
static uint64_t tessera_sysinfo_cycle(TesseraSysinfoState *s, uint32_t id)
{
    return tessera_time_now(tessera_dense_index(&s->shape, id));
}

static TesseraSysinfoState *tessera_sysinfo_device;

void tessera_sysinfo_end_run(int code)
{
    trace_tessera_sysinfo_exit(code);
    tessera_run_ends(tessera_sysinfo_device->console, code);
}

static void tessera_sysinfo_write_as(TesseraSysinfoState *s, uint32_t id,
                                     hwaddr addr, uint32_t value)
{
    TesseraAccess a = tessera_sysinfo_write(s->model, id, addr, value);
    int exit_code = a.code;

    /* The hart of a thread id outside the machine is none (-1). */
    tessera_mmio_complete("tessera-sysinfo",
                          tessera_thread_exists(&s->shape, id)
                              ? (int)tessera_dense_index(&s->shape, id) : -1,
                          addr, true, value, &a);
    if (a.status != TESSERA_ACCESS_DONE) {
        return;
    }
    if (addr == TESSERA_SYSINFO_CHECKIN) {
        TesseraMachineState *m = TESSERA_MACHINE(qdev_get_machine());

        trace_tessera_sysinfo_checkin(id, tessera_sysinfo_cycle(s, id), value);
        if (m->windows_on) {
            /* The window's end decides, by modelled time (docs/ranks.md) */
            tessera_windows_check_in(m, tessera_dense_index(&s->shape, id),
                                     tessera_sysinfo_cycle(s, id), value);
            return;
        }
    }
    if (a.effect == TESSERA_EFFECT_END_RUN) {
        tessera_sysinfo_end_run(exit_code);
    }
}

static void tessera_sysinfo_mmio_write(void *opaque, hwaddr addr,
                                       uint64_t value, unsigned size)
{
    int hart = tessera_current_hart_index();

    if (hart >= 0) {
        tessera_sysinfo_write_as(opaque, tessera_sysinfo_current_id(hart),
                                 addr, value);
    }
}

void tessera_sysinfo_check_in_for(TesseraSysinfoState *s, uint32_t id,
                                  uint32_t status)
{
    tessera_sysinfo_write_as(s, id, TESSERA_SYSINFO_CHECKIN, status);
}

static const MemoryRegionOps tessera_sysinfo_ops = {
    .read = tessera_sysinfo_mmio_read,
    .write = tessera_sysinfo_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
};

static void tessera_sysinfo_realize(DeviceState *dev, Error **errp)
{
    TesseraSysinfoState *s = TESSERA_SYSINFO(dev);
    TesseraSysinfoConfig cfg = {
        .shape = s->shape,
        .clock_mhz = s->clock_mhz,
        .dram_size = s->dram_size,
        .partition_size = s->partition_size,
        .reflex_buffer_flits = s->reflex_buffer_flits,
        .timing = s->timing,
    };

    if (!s->console) {
        error_setg(errp, "tessera-sysinfo: needs its console link");
        return;
    }
    tessera_sysinfo_device = s;
    s->model = tessera_sysinfo_new(&cfg);
    if (!s->model) {
        error_setg(errp, "tessera-sysinfo: out of memory");
        return;
    }
    memory_region_init_io(&s->mmio, OBJECT(dev), &tessera_sysinfo_ops, s,
                          TYPE_TESSERA_SYSINFO, TESSERA_SYSINFO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(dev), &s->mmio);
}

static void tessera_sysinfo_unrealize(DeviceState *dev)
{
    TesseraSysinfoState *s = TESSERA_SYSINFO(dev);

    tessera_sysinfo_free(s->model);
    s->model = NULL;
}

/* A machine reset forgets every check-in, as at power-on. */
static void tessera_sysinfo_reset_hold(Object *obj, ResetType type)
{
    TesseraSysinfoState *s = TESSERA_SYSINFO(obj);

    if (s->model) {
        tessera_sysinfo_reset(s->model);
    }
}

static const Property tessera_sysinfo_properties[] = {
    DEFINE_PROP_UINT32("boards-x", TesseraSysinfoState, shape.boards_x, 1),
    DEFINE_PROP_UINT32("boards-y", TesseraSysinfoState, shape.boards_y, 1),
    DEFINE_PROP_UINT32("tiles-x", TesseraSysinfoState, shape.tiles_x, 1),
    DEFINE_PROP_UINT32("tiles-y", TesseraSysinfoState, shape.tiles_y, 1),
    DEFINE_PROP_UINT32("cores-per-tile", TesseraSysinfoState,
                       shape.cores_per_tile, 1),
    DEFINE_PROP_UINT32("threads-per-core", TesseraSysinfoState,
                       shape.threads_per_core, 1),
    DEFINE_PROP_UINT32("clock-mhz", TesseraSysinfoState, clock_mhz,
                       TESSERA_DEFAULT_clock_mhz),
    DEFINE_PROP_UINT32("dram-size", TesseraSysinfoState, dram_size, 0),
    DEFINE_PROP_UINT32("partition-size", TesseraSysinfoState, partition_size,
                       0),
    DEFINE_PROP_UINT32("reflex-buffer-flits", TesseraSysinfoState,
                       reflex_buffer_flits,
                       TESSERA_DEFAULT_reflex_buffer_flits),
    DEFINE_PROP_UINT32("cpi", TesseraSysinfoState, timing.cpi,
                       TESSERA_DEFAULT_cpi),
    DEFINE_PROP_UINT32("tile-hop-cycles", TesseraSysinfoState,
                       timing.tile_hop_cycles,
                       TESSERA_DEFAULT_tile_hop_cycles),
    DEFINE_PROP_UINT32("board-hop-cycles", TesseraSysinfoState,
                       timing.board_hop_cycles,
                       TESSERA_DEFAULT_board_hop_cycles),
    DEFINE_PROP_UINT32("ocbus-settle-cycles", TesseraSysinfoState,
                       timing.ocbus_settle_cycles,
                       TESSERA_DEFAULT_ocbus_settle_cycles),
    DEFINE_PROP_UINT32("reflex-hop-cycles", TesseraSysinfoState,
                       timing.reflex_hop_cycles,
                       TESSERA_DEFAULT_reflex_hop_cycles),
    DEFINE_PROP_UINT32("barrier-tile-x", TesseraSysinfoState,
                       timing.barrier_tile_x, TESSERA_DEFAULT_barrier_tile_x),
    DEFINE_PROP_UINT32("barrier-tile-y", TesseraSysinfoState,
                       timing.barrier_tile_y, TESSERA_DEFAULT_barrier_tile_y),
    DEFINE_PROP_LINK("console", TesseraSysinfoState, console,
                     TYPE_TESSERA_CONSOLE, TesseraConsoleState *),
};

static void tessera_sysinfo_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->realize = tessera_sysinfo_realize;
    dc->unrealize = tessera_sysinfo_unrealize;
    dc->desc = "Tessera machine facts and boot check-in";
    dc->user_creatable = false;
    rc->phases.hold = tessera_sysinfo_reset_hold;
    device_class_set_props(dc, tessera_sysinfo_properties);
}

static const TypeInfo tessera_sysinfo_info = {
    .name = TYPE_TESSERA_SYSINFO,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(TesseraSysinfoState),
    .class_init = tessera_sysinfo_class_init,
};

static void tessera_sysinfo_register_types(void)
{
    type_register_static(&tessera_sysinfo_info);
}

type_init(tessera_sysinfo_register_types)
