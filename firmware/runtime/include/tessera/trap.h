// Trap hook: lets an image survive traps it causes on purpose (e.g. apps/guest_fuzz).
//
// By default every trap is fatal (docs/firmware.md, "Traps"). An image that defines
// tessera::runtime::on_trap is asked first: if the hook returns true the trap counts as handled
// and the hart resumes at trap.mepc (set it past the faulting instruction, e.g. mepc + 4; there
// are no compressed instructions) with the registers of `frame`, which the hook may change. If it
// returns false, the trap is reported and ends the run as usual. Images without the hook are
// unchanged.
//
// The hook runs in machine mode on the interrupted stack, with mtvec pointing at the stack-free
// fallback: a trap inside the hook ends the run (exit status by its cause, no report). Only the
// integer registers are saved: the hook must not use floating point.
#pragma once

#include <stdint.h>

namespace tessera::runtime {

// The interrupted integer registers x0..x31 as trap_entry.S saved them (x0 reads 0, x2 is the sp
// at the trap), XLEN bits each (32 on Tessera). Written back when a handled trap returns.
struct TrapFrame {
  uintptr_t x[32];
};
static_assert(sizeof(TrapFrame) == 32 * sizeof(uintptr_t), "trap_entry.S saves 32 registers");

// The trap's machine CSRs. mepc is where the hart resumes if the hook handles the trap.
struct TrapContext {
  uintptr_t mcause;
  uintptr_t mepc;
  uintptr_t mtval;
};

// Defined by the image if it wants it (a weak reference in firmware/runtime/trap.cc).
bool on_trap(TrapFrame& frame, TrapContext& trap);

}  // namespace tessera::runtime
