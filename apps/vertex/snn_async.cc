// GALS spiking neural network on the harts (snn.h).
#include <tinsel.h>

#include "snn.h"

typedef PThread<SNNGalsVertex, SNNGalsState, Q16, SNNMessage> SNNGalsThread;

int main() {
  static_cast<SNNGalsThread*>(tinselHeapBaseSRAM())->run();
  return 0;
}
