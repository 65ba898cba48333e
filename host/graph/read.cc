#include "tessera/graph/read.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace tessera::graph {

namespace {

// Splits a line into whitespace-separated fields.
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string f; in >> f;) out.push_back(f);
  return out;
}

// A whole field as an unsigned number below `limit`, or false.
bool unsignedField(const std::string& f, uint64_t limit, uint64_t* value) {
  if (f.empty() || f.size() > 20 || f.find_first_not_of("0123456789") != std::string::npos) {
    return false;
  }
  errno = 0;
  const unsigned long long v = strtoull(f.c_str(), nullptr, 10);
  if (errno != 0 || v >= limit) return false;
  *value = v;
  return true;
}

bool intField(const std::string& f, int32_t* value) {
  if (f.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = strtoll(f.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || v < INT32_MIN || v > INT32_MAX) return false;
  *value = static_cast<int32_t>(v);
  return true;
}

bool realField(const std::string& f, int32_t* value) {
  if (f.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double v = strtod(f.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v)) return false;
  const double rounded = std::nearbyint(v);
  if (rounded < INT32_MIN || rounded > INT32_MAX) return false;
  *value = static_cast<int32_t>(rounded);
  return true;
}

ReadResult failAt(const std::string& name, size_t line, const std::string& why) {
  ReadResult r;
  r.error = name + ":" + std::to_string(line) + ": " + why;
  return r;
}

bool isComment(const std::string& line) {
  const size_t first = line.find_first_not_of(" \t\r");
  return first == std::string::npos || line[first] == '#' || line[first] == '%';
}

// Ids below this; UINT32_MAX itself would overflow the vertex count.
constexpr uint64_t kIdLimit = UINT32_MAX;

}  // namespace

ReadResult readEdgeList(const std::string& text, const std::string& name) {
  ReadResult r;
  std::istringstream in(text);
  uint64_t maxId = 0;
  bool any = false;
  size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    number++;
    if (isComment(line)) continue;
    const std::vector<std::string> f = fields(line);
    if (f.size() < 2 || f.size() > 3) {
      return failAt(name, number,
                    "expected \"src dst [weight]\", found " + std::to_string(f.size()) + " fields");
    }
    uint64_t from, to;
    if (!unsignedField(f[0], kIdLimit, &from)) {
      return failAt(name, number, "source '" + f[0] + "' is not a vertex id (0..4294967294)");
    }
    if (!unsignedField(f[1], kIdLimit, &to)) {
      return failAt(name, number, "destination '" + f[1] + "' is not a vertex id (0..4294967294)");
    }
    int32_t weight = 1;
    if (f.size() == 3 && !intField(f[2], &weight)) {
      return failAt(name, number, "weight '" + f[2] + "' is not a 32-bit integer");
    }
    r.graph.edges.push_back({static_cast<uint32_t>(from), static_cast<uint32_t>(to), weight});
    maxId = std::max({maxId, from, to});
    any = true;
  }
  if (!any) return failAt(name, number, "no edges");
  r.graph.vertices = static_cast<uint32_t>(maxId + 1);
  return r;
}

ReadResult readMatrixMarket(const std::string& text, const std::string& name) {
  ReadResult r;
  std::istringstream in(text);
  std::string line;
  size_t number = 1;
  if (!std::getline(in, line)) return failAt(name, 1, "empty file");
  const std::vector<std::string> head = fields(line);
  if (head.size() != 5 || head[0] != "%%MatrixMarket" || head[1] != "matrix" ||
      head[2] != "coordinate") {
    return failAt(name, 1, "expected \"%%MatrixMarket matrix coordinate <field> <symmetry>\"");
  }
  const std::string& field = head[3];
  const std::string& symmetry = head[4];
  if (field != "pattern" && field != "integer" && field != "real") {
    return failAt(name, 1, "field '" + field + "' is not pattern, integer or real");
  }
  if (symmetry != "general" && symmetry != "symmetric") {
    return failAt(name, 1, "symmetry '" + symmetry + "' is not general or symmetric");
  }
  // The size line: the first one that is not a comment.
  uint64_t rows = 0, cols = 0, entries = 0;
  bool sized = false;
  while (std::getline(in, line)) {
    number++;
    if (isComment(line)) continue;
    const std::vector<std::string> f = fields(line);
    if (f.size() != 3 || !unsignedField(f[0], kIdLimit + 1, &rows) ||
        !unsignedField(f[1], kIdLimit + 1, &cols) || !unsignedField(f[2], UINT64_MAX, &entries)) {
      return failAt(name, number, "expected the size line \"rows columns entries\"");
    }
    sized = true;
    break;
  }
  if (!sized) return failAt(name, number, "no size line");
  if (rows != cols) {
    return failAt(name, number,
                  "a " + std::to_string(rows) + "x" + std::to_string(cols) +
                      " matrix is not a graph's adjacency: it must be square");
  }
  if (rows == 0) return failAt(name, number, "a graph of 0 vertices");
  const size_t wanted = field == "pattern" ? 2 : 3;
  uint64_t seen = 0;
  while (std::getline(in, line)) {
    number++;
    if (isComment(line)) continue;
    const std::vector<std::string> f = fields(line);
    if (f.size() != wanted) {
      return failAt(name, number,
                    "expected " + std::string(wanted == 2 ? "\"i j\"" : "\"i j value\"") + " (" +
                        field + "), found " + std::to_string(f.size()) + " fields");
    }
    uint64_t i, j;
    if (!unsignedField(f[0], rows + 1, &i) || i == 0) {
      return failAt(name, number, "row '" + f[0] + "' is not in 1.." + std::to_string(rows));
    }
    if (!unsignedField(f[1], cols + 1, &j) || j == 0) {
      return failAt(name, number, "column '" + f[1] + "' is not in 1.." + std::to_string(cols));
    }
    int32_t weight = 1;
    if (field == "integer" && !intField(f[2], &weight)) {
      return failAt(name, number, "value '" + f[2] + "' is not a 32-bit integer");
    }
    if (field == "real" && !realField(f[2], &weight)) {
      return failAt(name, number, "value '" + f[2] + "' is not a finite number within 32 bits");
    }
    if (++seen > entries) {
      return failAt(name, number,
                    "more entries than the " + std::to_string(entries) + " the size line gives");
    }
    const uint32_t from = static_cast<uint32_t>(i - 1), to = static_cast<uint32_t>(j - 1);
    r.graph.edges.push_back({from, to, weight});
    if (symmetry == "symmetric" && from != to) r.graph.edges.push_back({to, from, weight});
  }
  if (seen < entries) {
    return failAt(name, number,
                  "the size line gives " + std::to_string(entries) + " entries, the file has " +
                      std::to_string(seen));
  }
  r.graph.vertices = static_cast<uint32_t>(rows);
  return r;
}

ReadResult readGraphFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    ReadResult r;
    r.error = path + ": " + strerror(errno);
    return r;
  }
  std::ostringstream text;
  text << file.rdbuf();
  const std::string s = text.str();
  return s.rfind("%%MatrixMarket", 0) == 0 ? readMatrixMarket(s, path) : readEdgeList(s, path);
}

std::string edgeListText(const Graph& g) {
  std::ostringstream out;
  out << "# " << g.vertices << " vertices, " << g.edges.size() << " edges: src dst weight\n";
  for (const Edge& e : g.edges) out << e.from << ' ' << e.to << ' ' << e.weight << '\n';
  return out.str();
}

std::string tinselEdgeListText(const Graph& g) {
  std::ostringstream out;
  for (const Edge& e : g.edges) out << e.from << ' ' << e.to << '\n';
  return out.str();
}

}  // namespace tessera::graph
