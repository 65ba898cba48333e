// Device, C: only tinsel.h. Tinsel's tinsel.h includes <stdint.h>, config.h and io.h, and its
// tinsel-interface.h defines INLINE.
#include <tinsel.h>

#ifndef TINSEL
#error "device code sees TINSEL, as Tinsel's build defines it"
#endif

INLINE uint32_t myId(void) {
  return tinselId();
}  // INLINE, <stdint.h>

int main(void) {
  uint32_t me = myId();
  if (me == 0) {
    printf("%d threads a board\n", 1 << TinselLogThreadsPerBoard);  // io.h, config.h
    puts("thread 0 ");                                              // io.h: no newline added
    puthex(me);
    putchar('\n');
  }
  return 0;
}
