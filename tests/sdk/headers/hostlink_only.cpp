// Host: only HostLink.h. Tinsel's HostLink.h includes <stdio.h>, <stdlib.h>, <stdint.h>,
// <sys/time.h> and config.h (and DebugLink.h, which adds no other system header).
#include <HostLink.h>

int main() {
  struct timeval start;
  gettimeofday(&start, NULL);                                     // <sys/time.h>
  uint32_t threads = TinselMaxThreads;                            // <stdint.h>, config.h
  uint32_t* seen = (uint32_t*)calloc(threads, sizeof(uint32_t));  // <stdlib.h>
  if (seen == NULL || atoi("12") != 12) exit(EXIT_FAILURE);
  free(seen);
  HostLink* unused = NULL;  // the class, not booted
  (void)unused;
  fprintf(stdout, "headers ok\n");  // <stdio.h>
  return 0;
}
