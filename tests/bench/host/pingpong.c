// The message ping-pong of ./tessera bench host: thread 0 and thread 0 of the board at (1, 0)
// bounce a one-flit message ROUND_TRIPS times; every other thread returns at once. Thread 0
// prints the round trips and their modelled cycles, which every build must agree on.
#include <tinsel.h>

static void pass(uint32_t dest, uint32_t value) {
  tinselWaitUntil(TINSEL_CAN_SEND);
  volatile uint32_t* msg = tinselSendSlot();
  msg[0] = value;
  tinselSetLen(0);
  tinselSend(dest, msg);
}

static uint32_t take(void) {
  tinselWaitUntil(TINSEL_CAN_RECV);
  volatile uint32_t* msg = tinselRecv();
  uint32_t value = msg[0];
  tinselFree(msg);
  return value;
}

int main(void) {
  const uint32_t me = tinselId(), partner = 1u << TinselLogThreadsPerBoard;
  if (me == 0) {
    const uint32_t start = tinselCycleCount();
    uint32_t value = 0;
    for (uint32_t i = 0; i < ROUND_TRIPS; i++) {
      pass(partner, value);
      value = take();
    }
    const uint32_t cycles = tinselCycleCount() - start;
    printf("pingpong: round_trips %d value %u cycles %u\n", ROUND_TRIPS, value, cycles);
    return value == ROUND_TRIPS ? 0 : 1;
  }
  if (me == partner) {
    for (uint32_t i = 0; i < ROUND_TRIPS; i++) pass(0, take() + 1);
  }
  return 0;
}
