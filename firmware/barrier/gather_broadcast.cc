// Gather to the root, then broadcast (the MPI_Gather + MPI_Bcast barrier): every rank sends its
// arrival straight to rank 0, which counts P - 1 of them, as in the central counter. The
// release is a broadcast that uses the mailbox's multicast: rank 0 sends one message to the
// first member (by rank) of each other board, and then rank 0 and each of those board leaders
// multicast to the members on each tile of their board, one message per tile. So the root
// sends (boards - 1) + (its board's tiles) messages instead of the central counter's P - 1.
// Tiles of more than 64 threads are beyond a multicast mask: their members get single sends.
// Messages (counted per receiver): 2(P - 1).
#include <stdint.h>

#include "slots.h"
#include "tessera/barrier/algorithms.h"
#include "tessera/barrier/limits.h"
#include "tessera/hw/regs.h"

namespace tessera::barrier {

namespace {

constexpr uint32_t kArrive = 0;

uint32_t board_of(const TesseraShape& s, uint32_t id) {
  const TesseraCoords c = tessera_coords(&s, id);
  return c.board_y * s.boards_x + c.board_x;
}

uint32_t tile_in_board(const TesseraShape& s, uint32_t id) {
  const TesseraCoords c = tessera_coords(&s, id);
  return c.tile_y * s.tiles_x + c.tile_x;
}

// True if no member of lower rank sits on rank's board.
bool leads_board(const Group& group, uint32_t rank) {
  const uint32_t board = board_of(group.shape(), group.member(rank));
  for (uint32_t r = 0; r < rank; r++) {
    if (board_of(group.shape(), group.member(r)) == board) {
      return false;
    }
  }
  return true;
}

// The release of every other member on the board of `rank` (its leader): a multicast per tile.
void release_board(const Group& group, uint32_t rank, Schedule& out) {
  const TesseraShape& s = group.shape();
  const uint32_t me = group.member(rank);
  const uint32_t board = board_of(s, me);
  const uint32_t per_tile = tessera_threads_per_tile(&s);
  const uint32_t tile_shift = tessera_tile_shift(&s);
  uint64_t masks[kMaxTilesPerBoard] = {};
  uint32_t mailboxes[kMaxTilesPerBoard] = {};
  for (uint32_t r = 0; r < group.size(); r++) {
    const uint32_t id = group.member(r);
    if (r == rank || board_of(s, id) != board) {
      continue;
    }
    if (per_tile > 64) {
      out.send(r, slots::kRelease);
      continue;
    }
    const uint32_t t = tile_in_board(s, id);
    if (t >= kMaxTilesPerBoard) {  // beyond what the firmware was built for (limits.h)
      out.send(r, slots::kRelease);
      continue;
    }
    masks[t] |= uint64_t{1} << (id & (per_tile - 1));
    mailboxes[t] = id >> tile_shift;
  }
  for (uint32_t t = 0; t < kMaxTilesPerBoard; t++) {
    out.multicast(mailboxes[t], masks[t], slots::kRelease);
  }
}

}  // namespace

void plan_gather_broadcast(const Group& group, uint32_t rank, uint32_t /*param*/, Schedule& out) {
  const uint32_t p = group.size();
  if (rank == 0) {
    out.recv(kArrive, p - 1);
    // The other boards' leaders first: they have their own boards to release.
    uint64_t boards_done = uint64_t{1} << board_of(group.shape(), group.member(0));
    for (uint32_t r = 1; r < p; r++) {
      const uint32_t board = board_of(group.shape(), group.member(r));
      if ((boards_done >> board & 1) == 0) {
        boards_done |= uint64_t{1} << board;
        out.send(r, slots::kRelease);
      }
    }
    release_board(group, rank, out);
    return;
  }
  out.send(0, kArrive);
  out.recv(slots::kRelease, 1);
  if (leads_board(group, rank)) {
    release_board(group, rank, out);
  }
}

}  // namespace tessera::barrier
