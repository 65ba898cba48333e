#include "tessera/host/hart.h"

#include <ostream>
#include <stdexcept>

#include "tessera/host/machine.h"
#include "tessera/models/clock.h"

namespace tessera::host {
namespace detail {

constinit thread_local Hart* current_hart = nullptr;

void no_current_hart() {
  throw std::logic_error(
      "tessera host: HAL access from a thread bound to no hart (missing HartScope)");
}

}  // namespace detail

HartScope::HartScope(Hart& hart) : hart_(hart), previous_(detail::current_hart) {
  if (hart_.bound_.exchange(true)) {
    throw std::logic_error("tessera host: hart " + std::to_string(hart_.id()) +
                           " is already bound to a thread");
  }
  detail::current_hart = &hart_;
  hart_.machine().change_active(1, 0);
}

HartScope::HartScope(Machine& machine, uint32_t thread_id) : HartScope(machine.hart(thread_id)) {}

HartScope::~HartScope() {
  detail::current_hart = previous_;
  hart_.bound_.store(false);
  // Last: it may declare a deadlock, which takes the devices' locks.
  hart_.machine().change_active(-1, 0);
}

uint64_t Hart::move_clock_to(uint64_t cycle) {
  TesseraClocks* clocks = machine_.clocks_.get();
  tessera_clocks_retire(clocks, index_, unretired_);
  unretired_ = 0;
  const uint64_t added = tessera_clocks_wait_until(clocks, index_, cycle);
  synced_ = tessera_clocks_now(clocks, index_);
  return added;
}

std::string_view name(BlockedOn what) {
  switch (what) {
    case BlockedOn::kNothing:
      return "nothing";
    case BlockedOn::kCanSend:
      return "can-send";
    case BlockedOn::kCanRecv:
      return "can-recv";
    case BlockedOn::kCanSendOrRecv:
      return "can-send or can-recv";
    case BlockedOn::kIdle:
      return "idle";
    case BlockedOn::kBarrier:
      return "barrier";
    case BlockedOn::kOcbus:
      return "ocbus wait";
    case BlockedOn::kReflexRecv:
      return "reflex receive";
    case BlockedOn::kReflexWaitSend:
      return "reflex wait-send";
  }
  return "unknown";
}

std::ostream& operator<<(std::ostream& out, BlockedOn what) {
  return out << name(what);
}

Hart* current_hart_or_null() {
  return detail::current_hart;
}

Hart* exchange_current_hart(Hart* hart) {
  Hart* previous = detail::current_hart;
  detail::current_hart = hart;
  return previous;
}

}  // namespace tessera::host
