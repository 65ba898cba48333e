// Builds a ring of 1,000 vertices with a chord from every seventh, maps and writes it, saves
// POLite's statistics and checks every hop count against a breadth-first search on the host.
#include <EdgeList.h>
#include <HostLink.h>

#include <cstring>
#include <queue>
#include <vector>

#include "hops.h"

int main() {
  // The graph goes through an edge file and Tinsel's EdgeList, as POLite programs read theirs.
  const uint32_t n = 1000;
  FILE* file = fopen("hops-edges.txt", "w");
  for (uint32_t v = 0; v < n; v++) {
    fprintf(file, "%u %u\n", v, (v + 1) % n);
    if (v % 7 == 0) fprintf(file, "%u %u\n", v, (v * 31 + 11) % n);
  }
  fclose(file);
  EdgeList net;
  net.read("hops-edges.txt");
  if (net.numNodes != n) printf("FAIL EdgeList: %u vertices\n", net.numNodes);
  std::vector<std::vector<uint32_t>> out(n);
  for (uint32_t v = 0; v < n; v++) {
    for (uint32_t i = 1; i <= net.neighbours[v][0]; i++) out[v].push_back(net.neighbours[v][i]);
  }

  HostLink hostLink;
  PGraph<HopsDevice, HopsState, None, HopsMessage> graph;
  for (uint32_t v = 0; v < n; v++) graph.newDevice();
  for (uint32_t v = 0; v < n; v++) {
    for (uint32_t to : out[v]) graph.addEdge(v, 0, to);
  }
  graph.map();
  for (PDeviceId v = 0; v < graph.numDevices; v++) {
    graph.devices[v]->state.id = v;
    graph.devices[v]->state.hops = v == 0 ? 0 : 0xffffffff;
  }
  graph.write(&hostLink);
  hostLink.boot("code.v", "data.v");
  hostLink.go();
  politeSaveStats(&hostLink, "stats.txt");

  std::vector<uint32_t> expected(n, 0xffffffff);
  std::queue<uint32_t> frontier;
  expected[0] = 0;
  frontier.push(0);
  while (!frontier.empty()) {
    const uint32_t v = frontier.front();
    frontier.pop();
    for (uint32_t to : out[v]) {
      if (expected[to] == 0xffffffff) {
        expected[to] = expected[v] + 1;
        frontier.push(to);
      }
    }
  }

  int wrong = 0;
  for (uint32_t i = 0; i < n; i++) {
    PMessage<HopsMessage> msg;
    hostLink.recvMsg(&msg, sizeof msg);
    if (msg.payload.id >= n || msg.payload.hops != expected[msg.payload.id]) {
      if (wrong++ < 10)
        printf("FAIL vertex %u: %u hops, expected %u\n", msg.payload.id, msg.payload.hops,
               msg.payload.id < n ? expected[msg.payload.id] : 0);
    }
  }

  // One statistics line per core (C:) and, with POLITE_COUNT_MSGS, one per thread (MS:).
  FILE* stats = fopen("stats.txt", "r");
  char line[256];
  uint32_t coreLines = 0, threadLines = 0;
  while (stats != nullptr && fgets(line, sizeof line, stats)) {
    coreLines += strstr(line, ": C:") != nullptr;
    threadLines += strstr(line, ": MS:") != nullptr;
  }
  if (stats != nullptr) fclose(stats);
  const uint32_t threads = 1u << TinselLogThreadsPerBoard;
  const uint32_t boards = TinselMeshXLen * TinselMeshYLen;
  if (coreLines != boards * TinselCoresPerBoard || threadLines != boards * threads) {
    printf("FAIL stats.txt: %u core lines and %u thread lines\n", coreLines, threadLines);
    wrong++;
  }
  printf("%u hop counts checked, %u core and %u thread statistics lines\n", n, coreLines,
         threadLines);
  return wrong == 0 ? 0 : 1;
}
