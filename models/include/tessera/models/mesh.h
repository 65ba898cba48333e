/*
 * The mesh's uncontended timing rule, shared by every model that sends
 * something across the tile grid (the mailbox network, the barrier
 * controller): a hop between tiles of one board costs tile_hop_cycles, a hop
 * that crosses a board edge costs board_hop_cycles, along the
 * dimension-ordered route (X, then Y) of the global tile grid. Within a tile
 * the latency is 0.
 *
 * The global tile grid: tile (x, y) of board (bx, by) sits at
 * (bx * tiles_x + x, by * tiles_y + y).
 */
#ifndef TESSERA_MODELS_MESH_H
#define TESSERA_MODELS_MESH_H

#include <stdint.h>

#include "tessera/hw/regs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TesseraMeshTiming {
    uint32_t tile_hop_cycles;
    uint32_t board_hop_cycles;
} TesseraMeshTiming;

/* Where thread_id's tile sits in the global tile grid. */
void tessera_mesh_tile_of(const TesseraShape *s, uint32_t thread_id,
                          uint32_t *x, uint32_t *y);

/* Uncontended latency along one axis from grid coordinate `from` to `to`,
 * with `board_tiles` tiles of a board on that axis. */
uint64_t tessera_mesh_axis_latency(const TesseraMeshTiming *t,
                                   uint32_t board_tiles, uint32_t from,
                                   uint32_t to);

/* Uncontended latency from grid tile (fx, fy) to (tx, ty). Symmetric. */
uint64_t tessera_mesh_latency(const TesseraShape *s,
                              const TesseraMeshTiming *t, uint32_t fx,
                              uint32_t fy, uint32_t tx, uint32_t ty);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_MODELS_MESH_H */
