// The software services' side that boards and start-up code call (docs/boards.md).
#pragma once

#include <stdint.h>

namespace tessera::board {

// Sets up Tessera's devices in software: once, on the first thread, before any other thread
// touches them. Ends the run if there is no room for them.
void init_services();

// Held around every service call (the device models are not reentrant).
void lock_services();
void unlock_services();

// The dense index (0..threads-1) of the calling thread (boards/services/threads.h).
uint32_t thread_index();

}  // namespace tessera::board

extern "C" void tessera_board_init_services();
