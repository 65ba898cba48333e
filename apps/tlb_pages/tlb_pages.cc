// tlb_pages: every hart writes a word to each page of its partition's free memory and reads
// them back, in order and then in reverse. Given a large partition (machine option
// partition-kib), a hart touches far more pages than QEMU's soft TLB starts with, so the table
// must grow as the hart runs without losing an entry (qemu/patches/0031-*, test
// qemu.tlb.grows_and_keeps_its_entries).
//
// Exit status (first failing hart's): 0 all good; 1 a word read back differs.
#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/csr.h"
#include "tessera/heap.h"
#include "tessera/hw/regs.h"
#include "tessera/print.h"

namespace {

constexpr uint32_t kPageBytes = 4096;
constexpr uint32_t kStackBytes = 64 * 1024;  // left to the stack, at the partition's top

uint32_t stamp(uint32_t id, uint32_t page) { return id << 16 ^ page * 0x9e37u; }

}  // namespace

int main() {
  const tessera::drivers::Sysinfo sysinfo;
  const uint32_t id = tessera::hal::csr_read<TESSERA_CSR_HART_ID>();
  const uintptr_t heap = reinterpret_cast<uintptr_t>(tessera::heap_base());
  const uintptr_t first = (heap + kPageBytes - 1) & ~uintptr_t{kPageBytes - 1};
  const uintptr_t end = sysinfo.partition_base() + sysinfo.partition_size() - kStackBytes;
  const uint32_t pages = end > first ? (end - first) / kPageBytes : 0;
  auto word = [first](uint32_t page) {
    return reinterpret_cast<volatile uint32_t*>(first + page * kPageBytes);
  };

  for (uint32_t page = 0; page < pages; page++) *word(page) = stamp(id, page);
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t i = 0; i < pages; i++) {
      const uint32_t page = pass == 0 ? i : pages - 1 - i;
      if (*word(page) != stamp(id, page)) {
        tessera::printf("FAIL thread 0x%" PRIx32 ": page %" PRIu32 " reads 0x%08" PRIx32
                        ", wrote 0x%08" PRIx32 "\n",
                        id, page, *word(page), stamp(id, page));
        return 1;
      }
    }
  }
  tessera::printf("tlb_pages thread 0x%" PRIx32 ": %" PRIu32 " pages read back\n", id, pages);
  return 0;
}
