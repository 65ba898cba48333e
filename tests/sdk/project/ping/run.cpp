// Sends a ping to every thread of the mesh, addressed by HostLink::toAddr, and checks each
// answer.
#include <HostLink.h>

#include <map>

int main() {
  HostLink hostLink;
  hostLink.boot("code.v", "data.v");
  hostLink.go();

  std::map<uint32_t, uint32_t> sent;  // thread id -> value
  for (int y = 0; y < hostLink.meshYLen; y++)
    for (int x = 0; x < hostLink.meshXLen; x++)
      for (uint32_t core = 0; core < TinselCoresPerBoard; core++)
        for (uint32_t thread = 0; thread < TinselThreadsPerCore; thread++) {
          const uint32_t dest = hostLink.toAddr(x, y, core, thread);
          uint32_t msg[1 << TinselLogWordsPerFlit] = {1000 + (uint32_t)sent.size()};
          sent[dest] = msg[0];
          hostLink.send(dest, 1, msg);
        }

  const size_t total = sent.size();
  int good = 0;
  for (size_t i = 0; i < total; i++) {
    uint32_t pong[2];
    hostLink.recvMsg(pong, sizeof pong);
    auto it = sent.find(pong[0]);
    if (it == sent.end() || pong[1] != it->second * 3 + 1) {
      printf("FAIL: thread %x answered %u\n", pong[0], pong[1]);
      continue;
    }
    sent.erase(it);  // each thread answers once
    good++;
  }
  hostLink.dumpStdOut();
  printf("ping: %d threads answered\n", good);
  if (good != TinselMeshXLen * TinselMeshYLen * TinselThreadsPerBoard) {
    printf("FAIL: expected an answer from every thread\n");
    return 1;
  }
  return 0;
}
