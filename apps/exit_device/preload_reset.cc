// preload_reset: the machine writes the preload file's bytes again at every reset
// (docs/memory-map.md, "Preload file"). The test's file (tests/qemu/preload/reset_word.bin)
// puts kPreloaded 8 KiB into thread 0's partition, clear of its TLS block at the bottom and its
// stack at the top. Hart 0 checks the word, overwrites it and resets the machine; after the
// reset the word must be the file's again. Which boot it is comes from a marker in .noinit, as
// in reset.cc. The other harts return 0; only the exit device ends the run.
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/exit.h"
#include "tessera/hal/csr.h"
#include "tessera/hw/regs.h"
#include "tessera/print.h"

namespace {

constexpr uint32_t kRebooted = 0x7e55'b007u;
constexpr uint32_t kPreloaded = 0x600d'c0deu;
constexpr uint32_t kOffset = 8 * 1024;

__attribute__((section(".noinit"))) volatile uint32_t boot_marker;

volatile uint32_t* preloaded_word() {
  const tessera::drivers::Sysinfo sysinfo;
  return reinterpret_cast<volatile uint32_t*>(sysinfo.partition_base() + kOffset);
}

}  // namespace

int main() {
  if (tessera::hal::csr_read<TESSERA_CSR_HART_ID>() != 0) {
    return 0;
  }
  volatile uint32_t* word = preloaded_word();
  const uint32_t seen = *word;
  const bool first = boot_marker != kRebooted;
  tessera::printf("preload_reset: boot %u reads 0x%x\n", first ? 1u : 2u,
                  static_cast<unsigned>(seen));
  if (seen != kPreloaded) {
    tessera::exit(3);
  }
  if (first) {
    boot_marker = kRebooted;
    *word = 0;  // the reset must write it again
    tessera::reboot();
  }
  tessera::exit(0);
}
