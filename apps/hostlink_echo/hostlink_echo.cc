// hostlink_echo: every thread reports to the host with
// tinselSend(tinselHostId(), msg), Tinsel style: {id, id * id, kMagic};
// thread 0 then waits for one message from the host and sends it back with
// every word incremented.
#include <stdint.h>

#include "tinsel.h"

namespace {
constexpr uint32_t kMagic = 0x7e55e7a0;
}

int main() {
  const uint32_t me = tinselId();
  volatile uint32_t* slot = static_cast<volatile uint32_t*>(tinselSendSlot());
  tinselWaitUntil(TINSEL_CAN_SEND);
  slot[0] = me;
  slot[1] = me * me;
  slot[2] = kMagic;
  slot[3] = 0;
  tinselSetLen(0);
  tinselSend(tinselHostId(), slot);

  if (me == 0) {
    tinselWaitUntil(TINSEL_CAN_RECV);
    volatile uint32_t* got = static_cast<volatile uint32_t*>(tinselRecv());
    uint32_t words[4];
    for (uint32_t k = 0; k < 4; k++) words[k] = got[k] + 1;
    tinselFree(got);
    tinselWaitUntil(TINSEL_CAN_SEND);
    for (uint32_t k = 0; k < 4; k++) slot[k] = words[k];
    tinselSend(tinselHostId(), slot);
  }
  return 0;
}
