// Runs the idle loop and checks that thread 0 emitted every round number, in order.
#include <HostLink.h>
#include <string.h>

int main() {
  HostLink hostLink;
  hostLink.boot("code.v", "data.v");
  hostLink.go();
  FILE* out = tmpfile();
  hostLink.dumpStdOut(out);
  rewind(out);
  uint32_t expected = 1;
  bool in_order = true, summary = false;
  char line[256];
  while (fgets(line, sizeof line, out)) {
    fputs(line, stdout);
    unsigned word;
    if (sscanf(line, "0:0:0:0: emit 0x%x", &word) == 1) {
      in_order = in_order && word == expected;
      expected++;
    }
    summary = summary || strstr(line, "idle: 50 synchronisations") != nullptr;
  }
  printf("idle: thread 0 emitted %u rounds\n", expected - 1);
  if (!in_order || expected - 1 != 50 || !summary) {
    printf("FAIL: expected rounds 1..50 emitted in order and the summary line\n");
    return 1;
  }
  return 0;
}
