// The services' own stack (docs/boards.md). A service call does its work under the services'
// lock, one call at a time on the whole board, so that work needs one stack, not room on every
// thread's: the models, the mailbox and the reports run here, and a thread's stack holds only
// the entry, the lock and the wait. On the HiFive1, whose threads' partitions are 2 KiB, that is
// what leaves room for a graph image above a thread's stack.
#pragma once

#include <stdint.h>

extern "C" {
// service_stack.S: calls fn(arg) with sp at `top`.
void tessera_board_on_stack(void* top, void (*fn)(void*), void* arg);
}

namespace tessera::board {

// Once, before any thread runs: marks the stack's floor, which every call checks afterwards.
void init_service_stack();
void* service_stack_top();
// After a call: the run ends, with a line that says so, if it went past the floor.
void check_service_stack();

// Under the services' lock: f() on the services' stack; its result.
template <typename F>
auto on_service_stack(F f) -> decltype(f()) {
  decltype(f()) result{};
  auto call = [&] { result = f(); };
  tessera_board_on_stack(
      service_stack_top(), [](void* it) { (*static_cast<decltype(call)*>(it))(); }, &call);
  check_service_stack();
  return result;
}

}  // namespace tessera::board
