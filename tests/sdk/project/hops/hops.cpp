// The firmware: every thread runs POLite's runtime on the image the host wrote at its heap.
#include "hops.h"

#include <tinsel.h>

typedef PThread<HopsDevice, HopsState, None, HopsMessage> HopsThread;

int main() {
  HopsThread* thread = (HopsThread*)tinselHeapBaseSRAM();
  thread->run();
  return 0;
}
