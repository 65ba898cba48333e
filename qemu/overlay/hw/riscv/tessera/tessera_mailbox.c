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
 * Host link framing, both directions: a 16-byte little-endian header
 * { u32 thread id (source to the host, destination from it); u32 flits
 * (1..4); u64 modelled cycle of the send (0 from the host) } followed by
 * flits * 16 payload bytes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "chardev/char.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/riscv/tessera.h"
#include "tessera/models/mailbox.h"
#include "trace.h"

#define HOSTLINK_HEADER 16

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
    uint8_t header[HOSTLINK_HEADER];

    trace_tessera_mbox_to_host(src, flits, time);
    if (!qemu_chr_fe_backend_connected(&s->hostlink)) {
        qemu_log_mask(LOG_GUEST_ERROR, "tessera-mailbox: thread 0x%x sent a "
                      "message to the host, but no host link is attached "
                      "(machine option hostlink=<chardev id>); dropped\n",
                      src);
        return true;
    }
    stl_le_p(header, src);
    stl_le_p(header + 4, flits);
    stq_le_p(header + 8, time);
    qemu_chr_fe_write_all(&s->hostlink, header, sizeof(header));
    qemu_chr_fe_write_all(&s->hostlink, msg, flits * TESSERA_BYTES_PER_FLIT);
    return true;
}

/* Offers a frame from the host that back-pressure held back. */
static void tessera_mailbox_retry_inject(TesseraMailboxState *s)
{
    uint32_t dest = ldl_le_p(s->rx_frame);
    uint32_t flits = ldl_le_p(s->rx_frame + 4);

    if (!s->rx_held) {
        return;
    }
    if (tessera_mailbox_inject(s->model, dest, s->rx_frame + HOSTLINK_HEADER,
                               flits, 0)) {
        trace_tessera_mbox_from_host(dest, flits);
        s->rx_held = false;
        s->rx_len = 0;
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
    if (env->debugger ||
        (tessera_csr_is_mailbox_command(csrno) && write_mask == 0)) {
        return RISCV_EXCP_NONE;
    }

    BQL_LOCK_GUARD();
    now = tessera_time_now(hart);
    resume_at = now;
    r = tessera_mailbox_csr(s->model, hart, csrno, value, now, &result,
                            &resume_at, &fault);
    tessera_machine_kick_woken(s->machine);
    if (s->rx_held) {
        tessera_mailbox_retry_inject(s);
    }

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

static riscv_csr_operations tessera_mailbox_csr_ops = {
    .name = "tessera.mailbox",
    .predicate = tessera_csr_present,
    .op = tessera_mailbox_op,
};

static int tessera_mailbox_can_receive(void *opaque)
{
    TesseraMailboxState *s = opaque;

    if (s->rx_held) {
        return 0;
    }
    return sizeof(s->rx_frame) - s->rx_len;
}

/* Checks a complete header; a bad one is reported and its frame dropped. */
static bool tessera_mailbox_header_ok(TesseraMailboxState *s)
{
    uint32_t dest = ldl_le_p(s->rx_frame);
    uint32_t flits = ldl_le_p(s->rx_frame + 4);

    if (flits < 1 || flits > TESSERA_MAX_FLITS) {
        /* The frame's length is unknown: take the next bytes as a header */
        error_report("tessera host link: frame to thread 0x%x claims %u "
                     "flits (1..%u allowed); header dropped", dest, flits,
                     TESSERA_MAX_FLITS);
        return false;
    }
    if (!tessera_thread_exists(&s->machine->shape, dest)) {
        error_report("tessera host link: no thread 0x%x in this machine; "
                     "frame of %u flits dropped", dest, flits);
        s->rx_skip = flits * TESSERA_BYTES_PER_FLIT;
        return false;
    }
    return true;
}

static void tessera_mailbox_receive(void *opaque, const uint8_t *buf,
                                    int size)
{
    TesseraMailboxState *s = opaque;

    BQL_LOCK_GUARD();
    while (size > 0 && !s->rx_held) {
        uint32_t want = HOSTLINK_HEADER, chunk;

        if (s->rx_skip) {
            chunk = MIN((uint32_t)size, s->rx_skip);
            s->rx_skip -= chunk;
            buf += chunk;
            size -= chunk;
            continue;
        }
        if (s->rx_len >= HOSTLINK_HEADER) {
            want += ldl_le_p(s->rx_frame + 4) * TESSERA_BYTES_PER_FLIT;
        }
        chunk = MIN((uint32_t)size, want - s->rx_len);
        memcpy(s->rx_frame + s->rx_len, buf, chunk);
        s->rx_len += chunk;
        buf += chunk;
        size -= chunk;

        if (s->rx_len == HOSTLINK_HEADER && !tessera_mailbox_header_ok(s)) {
            s->rx_len = 0;
        } else if (s->rx_len > HOSTLINK_HEADER && s->rx_len == want) {
            s->rx_held = true;
            tessera_mailbox_retry_inject(s);
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
        qemu_chr_fe_set_handlers(&s->hostlink, tessera_mailbox_can_receive,
                                 tessera_mailbox_receive, NULL, NULL, s,
                                 NULL, true);
    }
    tessera_mbox = s;
    for (uint32_t csr = 0; csr < CSR_TABLE_SIZE; csr++) {
        if (tessera_csr_is_mailbox(csr)) {
            riscv_set_csr_ops(csr, &tessera_mailbox_csr_ops);
        }
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

    dc->realize = tessera_mailbox_realize;
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
