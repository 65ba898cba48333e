// Host side: what a run of PThreads sends the host, sorted out. Finish (and HostPin) messages
// carry PHostKey; in builds with TESSERA_POLITE_REPORT every thread also sends a PThreadReport
// after them. Messages from different threads interleave, so the key tells them apart.
//
//   PRunResults<M> run = collectResults<M>(&hostLink, graph.numDevices, graph.numThreads());
//   run.results    the payloads, in arrival order
//   run.reports    one per thread; run.totals() sums them
#ifndef TESSERA_POLITE_PRESULTS_H
#define TESSERA_POLITE_PRESULTS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "POLite/PDevice.h"
#include "tessera/hw/regs.h"

struct PRunTotals {
  uint32_t threads = 0;
  uint32_t steps = 0;  // the most any thread counted (they agree unless a thread holds nothing)
  uint64_t sent = 0;
  uint64_t delivered = 0;
  uint64_t blockedSends = 0;
  uint64_t cycles = 0;  // modelled cycles until the last thread finished
};

template <typename M>
struct PRunResults {
  std::vector<M> results;
  std::vector<PThreadReport> reports;

  PRunTotals totals() const {
    PRunTotals t;
    for (const PThreadReport& r : reports) {
      t.threads++;
      if (r.steps > t.steps) t.steps = r.steps;
      t.sent += r.sent;
      t.delivered += r.delivered;
      t.blockedSends += r.blockedSends;
      const uint64_t cycles = uint64_t{r.cyclesHigh} << 32 | r.cyclesLow;
      if (cycles > t.cycles) t.cycles = cycles;
    }
    return t;
  }
};

// Receives `results` finish messages and `reports` thread reports (0 for a build without
// TESSERA_POLITE_REPORT). A message with another key ends the program with one line. A long run
// can show progress: `progress(received, results)` is called after every 1/16 of the results.
template <typename M, typename Link>
PRunResults<M> collectResults(Link* hostLink, uint32_t results, uint32_t reports,
                              void (*progress)(uint32_t, uint32_t) = nullptr) {
  PRunResults<M> run;
  const uint32_t every = results / 16 > 0 ? results / 16 : 1;
  run.results.reserve(results);
  run.reports.reserve(reports);
  while (run.results.size() < results || run.reports.size() < reports) {
    uint8_t whole[TESSERA_MAX_FLITS * TESSERA_BYTES_PER_FLIT];
    hostLink->recv(whole);
    uint16_t key;
    memcpy(&key, whole, sizeof key);
    if (key == PHostKey && run.results.size() < results) {
      PMessage<M> msg;
      memcpy(&msg, whole, sizeof msg);
      run.results.push_back(msg.payload);
      const uint32_t received = static_cast<uint32_t>(run.results.size());
      if (progress != nullptr && (received % every == 0 || received == results)) {
        progress(received, results);
      }
    } else if (key == PReportKey && run.reports.size() < reports) {
      PThreadReport report;
      memcpy(&report, whole, sizeof report);
      run.reports.push_back(report);
    } else {
      fprintf(stderr,
              "collectResults: a message with key 0x%x after %zu of %u results and %zu of %u "
              "reports\n",
              key, run.results.size(), results, run.reports.size(), reports);
      exit(EXIT_FAILURE);
    }
  }
  return run;
}

#endif
