// TINSEL_API v2: programs of the later Tinsel release expect every receive slot to be owned by
// hardware when main starts. The runtime calls this hook (a weak reference in startup.cc) on
// every hart before main when the image links it.
#include "tessera/drivers/mailbox.h"

extern "C" void tessera_runtime_prepare_mailbox() {
  // Cannot fail: the slots are this thread's own, valid, and not yet given.
  (void)tessera::drivers::Mailbox().give_receive_slots();
}
