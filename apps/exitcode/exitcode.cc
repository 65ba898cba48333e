// exitcode: hart 0 ends the run with tessera::exit(42); the others return 0, which cannot end
// the run because hart 0 never checks in. The emulator must exit with status 42.
#include "tessera/drivers/sysinfo.h"
#include "tessera/exit.h"

int main() {
  if (tessera::drivers::Sysinfo().hart_index() == 0) {
    tessera::exit(42);
  }
  return 0;
}
