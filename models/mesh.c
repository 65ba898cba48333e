/*
 * The mesh's uncontended timing rule (tessera/models/mesh.h).
 */
#include "tessera/models/mesh.h"

void tessera_mesh_tile_of(const TesseraShape *s, uint32_t thread_id,
                          uint32_t *x, uint32_t *y)
{
    TesseraCoords c = tessera_coords(s, thread_id);

    *x = c.board_x * s->tiles_x + c.tile_x;
    *y = c.board_y * s->tiles_y + c.tile_y;
}

/* n hops, of which `crossings` leave a board. */
uint64_t tessera_mesh_axis_latency(const TesseraMeshTiming *t,
                                   uint32_t board_tiles, uint32_t from,
                                   uint32_t to)
{
    uint32_t hops = from > to ? from - to : to - from;
    uint32_t fb = from / board_tiles, tb = to / board_tiles;
    uint32_t crossings = fb > tb ? fb - tb : tb - fb;

    return (uint64_t)(hops - crossings) * t->tile_hop_cycles +
           (uint64_t)crossings * t->board_hop_cycles;
}

uint64_t tessera_mesh_latency(const TesseraShape *s,
                              const TesseraMeshTiming *t, uint32_t fx,
                              uint32_t fy, uint32_t tx, uint32_t ty)
{
    return tessera_mesh_axis_latency(t, s->tiles_x, fx, tx) +
           tessera_mesh_axis_latency(t, s->tiles_y, fy, ty);
}
