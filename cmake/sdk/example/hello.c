// Hello in Tinsel's dialect: every thread greets the console and sends its id to the host.
#include <tinsel.h>

int main(void) {
  uint32_t me = tinselId();
  printf("hello from thread %x of %d\n", me, TinselThreadsPerBoard);

  // A message is a volatile send slot filled in place (C converts the void* implicitly).
  tinselWaitUntil(TINSEL_CAN_SEND);
  volatile uint32_t* msg = tinselSendSlot();
  msg[0] = me;
  tinselSetLen(0);
  tinselSend(tinselHostId(), msg);
  return 0;
}
