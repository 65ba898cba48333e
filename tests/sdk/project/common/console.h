// For the run programs that check the console: boots the app of the current folder (code.v,
// data.v), starts it, and returns every console line, each also echoed to stdout, once the
// machine has ended.
#ifndef SDK_PROJECT_CONSOLE_H
#define SDK_PROJECT_CONSOLE_H

#include <HostLink.h>

#include <string>
#include <vector>

inline std::vector<std::string> runAndReadConsole() {
  HostLink hostLink;
  hostLink.boot("code.v", "data.v");
  hostLink.go();
  FILE* out = tmpfile();
  hostLink.dumpStdOut(out);
  rewind(out);
  std::vector<std::string> lines;
  char line[256];
  while (fgets(line, sizeof line, out)) {
    fputs(line, stdout);
    lines.emplace_back(line);
  }
  fclose(out);
  return lines;
}

#endif
