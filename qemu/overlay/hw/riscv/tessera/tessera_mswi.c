/*
 * Tessera per-board machine software interrupts: the register layout of the
 * RISC-V ACLINT MSWI (models/mswi.c: one 32-bit msip register per hart,
 * bit 0 drives mip.MSIP), wired straight to the board's harts. QEMU's own
 * ACLINT SWI finds its harts by cpu_index and assumes hart ids equal it,
 * which does not hold for Tessera's sparse thread ids.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/riscv/tessera.h"
#include "tessera/models/mswi.h"
#include "trace.h"

static uint64_t tessera_mswi_mmio_read(void *opaque, hwaddr addr,
                                       unsigned size)
{
    TesseraMswiState *s = opaque;
    TesseraAccess a = tessera_mswi_read(s->model, addr);

    return tessera_mmio_complete("tessera-mswi", tessera_current_hart_index(),
                                 addr, false, 0, &a);
}

static void tessera_mswi_mmio_write(void *opaque, hwaddr addr,
                                    uint64_t value, unsigned size)
{
    TesseraMswiState *s = opaque;
    TesseraAccess a = tessera_mswi_write(s->model, addr, value);
    uint32_t hart = a.code;
    bool pending;

    tessera_mmio_complete("tessera-mswi", tessera_current_hart_index(), addr,
                          true, value, &a);
    if (a.effect != TESSERA_EFFECT_MSIP) {
        return;
    }
    pending = tessera_mswi_pending(s->model, hart);
    if (trace_event_get_state_backends(TRACE_TESSERA_MSWI_WRITE)) {
        int writer = tessera_current_hart_index();

        trace_tessera_mswi_write(tessera_hart_thread_id(writer),
                                 writer >= 0 ? tessera_time_now(writer) : 0,
                                 tessera_hart_thread_id(s->board *
                                                        s->num_harts + hart),
                                 pending);
    }
    qemu_set_irq(s->irqs[hart], pending);
}

static const MemoryRegionOps tessera_mswi_ops = {
    .read = tessera_mswi_mmio_read,
    .write = tessera_mswi_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 4 },
};

static void tessera_mswi_realize(DeviceState *dev, Error **errp)
{
    TesseraMswiState *s = TESSERA_MSWI(dev);

    s->model = tessera_mswi_new(s->num_harts);
    if (!s->model) {
        error_setg(errp, "tessera-mswi: num-harts must be 1..%u",
                   TESSERA_MSWI_MAX_HARTS);
        return;
    }
    s->irqs = g_new0(qemu_irq, s->num_harts);
    qdev_init_gpio_out(dev, s->irqs, s->num_harts);
    memory_region_init_io(&s->mmio, OBJECT(dev), &tessera_mswi_ops, s,
                          TYPE_TESSERA_MSWI, TESSERA_MSWI_STRIDE);
    sysbus_init_mmio(SYS_BUS_DEVICE(dev), &s->mmio);
}

static void tessera_mswi_unrealize(DeviceState *dev)
{
    TesseraMswiState *s = TESSERA_MSWI(dev);

    tessera_mswi_free(s->model);
    s->model = NULL;
}

static void tessera_mswi_reset_hold(Object *obj, ResetType type)
{
    TesseraMswiState *s = TESSERA_MSWI(obj);

    tessera_mswi_reset(s->model);
    for (uint32_t i = 0; i < s->num_harts; i++) {
        qemu_set_irq(s->irqs[i], tessera_mswi_pending(s->model, i));
    }
}

static const Property tessera_mswi_properties[] = {
    DEFINE_PROP_UINT32("num-harts", TesseraMswiState, num_harts, 0),
    DEFINE_PROP_UINT32("board", TesseraMswiState, board, 0),
};

static void tessera_mswi_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->realize = tessera_mswi_realize;
    dc->unrealize = tessera_mswi_unrealize;
    dc->desc = "Tessera per-board machine software interrupts";
    dc->user_creatable = false;
    rc->phases.hold = tessera_mswi_reset_hold;
    device_class_set_props(dc, tessera_mswi_properties);
}

static const TypeInfo tessera_mswi_info = {
    .name = TYPE_TESSERA_MSWI,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(TesseraMswiState),
    .class_init = tessera_mswi_class_init,
};

static void tessera_mswi_register_types(void)
{
    type_register_static(&tessera_mswi_info);
}

type_init(tessera_mswi_register_types)
