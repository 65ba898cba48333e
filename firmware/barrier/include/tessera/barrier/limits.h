// The largest machine the barrier library plans for, which sizes the state a barrier keeps on
// its thread's stack: Tessera's limits, or on a dev board (TESSERA_BOARD_THREADS, from
// boards/<board>/board.cmake) one tile of a few threads, whose partitions are small (2.25 KiB of
// the HiFive1's 16 KiB DTIM).
#pragma once

#include <stdint.h>

#include "tessera/hw/machine_params.h"

namespace tessera::barrier {

// A dev board's machine is one tile of at most this many threads.
inline constexpr uint32_t kBoardMaxThreads = 16;

#ifdef TESSERA_BOARD_THREADS
static_assert(TESSERA_BOARD_THREADS <= kBoardMaxThreads, "a board's barriers plan for its tile");
inline constexpr bool kPlanForBoard = true;
inline constexpr uint32_t kMaxTilesPerBoard = 1;
// Barrier messages of one slot waiting to be counted: at most a group's size.
using ArrivalCount = uint8_t;
// Application messages an endpoint keeps while a barrier waits (Endpoint::kCopies).
inline constexpr uint32_t kEndpointCopies = 4;
#else
inline constexpr bool kPlanForBoard = false;
inline constexpr uint32_t kMaxTilesPerBoard = TESSERA_MAX_TILES_XY * TESSERA_MAX_TILES_XY;
using ArrivalCount = uint16_t;
inline constexpr uint32_t kEndpointCopies = 8;
#endif

}  // namespace tessera::barrier
