// The heat grid, shared by the device program and its host: one cell per thread, laid out by
// config.h's constants (boards, then mailboxes, then the threads of a mailbox along X), and the
// integer rule both sides apply, so they agree bit for bit.
#ifndef HEAT_GRID_H
#define HEAT_GRID_H

#include <config.h>
#include <stdint.h>

#define HEAT_STEPS 80
#define HEAT_SOURCE (1 << 20) /* cell (0,0) is held at this temperature */
#define HEAT_W (TinselMeshXLen * TinselMailboxMeshXLen * TinselThreadsPerMailbox)
#define HEAT_H (TinselMeshYLen * TinselMailboxMeshYLen)

/* The thread that owns cell (x, y). */
static inline uint32_t heatThreadAt(uint32_t x, uint32_t y) {
  uint32_t boardX = x / (TinselMailboxMeshXLen * TinselThreadsPerMailbox);
  uint32_t rest = x % (TinselMailboxMeshXLen * TinselThreadsPerMailbox);
  uint32_t mailboxX = rest / TinselThreadsPerMailbox;
  uint32_t thread = rest % TinselThreadsPerMailbox;
  uint32_t boardY = y / TinselMailboxMeshYLen;
  uint32_t mailboxY = y % TinselMailboxMeshYLen;
  uint32_t board = (boardY << TinselMeshXBits) | boardX;
  uint32_t mailbox = (mailboxY << TinselMailboxMeshXBits) | mailboxX;
  return (board << TinselLogThreadsPerBoard) | (mailbox << TinselLogThreadsPerMailbox) | thread;
}

/* The next temperature of a cell: a weighted mean with its four neighbours (a missing neighbour,
 * at the edge, counts as the cell itself: no flow through the edge). */
static inline int32_t heatNext(int32_t self, const int32_t neighbour[4], int x, int y) {
  if (x == 0 && y == 0) return HEAT_SOURCE;
  int32_t sum = 4 * self;
  for (int d = 0; d < 4; d++) sum += neighbour[d];
  return sum / 8;
}

#endif
