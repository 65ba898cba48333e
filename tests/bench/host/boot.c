// The cluster's fixed cost for ./tessera bench host: boot every thread and return at once.
// Thread 0 prints the thread count.
#include <tinsel.h>

int main(void) {
  if (tinselId() == 0) {
    printf("boot: threads %u\n", TinselMeshXLen * TinselMeshYLen * TinselThreadsPerBoard);
  }
  return 0;
}
