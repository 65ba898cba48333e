// The main part of ./tessera demo: heat transfer by Newton's law of cooling, synchronous and
// GALS, on a geometric random graph across 3x1 boards of 96 threads; each run is checked against
// the single-threaded host reference and summarised: graph, placement, time steps, messages,
// modelled cycles and seconds, host seconds, agreement.
//
//   vertex_demo [vertices]     (default 20000)
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "app_runs.h"
#include "tessera/graph/geometric.h"

namespace {

// On a terminal, one line that counts the results as they come.
void showProgress(uint32_t received, uint32_t results) {
  fprintf(stderr, "\r  results: %u of %u", received, results);
  if (received == results) fprintf(stderr, "\r\033[K");
}

void summarise(const char* title, const vertex_runs::AppRun& run, double clockMHz) {
  const uint64_t* p = run.placement;
  printf("%s\n", title);
  printf("  placement: edges within a thread %llu, a tile %llu, a board %llu, across boards %llu\n",
         static_cast<unsigned long long>(p[0]), static_cast<unsigned long long>(p[1]),
         static_cast<unsigned long long>(p[2]), static_cast<unsigned long long>(p[3]));
  printf(
      "  time steps %u, messages %llu (%llu deliveries), modelled %llu cycles = %.3f ms at %.0f "
      "MHz\n",
      run.totals.steps, static_cast<unsigned long long>(run.totals.sent),
      static_cast<unsigned long long>(run.totals.delivered),
      static_cast<unsigned long long>(run.totals.cycles),
      static_cast<double>(run.totals.cycles) / clockMHz / 1000.0, clockMHz);
  printf("  host: %.2f s on the emulator, %.4f s for the reference\n", run.hostSeconds,
         run.referenceSeconds);
  if (run.mismatches == 0) {
    printf("  agreement: all %u temperatures equal the reference\n", run.vertices);
  } else {
    printf("  agreement: FAILED, %u vertices differ (%s)\n", run.mismatches,
           run.firstMismatch.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  tessera::graph::GeometricParams params;
  params.vertices = argc > 1 ? static_cast<uint32_t>(atoi(argv[1])) : 20000;
  params.undirected = true;  // GALS needs every edge to have one back
  if (params.vertices < 2 || params.vertices > 200000) {
    fprintf(stderr, "usage: vertex_demo [vertices: 2..200000]\n");
    return 2;
  }
  const tessera::graph::Graph g = tessera::graph::geometric(params);
  const uint32_t threads = TesseraConfigBoardsX * TesseraConfigBoardsY * TesseraConfigTilesX *
                           TesseraConfigTilesY * TesseraConfigCoresPerTile *
                           TesseraConfigThreadsPerCore;
  printf(
      "Heat transfer on a geometric random graph: %u vertices, %zu edges (undirected), on %ux%u "
      "boards of %u threads in all, 16 time steps\n",
      g.vertices, g.edges.size(), TesseraConfigBoardsX, TesseraConfigBoardsY, threads);
  if (isatty(STDERR_FILENO)) vertex_runs::progress = showProgress;
  const double clockMHz = 240;
  fflush(stdout);
  const vertex_runs::AppRun sync = vertex_runs::runHeat(g, "heat_sync", 1);
  summarise("Synchronous (a time step per tinselIdle termination):", sync, clockMHz);
  fflush(stdout);
  const vertex_runs::AppRun gals = vertex_runs::runHeat(g, "heat_async", 1);
  summarise("GALS (each vertex waits for its neighbours' messages of the step):", gals, clockMHz);
  printf("GALS took %.2fx the modelled cycles of the synchronous run, with %s messages.\n",
         static_cast<double>(gals.totals.cycles) / static_cast<double>(sync.totals.cycles),
         gals.totals.sent == sync.totals.sent ? "the same" : "different");
  return sync.mismatches == 0 && gals.mismatches == 0 ? 0 : 1;
}
