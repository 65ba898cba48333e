// deadlock: runs that stop for good, and runs that only look as if they
// might, for the machine's deadlock detection (docs/debugging.md). One image
// per DEADLOCK_CASE (CMakeLists.txt); tests/qemu checks the machine's verdict.
#include <inttypes.h>
#include <stdint.h>

#include "tessera/apps/word_messages.h"
#include "tessera/print.h"
#include "tinsel.h"

#ifndef DEADLOCK_CASE
#error "build with -DDEADLOCK_CASE=<case>"
#endif

// Threads 0 and 1 each wait to receive from the other before sending.
#define CASE_MUTUAL_RECV 1
// Every thread sends to its partner and nobody receives: buffers fill up and
// every thread ends up waiting for can-send.
#define CASE_FULL_BUFFERS 2
// Not a deadlock: thread 1 waits while thread 0 computes for a long time,
// then sends; every other thread has finished.
#define CASE_LATE_SEND 3
// Not a deadlock: thread 0 echoes three messages from a host that sends at
// intervals of host time.
#define CASE_HOST_INTERVALS 4

using tessera::apps::receive_word;
using tessera::apps::send_word;

int main() {
  const uint32_t me = tinselId();
  switch (DEADLOCK_CASE) {
    case CASE_MUTUAL_RECV:
      if (me <= 1) {
        const uint32_t word = receive_word();
        send_word(me ^ 1, word + 1);
      }
      return 0;
    case CASE_FULL_BUFFERS:
      for (uint32_t n = 0;; n++) send_word(me ^ 1, n, 4);
    case CASE_LATE_SEND:
      if (me == 0) {
        volatile uint32_t sum = 0;  // work the modelled clock counts
        for (uint32_t i = 0; i < 200000; i++) sum = sum + i;
        send_word(1, sum);
      } else if (me == 1) {
        const uint32_t word = receive_word();
        tessera::printf("thread 1 got 0x%" PRIx32 " at cycle %" PRIu32 "\n", word,
                        tinselCycleCount());
      }
      return 0;
    case CASE_HOST_INTERVALS:
      if (me == 0) {
        for (int i = 0; i < 3; i++) send_word(tinselHostId(), receive_word() + 1);
      }
      return 0;
  }
  return 1;
}
