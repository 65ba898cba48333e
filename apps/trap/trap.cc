// trap: hart 0 executes an illegal instruction; the runtime must report it and end the run
// with exit status 130 (128 + illegal instruction). The other harts return 0, which cannot end
// the run because hart 0 never checks in.
#include "tessera/drivers/sysinfo.h"

int main() {
  if (tessera::drivers::Sysinfo().hart_index() == 0) {
    asm volatile(".word 0");  // all-zero is a defined illegal instruction in RISC-V
  }
  return 0;
}
