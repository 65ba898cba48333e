// PageRank in two versions that compute the same scores, iteration for iteration
// (docs/vertex-api.md):
//   - synchronous (PageRankSyncVertex): in every time step each vertex sends score / fanOut along
//     its out-edges; step() then sets score = 0.15 / N + 0.85 * (the sum received), for
//     `iterations` time steps;
//   - GALS (PageRankGalsVertex): the same iterations without time steps (gals_round.h): a vertex
//     tags its share with its iteration and moves on once all fanIn shares of that iteration are
//     in. The run ends at the first termination.
// Scores are fixed point (kPageRankOne is a score of 1), so a sum does not depend on the order
// its shares arrive in: both versions and the host's reference (reference/pagerank_reference.h)
// agree to the last bit.
#ifndef TESSERA_APPS_VERTEX_PAGERANK_H
#define TESSERA_APPS_VERTEX_PAGERANK_H

#include <POLite.h>

#include "gals_round.h"

// A score of 1. All scores add up to at most 1, so every score and every sum of shares fits.
constexpr uint32_t kPageRankOne = 1u << 31;
// 0.85 * 2^32 (the damping factor) and 0.15 * kPageRankOne, rounded.
constexpr uint32_t kPageRankDamping = 3650722202u;
constexpr uint32_t kPageRankTeleport = 322122547u;

inline uint32_t PageRankInitialScore(uint32_t numVertices) {
  return kPageRankOne / numVertices;
}

// What a vertex sends along each of its fanOut out-edges (a vertex with none sends nothing).
inline uint32_t PageRankShare(uint32_t score, uint32_t fanOut) {
  return fanOut == 0 ? 0 : score / fanOut;
}

// The score of the next iteration from the sum of the shares received in this one.
inline uint32_t PageRankNextScore(uint32_t sum, uint32_t numVertices) {
  return kPageRankTeleport / numVertices +
         static_cast<uint32_t>((static_cast<uint64_t>(sum) * kPageRankDamping) >> 32);
}

struct PageRankMessage {
  uint32_t id;         // finish: the vertex
  uint32_t iteration;  // the sender's iteration; finish: the iterations done
  uint32_t value;      // a share; finish: the score
};
// One 16-byte flit a message, as Tinsel's PageRank.
static_assert(sizeof(PMessage<PageRankMessage>) == 16, "a PageRank message is one flit");

struct PageRankSyncState {
  uint32_t id;
  uint32_t fanOut;
  uint32_t iterations;  // to run
  uint32_t iteration;   // done
  uint32_t score;
  uint32_t sum;  // of the shares received in this time step
};

struct PageRankSyncVertex : PVertex<PageRankSyncState, None, PageRankMessage> {
  void init() {
    s->score = PageRankInitialScore(numVertices);
    s->sum = 0;
    s->iteration = 0;
    *readyToSend = s->iterations > 0 ? Pin(0) : No;
  }
  void send(volatile PageRankMessage* msg) {
    msg->iteration = s->iteration;
    msg->value = PageRankShare(s->score, s->fanOut);
    *readyToSend = No;
  }
  void recv(PageRankMessage* msg, None*) { s->sum += msg->value; }
  bool step() {
    if (s->iteration < s->iterations) {
      s->score = PageRankNextScore(s->sum, numVertices);
      s->sum = 0;
      s->iteration++;
    }
    const bool more = s->iteration < s->iterations;
    *readyToSend = more ? Pin(0) : No;
    return more;
  }
  bool finish(volatile PageRankMessage* msg) {
    msg->id = s->id;
    msg->iteration = s->iteration;
    msg->value = s->score;
    return true;
  }
};

struct PageRankGalsState {
  uint32_t id;
  uint32_t fanIn;
  uint32_t fanOut;
  uint32_t iterations;  // to run
  uint32_t score;
  GalsRound<uint32_t> round;
};

struct PageRankGalsVertex : PVertex<PageRankGalsState, None, PageRankMessage> {
  void init() {
    s->score = PageRankInitialScore(numVertices);
    s->round.start();
    *readyToSend = s->iterations > 0 ? Pin(0) : No;
  }
  void send(volatile PageRankMessage* msg) {
    msg->iteration = s->round.iteration;
    msg->value = PageRankShare(s->score, s->fanOut);
    s->round.sent = 1;
    *readyToSend = No;
    moveOn();
  }
  void recv(PageRankMessage* msg, None*) {
    s->round.receive(msg->iteration, msg->value);
    moveOn();
  }
  bool step() { return false; }
  bool finish(volatile PageRankMessage* msg) {
    msg->id = s->id;
    msg->iteration = s->round.iteration;
    msg->value = s->score;
    return true;
  }

  // The next iteration, once this one is complete.
  void moveOn() {
    if (s->round.iteration < s->iterations && s->round.complete(s->fanIn)) {
      s->score = PageRankNextScore(s->round.advance(), numVertices);
      *readyToSend = s->round.iteration < s->iterations ? Pin(0) : No;
    }
  }
};

#endif
