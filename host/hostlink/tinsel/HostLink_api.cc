// Tinsel's HostLink calls made of its other calls, the same for every machine behind it: built
// into both HostLinks (the emulator's and native mode's).
#define TESSERA_HOSTLINK_LIBRARY
#include <string.h>

#include "HostLink.h"
#include "hostlink_internal.h"

using tessera::tinsel_hostlink::fail;
using tessera::tinsel_hostlink::kBytesPerMsg;

bool HostLink::trySend(uint32_t dest, uint32_t numFlits, void* msg) {
  return send(dest, numFlits, msg, false);
}

void HostLink::recvMsg(void* msg, uint32_t numBytes) {
  if (numBytes > kBytesPerMsg)
    fail("recvMsg() of " + std::to_string(numBytes) + " bytes: at most 64");
  uint8_t whole[kBytesPerMsg];
  recv(whole);
  memcpy(msg, whole, numBytes);
}

void HostLink::recvBulk(int numMsgs, void* msgs) {
  for (int i = 0; i < numMsgs; i++) recv(static_cast<uint8_t*>(msgs) + i * kBytesPerMsg);
}

void HostLink::recvMsgs(int numMsgs, int msgSize, void* msgs) {
  if (msgSize < 0 || msgSize > static_cast<int>(kBytesPerMsg)) {
    fail("recvMsgs() of " + std::to_string(msgSize) + "-byte messages: 0..64 bytes each");
  }
  for (int i = 0; i < numMsgs; i++) {
    recvMsg(static_cast<uint8_t*>(msgs) + i * msgSize, static_cast<uint32_t>(msgSize));
  }
}

bool HostLink::pollStdOut(FILE* outFile) {
  return pollStdOut(outFile, nullptr);
}

bool HostLink::pollStdOut() {
  return pollStdOut(stdout);
}

void HostLink::dumpStdOut() {
  dumpStdOut(stdout);
}
