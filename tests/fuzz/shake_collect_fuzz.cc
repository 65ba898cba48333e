// libFuzzer target: the parallel SHAKE host's reading of what the ring's threads send
// (host/shake/ring_run.cc, RingCollector). The input is a run of 64-byte messages for a
// 13-particle chain on a ring of 3: whatever they hold, the collector takes only what fits the
// run, and once complete its result is either an error of one line naming the molecule, or a
// run whose every particle arrived once and whose critical path is no longer than the latest
// time any thread sent.
#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "fuzz_check.h"
#include "tessera/shake/generate.h"
#include "tessera/shake/ring_run.h"

namespace {

using namespace tessera::shake;

struct Fixture {
  RingProblem problem;
  RingImages images;
  Fixture() {
    problem = prepareRing(generate(Shape::kChain, 13, 1).molecule, 3, 1e-4, 1, 0.01);
    RunSpec spec;
    spec.timings = 4;
    images = buildRingImages(problem.fixed, problem.layout, problem.initial, spec, 4096);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Fixture fixture;
  FUZZ_CHECK(fixture.problem.ok() && fixture.images.ok(), "the fixture does not build");
  RingCollector collector(fixture.problem.fixed, fixture.problem.layout, fixture.images);
  uint64_t latest = 0;
  for (size_t at = 0; at + sizeof(ring::Message) <= std::min<size_t>(size, 64 * 64);
       at += sizeof(ring::Message)) {
    ring::Message m;
    std::memcpy(&m, data + at, sizeof m);
    if (collector.add(m) && m.kind == ring::Kind::kTimings) {
      ring::Timing t[ring::kTimingsPerMessage];
      std::memcpy(t, m.entries, sizeof t);
      for (uint32_t k = 0; k < m.count; k++) latest = std::max(latest, t[k].done);
    }
  }
  const RingRun run = collector.result();
  if (!collector.complete()) {
    FUZZ_CHECK(!run.ok(), "an incomplete run without an error");
  }
  if (!run.ok()) {
    FUZZ_CHECK(run.error.rfind("chain(13, seed 1)", 0) == 0, "an error without the molecule: %s",
               run.error.c_str());
    FUZZ_CHECK(run.error.find('\n') == std::string::npos, "a multi-line error");
    return 0;
  }
  FUZZ_CHECK(run.state.positions.size() == 13 && run.state.steps.size() == 13,
             "a run of %zu particles", run.state.positions.size());
  // Each timed iteration's path is at most the latest time; 128 bits: adversarial times are huge.
  using Wide = unsigned __int128;
  FUZZ_CHECK(
      Wide{run.pathCompute} + run.pathCheck <= Wide{latest} * std::max<uint32_t>(run.timed, 1),
      "a critical path of %llu + %llu cycles past the latest time %llu",
      static_cast<unsigned long long>(run.pathCompute),
      static_cast<unsigned long long>(run.pathCheck), static_cast<unsigned long long>(latest));
  return 0;
}
