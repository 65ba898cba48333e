/*
 * Mailbox model: the network's timing. Messages follow the dimension-
 * ordered route (X, then Y) across the global tile grid; each directed link
 * carries one message at a time for `flits` cycles, and a hop costs
 * tile_hop_cycles within a board or board_hop_cycles across a board edge.
 * The host sits one board hop off grid position (0,0). Both dimensions go
 * through the same code, parameterised by the axis.
 */
#include "mailbox_internal.h"
#include "tessera/models/mesh.h"

/* The directed link leaving grid position pos along `axis`, + or -. */
static size_t grid_link(const TesseraMailbox *m,
                        const uint32_t pos[MBOX_AXES], int axis, bool up)
{
    return ((size_t)pos[MBOX_AXIS_Y] * m->grid[MBOX_AXIS_X] +
            pos[MBOX_AXIS_X]) * MBOX_LINKS_PER_TILE +
           (size_t)(2 * axis + (up ? 0 : 1));
}

static size_t host_link(const TesseraMailbox *m, bool to_host)
{
    return (size_t)m->grid[MBOX_AXIS_X] * m->grid[MBOX_AXIS_Y] *
           MBOX_LINKS_PER_TILE + (to_host ? 1 : 0);
}

/*
 * One hop: the message reaches the link at t and occupies it for `flits`
 * cycles. It waits for the message that last started on the link unless it
 * got there earlier in modelled time (then it does not wait: a message
 * never waits for one that is later in modelled time, only the host order
 * of calls put it first). Returns when its head reaches the next node.
 */
static uint64_t hop(TesseraMailbox *m, size_t link, uint64_t t,
                    uint32_t latency, uint32_t flits, bool commit)
{
    MboxLink *l = &m->links[link];
    uint64_t start = t;

    if (t >= l->last_start && l->next_free > t) {
        start = l->next_free;
    }
    if (commit && start >= l->last_start) {
        l->last_start = start;
        l->next_free = start + flits;
    }
    return start + latency;
}

/* The board of grid position pos. */
static uint32_t grid_board(const TesseraMailbox *m,
                           const uint32_t pos[MBOX_AXES])
{
    return pos[MBOX_AXIS_Y] / m->board_tiles[MBOX_AXIS_Y] *
               m->cfg.shape.boards_x +
           pos[MBOX_AXIS_X] / m->board_tiles[MBOX_AXIS_X];
}

/* Moves pos along `axis` to `dest`, one hop at a time. A hop that leaves
 * a board (its coordinate crosses a multiple of the board's tiles on that
 * axis) costs a board hop. Links of boards other than `board` (unless
 * MBOX_ALL_BOARDS) cost their latency alone. */
static uint64_t route_axis(TesseraMailbox *m, uint32_t pos[MBOX_AXES],
                           int axis, uint32_t dest, uint64_t t,
                           uint32_t flits, bool commit, uint32_t board)
{
    const uint32_t tiles = m->board_tiles[axis];

    while (pos[axis] != dest) {
        uint32_t p = pos[axis];
        bool up = p < dest;
        bool crossing = up ? (p + 1) % tiles == 0 : p % tiles == 0;
        uint32_t latency = crossing ? m->cfg.board_hop_cycles
                                    : m->cfg.tile_hop_cycles;

        if (board == MBOX_ALL_BOARDS || grid_board(m, pos) == board) {
            t = hop(m, grid_link(m, pos, axis, up), t, latency, flits,
                    commit);
        } else {
            t += latency;
        }
        pos[axis] = up ? p + 1 : p - 1;
    }
    return t;
}

uint64_t mbox_route(TesseraMailbox *m, uint32_t from, uint32_t to,
                    uint64_t t, uint32_t flits, bool commit, uint32_t board)
{
    uint32_t pos[MBOX_AXES] = { 0, 0 }, dest[MBOX_AXES] = { 0, 0 };
    int axis;

    if (m->cfg.untimed) {
        return t; /* no time on the way, no link to occupy */
    }
    /*
     * The host link's own hops contend only when every link does: with
     * windows (a board given) the host's traffic to and from other
     * processes' boards is not seen here, so they take their latency alone.
     */
    if (from == MBOX_HOST_TILE) {
        t = board == MBOX_ALL_BOARDS
                ? hop(m, host_link(m, false), t, m->cfg.board_hop_cycles,
                      flits, commit)
                : t + m->cfg.board_hop_cycles;
    } else {
        pos[MBOX_AXIS_X] = m->tiles[from].pos[MBOX_AXIS_X];
        pos[MBOX_AXIS_Y] = m->tiles[from].pos[MBOX_AXIS_Y];
    }
    if (to != MBOX_HOST_TILE) {
        dest[MBOX_AXIS_X] = m->tiles[to].pos[MBOX_AXIS_X];
        dest[MBOX_AXIS_Y] = m->tiles[to].pos[MBOX_AXIS_Y];
    }
    for (axis = MBOX_AXIS_X; axis < MBOX_AXES; axis++) {
        t = route_axis(m, pos, axis, dest[axis], t, flits, commit, board);
    }
    if (to == MBOX_HOST_TILE) {
        t = board == MBOX_ALL_BOARDS
                ? hop(m, host_link(m, true), t, m->cfg.board_hop_cycles,
                      flits, commit)
                : t + m->cfg.board_hop_cycles;
    }
    return t;
}

/* Uncontended latency along one axis: the mesh's rule (mesh.h). */
static uint64_t axis_latency(const TesseraMailbox *m, int axis,
                             uint32_t from, uint32_t to)
{
    const TesseraMeshTiming timing = { m->cfg.tile_hop_cycles,
                                       m->cfg.board_hop_cycles };

    return tessera_mesh_axis_latency(&timing, m->board_tiles[axis], from, to);
}

/* Grid position of a thread id (false for the host id or no thread). */
static bool grid_of(const TesseraMailbox *m, uint32_t id,
                    uint32_t pos[MBOX_AXES])
{
    uint32_t hart;
    const MboxTile *tile;

    if (!mbox_hart_of(m, id, &hart)) {
        return false;
    }
    tile = &m->tiles[mbox_tile_of(m, hart)];
    pos[MBOX_AXIS_X] = tile->pos[MBOX_AXIS_X];
    pos[MBOX_AXIS_Y] = tile->pos[MBOX_AXIS_Y];
    return true;
}

uint64_t tessera_mailbox_latency(const TesseraMailbox *m, uint32_t src_id,
                                 uint32_t dest_id, uint32_t flits)
{
    uint32_t src[MBOX_AXES] = { 0, 0 }, dest[MBOX_AXES] = { 0, 0 };
    uint64_t latency = 0;
    int axis;

    (void)flits;
    if (src_id == m->host_id) {
        latency += m->cfg.board_hop_cycles;
    } else if (!grid_of(m, src_id, src)) {
        return UINT64_MAX;
    }
    if (dest_id == m->host_id) {
        latency += m->cfg.board_hop_cycles;
    } else if (!grid_of(m, dest_id, dest)) {
        return UINT64_MAX;
    }
    for (axis = MBOX_AXIS_X; axis < MBOX_AXES; axis++) {
        latency += axis_latency(m, axis, src[axis], dest[axis]);
    }
    return latency;
}
