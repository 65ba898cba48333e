// Host: only POLite.h (through compat.h). Tinsel's host-side POLite.h includes PGraph.h, which
// includes <stdlib.h>, <stdint.h>, <string.h>, <math.h>, <type_traits>, HostLink.h (<stdio.h>,
// <sys/time.h>, config.h), Seq.h and Graph.h (<assert.h>) and Placer.h (<queue>, <metis.h>,
// <omp.h>).
#include "compat.h"

#ifdef TINSEL
#error "TINSEL is for device code only"
#endif

int main(int argc, char** argv) {
  (void)argv;
  struct timeval start;
  gettimeofday(&start, NULL);  // <sys/time.h>
  assert(argc >= 1);           // <assert.h>
  double root = sqrt(16.0);    // <math.h>
  char name[8];
  memset(name, 0, sizeof name);  // <string.h>
  strcpy(name, "heat");
  uint32_t* scratch = (uint32_t*)malloc(4 * sizeof(uint32_t));  // <stdlib.h>, <stdint.h>
  std::priority_queue<uint32_t> queue;                          // <queue>
  queue.push(3);
  static_assert(std::is_same<uint32_t, unsigned>::value, "");  // <type_traits>
#if __has_include(<metis.h>)
  idx_t parts = 2;  // <metis.h>
  (void)parts;
#endif
#if __has_include(<omp.h>)
  using ompThreads = decltype(omp_get_max_threads());  // <omp.h> (declared)
  static_assert(std::is_same<ompThreads, int>::value, "");
#endif
  HostLink* unused = NULL;  // HostLink.h
  (void)unused;
  PGraph<CompatDevice, CompatState, None, CompatMessage> graph;  // config.h's machine
  PDeviceId a = graph.newDevice();
  PDeviceId b = graph.newDevice();
  graph.addEdge(a, 0, b);
  graph.addEdge(b, 0, a);
  if (scratch == NULL || root != 4.0 || strcmp(name, "heat") != 0 || queue.top() != 3 ||
      atoi("2") != (int)graph.numDevices)
    exit(EXIT_FAILURE);
  free(scratch);
  printf("headers ok\n");  // <stdio.h>
  return 0;
}
