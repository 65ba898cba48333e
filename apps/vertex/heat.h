// Heat transfer by Newton's law of cooling on a graph, in two versions that compute the same
// temperatures, iteration for iteration (docs/vertex-api.md). In every time step each vertex
// closes a fixed fraction (kHeatCooling) of the gap between its temperature and the mean of its
// in-neighbours'; source vertices keep theirs.
//   - synchronous (HeatSyncVertex): every vertex sends its temperature in every time step and
//     step() moves it, for `iterations` time steps;
//   - GALS (HeatGalsVertex): the same iterations without time steps (gals_round.h): a vertex tags
//     its temperature with its iteration and moves on once all fanIn of that iteration are in.
//     The run ends at the first termination.
// Temperatures are fixed point (kHeatOne is one degree), so a sum does not depend on the order
// its terms arrive in: both versions and the host's reference (reference/heat_reference.h) agree
// to the last bit. Temperatures in [0, 256) degrees and fewer than 128 in-edges a vertex keep
// every sum within 32 bits.
#ifndef TESSERA_APPS_VERTEX_HEAT_H
#define TESSERA_APPS_VERTEX_HEAT_H

#include <POLite.h>

#include "gals_round.h"

// One degree, Q16.16.
constexpr int32_t kHeatOne = 1 << 16;
// The fraction of the gap a vertex closes per time step, Q16.16.
constexpr int32_t kHeatCooling = kHeatOne / 4;

// The temperature of the next iteration, from the sum of the fanIn in-neighbours' temperatures.
inline int32_t HeatNextTemperature(int32_t temperature, int32_t sum, uint32_t fanIn) {
  if (fanIn == 0) return temperature;
  const int32_t mean = sum / static_cast<int32_t>(fanIn);
  return temperature +
         static_cast<int32_t>((static_cast<int64_t>(mean - temperature) * kHeatCooling) >> 16);
}

struct HeatMessage {
  uint32_t id;         // finish: the vertex
  uint32_t iteration;  // the sender's iteration; finish: the iterations done
  int32_t temperature;
};
// One 16-byte flit a message, as Tinsel's heat transfer.
static_assert(sizeof(PMessage<HeatMessage>) == 16, "a heat message is one flit");

struct HeatSyncState {
  uint32_t id;
  uint32_t fanIn;
  uint32_t iterations;  // to run
  uint32_t iteration;   // done
  int32_t temperature;
  int32_t sum;  // of the temperatures received in this time step
  uint8_t isSource;
};

struct HeatSyncVertex : PVertex<HeatSyncState, None, HeatMessage> {
  void init() {
    s->sum = 0;
    s->iteration = 0;
    *readyToSend = s->iterations > 0 ? Pin(0) : No;
  }
  void send(volatile HeatMessage* msg) {
    msg->iteration = s->iteration;
    msg->temperature = s->temperature;
    *readyToSend = No;
  }
  void recv(HeatMessage* msg, None*) { s->sum += msg->temperature; }
  bool step() {
    if (s->iteration < s->iterations) {
      if (!s->isSource) s->temperature = HeatNextTemperature(s->temperature, s->sum, s->fanIn);
      s->sum = 0;
      s->iteration++;
    }
    const bool more = s->iteration < s->iterations;
    *readyToSend = more ? Pin(0) : No;
    return more;
  }
  bool finish(volatile HeatMessage* msg) {
    msg->id = s->id;
    msg->iteration = s->iteration;
    msg->temperature = s->temperature;
    return true;
  }
};

struct HeatGalsState {
  uint32_t id;
  uint32_t fanIn;
  uint32_t iterations;  // to run
  int32_t temperature;
  GalsRound<int32_t> round;
  uint8_t isSource;
};

struct HeatGalsVertex : PVertex<HeatGalsState, None, HeatMessage> {
  void init() {
    s->round.start();
    *readyToSend = s->iterations > 0 ? Pin(0) : No;
  }
  void send(volatile HeatMessage* msg) {
    msg->iteration = s->round.iteration;
    msg->temperature = s->temperature;
    s->round.sent = 1;
    *readyToSend = No;
    moveOn();
  }
  void recv(HeatMessage* msg, None*) {
    s->round.receive(msg->iteration, msg->temperature);
    moveOn();
  }
  bool step() { return false; }
  bool finish(volatile HeatMessage* msg) {
    msg->id = s->id;
    msg->iteration = s->round.iteration;
    msg->temperature = s->temperature;
    return true;
  }

  // The next iteration, once this one is complete.
  void moveOn() {
    if (s->round.iteration < s->iterations && s->round.complete(s->fanIn)) {
      const int32_t sum = s->round.advance();
      if (!s->isSource) s->temperature = HeatNextTemperature(s->temperature, sum, s->fanIn);
      *readyToSend = s->round.iteration < s->iterations ? Pin(0) : No;
    }
  }
};

#endif
