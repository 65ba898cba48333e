// mbox_fault: thread 0 misuses the mailbox in the way MBOX_FAULT_CASE names;
// the machine must answer with a trap that reports the fault, never hang or
// crash. Every other thread returns at once. One image per case (see
// CMakeLists.txt).
#include <stdint.h>

#include "tessera/hw/regs.h"
#include "tinsel.h"

#ifndef MBOX_FAULT_CASE
#error "build with -DMBOX_FAULT_CASE=<case>"
#endif

#define CASE_BAD_DESTINATION 1
#define CASE_SLOT_OUTSIDE 2
#define CASE_SLOT_MISALIGNED 3
#define CASE_TOO_LONG 4
#define CASE_DOUBLE_FREE 5
#define CASE_RECV_EMPTY 6

int main() {
  if (tinselId() != 0) {
    return 0;
  }
  volatile char* slot = static_cast<volatile char*>(tinselSendSlot());
  switch (MBOX_FAULT_CASE) {
    case CASE_BAD_DESTINATION:
      // One past the last thread id is not the host id for this shape.
      tinselSend(tinselHostId() + 1, slot);
      break;
    case CASE_SLOT_OUTSIDE:
      tinselSend(1, reinterpret_cast<volatile void*>(TESSERA_DRAM_BASE));
      break;
    case CASE_SLOT_MISALIGNED:
      tinselSend(1, slot + 8);
      break;
    case CASE_TOO_LONG:
      tinselSetLen(4);  // five flits
      break;
    case CASE_DOUBLE_FREE:
      tinselFree(slot);
      tinselFree(slot);
      break;
    case CASE_RECV_EMPTY:
      (void)tinselRecv();
      break;
  }
  return 0;  // not reached: each case traps
}
