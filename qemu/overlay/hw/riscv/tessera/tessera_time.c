/*
 * Tessera modelled time: the QEMU side of the clock model (models/clock.c,
 * cycles = retired instructions x CPI + cycles waited). Retired
 * instructions come from icount, through the per-vCPU hook of
 * accel/tcg/icount-common.c, so they are exact in the deterministic mode
 * (-icount); without -icount only waits advance clocks.
 *
 * The cycle CSRs (0xc00 low word, 0xc80 high word) read this count; gdb
 * reads them as $cycle and $cycleh (exact for a stopped hart: its slice
 * was accounted when it stopped).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/core/cpu.h"
#include "system/cpu-timers.h"
#include "hw/riscv/tessera.h"
#include "trace/control.h"
#include "trace.h"

static TesseraClocks *tessera_clocks;

static void tessera_time_count(CPUState *cpu, int64_t executed)
{
    if (tessera_clocks && executed > 0) {
        tessera_clocks_retire(tessera_clocks, cpu->cpu_index, executed);
    }
}

/*
 * Accounts the running hart's current slice first (exact at a CSR: TCG
 * ends the translation block at every CSR access).
 */
static void tessera_time_sync(uint32_t hart)
{
    if (icount_enabled() && current_cpu &&
        current_cpu->cpu_index == (int)hart && current_cpu->neg.can_do_io) {
        icount_get_raw();
    }
}

uint64_t tessera_time_now(uint32_t hart)
{
    tessera_time_sync(hart);
    return tessera_clocks_now(tessera_clocks, hart);
}

void tessera_time_advance_to(uint32_t hart, uint64_t cycles)
{
    uint64_t now = tessera_time_now(hart);

    /* The thread id costs a look at the shape: only when the event is on */
    if (tessera_clocks_wait_until(tessera_clocks, hart, cycles) &&
        trace_event_get_state_backends(TRACE_TESSERA_TIME_WAIT)) {
        trace_tessera_time_wait(tessera_hart_thread_id(hart), now, cycles);
    }
}

static RISCVException tessera_time_read(CPURISCVState *env, int csrno,
                                        target_ulong *value)
{
    uint32_t hart = env_cpu(env)->cpu_index;
    uint32_t word;

    tessera_time_sync(hart);
    if (!tessera_clocks_read_csr(tessera_clocks, hart, csrno, &word)) {
        return RISCV_EXCP_ILLEGAL_INST;
    }
    *value = word;
    return RISCV_EXCP_NONE;
}

static riscv_csr_operations tessera_cycle_ops = {
    .name = "cycle",
    .predicate = tessera_csr_present,
    .read = tessera_time_read,
};

static riscv_csr_operations tessera_cycleh_ops = {
    .name = "cycleh",
    .predicate = tessera_csr_present,
    .read = tessera_time_read,
};

void tessera_time_init(TesseraTime *t, uint32_t num_harts, uint32_t cpi)
{
    t->clocks = tessera_clocks_new(num_harts, cpi);
    if (!t->clocks) {
        error_setg(&error_fatal, "tessera: no clock model for %u harts at "
                   "cpi=%u", num_harts, cpi);
        return;
    }
    tessera_clocks = t->clocks;
    icount_executed_hook = tessera_time_count;
    tessera_register_csr(TESSERA_CSR_CYCLE, &tessera_cycle_ops);
    tessera_register_csr(TESSERA_CSR_CYCLEH, &tessera_cycleh_ops);
}
