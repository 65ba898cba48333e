// console_paths: the two ways text reaches the console, and a line cut short.
// Hart 0 starts a line through the TX register, emits a word through CSR
// 0x80f (Tinsel's emit, a line of its own after the partial one), writes a
// line with no newline, and ends the run through the exit device at once:
// the machine must still print the unterminated line.
#include <stdint.h>
#include <string.h>

#include "tessera/drivers/console.h"
#include "tessera/exit.h"
#include "tessera/hal/csr.h"
#include "tessera/hw/regs.h"

int main() {
  if (tessera::hal::csr_read<TESSERA_CSR_HART_ID>() != 0) {
    return 0;
  }
  tessera::drivers::Console console;
  const char* before = "before the emit";
  console.write(before, strlen(before));
  tessera::hal::csr_write<TESSERA_CSR_EMIT>(0xc0ffee);
  const char* unterminated = "unterminated line";
  console.write(unterminated, strlen(unterminated));
  tessera::exit(0);
}
