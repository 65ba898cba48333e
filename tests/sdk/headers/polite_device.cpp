// Device, C++: only POLite.h (through compat.h). Tinsel's device-side POLite.h gives <stdint.h>,
// tinsel.h (config.h, io.h) and, up to release v0.8, <stdlib.h>.
#include "compat.h"

typedef PThread<CompatDevice, CompatState, None, CompatMessage> CompatThread;

int main() {
  if (tinselId() == 0) printf("abs %d\n", abs(-TinselLogThreadsPerCore));  // <stdlib.h>, io.h
  CompatThread* thread = (CompatThread*)tinselHeapBaseSRAM();
  thread->run();
  return 0;
}
