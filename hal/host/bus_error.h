// Loud failures of guest-visible accesses on the host machine: host code may
// throw, and a test that makes a bad access should stop right there, naming
// the hart and what it did.
#pragma once

#include <stdint.h>

#include <string>
#include <string_view>

namespace tessera::host {

class Hart;

// "0x00102000"
std::string hex32(uint32_t value);

// Throws std::logic_error("tessera host: hart 0x.. (index ..): <what>").
[[noreturn]] void throw_bus_error(const Hart& hart, std::string_view what);

// A guest error a device model reported for an access at `offset` of its
// window: throw_bus_error with "<reason> (offset 0x...)".
[[noreturn]] void throw_guest_error(const Hart& hart, const char* reason, uint32_t offset);

}  // namespace tessera::host
