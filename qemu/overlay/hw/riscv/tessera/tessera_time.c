/*
 * Tessera modelled time: every hart's cycle count is the instructions it
 * has retired times the machine's CPI, plus the cycles it has spent waiting
 * (devices move a waiting hart's clock to the modelled completion time of
 * what it waited for). Retired instructions come from icount, through the
 * per-vCPU hook of accel/tcg/icount-common.c, so they are exact in the
 * deterministic mode (-icount); without -icount only waits advance clocks.
 *
 * The cycle CSRs (0xc00 low word, 0xc80 high word) read this count.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "hw/core/cpu.h"
#include "system/cpu-timers.h"
#include "hw/riscv/tessera.h"
#include "trace.h"

static TesseraTime *tessera_time;

static void tessera_time_count(CPUState *cpu, int64_t executed)
{
    if (tessera_time && cpu->cpu_index < tessera_time->num_harts) {
        tessera_time->insns[cpu->cpu_index] += executed;
    }
}

uint64_t tessera_time_now(uint32_t hart)
{
    TesseraTime *t = tessera_time;

    /*
     * Account the running hart's current slice (exact at a CSR: TCG ends
     * the translation block at every CSR access).
     */
    if (icount_enabled() && current_cpu &&
        current_cpu->cpu_index == (int)hart && current_cpu->neg.can_do_io) {
        icount_get_raw();
    }
    return t->insns[hart] * t->cpi + t->stall[hart];
}

void tessera_time_advance_to(uint32_t hart, uint64_t cycles)
{
    uint64_t now = tessera_time_now(hart);

    if (cycles > now) {
        tessera_time->stall[hart] += cycles - now;
        trace_tessera_time_wait(hart, now, cycles);
    }
}

static RISCVException tessera_time_read(CPURISCVState *env, int csrno,
                                        target_ulong *value)
{
    uint64_t now = tessera_time_now(env_cpu(env)->cpu_index);

    *value = csrno == TESSERA_CSR_CYCLEH ? now >> 32 : (uint32_t)now;
    return RISCV_EXCP_NONE;
}

static riscv_csr_operations tessera_cycle_ops = {
    .name = "tessera.cycle",
    .predicate = tessera_csr_present,
    .read = tessera_time_read,
};

static riscv_csr_operations tessera_cycleh_ops = {
    .name = "tessera.cycleh",
    .predicate = tessera_csr_present,
    .read = tessera_time_read,
};

void tessera_time_init(TesseraTime *t, uint32_t num_harts, uint32_t cpi)
{
    t->num_harts = num_harts;
    t->cpi = cpi;
    t->insns = g_new0(uint64_t, num_harts);
    t->stall = g_new0(uint64_t, num_harts);
    tessera_time = t;
    icount_executed_hook = tessera_time_count;
    riscv_set_csr_ops(TESSERA_CSR_CYCLE, &tessera_cycle_ops);
    riscv_set_csr_ops(TESSERA_CSR_CYCLEH, &tessera_cycleh_ops);
}
