#include "shake_thread.h"

#include "tessera/hal/cycles.h"
#include "tinsel.h"

namespace tessera::shake::ring {

using fixed::Vec;

namespace {

bool fitsInt32(int64_t v) {
  return v >= INT32_MIN && v <= INT32_MAX;
}

Error errorOf(fixed::Outcome outcome) {
  switch (outcome) {
    case fixed::Outcome::kStretched:
      return Error::kStretched;
    case fixed::Outcome::kTurned:
      return Error::kTurned;
    case fixed::Outcome::kTooFar:
      return Error::kTooFar;
    case fixed::Outcome::kOk:
      break;
  }
  return Error::kNone;
}

uint32_t low(uint64_t v) {
  return static_cast<uint32_t>(v);
}

uint32_t high(uint64_t v) {
  return static_cast<uint32_t>(v >> 32);
}

}  // namespace

Error imageError(const Header& h, uint32_t harts, uint32_t position) {
  if (h.magic != kMagic || h.version != kVersion) return Error::kBadImage;
  if (h.ringSize != harts || h.position != position) return Error::kBadImage;
  if (h.method >= kMethods) return Error::kBadImage;
  return Error::kNone;
}

ShakeThread::ShakeThread(Header& h)
    : h_(h),
      x_(at<Vec>(h.positionsAt)),
      start_(at<Vec>(h.startAt)),
      unconstrained_(at<Vec>(h.unconstrainedAt)),
      steps_(at<Vec>(h.stepsAt)),
      divisors_(at<uint32_t>(h.divisorsAt)),
      constraints_(at<fixed::Constraint>(h.constraintsAt)),
      exports_(at<uint32_t>(h.exportsAt)),
      sums_(at<Sum>(h.sumsAt)),
      incoming_(at<Vec>(h.incomingAt)),
      timings_(at<Timing>(h.timingsAt)),
      link_(h, sums_, exports_, incoming_, at<Forward>(h.forwardsAt)) {}

void ShakeThread::fail(Error error, uint32_t constraint) {
  if (error_ != Error::kNone) return;
  error_ = error;
  errorConstraint_ = constraint;
  errorRound_ = round_;
}

// The times of iteration round_ (from 1), while there is room for them.
void ShakeThread::record(uint64_t begin, uint64_t vote, uint64_t done) {
  if (round_ <= h_.timings) timings_[round_ - 1] = {begin, vote, done};
}

void ShakeThread::run() {
  while (stepsDone_ < h_.steps && step()) stepsDone_++;
}

// The exports' positions, to the previous thread, 4 to a message.
void ShakeThread::sendExports(Kind kind) {
  for (uint32_t first = 0; first < h_.exports; first += kEntriesPerMessage) {
    Message m{};
    m.kind = kind;
    m.round = round_;
    m.first = first;
    m.count = h_.exports - first < kEntriesPerMessage ? h_.exports - first : kEntriesPerMessage;
    for (uint32_t e = 0; e < m.count; e++) m.entries[e] = x_[exports_[first + e]];
    link_.send(link_.previous(), m);
  }
}

// The next thread's positions, into the ghosts.
void ShakeThread::takeGhosts(Kind kind) {
  link_.awaitGhosts(kind, round_);
  for (uint32_t g = 0; g < h_.ghosts; g++) x_[h_.owned + g] = incoming_[g];
}

bool ShakeThread::step() {
  const uint64_t stepStart = hal::cycle_count();
  const uint32_t all = h_.owned + h_.ghosts;
  for (uint32_t p = 0; p < all; p++) start_[p] = x_[p];
  for (uint32_t p = 0; p < h_.owned; p++) {
    const Vec kick = fixed::halfKick(h_.tether, x_[p]);
    steps_[p] = {steps_[p].x - kick.x, steps_[p].y - kick.y, steps_[p].z - kick.z};
    if (!fixed::moveBy(&x_[p], steps_[p].x, steps_[p].y, steps_[p].z)) fail(Error::kLeftRange);
    unconstrained_[p] = x_[p];
  }
  uint64_t begin = hal::cycle_count();
  update_ += begin - stepStart;

  // The ghosts' unconstrained positions: this step's first iteration is the next round.
  round_++;
  sendExports(Kind::kStartPositions);
  takeGhosts(Kind::kStartPositions);
  bool converged = false;
  for (uint32_t iteration = 0; iteration < h_.maxIterations && !converged; iteration++) {
    if (iteration > 0) {
      round_++;
      begin = hal::cycle_count();
    }
    computeSums();
    sendGhostSums();
    link_.awaitExportSums(round_);
    applySums();
    sendExports(Kind::kPositions);
    takeGhosts(Kind::kPositions);
    if (link_.protocolError()) fail(Error::kProtocol);
    const bool vote = error_ == Error::kNone && localConstraintsHold();
    const uint64_t voted = hal::cycle_count();
    compute_ += voted - begin;
    converged = agree(vote);
    const uint64_t done = hal::cycle_count();
    check_ += done - voted;
    record(begin, voted, done);
  }
  if (!converged) {
    fail(Error::kNotConverged);
    return false;
  }
  const uint64_t finish = hal::cycle_count();
  for (uint32_t p = 0; p < h_.owned; p++) {
    const Vec kick = fixed::halfKick(h_.tether, x_[p]);
    const Vec& u = unconstrained_[p];
    if (!fixed::moveBy(&steps_[p], int64_t{x_[p].x} - u.x - kick.x, int64_t{x_[p].y} - u.y - kick.y,
                       int64_t{x_[p].z} - u.z - kick.z)) {
      fail(Error::kLeftRange);
    }
  }
  update_ += hal::cycle_count() - finish;
  // An error in the final update is this thread's alone; the ring stops at the next step's
  // all-reduce, which this thread then votes down until maxIterations.
  return true;
}

// The displacements of the LCI and PCCI constraints, summed per local particle (own and
// ghost). sums_ holds only zeros and the previous thread's sums for this round.
void ShakeThread::computeSums() {
  for (uint32_t k = 0; k < h_.constraints; k++) {
    const fixed::Constraint& c = constraints_[k];
    fixed::Displacements d{};
    const fixed::Outcome outcome = fixed::constraintDisplacements(
        c, fixed::difference(start_[c.i], start_[c.j]), fixed::difference(x_[c.i], x_[c.j]), &d);
    if (outcome != fixed::Outcome::kOk) {
      fail(errorOf(outcome), k);
      continue;
    }
    sums_[c.i].add(d.i);
    sums_[c.j].subtract(d.j);
  }
}

// The ghosts' sums to the next thread, which adds them to its own; then they are cleared.
void ShakeThread::sendGhostSums() {
  for (uint32_t first = 0; first < h_.ghosts; first += kEntriesPerMessage) {
    Message m{};
    m.kind = Kind::kDisplacements;
    m.round = round_;
    m.first = first;
    m.count = h_.ghosts - first < kEntriesPerMessage ? h_.ghosts - first : kEntriesPerMessage;
    for (uint32_t e = 0; e < m.count; e++) {
      Sum& s = sums_[h_.owned + first + e];
      if (!fitsInt32(s.x) || !fitsInt32(s.y) || !fitsInt32(s.z)) fail(Error::kSumTooLarge);
      m.entries[e] = {static_cast<int32_t>(s.x), static_cast<int32_t>(s.y),
                      static_cast<int32_t>(s.z)};
      s = {0, 0, 0};
    }
    link_.send(link_.next(), m);
  }
}

// Each own particle moves by its damped sum, which is then cleared for the next round.
void ShakeThread::applySums() {
  for (uint32_t p = 0; p < h_.owned; p++) {
    Sum& s = sums_[p];
    const uint32_t d = divisors_[p];
    if (!fixed::moveBy(&x_[p], fixed::damped(s.x, d), fixed::damped(s.y, d),
                       fixed::damped(s.z, d))) {
      fail(Error::kLeftRange);
    }
    s = {0, 0, 0};
  }
}

bool ShakeThread::localConstraintsHold() const {
  for (uint32_t k = 0; k < h_.constraints; k++) {
    const fixed::Constraint& c = constraints_[k];
    if (!fixed::satisfied(c, fixed::difference(x_[c.i], x_[c.j]))) return false;
  }
  return true;
}

// ACWT: the AND of every thread's vote, by the image's method.
bool ShakeThread::agree(bool vote) {
  const uint32_t P = h_.ringSize;
  if (P == 1) return vote;
  const uint32_t next = link_.next();
  switch (static_cast<Method>(h_.method)) {
    case Method::kRing2: {
      // First lap: the AND so far, from thread 0 back to it. Second lap: the verdict, as far
      // as the last thread.
      bool verdict;
      if (h_.position == 0) {
        link_.sendValue(next, Kind::kCollect, round_, 0, vote);
        verdict = link_.awaitToken(Kind::kCollect, round_);
      } else {
        const bool soFar = link_.awaitToken(Kind::kCollect, round_) && vote;
        link_.sendValue(next, Kind::kCollect, round_, 0, soFar);
        verdict = link_.awaitToken(Kind::kVerdict, round_);
      }
      if (h_.position + 1 < P) link_.sendValue(next, Kind::kVerdict, round_, 0, verdict);
      return verdict;
    }
    case Method::kRingP: {
      link_.sendValue(next, Kind::kVote, round_, h_.position, vote);
      const bool others = link_.awaitVotes(round_);
      link_.flushForwards();
      return others && vote;
    }
    case Method::kOcBus:
      return bus_.all(vote);
  }
  return false;
}

void ShakeThread::sendResults() {
  for (int what = 0; what < 2; what++) {
    const Vec* values = what == 0 ? x_ : steps_;
    for (uint32_t first = 0; first < h_.owned; first += kEntriesPerMessage) {
      Message m{};
      m.kind = what == 0 ? Kind::kFinalPositions : Kind::kFinalSteps;
      m.first = h_.first + first;
      m.count = h_.owned - first < kEntriesPerMessage ? h_.owned - first : kEntriesPerMessage;
      for (uint32_t e = 0; e < m.count; e++) m.entries[e] = values[first + e];
      link_.sendToHost(m);
    }
  }
  const uint32_t timed = round_ < h_.timings ? round_ : h_.timings;
  for (uint32_t first = 0; first < timed; first += kTimingsPerMessage) {
    Message m{};
    m.kind = Kind::kTimings;
    m.round = h_.position;
    m.first = first;
    m.count = timed - first < kTimingsPerMessage ? timed - first : kTimingsPerMessage;
    __builtin_memcpy(m.entries, &timings_[first], m.count * sizeof(Timing));
    link_.sendToHost(m);
  }
  Report r{};
  r.kind = Kind::kReport;
  r.position = h_.position;
  r.stepsDone = stepsDone_;
  r.iterations = round_;
  r.computeLo = low(compute_), r.computeHi = high(compute_);
  r.checkLo = low(check_), r.checkHi = high(check_);
  r.updateLo = low(update_), r.updateHi = high(update_);
  r.error = error_;
  r.errorConstraint = errorConstraint_;
  r.errorRound = errorRound_;
  r.messages = link_.sent();
  Message m;
  static_assert(sizeof m == sizeof r);
  __builtin_memcpy(&m, &r, sizeof m);
  link_.sendToHost(m);
}

}  // namespace tessera::shake::ring
