// libFuzzer target: the preload model (models/preload.c). Any bytes as a preload file against
// any machine shape and partition size: a file it accepts must walk to its end, every record
// inside the file, naming a thread of the shape, within its partition.
//
// Input: six bytes of machine shape, one of partition size, then the file.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/hw/regs.h"
#include "tessera/models/preload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::FuzzInput in(data, size);
  TesseraShape shape{};
  shape.boards_x = in.in_range(1, 8);
  shape.boards_y = in.in_range(1, 8);
  shape.tiles_x = 1u << in.below(4);
  shape.tiles_y = 1u << in.below(4);
  shape.cores_per_tile = 1u << in.below(5);
  shape.threads_per_core = 1u << in.below(7);
  const uint32_t partition = 1024u << in.below(8);
  uint8_t file[512];
  const size_t len = in.take(file, sizeof file);

  char why[160];
  why[0] = '\0';
  if (!tessera_preload_check(file, len, &shape, partition, why, sizeof why)) {
    FUZZ_CHECK(why[0] != '\0' && strlen(why) < sizeof why, "refused without a reason");
    return 0;
  }
  size_t at = 0, records = 0;
  TesseraPreloadRecord r;
  while (tessera_preload_next(file, len, &at, &r)) {
    records++;
    FUZZ_CHECK(at <= len, "record %zu ends past the file", records);
    FUZZ_CHECK(r.bytes >= file && r.bytes + r.length <= file + len, "record %zu's bytes", records);
    FUZZ_CHECK(tessera_thread_exists(&shape, r.thread_id), "thread 0x%x", r.thread_id);
    FUZZ_CHECK(static_cast<uint64_t>(r.offset) + r.length <= partition, "outside the partition");
  }
  uint32_t count;
  memcpy(&count, file + 8, 4);
  FUZZ_CHECK(records == count, "walked %zu of %u records", records, count);
  FUZZ_CHECK(at == len, "stopped at %zu of %zu", at, len);
  return 0;
}
