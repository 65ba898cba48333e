// tessera-graph: geometric random graphs as edge files, graph files converted between Tessera's
// format and Tinsel's, and a check of graph files.
//
//   tessera-graph geometric --vertices N [--seed S] [--degree D] [--locality PERMILLE]
//                           [--radius R] [--max-weight W] [--undirected] [--tinsel] > graph.txt
//   tessera-graph convert <file> [--undirected] [--tinsel] > graph.txt
//                                   any file the readers take, written again: with --undirected
//                                   every missing reverse edge added (of its edge's weight)
//   tessera-graph check <file>      prints "<file>: <vertices> vertices, <edges> edges, <n>
//                                   without a reverse edge", or the error line and status 1
//
// --tinsel writes Tinsel's format ("src dst" lines, no comment, no weights: what its
// EdgeList::read takes); otherwise "src dst weight" lines after a comment line.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tessera/graph/geometric.h"
#include "tessera/graph/read.h"
#include "tessera/graph/reverse.h"

namespace {

const char* const kUsage =
    "usage: tessera-graph geometric --vertices N [--seed S] [--degree D] "
    "[--locality PERMILLE] [--radius R] [--max-weight W] [--undirected] [--tinsel]\n"
    "       tessera-graph convert <file> [--undirected] [--tinsel]\n"
    "       tessera-graph check <file>\n";

[[noreturn]] void usage(const std::string& why) {
  fprintf(stderr, "tessera-graph: %s\n%s", why.c_str(), kUsage);
  exit(2);
}

uint32_t number(const char* option, const char* text, uint32_t low, uint32_t high) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = text ? strtoull(text, &end, 10) : 0;
  if (!text || *text == '\0' || *text == '-' || *end != '\0' || errno != 0 || v < low || v > high) {
    usage(std::string(option) + " wants a whole number in " + std::to_string(low) + ".." +
          std::to_string(high) + (text ? std::string(", not '") + text + "'" : ""));
  }
  return static_cast<uint32_t>(v);
}

int write(const tessera::graph::Graph& g, bool tinsel) {
  const std::string text =
      tinsel ? tessera::graph::tinselEdgeListText(g) : tessera::graph::edgeListText(g);
  if (fwrite(text.data(), 1, text.size(), stdout) != text.size() || fflush(stdout) != 0) {
    fprintf(stderr, "tessera-graph: writing the graph: %s\n", strerror(errno));
    return 1;
  }
  return 0;
}

int geometric(int argc, char** argv) {
  tessera::graph::GeometricParams p;
  bool haveVertices = false;
  bool tinsel = false;
  for (int i = 0; i < argc; i++) {
    const std::string option = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (option == "--undirected") {
      p.undirected = true;
      continue;
    }
    if (option == "--tinsel") {
      tinsel = true;
      continue;
    }
    if (option == "--vertices") {
      p.vertices = number("--vertices", value, 1, 1u << 26);
      haveVertices = true;
    } else if (option == "--seed") {
      p.seed = number("--seed", value, 0, UINT32_MAX);
    } else if (option == "--degree") {
      p.degree = number("--degree", value, 0, 1000);
    } else if (option == "--locality") {
      p.localityPerMille = number("--locality", value, 0, 1000);
    } else if (option == "--radius") {
      p.radius = number("--radius", value, 1, 1000);
    } else if (option == "--max-weight") {
      p.maxWeight = static_cast<int32_t>(number("--max-weight", value, 1, 1u << 30));
    } else {
      usage("unknown option '" + option + "'");
    }
    i++;
  }
  if (!haveVertices) usage("geometric needs --vertices");
  return write(tessera::graph::geometric(p), tinsel);
}

int convert(int argc, char** argv) {
  const char* path = nullptr;
  bool undirected = false, tinsel = false;
  for (int i = 0; i < argc; i++) {
    const std::string option = argv[i];
    if (option == "--undirected") {
      undirected = true;
    } else if (option == "--tinsel") {
      tinsel = true;
    } else if (option.rfind("--", 0) == 0) {
      usage("unknown option '" + option + "'");
    } else if (path != nullptr) {
      usage("convert takes one file");
    } else {
      path = argv[i];
    }
  }
  if (path == nullptr) usage("convert needs a file");
  const tessera::graph::ReadResult r = tessera::graph::readGraphFile(path);
  if (!r.ok()) {
    fprintf(stderr, "tessera-graph: %s\n", r.error.c_str());
    return 1;
  }
  return write(undirected ? tessera::graph::withReverseEdges(r.graph) : r.graph, tinsel);
}

int check(const char* path) {
  const tessera::graph::ReadResult r = tessera::graph::readGraphFile(path);
  if (!r.ok()) {
    fprintf(stderr, "tessera-graph: %s\n", r.error.c_str());
    return 1;
  }
  printf("%s: %u vertices, %zu edges, %llu without a reverse edge\n", path, r.graph.vertices,
         r.graph.edges.size(),
         static_cast<unsigned long long>(tessera::graph::edgesWithoutReverse(r.graph)));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "geometric") return geometric(argc - 2, argv + 2);
  if (command == "convert") return convert(argc - 2, argv + 2);
  if (command == "check" && argc == 3) return check(argv[2]);
  if (command == "--help" || command == "-h") {
    fputs(kUsage, stdout);
    return 0;
  }
  usage(command.empty() ? "no command" : "unknown command '" + command + "'");
}
