// Synchronous spiking neural network on the harts (snn.h).
#include <tinsel.h>

#include "snn.h"

typedef PThread<SNNSyncVertex, SNNSyncState, Q16, SNNMessage> SNNSyncThread;

int main() {
  static_cast<SNNSyncThread*>(tinselHeapBaseSRAM())->run();
  return 0;
}
