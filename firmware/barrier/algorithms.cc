#include "tessera/barrier/algorithms.h"

#include <stdint.h>

namespace tessera::barrier {

const SoftwareAlgorithm* find_software_algorithm(const char* name) {
  for (const SoftwareAlgorithm& a : kSoftwareAlgorithms) {
    const char* x = a.name;
    const char* y = name;
    while (*x != '\0' && *x == *y) {
      x++;
      y++;
    }
    if (*x == *y) {
      return &a;
    }
  }
  return nullptr;
}

}  // namespace tessera::barrier
