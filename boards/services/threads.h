// The board's threads (docs/boards.md): each hart that runs threads runs threads / harts of them,
// consecutive dense indices. With one thread a hart, a thread waits in wfi until another hart's
// service call wakes it through its msip. With several, they are cooperative green threads: a
// thread that must wait hands its hart to the next one that can run, so a board of one hart
// stands in for a machine of several.
//
// A thread waits only inside a service call that cannot finish yet (a blocking CSR): the call
// marks it waiting under the services' lock (prepare_wait), lets go of the lock, then waits
// (wait) and tries again. Whoever changes what it waits for wakes it (wake), under the lock.
// Wakes are never lost; spurious ones are possible.
#pragma once

#include <stdint.h>

#include "tessera/models/waits.h"

namespace tessera::board::threads {

// Once, on the first hart, before any thread runs (init_services).
void init();

// Dense index of the calling thread.
uint32_t current();

// This hart runs its threads from their entry, the first at once. Never returns. With one thread
// a hart, the board's start.S enters the runtime directly instead.
[[noreturn]] void run_hart();

// Under the services' lock: the calling thread is about to wait for a wake.
void prepare_wait();
// Outside it: until the thread is woken; a thread of a hart with other threads runs them
// meanwhile. Ends the run, with a report, when no thread of the board can run again.
void wait();
// Under the lock: thread `index` may go on (a no-op for one that does not wait).
void wake(uint32_t index);

// Who waits on what (tessera/models/waits.h): the devices' models and the services register a
// thread's blocking operation there, and a deadlock is reported from it, in the words of
// -M tessera's report.
TesseraWaits* waits();

// Thread `index`'s software interrupt as the runtime sees it in mip (Tessera's MSWI msip).
void set_msip(uint32_t index, bool pending);
bool msip(uint32_t index);

// After main: the thread has checked in; its hart runs the others, or parks.
[[noreturn]] void exit_thread();

}  // namespace tessera::board::threads
