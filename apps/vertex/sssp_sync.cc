// Synchronous SSSP on the harts (sssp_sync.h).
#include "sssp_sync.h"

#include <tinsel.h>

typedef PThread<SSSPSyncVertex, SSSPSyncState, int32_t, SSSPMessage> SSSPSyncThread;

int main() {
  static_cast<SSSPSyncThread*>(tinselHeapBaseSRAM())->run();
  return 0;
}
