// Tessera's mailbox in software, for a dev board (docs/boards.md): the board's threads form one
// tile, whose scratchpad is a block of the board's RAM (__tessera_scratch); each thread has a
// queue of the slots that hold messages for it and a queue of the empty slots it has given to
// hardware. A send copies the sender's slot into an empty slot of each receiver at once if it
// has one, or when it frees one; until every copy is out, the sender's can-send is 0, which is
// the guaranteed delivery of Tinsel's mailbox without a network.
//
// The CSRs follow the mailbox model's own rules (tessera/models/mailbox_rules.h: slot states,
// faults, the freed slot, tinselIdle's side of a thread), and tinselIdle is the same refutable
// barrier (docs/idle.md): in shared memory the services see every send and every free, so they
// know exactly when every thread is in tinselIdle and no message is undelivered. Time is the
// board's own: nothing here is modelled.
//
// Not thread-safe: the services' lock is held around every call.
#pragma once

#include <stdint.h>

#include "tessera/models/access.h"

namespace tessera::board::mailbox {

// Once, on the first thread, after threads::init(). Ends the run if the board cannot have one.
void init();

// One mailbox CSR (tessera_csr_is_mailbox) issued by thread `index`: writes `value` if `write`;
// the access contract's answer (tessera/models/access.h): DONE with what a csrrw would read,
// BLOCKED (the thread waits, threads::prepare_wait, and issues the CSR again when woken), or
// FAULT with the mailbox fault. No time: resume_at is 0.
TesseraAccess csr(uint32_t index, uint32_t csr, uint32_t value, bool write);

// What mailbox CSR `csr` shows for thread `index`, with no effect on anything (a CSR issued ends
// a tinselIdle call; this does not), as tessera_mailbox_peek_csr: for WAIT_UNTIL what the thread
// is blocked on; for diagnostics and tests.
uint32_t peek(uint32_t index, uint32_t csr);

}  // namespace tessera::board::mailbox
