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
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "system/reset.h"
#include "chardev/char.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/riscv/tessera.h"
#include "tessera/models/hostlink.h"
#include "tessera/models/mailbox.h"
#include "trace.h"

static TesseraMailboxState *tessera_mbox;

static uint8_t *tessera_mailbox_scratchpad(void *opaque, uint32_t tile)
{
    TesseraMailboxState *s = opaque;

    return memory_region_get_ram_ptr(&s->machine->tiles[tile].scratch);
}

static void tessera_mailbox_wake(void *opaque, uint32_t hart)
{
    TesseraMailboxState *s = opaque;

    trace_tessera_mbox_wake(hart);
    tessera_machine_wake(s->machine, hart);
}

static void tessera_mailbox_delivered(void *opaque, uint32_t hart,
                                      uint32_t src, uint32_t flits,
                                      uint64_t time)
{
    trace_tessera_mbox_deliver(src, hart, flits, time);
}

static bool tessera_mailbox_to_host(void *opaque, uint32_t src,
                                    const uint8_t *msg, uint32_t flits,
                                    uint64_t time)
{
    TesseraMailboxState *s = opaque;
    TesseraHostlinkHeader header = {
        .thread = src,
        .flits = flits,
        .cycle = time,
    };
    uint8_t frame[TESSERA_HOSTLINK_MAX_FRAME_BYTES];

    trace_tessera_mbox_to_host(src, flits, time);
    if (!qemu_chr_fe_backend_connected(&s->hostlink)) {
        qemu_log_mask(LOG_GUEST_ERROR, "tessera-mailbox: thread 0x%x sent a "
                      "message to the host, but no host link is attached "
                      "(machine option hostlink=<chardev id>); dropped\n",
                      src);
        return true;
    }
    qemu_chr_fe_write_all(&s->hostlink, frame,
                          tessera_hostlink_encode(&header, msg, frame));
    return true;
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
    if (payload && tessera_mailbox_inject(s->model, header.thread, payload,
                                          header.flits, 0)) {
        trace_tessera_mbox_from_host(header.thread, header.flits);
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
    uint32_t value = new_value & write_mask, result = 0;
    uint64_t now, resume_at;
    TesseraMailboxFault fault = TESSERA_FAULT_NONE;
    TesseraCsrResult r;

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
    if (tessera_csr_is_mailbox_command(csrno) && write_mask == 0) {
        return RISCV_EXCP_NONE;
    }

    BQL_LOCK_GUARD();
    now = tessera_time_now(hart);
    resume_at = now;
    r = tessera_mailbox_csr(s->model, hart, csrno, value, now, &result,
                            &resume_at, &fault);
    tessera_machine_kick_woken(s->machine);
    tessera_mailbox_offer_from_host(s);

    switch (r) {
    case TESSERA_CSR_DONE:
        tessera_time_advance_to(hart, resume_at);
        trace_tessera_mbox_csr(hart, csrno, value, result, resume_at);
        if (csrno == TESSERA_CSR_SEND) {
            trace_tessera_mbox_send(hart, value, now, resume_at);
        } else if (csrno == TESSERA_CSR_RECV) {
            trace_tessera_mbox_receive(hart, result, resume_at);
        } else if (csrno == TESSERA_CSR_CAN_SEND && result == 0) {
            trace_tessera_mbox_backpressure(hart, now);
        }
        if (ret_value) {
            *ret_value = result;
        }
        return RISCV_EXCP_NONE;
    case TESSERA_CSR_BLOCKED:
        trace_tessera_mbox_block(hart, csrno, value, now);
        if (value & TESSERA_WAIT_CAN_SEND) {
            trace_tessera_mbox_backpressure(hart, now);
        }
        cs->halted = 1;
        return (RISCVException)EXCP_HLT;
    case TESSERA_CSR_FAULT:
        trace_tessera_mbox_fault(hart, csrno, value, fault);
        qemu_log_mask(LOG_GUEST_ERROR, "tessera-mailbox: hart 0x%x: csrrw "
                      "0x%03x, 0x%x: %s; raising illegal instruction\n",
                      (uint32_t)env->mhartid, csrno, value,
                      tessera_mailbox_fault_name(fault));
        return RISCV_EXCP_ILLEGAL_INST;
    case TESSERA_CSR_UNKNOWN:
    default:
        return RISCV_EXCP_ILLEGAL_INST;
    }
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
            tessera_mailbox_offer_from_host(s);
        } else if (event != TESSERA_HOSTLINK_NEED_MORE) {
            tessera_hostlink_describe(event, &header, why, sizeof(why));
            error_report("tessera host link: %s", why);
        }
    }
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
    };
    TesseraMailboxHost host = {
        .opaque = s,
        .scratchpad = tessera_mailbox_scratchpad,
        .wake = tessera_mailbox_wake,
        .to_host = tessera_mailbox_to_host,
        .delivered = tessera_mailbox_delivered,
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
                                 tessera_mailbox_receive, NULL, NULL, s,
                                 NULL, true);
    }
    tessera_mbox = s;
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
        riscv_set_csr_ops(tessera_mailbox_csrs[i].csrno, ops);
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
        tessera_mailbox_reset(s->model);
        trace_tessera_mbox_reset();
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
