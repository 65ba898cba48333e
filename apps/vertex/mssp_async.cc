// GALS multi-source shortest paths on the harts (mssp.h).
#include <tinsel.h>

#include "mssp.h"

typedef PThread<MSSPGalsVertex, MSSPGalsState, None, MSSPMessage> MSSPGalsThread;

int main() {
  static_cast<MSSPGalsThread*>(tinselHeapBaseSRAM())->run();
  return 0;
}
