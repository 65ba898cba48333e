// PageRank, GALS, on the harts: each thread runs the vertex runtime on the image the host wrote at
// its heap.
#include <tinsel.h>

#include "pagerank.h"

typedef PThread<PageRankGalsVertex, PageRankGalsState, None, PageRankMessage> PageRankGalsThread;

int main() {
  PageRankGalsThread* thread = static_cast<PageRankGalsThread*>(tinselHeapBaseSRAM());
  thread->run();
  return 0;
}
