// Readable names for machine shapes in parameterised tests: gtest test
// names and the values ctest shows ("boards3x2_tiles2x2_cores2_threads2").
#pragma once

#include <gtest/gtest.h>

#include <ostream>
#include <string>

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

}  // namespace tessera::testing

// Found by argument-dependent lookup: TesseraShape is a C struct of the
// global namespace.
inline void PrintTo(const TesseraShape& shape, std::ostream* os) {
  *os << tessera::testing::ShapeName(shape);
}
