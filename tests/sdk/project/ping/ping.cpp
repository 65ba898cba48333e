// Ping in Tinsel's dialect, in C++: every thread waits for one message from the host and answers
// it with its id and a function of the value it was sent.
#include <tinsel.h>

struct Ping {
  uint32_t value;
};

struct Pong {
  uint32_t from;
  uint32_t answer;
};

int main() {
  tinselWaitUntil(TINSEL_CAN_RECV);
  volatile Ping* ping = static_cast<volatile Ping*>(tinselRecv());
  const uint32_t value = ping->value;
  tinselFree(ping);

  tinselWaitUntil(TINSEL_CAN_SEND);
  volatile Pong* pong = static_cast<volatile Pong*>(tinselSendSlot());
  pong->from = tinselId();
  pong->answer = value * 3 + 1;
  tinselSetLen(0);
  tinselSend(tinselHostId(), pong);
  return 0;
}
