// Runs the idle loop and checks that thread 0 emitted every round number, in order.
#include <string>

#include "console.h"

int main() {
  uint32_t expected = 1;
  bool in_order = true, summary = false;
  for (const std::string& line : runAndReadConsole()) {
    unsigned word;
    if (sscanf(line.c_str(), "0:0:0:0: emit 0x%x", &word) == 1) {
      in_order = in_order && word == expected;
      expected++;
    }
    summary = summary || line.find("idle: 50 synchronisations") != std::string::npos;
  }
  printf("idle: thread 0 emitted %u rounds\n", expected - 1);
  if (!in_order || expected - 1 != 50 || !summary) {
    printf("FAIL: expected rounds 1..50 emitted in order and the summary line\n");
    return 1;
  }
  return 0;
}
