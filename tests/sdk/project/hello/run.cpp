// Boots hello and checks that every thread of the mesh printed its line, in Tinsel's x:y:c:t form.
#include <set>
#include <string>

#include "console.h"

int main() {
  std::set<std::string> threads;
  for (const std::string& line : runAndReadConsole()) {
    unsigned x, y, c, t;
    char text[200];
    if (sscanf(line.c_str(), "%u:%u:%u:%u: %199[^\n]", &x, &y, &c, &t, text) == 5 &&
        std::string(text).rfind("hello from thread", 0) == 0)
      threads.insert(std::to_string(x) + ":" + std::to_string(y) + ":" + std::to_string(c) + ":" +
                     std::to_string(t));
  }
  const int expected = TinselMeshXLen * TinselMeshYLen * TinselThreadsPerBoard;
  printf("hello: %zu of %d threads said hello\n", threads.size(), expected);
  if ((int)threads.size() != expected) {
    printf("FAIL: expected a line from every thread\n");
    return 1;
  }
  return 0;
}
