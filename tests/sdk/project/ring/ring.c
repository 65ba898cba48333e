// A ring in Tinsel's dialect, in C: a token goes three times round every thread of the mesh, in
// order of board, then thread within the board; each thread adds its id. Thread 0 sends the
// total to the host. Thread ids come from config.h's fields, so they skip the hole a board
// extent that is not a power of two leaves.
#include <tinsel.h>

#define LAPS 3

static uint32_t threadId(uint32_t index) {
  uint32_t board = index >> TinselLogThreadsPerBoard;
  uint32_t boardX = board % TinselMeshXLen;
  uint32_t boardY = board / TinselMeshXLen;
  uint32_t local = index & (TinselThreadsPerBoard - 1);
  return (((boardY << TinselMeshXBits) | boardX) << TinselLogThreadsPerBoard) | local;
}

static void pass(uint32_t dest, uint32_t token) {
  tinselWaitUntil(TINSEL_CAN_SEND);
  volatile uint32_t* msg = tinselSendSlot();
  msg[0] = token;
  tinselSetLen(0);
  tinselSend(dest, msg);
}

static uint32_t take(void) {
  tinselWaitUntil(TINSEL_CAN_RECV);
  volatile uint32_t* msg = tinselRecv();
  uint32_t token = msg[0];
  tinselFree(msg);
  return token;
}

int main(void) {
  const uint32_t threads = TinselMeshXLen * TinselMeshYLen * TinselThreadsPerBoard;
  uint32_t me = tinselId();
  uint32_t index =
      ((me >> TinselLogThreadsPerBoard) >> TinselMeshXBits) * TinselMeshXLen *
          TinselThreadsPerBoard +
      ((me >> TinselLogThreadsPerBoard) & ((1 << TinselMeshXBits) - 1)) * TinselThreadsPerBoard +
      (me & (TinselThreadsPerBoard - 1));
  uint32_t next = threadId((index + 1) % threads);

  if (index == 0) pass(next, 0);
  for (int lap = 0; lap < LAPS; lap++) {
    uint32_t token = take() + me;
    if (index == 0 && lap == LAPS - 1) {
      tinselWaitUntil(TINSEL_CAN_SEND);
      volatile uint32_t* msg = tinselSendSlot();
      msg[0] = token;
      msg[1] = threads;
      tinselSetLen(0);
      tinselSend(tinselHostId(), msg);
    } else {
      pass(next, token);
    }
  }
  return 0;
}
