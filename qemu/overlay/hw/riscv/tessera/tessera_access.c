/*
 * The access contract (tessera/models/access.h, docs/architecture.md) on
 * QEMU: what a hart does with a device model's answer. Every device wrapper
 * calls its model under the BQL and hands the answer here, so blocking,
 * time, guest errors and faults are written once.
 *
 * A BLOCKED CSR never blocks the host thread: the model has recorded the
 * hart as a waiter, the hart halts, and EXCP_HLT makes helper_csrr restore
 * the pc to the CSR instruction, which runs again once the model's wake
 * kicks the hart (DESIGN 2.3). The models make that second run idempotent.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "hw/riscv/tessera.h"

RISCVException tessera_csr_complete(TesseraMachineState *m,
                                    CPURISCVState *env, const char *device,
                                    int csrno, bool write, uint32_t value,
                                    const TesseraAccess *a,
                                    target_ulong *ret_value)
{
    CPUState *cs = env_cpu(env);
    uint32_t hart = cs->cpu_index;

    tessera_machine_kick_woken(m);
    switch (a->status) {
    case TESSERA_ACCESS_DONE:
        break;
    case TESSERA_ACCESS_BLOCKED:
        cs->halted = 1;
        tessera_deadlock_maybe(m);
        return (RISCVException)EXCP_HLT;
    case TESSERA_ACCESS_GUEST_ERROR:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: hart 0x%x: %s 0x%03x, 0x%x: "
                      "%s; reads %u\n", device, (uint32_t)env->mhartid,
                      write ? "csrrw" : "csrr", csrno, value,
                      a->error ? a->error : "refused", a->value);
        break;
    case TESSERA_ACCESS_FAULT:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: hart 0x%x: csrrw 0x%03x, "
                      "0x%x: %s; raising illegal instruction\n", device,
                      (uint32_t)env->mhartid, csrno, value, a->error);
        return RISCV_EXCP_ILLEGAL_INST;
    case TESSERA_ACCESS_UNKNOWN:
    default:
        return RISCV_EXCP_ILLEGAL_INST;
    }
    tessera_time_advance_to(hart, a->resume_at);
    if (ret_value) {
        *ret_value = a->value;
    }
    return RISCV_EXCP_NONE;
}

uint64_t tessera_mmio_complete(const char *device, int hart, hwaddr addr,
                               bool write, uint64_t value,
                               const TesseraAccess *a)
{
    if (a->status == TESSERA_ACCESS_GUEST_ERROR) {
        if (write) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: hart 0x%x wrote 0x%" PRIx64
                          " to 0x%" HWADDR_PRIx ": %s\n", device,
                          tessera_hart_thread_id(hart), value, addr,
                          a->error ? a->error : "refused");
        } else {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: hart 0x%x read 0x%"
                          HWADDR_PRIx ": %s; reads %u\n", device,
                          tessera_hart_thread_id(hart), addr,
                          a->error ? a->error : "refused", a->value);
        }
    }
    if (hart >= 0 && (a->status == TESSERA_ACCESS_DONE ||
                      a->status == TESSERA_ACCESS_GUEST_ERROR)) {
        tessera_time_advance_to(hart, a->resume_at);
    }
    return a->status == TESSERA_ACCESS_DONE ||
           a->status == TESSERA_ACCESS_GUEST_ERROR ? a->value : 0;
}
