// PageRank, synchronous, on the harts: each thread runs the vertex runtime on the image the host
// wrote at its heap.
#include <tinsel.h>

#include "pagerank.h"

typedef PThread<PageRankSyncVertex, PageRankSyncState, None, PageRankMessage> PageRankSyncThread;

int main() {
  PageRankSyncThread* thread = static_cast<PageRankSyncThread*>(tinselHeapBaseSRAM());
  thread->run();
  return 0;
}
