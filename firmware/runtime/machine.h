// Machine-mode CSRs and instructions the runtime needs (target only, private to the runtime).
//
// Standard CSRs are accessed with csrr/csrs/csrc here rather than through hal::csr_*: those
// facades are csrrw-only (Tinsel's custom CSRs), and a csrrw "read" of mie or mstatus would
// overwrite it.
#pragma once

#include <stdint.h>

#include "tessera/hw/regs.h"

namespace tessera::runtime::machine {

// mie.MSIE has the bit of mip.MSIP.
inline constexpr uint32_t kMieMachineSoftware = TESSERA_MIP_MSIP;

inline uintptr_t read_mcause() {
  uintptr_t value;
  asm volatile("csrr %0, mcause" : "=r"(value));
  return value;
}

inline uintptr_t read_mepc() {
  uintptr_t value;
  asm volatile("csrr %0, mepc" : "=r"(value));
  return value;
}

// Where mret resumes (a trap the image's hook handled).
inline void write_mepc(uintptr_t value) {
  asm volatile("csrw mepc, %0" : : "r"(value));
}

inline uintptr_t read_mtval() {
  uintptr_t value;
  asm volatile("csrr %0, mtval" : "=r"(value));
  return value;
}

inline void write_mie(uint32_t value) {
  asm volatile("csrw mie, %0" : : "r"(value));
}

// Waits for an enabled interrupt to be pending (taken or not: mstatus.MIE stays 0). May return
// spuriously, so callers re-check their condition around it.
inline void wait_for_interrupt() {
  asm volatile("wfi" : : : "memory");
}

// Orders all earlier memory and device accesses of this hart before all later ones.
inline void fence() {
  asm volatile("fence iorw, iorw" : : : "memory");
}

inline void set_thread_pointer(uintptr_t value) {
  asm volatile("mv tp, %0" : : "r"(value));
}

// Stops this hart for good: no interrupt is enabled, so wfi never returns except spuriously.
[[noreturn]] inline void park() {
  write_mie(0);
  for (;;) {
    wait_for_interrupt();
  }
}

}  // namespace tessera::runtime::machine
