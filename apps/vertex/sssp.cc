// SSSP on the harts: each thread runs the vertex runtime on the image the host wrote at its heap.
#include "sssp.h"

#include <tinsel.h>

typedef PThread<SSSPVertex, SSSPState, int32_t, SSSPMessage> SSSPThread;

int main() {
  SSSPThread* thread = static_cast<SSSPThread*>(tinselHeapBaseSRAM());
  thread->run();
  return 0;
}
