// Hello in Tinsel's dialect, in C: every thread prints where it is, with Tinsel's printf.
#include <tinsel.h>

int main(void) {
  uint32_t me = tinselId();
  uint32_t board = me >> TinselLogThreadsPerBoard;
  uint32_t boardX = board & ((1 << TinselMeshXBits) - 1);
  uint32_t boardY = board >> TinselMeshXBits;
  printf("hello from thread %x on board %d,%d of %dx%d\n", me, boardX, boardY, TinselMeshXLen,
         TinselMeshYLen);
  return 0;
}
