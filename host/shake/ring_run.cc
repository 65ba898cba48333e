#include "tessera/shake/ring_run.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

namespace tessera::shake {

using fixed::Vec;

const char* methodName(ring::Method method) {
  switch (method) {
    case ring::Method::kRing2:
      return "ring2";
    case ring::Method::kRingP:
      return "ringp";
    case ring::Method::kOcBus:
      return "ocbus";
  }
  return "?";
}

std::optional<ring::Method> methodNamed(const std::string& name) {
  for (uint32_t k = 0; k < ring::kMethods; k++) {
    const auto method = static_cast<ring::Method>(k);
    if (name == methodName(method)) return method;
  }
  return std::nullopt;
}

namespace {

// A summed displacement of a ghost travels as int32: each constraint's part is at most its
// vector, 32 Å = 2^25 in Q20, so up to 63 constraints on one particle always fit.
constexpr uint32_t kMostConstraintsOnAParticle = 63;

uint32_t align8(uint32_t n) {
  return (n + 7) & ~7u;
}

// Appends `count` objects of `size` bytes to the layout, returning their offset.
uint32_t reserve(uint32_t* end, size_t size, size_t count) {
  const uint32_t at = *end;
  *end = align8(static_cast<uint32_t>(at + size * count));
  return at;
}

template <typename T>
void put(std::vector<uint8_t>& bytes, uint32_t at, const std::vector<T>& values) {
  if (!values.empty()) std::memcpy(bytes.data() + at, values.data(), values.size() * sizeof(T));
}

}  // namespace

RingProblem prepareRing(const Molecule& m, uint32_t threads, double tolerance, uint64_t seed,
                        double maxStep) {
  RingProblem r;
  r.bandwidthBefore = bandwidth(m);
  r.molecule = renumber(m, reverseCuthillMcKee(m));
  r.bandwidthAfter = bandwidth(r.molecule);
  r.layout = layOnRing(r.molecule, threads);
  if (!r.layout.ok()) {
    r.error = r.layout.error;
    return r;
  }
  FixedResult f = toFixed(r.molecule, tolerance);
  if (!f.ok()) {
    r.error = f.error.find(m.name) == 0 ? f.error : errorAt(m.name, 0, f.error);
    return r;
  }
  r.fixed = std::move(f.molecule);
  r.initial = initialState(r.fixed, seed, maxStep);
  return r;
}

ReferenceRun runReference(const FixedMolecule& m, State state, const Dynamics& dynamics,
                          uint32_t steps) {
  ReferenceRun r;
  for (; r.stepsDone < steps; r.stepsDone++) {
    const ShakeResult s = step(m, dynamics, &state);
    if (!s.ok()) {
      r.error = s.error;
      break;
    }
    r.iterations += s.iterations;
  }
  r.state = std::move(state);
  return r;
}

RingImages buildRingImages(const FixedMolecule& m, const RingLayout& layout, const State& state,
                           const RunSpec& spec, uint32_t capacity) {
  RingImages out;
  const uint32_t P = static_cast<uint32_t>(layout.threads.size());
  const std::vector<uint32_t> divisors = dampingDivisors(m);
  {
    std::vector<uint32_t> held(m.positions.size(), 0);
    for (const fixed::Constraint& c : m.constraints) held[c.i]++, held[c.j]++;
    const auto most = std::max_element(held.begin(), held.end());
    if (most != held.end() && *most > kMostConstraintsOnAParticle) {
      out.error = errorAt(m.name, 0,
                          "particle " + std::to_string(most - held.begin()) + " is held by " +
                              std::to_string(*most) + " constraints; the ring takes at most " +
                              std::to_string(kMostConstraintsOnAParticle));
      return out;
    }
  }
  // Each thread's ghosts: the particles of t+1 its PCCI constraints reach, in rising global
  // index; t+1 exports the same list.
  std::vector<std::vector<uint32_t>> ghosts(P);
  for (uint32_t t = 0; t < P; t++) {
    const ThreadConstraints& tc = layout.threads[t];
    for (uint32_t k : tc.pcci) {
      const fixed::Constraint& c = m.constraints[k];
      const bool iHere = c.i >= tc.first && c.i < tc.first + tc.count;
      ghosts[t].push_back(iHere ? c.j : c.i);
    }
    std::sort(ghosts[t].begin(), ghosts[t].end());
    ghosts[t].erase(std::unique(ghosts[t].begin(), ghosts[t].end()), ghosts[t].end());
  }
  const int64_t tether = std::llround(std::ldexp(spec.dynamics.tether, fixed::kTetherBits));
  for (uint32_t t = 0; t < P; t++) {
    const ThreadConstraints& tc = layout.threads[t];
    const std::vector<uint32_t>& mine = ghosts[t];
    const std::vector<uint32_t>& exports = ghosts[(t + P - 1) % P];
    std::map<uint32_t, uint32_t> localOf;
    for (uint32_t p = 0; p < tc.count; p++) localOf[tc.first + p] = p;
    for (uint32_t g = 0; g < mine.size(); g++) localOf[mine[g]] = tc.count + g;
    const uint32_t all = tc.count + static_cast<uint32_t>(mine.size());

    ring::Header h{};
    h.magic = ring::kMagic;
    h.version = ring::kVersion;
    h.ringSize = P;
    h.position = t;
    h.method = static_cast<uint32_t>(spec.method);
    h.steps = spec.steps;
    h.maxIterations = spec.dynamics.maxIterations;
    h.first = tc.first;
    h.owned = tc.count;
    h.ghosts = static_cast<uint32_t>(mine.size());
    h.exports = static_cast<uint32_t>(exports.size());
    h.local = static_cast<uint32_t>(tc.lci.size());
    h.constraints = h.local + static_cast<uint32_t>(tc.pcci.size());
    h.tether = tether;
    uint32_t end = align8(sizeof h);
    h.positionsAt = reserve(&end, sizeof(Vec), all);
    h.startAt = reserve(&end, sizeof(Vec), all);
    h.unconstrainedAt = reserve(&end, sizeof(Vec), tc.count);
    h.stepsAt = reserve(&end, sizeof(Vec), tc.count);
    h.divisorsAt = reserve(&end, sizeof(uint32_t), tc.count);
    h.constraintsAt = reserve(&end, sizeof(fixed::Constraint), h.constraints);
    h.exportsAt = reserve(&end, sizeof(uint32_t), exports.size());
    h.sumsAt = reserve(&end, sizeof(ring::Sum), all);
    h.incomingAt = reserve(&end, sizeof(Vec), mine.size());
    h.forwardsAt =
        reserve(&end, sizeof(ring::Forward), spec.method == ring::Method::kRingP ? 2 * P : 0);
    if (end > capacity) {
      out.error =
          errorAt(m.name, 0,
                  "more particles than the machine can hold: thread " + std::to_string(t) +
                      " of the ring of " + std::to_string(P) + " needs " + std::to_string(end) +
                      " bytes for its " + std::to_string(tc.count) + " particles and " +
                      std::to_string(h.constraints) + " constraints, and its heap holds " +
                      std::to_string(capacity) + " (use more threads or a larger partition-kib)");
      out.threads.clear();
      return out;
    }
    // Timings only as far as the heap has room for them.
    h.timings = std::min<uint32_t>(spec.timings, (capacity - end) / sizeof(ring::Timing));
    h.timingsAt = reserve(&end, sizeof(ring::Timing), h.timings);
    h.bytes = end;
    out.largest = std::max(out.largest, end);

    ThreadImage image;
    image.bytes.assign(end, 0);
    std::memcpy(image.bytes.data(), &h, sizeof h);
    std::vector<Vec> positions;
    for (uint32_t p = 0; p < tc.count; p++) positions.push_back(state.positions[tc.first + p]);
    for (uint32_t g : mine) positions.push_back(state.positions[g]);
    put(image.bytes, h.positionsAt, positions);
    put(image.bytes, h.startAt, positions);
    put(image.bytes, h.stepsAt,
        std::vector<Vec>(state.steps.begin() + tc.first,
                         state.steps.begin() + tc.first + tc.count));
    put(image.bytes, h.divisorsAt,
        std::vector<uint32_t>(divisors.begin() + tc.first, divisors.begin() + tc.first + tc.count));
    std::vector<fixed::Constraint> constraints;
    for (const std::vector<uint32_t>* list : {&tc.lci, &tc.pcci}) {
      for (uint32_t k : *list) {
        fixed::Constraint c = m.constraints[k];
        c.i = localOf.at(c.i);
        c.j = localOf.at(c.j);
        constraints.push_back(c);
        image.constraintIds.push_back(k);
      }
    }
    put(image.bytes, h.constraintsAt, constraints);
    std::vector<uint32_t> exportsLocal;
    for (uint32_t p : exports) exportsLocal.push_back(p - tc.first);
    put(image.bytes, h.exportsAt, exportsLocal);
    out.threads.push_back(std::move(image));
  }
  return out;
}

RingCollector::RingCollector(const FixedMolecule& m, const RingLayout& layout,
                             const RingImages& images)
    : m_(m), images_(images) {
  const size_t n = m.positions.size();
  run_.state.positions.assign(n, Vec{0, 0, 0});
  run_.state.steps.assign(n, Vec{0, 0, 0});
  havePosition_.assign(n, 0);
  haveStep_.assign(n, 0);
  reports_.resize(layout.threads.size());
  timingsIn_.assign(layout.threads.size(), 0);
  timings_.resize(layout.threads.size());
  for (size_t t = 0; t < layout.threads.size(); t++) {
    ring::Header h;
    std::memcpy(&h, images.threads[t].bytes.data(), sizeof h);
    timings_[t].resize(h.timings);
  }
}

bool RingCollector::add(const ring::Message& message) {
  const size_t n = m_.positions.size();
  switch (message.kind) {
    case ring::Kind::kFinalPositions:
    case ring::Kind::kFinalSteps: {
      const bool positions = message.kind == ring::Kind::kFinalPositions;
      if (message.count > ring::kEntriesPerMessage || message.first >= n ||
          message.count > n - message.first) {
        return false;
      }
      for (uint32_t e = 0; e < message.count; e++) {
        const uint32_t p = message.first + e;
        uint8_t& have = positions ? havePosition_[p] : haveStep_[p];
        if (have) return false;
        have = 1;
        (positions ? run_.state.positions : run_.state.steps)[p] = message.entries[e];
        (positions ? positions_ : steps_)++;
      }
      return true;
    }
    case ring::Kind::kTimings: {
      // Only from the ring's threads: the position is in `round`.
      if (message.round >= timings_.size()) return false;
      std::vector<ring::Timing>& mine = timings_[message.round];
      if (message.count > ring::kTimingsPerMessage || message.first > mine.size() ||
          message.count > mine.size() - message.first) {
        return false;
      }
      std::memcpy(&mine[message.first], message.entries, message.count * sizeof(ring::Timing));
      timingsIn_[message.round] += message.count;
      return true;
    }
    case ring::Kind::kReport: {
      ring::Report r;
      static_assert(sizeof r == sizeof message);
      std::memcpy(&r, &message, sizeof r);
      if (r.position >= reports_.size() || reports_[r.position]) return false;
      reports_[r.position] = r;
      reportsIn_++;
      return true;
    }
    default:
      return false;
  }
}

bool RingCollector::complete() const {
  if (positions_ != m_.positions.size() || steps_ != m_.positions.size() ||
      reportsIn_ != reports_.size()) {
    return false;
  }
  for (size_t t = 0; t < reports_.size(); t++) {
    if (timingsIn_[t] < std::min<size_t>(reports_[t]->iterations, timings_[t].size())) {
      return false;
    }
  }
  return true;
}

// The iterations every thread timed, by the critical path: the last thread to begin, the last
// vote, the last thread to know the verdict. Every thread votes after it begins and knows the
// verdict after every vote, so both parts are at least 0.
static void criticalPath(const std::vector<std::vector<ring::Timing>>& timings, uint32_t timed,
                         const std::string& name, RingRun* run) {
  for (uint32_t k = 0; k < timed; k++) {
    for (size_t t = 0; t < timings.size(); t++) {
      const ring::Timing& e = timings[t][k];
      if (e.begin > e.vote || e.vote > e.done) {
        if (run->error.empty()) {
          run->error = errorAt(name, 0,
                               "thread " + std::to_string(t) + "'s times of iteration " +
                                   std::to_string(k + 1) + " are out of order");
        }
        return;
      }
    }
    uint64_t begin = 0, vote = 0, done = 0;
    for (const std::vector<ring::Timing>& t : timings) {
      begin = std::max(begin, t[k].begin);
      vote = std::max(vote, t[k].vote);
      done = std::max(done, t[k].done);
    }
    run->pathCompute += vote - begin;
    run->pathCheck += done - vote;
  }
  run->timed = timed;
}

namespace {

uint64_t joined(uint32_t lo, uint32_t hi) {
  return uint64_t{hi} << 32 | lo;
}

const char* errorName(ring::Error e) {
  switch (e) {
    case ring::Error::kNone:
      return "none";
    case ring::Error::kStretched:
      return "is stretched beyond 32 Å";
    case ring::Error::kTurned:
      return "turned by 90° or more";
    case ring::Error::kTooFar:
      return "needs a correction as long as itself";
    case ring::Error::kLeftRange:
      return "moved a particle out of the fixed-point range";
    case ring::Error::kSumTooLarge:
      return "summed displacement beyond a message's int32";
    case ring::Error::kNotConverged:
      return "did not bring every constraint within tolerance";
    case ring::Error::kBadImage:
      return "found no image it can read";
    case ring::Error::kProtocol:
      return "received a message that fits no exchange in progress";
  }
  return "unknown error";
}

}  // namespace

RingRun RingCollector::result() const {
  RingRun run = run_;
  if (!complete()) {
    run.error = errorAt(m_.name, 0,
                        "the ring sent " + std::to_string(positions_) + " positions, " +
                            std::to_string(steps_) + " steps and " + std::to_string(reportsIn_) +
                            " reports of " + std::to_string(m_.positions.size()) + ", " +
                            std::to_string(m_.positions.size()) + " and " +
                            std::to_string(reports_.size()));
    return run;
  }
  run.stepsDone = reports_[0]->stepsDone;
  run.iterations = reports_[0]->iterations;
  for (size_t t = 0; t < reports_.size(); t++) {
    const ring::Report& r = *reports_[t];
    run.compute += joined(r.computeLo, r.computeHi);
    run.check += joined(r.checkLo, r.checkHi);
    run.update += joined(r.updateLo, r.updateHi);
    run.messages += r.messages;
    if (run.error.empty() && (r.stepsDone != run.stepsDone || r.iterations != run.iterations)) {
      run.error =
          errorAt(m_.name, 0,
                  "thread " + std::to_string(t) + " ran " + std::to_string(r.stepsDone) +
                      " steps and " + std::to_string(r.iterations) + " iterations, thread 0 " +
                      std::to_string(run.stepsDone) + " and " + std::to_string(run.iterations));
    }
    if (run.error.empty() && r.error != ring::Error::kNone) {
      std::string what = "thread " + std::to_string(t) + " ";
      const auto& ids = images_.threads[t].constraintIds;
      if (r.error == ring::Error::kStretched || r.error == ring::Error::kTurned ||
          r.error == ring::Error::kTooFar) {
        const uint32_t k = r.errorConstraint < ids.size() ? ids[r.errorConstraint] : 0;
        what += "found constraint " + std::to_string(k) + " (particles " +
                std::to_string(m_.constraints[k].i) + " and " +
                std::to_string(m_.constraints[k].j) + ") " + errorName(r.error);
      } else {
        what += errorName(r.error);
      }
      run.error = errorAt(m_.name, 0,
                          what + " in SHAKE iteration " + std::to_string(r.errorRound) +
                              " of the run, step " + std::to_string(r.stepsDone + 1) +
                              ": the step diverges");
    }
  }
  uint32_t timed = run.iterations;
  for (size_t t = 0; t < timings_.size(); t++) {
    timed = std::min<uint32_t>(timed, static_cast<uint32_t>(timings_[t].size()));
    if (timingsIn_[t] != std::min<uint32_t>(run.iterations, timings_[t].size())) {
      timed = 0;
      if (run.error.empty()) {
        run.error = errorAt(
            m_.name, 0,
            "thread " + std::to_string(t) + " sent " + std::to_string(timingsIn_[t]) + " timings");
      }
    }
  }
  criticalPath(timings_, timed, m_.name, &run);
  return run;
}

}  // namespace tessera::shake
