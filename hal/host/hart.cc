#include "tessera/host/hart.h"

#include <stdexcept>

#include "tessera/host/machine.h"

namespace tessera::host {
namespace {

// The one piece of global state: which hart the calling thread stands for.
thread_local Hart* current = nullptr;

}  // namespace

HartScope::HartScope(Hart& hart) : hart_(hart), previous_(current) {
  if (hart_.bound_.exchange(true)) {
    throw std::logic_error("tessera host: hart " + std::to_string(hart_.id()) +
                           " is already bound to a thread");
  }
  current = &hart_;
  hart_.machine().bound_harts_++;
}

HartScope::HartScope(Machine& machine, uint32_t thread_id) : HartScope(machine.hart(thread_id)) {}

HartScope::~HartScope() {
  hart_.machine().bound_harts_--;
  current = previous_;
  hart_.bound_.store(false);
}

Hart& current_hart() {
  if (current == nullptr) {
    throw std::logic_error(
        "tessera host: HAL access from a thread bound to no hart (missing HartScope)");
  }
  return *current;
}

Hart* current_hart_or_null() {
  return current;
}

}  // namespace tessera::host
