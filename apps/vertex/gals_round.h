// The bookkeeping of a GALS vertex (globally asynchronous, locally synchronous): it runs the same
// iterations as its synchronous version, but without global time steps. Each vertex sends its
// value of iteration t tagged with t, adds up what its in-neighbours sent for t, and moves on to
// t + 1 once its own message has gone and all fanIn of theirs have arrived.
//
// On a graph whose every edge u -> v has some edge v -> u back, no in-neighbour can get more than
// one iteration ahead (it would need this vertex's message of the iteration in between), so a
// message is either for this iteration or the next, and two sums suffice. A message from further
// ahead (a graph without the edges back) is counted in `early` and otherwise dropped: the vertex
// then never completes that iteration, which its finish report shows.
#ifndef TESSERA_APPS_VERTEX_GALS_ROUND_H
#define TESSERA_APPS_VERTEX_GALS_ROUND_H

#include <stdint.h>

template <typename T>
struct GalsRound {
  uint32_t iteration;  // the iteration this vertex is in
  T sum;               // what its in-neighbours sent for this iteration
  T sumNext;           // and for the next one
  uint32_t received;
  uint32_t receivedNext;
  uint32_t early;  // messages from more than one iteration ahead
  uint8_t sent;    // its own message of this iteration has gone

  void start() {
    iteration = 0;
    sum = sumNext = T();
    received = receivedNext = early = 0;
    sent = 0;
  }

  void receive(uint32_t messageIteration, T value) {
    if (messageIteration == iteration) {
      sum += value;
      received++;
    } else if (messageIteration == iteration + 1) {
      sumNext += value;
      receivedNext++;
    } else {
      early++;
    }
  }

  // Its own message has gone and all fanIn of its in-neighbours' have arrived.
  bool complete(uint32_t fanIn) const { return sent && received == fanIn; }

  // Moves on to the next iteration; returns the sum of the one that completed.
  T advance() {
    const T done = sum;
    sum = sumNext;
    received = receivedNext;
    sumNext = T();
    receivedNext = 0;
    sent = 0;
    iteration++;
    return done;
  }
};

#endif
