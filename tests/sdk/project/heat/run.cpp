// Reads the heat grid back with recvMsg and checks it against the same rule computed here.
#include <HostLink.h>

#include <vector>

#include "heat.h"

int main() {
  HostLink hostLink;
  hostLink.boot("code.v", "data.v");
  hostLink.go();

  struct Cell {
    uint32_t x, y;
    int32_t value;
  };
  std::vector<int32_t> device(HEAT_W * HEAT_H, -1);
  for (int i = 0; i < HEAT_W * HEAT_H; i++) {
    Cell cell;
    hostLink.recvMsg(&cell, sizeof cell);
    if (cell.x >= HEAT_W || cell.y >= HEAT_H) {
      printf("FAIL: a cell at (%u,%u), outside the grid\n", cell.x, cell.y);
      return 1;
    }
    device[cell.y * HEAT_W + cell.x] = cell.value;
  }
  hostLink.dumpStdOut();

  std::vector<int32_t> grid(HEAT_W * HEAT_H, 0), next(grid.size());
  for (int step = 0; step < HEAT_STEPS; step++) {
    for (int y = 0; y < HEAT_H; y++)
      for (int x = 0; x < HEAT_W; x++) {
        const int32_t self = grid[y * HEAT_W + x];
        const int32_t n[4] = {x > 0 ? grid[y * HEAT_W + x - 1] : self,
                              x < HEAT_W - 1 ? grid[y * HEAT_W + x + 1] : self,
                              y > 0 ? grid[(y - 1) * HEAT_W + x] : self,
                              y < HEAT_H - 1 ? grid[(y + 1) * HEAT_W + x] : self};
        next[y * HEAT_W + x] = heatNext(self, n, x, y);
      }
    grid.swap(next);
  }

  int differ = 0;
  for (int y = 0; y < HEAT_H; y++) {
    for (int x = 0; x < HEAT_W; x++) {
      printf("%8d", device[y * HEAT_W + x]);
      differ += device[y * HEAT_W + x] != grid[y * HEAT_W + x];
    }
    printf("\n");
  }
  printf("heat: %dx%d cells after %d steps, %d differ from the host's\n", HEAT_W, HEAT_H,
         HEAT_STEPS, differ);
  if (differ != 0) {
    printf("FAIL: the grids differ\n");
    return 1;
  }
  return 0;
}
