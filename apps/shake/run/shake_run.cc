// shake-run: the parallel SHAKE on the emulated machine, checked against the host reference
// (docs/shake.md). Reads or generates a molecule, numbers it for the ring, runs the reference,
// then runs the ring with each ACWT method asked for and compares every particle's position and
// step, bit for bit, and the iteration counts.
//
//   shake-run --generate branched --particles 512 --ring 16 --method all --steps 4
//   shake-run --molecule water.pdb --ring 8 --csv
//
// Prints one line per method; with --csv, a CSV row instead (no header):
// ring,method,iterations,compute_cycles,check_cycles,check_share,host_s, for each run that
// equals the reference. Exits 0 when every run equals the reference or fails exactly as it
// does, 1 on bad input (one line naming the file and line, before anything runs), 2 when a run
// differs from the reference, 3 with --csv when a run failed as the reference does (a correct
// result, but no measurement: it gets no row).
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ring_machine.h"
#include "tessera/shake/generate.h"
#include "tessera/shake/read.h"

using namespace tessera::shake;

namespace {

struct Options {
  std::string molecule;  // a file, or empty to generate
  Shape shape = Shape::kChain;
  uint32_t particles = 256;
  uint64_t seed = 1;
  uint32_t ring = 8;
  std::vector<ring::Method> methods = {ring::Method::kRing2, ring::Method::kRingP,
                                       ring::Method::kOcBus};
  uint32_t steps = 2;
  double tolerance = 1e-4;
  double maxStep = 0.01;
  uint32_t maxIterations = 1000;
  MachineOptions machine;
  bool csv = false;
};

[[noreturn]] void usage(const char* why) {
  fprintf(stderr,
          "shake-run: %s\n"
          "usage: shake-run [--molecule FILE | --generate chain|ring|branched [--particles N]\n"
          "                 [--seed S]] [--ring P] [--method ring2|ringp|ocbus|all]\n"
          "                 [--steps N] [--tolerance T] [--max-step A] [--max-iterations N]\n"
          "                 [--partition-kib K] [--cpi 1|tpc] [--image ELF] [--csv]\n",
          why);
  exit(1);
}

uint32_t number(const char* flag, const char* text) {
  char* end = nullptr;
  const unsigned long v = strtoul(text, &end, 10);
  if (!*text || *end || v > UINT32_MAX) usage((std::string(flag) + " takes a count").c_str());
  return static_cast<uint32_t>(v);
}

double real(const char* flag, const char* text) {
  char* end = nullptr;
  const double v = strtod(text, &end);
  if (!*text || *end) usage((std::string(flag) + " takes a number").c_str());
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  o.machine.image = TESSERA_SHAKE_IMAGE;
  for (int a = 1; a < argc; a++) {
    const std::string flag = argv[a];
    if (flag == "--csv") {
      o.csv = true;
      continue;
    }
    if (a + 1 >= argc) usage(("no value after " + flag).c_str());
    const char* v = argv[++a];
    if (flag == "--molecule") {
      o.molecule = v;
    } else if (flag == "--generate") {
      const std::string s = v;
      if (s == "chain")
        o.shape = Shape::kChain;
      else if (s == "ring")
        o.shape = Shape::kRing;
      else if (s == "branched")
        o.shape = Shape::kBranched;
      else
        usage("--generate takes chain, ring or branched");
    } else if (flag == "--particles") {
      o.particles = number(v, v);
    } else if (flag == "--seed") {
      o.seed = number(v, v);
    } else if (flag == "--ring") {
      o.ring = number(v, v);
    } else if (flag == "--method") {
      if (std::string(v) != "all") {
        const auto method = methodNamed(v);
        if (!method) usage("--method takes ring2, ringp, ocbus or all");
        o.methods = {*method};
      }
    } else if (flag == "--steps") {
      o.steps = number(v, v);
    } else if (flag == "--tolerance") {
      o.tolerance = real(v, v);
    } else if (flag == "--max-step") {
      o.maxStep = real(v, v);
    } else if (flag == "--max-iterations") {
      o.maxIterations = number(v, v);
    } else if (flag == "--partition-kib") {
      o.machine.partitionKib = number(v, v);
    } else if (flag == "--cpi") {
      if (std::string(v) == "tpc")
        o.machine.cpiIsThreadsPerCore = true;
      else if (std::string(v) != "1")
        usage("--cpi takes 1 or tpc");
    } else if (flag == "--image") {
      o.machine.image = v;
    } else {
      usage(("unknown option " + flag).c_str());
    }
  }
  return o;
}

bool sameVecs(const std::vector<tessera::shake::fixed::Vec>& a,
              const std::vector<tessera::shake::fixed::Vec>& b, size_t* first) {
  for (size_t p = 0; p < a.size(); p++) {
    if (a[p].x != b[p].x || a[p].y != b[p].y || a[p].z != b[p].z) {
      *first = p;
      return false;
    }
  }
  return a.size() == b.size();
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  MoleculeResult read =
      o.molecule.empty() ? generate(o.shape, o.particles, o.seed) : readMoleculeFile(o.molecule);
  if (!read.ok()) {
    fprintf(stderr, "shake-run: %s\n", read.error.c_str());
    return 1;
  }
  const RingShape shape = ringShape(o.ring, o.machine);
  if (!shape.error.empty()) {
    fprintf(stderr, "shake-run: %s\n", shape.error.c_str());
    return 1;
  }
  const RingProblem problem = prepareRing(read.molecule, o.ring, o.tolerance, o.seed, o.maxStep);
  if (!problem.ok()) {
    fprintf(stderr, "shake-run: %s\n", problem.error.c_str());
    return 1;
  }
  Dynamics dynamics;
  dynamics.maxIterations = o.maxIterations;
  // Every image is built before the first boot: bad input stops the program before anything runs.
  std::vector<RingImages> images;
  for (ring::Method method : o.methods) {
    RunSpec spec;
    spec.method = method;
    spec.steps = o.steps;
    spec.dynamics = dynamics;
    images.push_back(buildRingImages(problem.fixed, problem.layout, problem.initial, spec,
                                     imageCapacity(o.machine)));
    if (!images.back().ok()) {
      fprintf(stderr, "shake-run: %s\n", images.back().error.c_str());
      return 1;
    }
  }
  const ReferenceRun reference = runReference(problem.fixed, problem.initial, dynamics, o.steps);
  if (!o.csv) {
    printf(
        "shake: %s, %zu particles, %zu constraints, bandwidth %u (renumbered from %u), ring of "
        "%u: maximum crossing distance %u; machine %s\n",
        read.molecule.name.c_str(), problem.fixed.positions.size(),
        problem.fixed.constraints.size(), problem.bandwidthAfter, problem.bandwidthBefore, o.ring,
        problem.layout.maxCrossing, shape.properties.c_str());
    printf("shake: reference: %u steps, %u iterations%s%s\n", reference.stepsDone,
           reference.iterations, reference.ok() ? "" : ", then ", reference.error.c_str());
  }
  int status = 0;
  for (size_t k = 0; k < o.methods.size(); k++) {
    const MachineRun machine = runOnMachine(problem.fixed, problem.layout, images[k], o.machine);
    const RingRun& run = machine.run;
    const char* method = methodName(o.methods[k]);
    size_t at = 0;
    std::string verdict;
    if (!run.ok() || !reference.ok()) {
      if (run.ok() != reference.ok() || run.stepsDone != reference.stepsDone) {
        verdict =
            "differs from the reference: " + (run.ok() ? std::string("no error") : run.error) +
            " against " + (reference.ok() ? std::string("no error") : reference.error);
      } else {
        verdict = "fails as the reference does: " + run.error;
      }
    } else if (run.iterations != reference.iterations) {
      verdict = "differs from the reference: " + std::to_string(run.iterations) +
                " iterations against " + std::to_string(reference.iterations);
    } else if (!sameVecs(run.state.positions, reference.state.positions, &at)) {
      verdict = "differs from the reference: particle " + std::to_string(at) + "'s position";
    } else if (!sameVecs(run.state.steps, reference.state.steps, &at)) {
      verdict = "differs from the reference: particle " + std::to_string(at) + "'s step";
    } else {
      verdict = "positions and steps equal the reference's bit for bit";
    }
    if (verdict.rfind("differs", 0) == 0) status = 2;
    // A CSV row is a measurement: only a run that equals its reference gives one (the
    // benchmark records every row it gets). A run that fails as the reference does is a
    // correct result but no figure.
    const bool equal = verdict.rfind("positions and steps equal", 0) == 0;
    if (o.csv && !equal) {
      fprintf(stderr, "shake-run: ring %u %s: no measurement: %s\n", o.ring, method,
              verdict.c_str());
      if (status == 0) status = 3;
      continue;
    }
    // The critical path per iteration (docs/shake.md, "Measuring").
    const double timed = run.timed > 0 ? run.timed : 1;
    const double compute = double(run.pathCompute) / timed;
    const double check = double(run.pathCheck) / timed;
    const double perIteration = run.iterations > 0 ? double(run.iterations) * o.ring : 1;
    const double share = compute + check > 0 ? check / (compute + check) : 0;
    if (o.csv) {
      printf("%u,%s,%u,%.1f,%.1f,%.4f,%.3f\n", o.ring, method, run.iterations, compute, check,
             share, machine.hostSeconds);
    } else {
      printf(
          "shake: ring %u %s: %u steps, %u iterations; per iteration %.1f compute + %.1f "
          "check cycles (check %.1f%%), %.1f messages per thread; host %.2f s; %s\n",
          o.ring, method, run.stepsDone, run.iterations, compute, check, 100 * share,
          double(run.messages) / perIteration, machine.hostSeconds, verdict.c_str());
    }
    fflush(stdout);
  }
  return status;
}
