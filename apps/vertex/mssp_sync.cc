// Synchronous multi-source shortest paths on the harts (mssp.h).
#include <tinsel.h>

#include "mssp.h"

typedef PThread<MSSPSyncVertex, MSSPSyncState, None, MSSPMessage> MSSPSyncThread;

int main() {
  static_cast<MSSPSyncThread*>(tinselHeapBaseSRAM())->run();
  return 0;
}
