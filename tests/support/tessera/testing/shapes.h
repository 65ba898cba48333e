// Readable names for machine shapes in parameterised tests: gtest test
// names and the values ctest shows ("boards3x2_tiles2x2_cores2_threads2").
#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "tessera/hw/regs.h"

namespace tessera::testing {

inline std::string ShapeName(const TesseraShape& s) {
  return "boards" + std::to_string(s.boards_x) + "x" + std::to_string(s.boards_y) + "_tiles" +
         std::to_string(s.tiles_x) + "x" + std::to_string(s.tiles_y) + "_cores" +
         std::to_string(s.cores_per_tile) + "_threads" + std::to_string(s.threads_per_core);
}

// For INSTANTIATE_TEST_SUITE_P's name generator.
inline std::string ShapeTestName(const ::testing::TestParamInfo<TesseraShape>& info) {
  return ShapeName(info.param);
}

// Every thread of the shape as coordinates, built field by field (independently of the
// id helpers under test), in thread-id order.
inline std::vector<TesseraCoords> AllCoords(const TesseraShape& s) {
  std::vector<TesseraCoords> all;
  TesseraCoords c{};
  for (c.board_y = 0; c.board_y < s.boards_y; c.board_y++)
    for (c.board_x = 0; c.board_x < s.boards_x; c.board_x++)
      for (c.tile_y = 0; c.tile_y < s.tiles_y; c.tile_y++)
        for (c.tile_x = 0; c.tile_x < s.tiles_x; c.tile_x++)
          for (c.core = 0; c.core < s.cores_per_tile; c.core++)
            for (c.thread = 0; c.thread < s.threads_per_core; c.thread++) all.push_back(c);
  return all;
}

inline std::vector<uint32_t> AllThreadIds(const TesseraShape& s) {
  std::vector<uint32_t> ids;
  for (const TesseraCoords& c : AllCoords(s)) ids.push_back(tessera_thread_id(&s, &c));
  return ids;
}

}  // namespace tessera::testing

// Found by argument-dependent lookup: TesseraShape is a C struct of the
// global namespace.
inline void PrintTo(const TesseraShape& shape, std::ostream* os) {
  *os << tessera::testing::ShapeName(shape);
}
