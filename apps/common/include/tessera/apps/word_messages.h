// One word in a message, for the test programs whose messages carry a single number: send it
// (waiting until the slot is free) and take the next one (waiting until one is there). Programs
// that show the Tinsel calls in full (token_ring, debug_probe, pingpong) keep them inline.
#pragma once

#include <stdint.h>

#include "tinsel.h"

namespace tessera::apps {

// Sends `word` to thread `dest` in a message of `flits` flits (1..4).
inline void send_word(uint32_t dest, uint32_t word, uint32_t flits = 1) {
  volatile uint32_t* slot = static_cast<volatile uint32_t*>(tinselSendSlot());
  tinselWaitUntil(TINSEL_CAN_SEND);
  slot[0] = word;
  tinselSetLen(static_cast<int>(flits) - 1);
  tinselSend(dest, slot);
}

// The first word of the next message received; its slot is given back.
inline uint32_t receive_word() {
  tinselWaitUntil(TINSEL_CAN_RECV);
  volatile uint32_t* got = static_cast<volatile uint32_t*>(tinselRecv());
  const uint32_t word = got[0];
  tinselFree(got);
  return word;
}

}  // namespace tessera::apps
