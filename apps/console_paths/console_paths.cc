// console_paths: the two ways bytes reach the console, and a line cut short.
// Hart 0 writes one line through CSR 0x80f (Tinsel's emit) and then a line
// with no newline through the TX register, and ends the run through the
// exit device at once: the machine must still print the unterminated line.
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
  for (const char* c = "emitted through csr 0x80f\n"; *c != '\0'; c++) {
    tessera::hal::csr_write<TESSERA_CSR_EMIT>(static_cast<uint8_t>(*c));
  }
  const char* unterminated = "unterminated line";
  tessera::drivers::Console console;
  console.write(unterminated, strlen(unterminated));
  tessera::exit(0);
}
