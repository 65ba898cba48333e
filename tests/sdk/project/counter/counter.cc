// A Tessera program for any shape: every thread reports to thread 0, which checks that each did
// once. The exit status is the verdict (0: every thread counted).
#include <tinsel.h>

int main() {
  const uint32_t me = tinselId();
  const uint32_t threads = tinselNumThreads();
  if (me != 0) {
    tinselWaitUntil(TINSEL_CAN_SEND);
    volatile uint32_t* msg = static_cast<volatile uint32_t*>(tinselSendSlot());
    msg[0] = me;
    tinselSetLen(0);
    tinselSend(0, msg);
    return 0;
  }
  uint32_t count = 0;
  uint32_t id_sum = 0;
  while (count < threads - 1) {
    tinselWaitUntil(TINSEL_CAN_RECV);
    volatile uint32_t* msg = static_cast<volatile uint32_t*>(tinselRecv());
    id_sum += msg[0];
    tinselFree(msg);
    count++;
  }
  // The ids are sparse: sum those of the shape by walking its coordinates.
  uint32_t expected = 0;
  for (uint32_t by = 0; by < tinselBoardsY(); by++)
    for (uint32_t bx = 0; bx < tinselBoardsX(); bx++)
      for (uint32_t ty = 0; ty < tinselTilesY(); ty++)
        for (uint32_t tx = 0; tx < tinselTilesX(); tx++)
          for (uint32_t c = 0; c < tinselCoresPerTile(); c++)
            for (uint32_t t = 0; t < tinselThreadsPerCore(); t++)
              expected += tinselToAddr(bx, by, tx, ty, c, t);
  printf("counter: %d boards, %d threads checked in, id sum %x (expected %x)\n",
         tinselBoardsX() * tinselBoardsY(), count + 1, id_sum, expected);
  return id_sum == expected ? 0 : 1;
}
