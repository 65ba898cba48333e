// shake: one thread of the parallel SHAKE ring (docs/shake.md, "On the machine"). The host
// (apps/shake/run) writes each thread's image at its tinselHeapBaseSRAM() before boot: its
// particles, constraints and run parameters. Every hart of the machine is a thread of the ring,
// in dense order, so that the open-collector bus, which spans the machine, spans the ring.
// Each thread runs the steps, then sends its particles and a report to the host.
#include <inttypes.h>
#include <stdint.h>

#include "shake_thread.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/print.h"
#include "tinsel.h"

int main() {
  using namespace tessera::shake::ring;
  auto* header = static_cast<Header*>(tinselHeapBaseSRAM());
  const tessera::drivers::Sysinfo sysinfo;
  if (imageError(*header, sysinfo.num_harts(), sysinfo.hart_index()) != Error::kNone) {
    tessera::printf("shake: hart %" PRIu32 " has no SHAKE image for a ring of %" PRIu32
                    " (magic 0x%08" PRIx32 ", ring %" PRIu32 ", position %" PRIu32 ")\n",
                    sysinfo.hart_index(), sysinfo.num_harts(), header->magic, header->ringSize,
                    header->position);
    return 1;
  }
  ShakeThread thread(*header);
  thread.run();
  thread.sendResults();
  return 0;
}
