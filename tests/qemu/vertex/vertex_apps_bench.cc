// ./tessera bench apps: each vertex app, synchronous and asynchronous, on the same geometric
// random graphs (five seeds, as the termination-detection paper did), on the 3x1-board test
// shape. Prints CSV rows
//   app,version,seed,vertices,edges,time_steps,messages,cycles,host_s,reference_host_s
// (time_steps: step() rounds the runtime counted; messages: thread-to-thread messages, one per
// destination tile of a send; cycles: modelled, until the last thread finished; host_s: the
// machine's run on this host; reference_host_s: the single-threaded host reference). Every run is
// checked against its reference; a mismatch ends the benchmark with status 1.
//
//   vertex_apps_bench apps [vertices] [seeds]
//   vertex_apps_bench termination <app> <vertices per thread>...   hardware vs software
//     termination for a synchronous app: rows app,detector,vertices_per_thread,vertices,
//     time_steps,messages,cycles,host_s
//
// The machine's timing comes from TESSERA_HOSTLINK_PROPERTIES (cpi=4, say).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app_runs.h"
#include "tessera/graph/geometric.h"

namespace {

using vertex_runs::AppRun;

void check(const AppRun& run) {
  if (run.mismatches != 0 || run.devicesReported != run.vertices) {
    fprintf(stderr, "vertex_apps_bench: %s disagrees with its reference: %s (%u vertices)\n",
            run.image.c_str(), run.firstMismatch.c_str(), run.mismatches);
    exit(1);
  }
}

// The geometric random graph of this size and seed (undirected for the apps whose GALS versions
// need every edge to have one back, and for MSSP).
tessera::graph::Graph graphFor(const std::string& app, uint32_t vertices, uint32_t seed) {
  tessera::graph::GeometricParams p;
  p.vertices = vertices;
  p.seed = seed;
  p.undirected = app == "pagerank" || app == "heat" || app == "mssp";
  return tessera::graph::geometric(p);
}

// One app's run on its graph of this seed.
AppRun runApp(const std::string& app, const std::string& image, uint32_t vertices, uint32_t seed) {
  const tessera::graph::Graph g = graphFor(app, vertices, seed);
  uint32_t spikes = 0;
  if (app == "sssp") return vertex_runs::runSSSP(g, image);
  if (app == "mssp") return vertex_runs::runMSSP(g, image);
  if (app == "snn") return vertex_runs::runSNN(g, seed, image, &spikes);
  if (app == "pagerank") return vertex_runs::runPageRank(g, image);
  if (app == "heat") return vertex_runs::runHeat(g, image, seed);
  fprintf(stderr, "vertex_apps_bench: no app %s\n", app.c_str());
  exit(2);
}

struct Versions {
  const char* app;
  const char* sync;
  const char* async;
};
constexpr Versions kApps[] = {
    {"pagerank", "pagerank_sync", "pagerank_async"},
    {"heat", "heat_sync", "heat_async"},
    {"sssp", "sssp_sync", "sssp"},
    {"mssp", "mssp_sync", "mssp_async"},
    {"snn", "snn_sync", "snn_async"},
};

int apps(uint32_t vertices, uint32_t seeds) {
  printf("app,version,seed,vertices,edges,time_steps,messages,cycles,host_s,reference_host_s\n");
  for (const Versions& v : kApps) {
    for (uint32_t seed = 1; seed <= seeds; seed++) {
      for (const char* version : {"sync", "async"}) {
        const bool sync = std::string(version) == "sync";
        const AppRun run = runApp(v.app, sync ? v.sync : v.async, vertices, seed);
        check(run);
        printf("%s,%s,%u,%u,%llu,%u,%llu,%llu,%.3f,%.6f\n", v.app, version, seed, run.vertices,
               static_cast<unsigned long long>(run.edges), run.totals.steps,
               static_cast<unsigned long long>(run.totals.sent),
               static_cast<unsigned long long>(run.totals.cycles), run.hostSeconds,
               run.referenceSeconds);
        fflush(stdout);
      }
    }
  }
  return 0;
}

int termination(const std::string& app, int argc, char** argv) {
  const uint32_t threads = TesseraConfigBoardsX * TesseraConfigBoardsY * TesseraConfigTilesX *
                           TesseraConfigTilesY * TesseraConfigCoresPerTile *
                           TesseraConfigThreadsPerCore;
  printf("app,detector,vertices_per_thread,vertices,time_steps,messages,cycles,host_s\n");
  for (int i = 0; i < argc; i++) {
    const uint32_t perThread = static_cast<uint32_t>(atoi(argv[i]));
    for (const char* detector : {"hw", "clocktree"}) {
      const std::string image = std::string(detector) == "hw" ? app : app + "_" + detector;
      const std::string base = app.substr(0, app.find('_'));
      const AppRun run = runApp(base, image, perThread * threads, 1);
      check(run);
      printf("%s,%s,%u,%u,%u,%llu,%llu,%.3f\n", app.c_str(), detector, perThread, run.vertices,
             run.totals.steps, static_cast<unsigned long long>(run.totals.sent),
             static_cast<unsigned long long>(run.totals.cycles), run.hostSeconds);
      fflush(stdout);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "apps") {
    return apps(argc > 2 ? static_cast<uint32_t>(atoi(argv[2])) : 3000,
                argc > 3 ? static_cast<uint32_t>(atoi(argv[3])) : 5);
  }
  if (mode == "termination" && argc > 3) return termination(argv[2], argc - 3, argv + 3);
  fprintf(stderr,
          "usage: vertex_apps_bench apps [vertices] [seeds]\n"
          "       vertex_apps_bench termination <sync app> <vertices per thread>...\n");
  return 2;
}
