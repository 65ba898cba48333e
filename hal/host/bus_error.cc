#include "bus_error.h"

#include <cstdio>
#include <stdexcept>

#include "tessera/host/hart.h"

namespace tessera::host {

std::string hex32(uint32_t value) {
  char text[sizeof "0x00000000"];
  std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(value));
  return text;
}

void throw_bus_error(const Hart& hart, std::string_view what) {
  throw std::logic_error("tessera host: hart " + hex32(hart.id()) + " (index " +
                         std::to_string(hart.index()) + "): " + std::string(what));
}

void throw_guest_error(const Hart& hart, const char* reason, uint32_t offset) {
  throw_bus_error(hart, std::string(reason) + " (offset " + hex32(offset) + ")");
}

}  // namespace tessera::host
