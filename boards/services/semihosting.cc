#include "semihosting.h"

#include <stdint.h>

namespace tessera::board {
namespace {

constexpr unsigned long kSysExitExtended = 0x20;
constexpr unsigned long kApplicationExit = 0x20026;  // ADP_Stopped_ApplicationExit

}  // namespace

// SYS_EXIT_EXTENDED takes a block of two XLEN words, the reason and the status, on RV32 and
// RV64 alike (QEMU's semihosting/arm-compat-semi.c). The call is the three instructions the
// spec fixes, uncompressed, so that a debugger recognises them around the ebreak.
void semihosting_exit(int status) {
  volatile unsigned long block[2] = {kApplicationExit, static_cast<unsigned long>(status)};
  register unsigned long a0 asm("a0") = kSysExitExtended;
  register volatile unsigned long* a1 asm("a1") = block;
  asm volatile(
      ".option push\n"
      ".option norvc\n"
      ".balign 16\n"
      "slli zero, zero, 0x1f\n"
      "ebreak\n"
      "srai zero, zero, 0x7\n"
      ".option pop\n"
      : "+r"(a0)
      : "r"(a1)
      : "memory");
}

}  // namespace tessera::board
