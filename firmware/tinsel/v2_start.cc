// TINSEL_API v2: programs of the later Tinsel release expect every receive slot to be owned by
// hardware when main starts. The runtime calls this hook (a weak reference in startup.cc) on
// every hart before main when the image links it.
#include "tessera/drivers/mailbox.h"

// Defined (extra_send_slot.cc) only in images that call tinselSendSlotExtra: then slot 1 is that
// second send slot and stays the program's.
extern "C" [[gnu::weak]] const unsigned char tessera_tinsel_extra_send_slot;

extern "C" void tessera_runtime_prepare_mailbox() {
  const uint32_t kept_back = &tessera_tinsel_extra_send_slot != nullptr ? 1 : 0;
  // Cannot fail: the slots are this thread's own, valid, and not yet given.
  (void)tessera::drivers::Mailbox().give_receive_slots(kept_back);
}
