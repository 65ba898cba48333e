// The host side: boot the memory files, start the threads, collect one message from each, then
// print the console until the machine ends.
#include <HostLink.h>

int main() {
  HostLink hostLink;
  hostLink.boot("code.v", "data.v");
  hostLink.go();
  uint32_t seen = 0;
  for (int i = 0; i < TinselThreadsPerBoard; i++) {
    uint32_t msg[1 << TinselLogWordsPerMsg];
    hostLink.recvMsg(msg, sizeof msg);
    seen |= 1u << msg[0];
  }
  printf("the host heard from %d threads (mask %x)\n", __builtin_popcount(seen), seen);
  hostLink.dumpStdOut();
  return 0;
}
