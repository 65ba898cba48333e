// gtest names of the detector backends for typed tests: the idle apps' suffixes hw, clocktree
// and safra (gtest filters read '-' as "except", so Det::kName cannot be used).
#ifndef TESSERA_TERMINATION_DETECTOR_NAMES_TEST_H
#define TESSERA_TERMINATION_DETECTOR_NAMES_TEST_H

#include <string>
#include <type_traits>

#include "tessera/termination/clock_tree.h"
#include "tessera/termination/safra.h"

namespace tessera::termination {

class DetectorNames {
 public:
  template <typename Det>
  static std::string GetName(int) {
    if constexpr (std::is_same_v<Det, ClockTree>) {
      return "clocktree";
    } else if constexpr (std::is_same_v<Det, Safra>) {
      return "safra";
    } else {
      return "hw";
    }
  }
};

}  // namespace tessera::termination

#endif  // TESSERA_TERMINATION_DETECTOR_NAMES_TEST_H
