// Every barrier the host tests run, by name: the software algorithms of algorithms.h (so a new
// entry there is tested without touching the tests) and the hardware ones.
#pragma once

#include <string>
#include <vector>

#include "tessera/barrier/algorithms.h"
#include "tessera/barrier/any.h"

namespace tessera::barrier::testing {

inline std::vector<std::string> SoftwareNames() {
  std::vector<std::string> names;
  for (const SoftwareAlgorithm& a : kSoftwareAlgorithms) {
    names.emplace_back(a.name);
  }
  return names;
}

// Every name AnyBarrier takes but "auto": the software algorithms', then the hardware's.
inline std::vector<std::string> AllNames() {
  std::vector<std::string> names;
  for (uint32_t i = 0; i < kBarrierCount; i++) {
    names.emplace_back(barrier_name(i));
  }
  return names;
}

// gtest names allow only [A-Za-z0-9_].
inline std::string TestName(std::string name) {
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

}  // namespace tessera::barrier::testing
