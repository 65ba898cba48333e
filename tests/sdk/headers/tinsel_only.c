// Device, C: only tinsel.h. Tinsel's tinsel.h includes <stdint.h>, config.h and io.h.
#include <tinsel.h>

int main(void) {
  uint32_t me = tinselId();  // <stdint.h>
  if (me == 0) {
    printf("%d threads a board\n", 1 << TinselLogThreadsPerBoard);  // io.h, config.h
    puts("thread 0 ");                                              // io.h: no newline added
    puthex(me);
    putchar('\n');
  }
  return 0;
}
