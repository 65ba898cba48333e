// RISC-V semihosting (the RISC-V Semihosting spec, after Arm's): how a run on QEMU's model of a
// board, or on a board under a debugger, ends with an exit status (docs/boards.md).
#pragma once

namespace tessera::board {

// Asks the debugger or QEMU to end the run with `status`. Returns only if nobody answered: on
// a board without a debugger the trap this raises goes to a vector that parks the hart instead.
void semihosting_exit(int status);

}  // namespace tessera::board
