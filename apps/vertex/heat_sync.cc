// Heat transfer, synchronous, on the harts: each thread runs the vertex runtime on the image the
// host wrote at its heap.
#include <tinsel.h>

#include "heat.h"

typedef PThread<HeatSyncVertex, HeatSyncState, None, HeatMessage> HeatSyncThread;

int main() {
  HeatSyncThread* thread = static_cast<HeatSyncThread*>(tinselHeapBaseSRAM());
  thread->run();
  return 0;
}
