// Heat diffusion in Tinsel's dialect, in C: every thread owns one cell of a grid laid out by
// config.h (heat.h). Each step it sends its temperature to its four neighbours, waits for
// theirs and applies the rule; at the end it sends its cell to the host.
#include "heat.h"

#include <tinsel.h>

enum { West, East, North, South };

typedef struct {
  uint32_t step;
  int32_t value;
  uint32_t from; /* the direction the message came from, as the receiver sees it */
} Update;

typedef struct {
  uint32_t x, y;
  int32_t value;
} Cell;

static void sendUpdate(uint32_t dest, uint32_t step, int32_t value, uint32_t from) {
  tinselWaitUntil(TINSEL_CAN_SEND);
  volatile Update* msg = tinselSendSlot();
  msg->step = step;
  msg->value = value;
  msg->from = from;
  tinselSetLen(0);
  tinselSend(dest, msg);
}

int main(void) {
  /* This thread's cell: the inverse of heatThreadAt. */
  uint32_t me = tinselId();
  uint32_t board = me >> TinselLogThreadsPerBoard;
  uint32_t mailbox = (me >> TinselLogThreadsPerMailbox) & ((1 << TinselLogMailboxesPerBoard) - 1);
  uint32_t thread = me & (TinselThreadsPerMailbox - 1);
  int x = ((board & ((1 << TinselMeshXBits) - 1)) * TinselMailboxMeshXLen +
           (mailbox & ((1 << TinselMailboxMeshXBits) - 1))) *
              TinselThreadsPerMailbox +
          thread;
  int y = (board >> TinselMeshXBits) * TinselMailboxMeshYLen + (mailbox >> TinselMailboxMeshXBits);

  int exists[4] = {x > 0, x<HEAT_W - 1, y> 0, y < HEAT_H - 1};
  int neighbours = exists[West] + exists[East] + exists[North] + exists[South];

  /* A neighbour runs at most one step ahead (it needs this cell's value to go on), so
   * updates are kept by the parity of their step. */
  int32_t got[2][4];
  int count[2] = {0, 0};
  int32_t value = 0;

  for (uint32_t step = 0; step < HEAT_STEPS; step++) {
    if (exists[West]) sendUpdate(heatThreadAt(x - 1, y), step, value, East);
    if (exists[East]) sendUpdate(heatThreadAt(x + 1, y), step, value, West);
    if (exists[North]) sendUpdate(heatThreadAt(x, y - 1), step, value, South);
    if (exists[South]) sendUpdate(heatThreadAt(x, y + 1), step, value, North);
    int parity = step & 1;
    while (count[parity] < neighbours) {
      tinselWaitUntil(TINSEL_CAN_RECV);
      volatile Update* msg = tinselRecv();
      got[msg->step & 1][msg->from] = msg->value;
      count[msg->step & 1]++;
      tinselFree(msg);
    }
    count[parity] = 0;
    for (int d = 0; d < 4; d++)
      if (!exists[d]) got[parity][d] = value;
    value = heatNext(value, got[parity], x, y);
  }

  tinselWaitUntil(TINSEL_CAN_SEND);
  volatile Cell* cell = tinselSendSlot();
  cell->x = x;
  cell->y = y;
  cell->value = value;
  tinselSetLen(0);
  tinselSend(tinselHostId(), cell);
  return 0;
}
