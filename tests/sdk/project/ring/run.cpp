// Receives the ring's token and checks it: every thread's id added once per lap.
#include <HostLink.h>

int main() {
  HostLink hostLink;
  hostLink.boot("code.v", "data.v");
  hostLink.go();
  uint32_t result[2];
  hostLink.recvMsg(result, sizeof result);
  hostLink.dumpStdOut();

  uint32_t sum = 0, threads = 0;
  for (int y = 0; y < hostLink.meshYLen; y++)
    for (int x = 0; x < hostLink.meshXLen; x++)
      for (uint32_t core = 0; core < TinselCoresPerBoard; core++)
        for (uint32_t thread = 0; thread < TinselThreadsPerCore; thread++) {
          sum += hostLink.toAddr(x, y, core, thread);
          threads++;
        }
  printf("ring: the token went 3 times round %u threads: %x (expected %x)\n", result[1], result[0],
         3 * sum);
  if (result[0] != 3 * sum || result[1] != threads) {
    printf("FAIL: wrong token\n");
    return 1;
  }
  return 0;
}
