/*
 * Tessera console: a transmit-only UART that assembles each hart's bytes
 * into lines (models/console.c, which also decodes its registers and the
 * EMIT CSR) so that lines of different harts never interleave on the
 * chardev.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/riscv/tessera.h"
#include "qemu/main-loop.h"
#include "qemu/notify.h"
#include "system/system.h"
#include "tessera/models/console.h"
#include "trace.h"

/* "0xffffffff: ", the longest thread-id prefix */
#define TESSERA_CONSOLE_ID_MAX 12

/*
 * With time windows, a line waits for the end of its window, then lines
 * are written in order of (modelled time, hart): the output is the same
 * byte for byte whatever else the process runs, or however many processes
 * (ranks) run the machine; with ranks, rank 0 writes every rank's lines.
 */
typedef struct TesseraConsoleLine {
    uint64_t time;
    uint32_t hart;
    uint32_t seq;            /* emission order, for a hart's equal times */
    uint32_t len;            /* bytes of text, its newline included */
    uint8_t text[TESSERA_CONSOLE_ID_MAX + TESSERA_CONSOLE_LINE_MAX + 1];
} TesseraConsoleLine;

static GArray *tessera_console_pending; /* of TesseraConsoleLine */
static TesseraConsoleState *tessera_console_device;

static void tessera_console_emit(void *opaque, uint32_t hart_index,
                                 const char *line, size_t len)
{
    TesseraConsoleState *s = opaque;
    uint8_t whole[TESSERA_CONSOLE_ID_MAX + TESSERA_CONSOLE_LINE_MAX + 1];
    size_t at = 0;

    if (trace_event_get_state_backends(TRACE_TESSERA_CONSOLE_LINE)) {
        char text[TESSERA_CONSOLE_LINE_MAX + 1];
        size_t n = MIN(len, TESSERA_CONSOLE_LINE_MAX);

        memcpy(text, line, n);
        text[n] = '\0';
        trace_tessera_console_line(tessera_hart_thread_id(hart_index),
                                   tessera_time_now(hart_index), len, text);
    }
    /*
     * One write with its newline: a line stays whole when stdout shares a
     * pipe with other writers (QEMU's stderr, the host tool).
     */
    if (s->thread_ids) {
        at = snprintf((char *)whole, TESSERA_CONSOLE_ID_MAX + 1, "0x%x: ",
                      tessera_hart_thread_id(hart_index));
    }
    len = MIN(len, TESSERA_CONSOLE_LINE_MAX);
    memcpy(whole + at, line, len);
    whole[at + len] = '\n';
    if (TESSERA_MACHINE(qdev_get_machine())->windows_on) {
        TesseraConsoleLine l = {
            .time = tessera_time_now(hart_index),
            .hart = hart_index,
            .seq = tessera_console_pending->len,
            .len = at + len + 1,
        };

        memcpy(l.text, whole, l.len);
        g_array_append_val(tessera_console_pending, l);
        return;
    }
    qemu_chr_fe_write_all(&s->chr, whole, at + len + 1);
}

static int tessera_console_line_order(gconstpointer a, gconstpointer b)
{
    const TesseraConsoleLine *x = a, *y = b;

    if (x->time != y->time) {
        return x->time < y->time ? -1 : 1;
    }
    if (x->hart != y->hart) {
        return x->hart < y->hart ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Writes `n` lines in order of (modelled time, hart). */
static void tessera_console_write_lines(TesseraConsoleLine *lines, size_t n)
{
    TesseraConsoleState *s = tessera_console_device;

    if (n == 0) {
        return; /* lines may be NULL then, which qsort() must not get */
    }
    qsort(lines, n, sizeof(*lines), tessera_console_line_order);
    for (size_t i = 0; i < n; i++) {
        qemu_chr_fe_write_all(&s->chr, lines[i].text,
                              MIN(lines[i].len, sizeof(lines[i].text)));
    }
}

uint32_t tessera_console_window_lines(void)
{
    return tessera_console_pending ? tessera_console_pending->len : 0;
}

void tessera_console_end_window(TesseraMachineState *m)
{
    GArray *p = tessera_console_pending;
    g_autofree TesseraConsoleLine *all = NULL;
    size_t n;

    if (!p) {
        return;
    }
    if (m->ranks.count == 1) {
        tessera_console_write_lines((TesseraConsoleLine *)p->data, p->len);
    } else {
        all = tessera_ranks_gather(m, p->data, p->len * sizeof(*all), &n);
        tessera_console_write_lines(all, n / sizeof(*all));
    }
    g_array_set_size(p, 0);
}

static uint64_t tessera_console_mmio_read(void *opaque, hwaddr addr,
                                          unsigned size)
{
    TesseraConsoleState *s = opaque;
    TesseraAccess a = tessera_console_read(s->model, addr);

    return tessera_mmio_complete("tessera-console",
                                 tessera_current_hart_index(), addr, false, 0,
                                 &a);
}

static void tessera_console_mmio_write(void *opaque, hwaddr addr,
                                       uint64_t value, unsigned size)
{
    TesseraConsoleState *s = opaque;
    int hart = tessera_current_hart_index();
    TesseraAccess a;

    if (hart < 0) {
        qemu_log_mask(LOG_GUEST_ERROR, "tessera-console: write without a "
                      "current hart ignored\n");
        return;
    }
    a = tessera_console_write(s->model, hart, addr, value);
    tessera_mmio_complete("tessera-console", hart, addr, true, value, &a);
}

static const MemoryRegionOps tessera_console_ops = {
    .read = tessera_console_mmio_read,
    .write = tessera_console_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 4, .max_access_size = 4 },
};

void tessera_console_flush_lines(TesseraConsoleState *s)
{
    tessera_console_flush_all(s->model);
}

/* However the run ends (exit device, a signal), no partial line is lost. */
static void tessera_console_at_exit(Notifier *n, void *data)
{
    TesseraConsoleState *s = container_of(n, TesseraConsoleState, exit);

    tessera_console_flush_all(s->model);
    /* Ending on its own (a signal, an error): this process's lines */
    tessera_console_write_lines((TesseraConsoleLine *)
                                    tessera_console_pending->data,
                                tessera_console_pending->len);
    g_array_set_size(tessera_console_pending, 0);
}

/* CSR 0x80f (Tinsel's emit): the model decides what it means. */
static TesseraConsoleState *tessera_console_for_emit;

static RISCVException tessera_console_emit_op(CPURISCVState *env, int csrno,
                                              target_ulong *ret_value,
                                              target_ulong new_value,
                                              target_ulong write_mask)
{
    /* As for the mailbox CSRs: csrrs writes its operand, csrrc 0 */
    bool write = write_mask && !env->debugger;
    uint32_t old;

    BQL_LOCK_GUARD();
    old = tessera_console_emit_csr(tessera_console_for_emit->model,
                                   env_cpu(env)->cpu_index, write,
                                   new_value & write_mask);
    if (ret_value) {
        *ret_value = old;
    }
    return RISCV_EXCP_NONE;
}

static riscv_csr_operations tessera_console_emit_ops = {
    .name = "emit",
    .predicate = tessera_csr_present,
    .op = tessera_console_emit_op,
};

static void tessera_console_realize(DeviceState *dev, Error **errp)
{
    TesseraConsoleState *s = TESSERA_CONSOLE(dev);

    s->model = tessera_console_new(s->num_harts, tessera_console_emit, s);
    if (!s->model) {
        error_setg(errp, "tessera-console: out of memory for %u harts",
                   s->num_harts);
        return;
    }
    memory_region_init_io(&s->mmio, OBJECT(dev), &tessera_console_ops, s,
                          TYPE_TESSERA_CONSOLE, TESSERA_CONSOLE_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(dev), &s->mmio);
    s->exit.notify = tessera_console_at_exit;
    qemu_add_exit_notifier(&s->exit);
    tessera_console_for_emit = s;
    tessera_console_device = s;
    tessera_console_pending = g_array_new(false, false,
                                          sizeof(TesseraConsoleLine));
    tessera_register_csr(TESSERA_CSR_EMIT, &tessera_console_emit_ops);
}

static void tessera_console_unrealize(DeviceState *dev)
{
    TesseraConsoleState *s = TESSERA_CONSOLE(dev);

    qemu_remove_exit_notifier(&s->exit);
    tessera_console_free(s->model);
    s->model = NULL;
}

static const Property tessera_console_properties[] = {
    DEFINE_PROP_CHR("chardev", TesseraConsoleState, chr),
    DEFINE_PROP_UINT32("num-harts", TesseraConsoleState, num_harts, 1),
    DEFINE_PROP_BOOL("thread-ids", TesseraConsoleState, thread_ids, false),
};

static void tessera_console_reset_hold(Object *obj, ResetType type)
{
    TesseraConsoleState *s = TESSERA_CONSOLE(obj);

    if (s->model) {
        tessera_console_reset(s->model);
    }
}

static void tessera_console_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    rc->phases.hold = tessera_console_reset_hold;

    dc->realize = tessera_console_realize;
    dc->unrealize = tessera_console_unrealize;
    dc->desc = "Tessera line-assembling console";
    dc->user_creatable = false;
    device_class_set_props(dc, tessera_console_properties);
}

static const TypeInfo tessera_console_info = {
    .name = TYPE_TESSERA_CONSOLE,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(TesseraConsoleState),
    .class_init = tessera_console_class_init,
};

static void tessera_console_register_types(void)
{
    type_register_static(&tessera_console_info);
}

type_init(tessera_console_register_types)
