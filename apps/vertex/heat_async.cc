// Heat transfer, GALS, on the harts: each thread runs the vertex runtime on the image the host
// wrote at its heap.
#include <tinsel.h>

#include "heat.h"

typedef PThread<HeatGalsVertex, HeatGalsState, None, HeatMessage> HeatGalsThread;

int main() {
  HeatGalsThread* thread = static_cast<HeatGalsThread*>(tinselHeapBaseSRAM());
  thread->run();
  return 0;
}
