// What both of Tinsel's HostLinks share: the emulator's (HostLink.cc, a QEMU process through the
// host link) and native mode's (native/HostLink.cc, the host machine in-process). Private to the
// two libraries; programs see HostLink.h only.
#pragma once

#include <stdio.h>
#include <stdlib.h>

#include <string>

#include "tessera/hw/regs.h"

namespace tessera::tinsel_hostlink {

inline constexpr uint32_t kBytesPerFlit = TESSERA_BYTES_PER_FLIT;
inline constexpr uint32_t kBytesPerMsg = TESSERA_MAX_FLITS * TESSERA_BYTES_PER_FLIT;

// HostLink reports an error as Tinsel's does: one line, and the program ends.
[[noreturn]] inline void fail(const std::string& why, int status = EXIT_FAILURE) {
  fflush(stdout);
  fprintf(stderr, "HostLink: %s\n", why.c_str());
  exit(status);
}

// A thread id in an error, as "0x" + hex(id).
inline std::string hex(uint32_t x) {
  char text[16];
  snprintf(text, sizeof text, "%x", x);
  return text;
}

// Tinsel's core ids number a board's cores: core bits, then tile x, then tile y.
inline uint32_t to_addr(const TesseraShape& s, uint32_t meshX, uint32_t meshY, uint32_t coreId,
                        uint32_t threadId) {
  const uint32_t core_bits = tessera_log2_ceil(s.cores_per_tile);
  const uint32_t tile_x_bits = tessera_log2_ceil(s.tiles_x);
  TesseraCoords c;
  c.board_x = meshX;
  c.board_y = meshY;
  c.core = coreId & ((1u << core_bits) - 1);
  c.tile_x = (coreId >> core_bits) & ((1u << tile_x_bits) - 1);
  c.tile_y = coreId >> (core_bits + tile_x_bits);
  c.thread = threadId;
  return tessera_thread_id(&s, &c);
}

inline void from_addr(const TesseraShape& s, uint32_t addr, uint32_t* meshX, uint32_t* meshY,
                      uint32_t* coreId, uint32_t* threadId) {
  const TesseraCoords c = tessera_coords(&s, addr);
  *meshX = c.board_x;
  *meshY = c.board_y;
  *coreId = ((c.tile_y << tessera_log2_ceil(s.tiles_x) | c.tile_x)
             << tessera_log2_ceil(s.cores_per_tile)) |
            c.core;
  *threadId = c.thread;
}

}  // namespace tessera::tinsel_hostlink
