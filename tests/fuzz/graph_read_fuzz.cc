// libFuzzer target: the graph readers (host/graph/read.cc). Any text as an edge list
// and as a Matrix Market file: each either gives a graph whose every edge names vertices below
// its vertex count, or one error line that starts with the file's name and a line number no
// greater than the text's line count; and a graph read is written and read back unchanged.
#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <string>

#include "fuzz_check.h"
#include "tessera/graph/read.h"

namespace {

void CheckResult(const tessera::graph::ReadResult& r, const std::string& text, bool edgeList) {
  const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  if (!r.ok()) {
    FUZZ_CHECK(r.error.rfind("in:", 0) == 0, "error without the file's name: %s", r.error.c_str());
    const size_t line = strtoull(r.error.c_str() + 3, nullptr, 10);
    FUZZ_CHECK(line <= lines, "error at line %zu of %zu: %s", line, lines, r.error.c_str());
    FUZZ_CHECK(r.error.find('\n') == std::string::npos, "a multi-line error: %s", r.error.c_str());
    return;
  }
  FUZZ_CHECK(r.graph.vertices > 0, "a graph of no vertices");
  for (const auto& e : r.graph.edges) {
    FUZZ_CHECK(e.from < r.graph.vertices && e.to < r.graph.vertices,
               "edge %u -> %u in a graph of %u vertices", e.from, e.to, r.graph.vertices);
  }
  if (!edgeList) return;
  const auto back = tessera::graph::readEdgeList(tessera::graph::edgeListText(r.graph), "back");
  FUZZ_CHECK(back.ok(), "the writer's text is refused: %s", back.error.c_str());
  FUZZ_CHECK(back.graph.edges.size() == r.graph.edges.size(), "%zu edges written, %zu read",
             r.graph.edges.size(), back.graph.edges.size());
  for (size_t i = 0; i < r.graph.edges.size(); i++) {
    const auto &a = r.graph.edges[i], &b = back.graph.edges[i];
    FUZZ_CHECK(a.from == b.from && a.to == b.to && a.weight == b.weight, "edge %zu changed", i);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), std::min<size_t>(size, 4096));
  CheckResult(tessera::graph::readEdgeList(text, "in"), text, true);
  CheckResult(tessera::graph::readMatrixMarket(text, "in"), text, false);
  return 0;
}
