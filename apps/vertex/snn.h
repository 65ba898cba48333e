// A spiking neural network of Izhikevich neurons, in fixed point so that the harts, the host
// reference and the two versions produce the same spikes bit for bit: every neuron reports its
// raster (which of the kSNNSteps time steps it fired in) and the host compares them exactly.
//
// Quantities are Q16.16 (mV, ms units as in Izhikevich's model). Per time step a neuron
// integrates v' = 0.04 v^2 + 5 v + 140 - u + I in two half steps and u' = a (b v - u); at
// v >= 30 mV it fires, v = c and u += d. Its input I is fresh noise, Ir times a cheap Gaussian
// (the sum of eight 4-bit uniforms), plus the weights of the synapses that fired in the last
// step.
//
//   SNNSyncVertex: step() integrates; a neuron that fired sends on its out-edges (the
//                  synapses); receivers add the weight to the next step's input.
//   SNNGalsVertex: no global steps. Every neuron sends every step, fired or not, so that its
//                  targets know when a step is complete; a target moves on once every
//                  in-neighbour's message of the step arrived. That keeps neighbours within one
//                  step of each other only if targets also send back, so the host adds a
//                  zero-weight back-edge for every synapse without one.
#ifndef TESSERA_APPS_VERTEX_SNN_H
#define TESSERA_APPS_VERTEX_SNN_H

#include <POLite.h>

#define kSNNSteps 100
#define kSNNRasterWords ((kSNNSteps + 31) / 32)

typedef int32_t Q16;  // value * 65536
#define Q16_ONE 65536

struct SNNMessage {
  uint32_t id;    // finish
  uint16_t time;  // GALS: the sender's step
  uint8_t fired;  // GALS: did it fire in that step?
  uint8_t reserved;
  uint32_t raster[kSNNRasterWords];  // finish: bit t of word t / 32: fired in step t
};

// The neuron's dynamics and noise, shared by both versions and the host reference.
struct SNNNeuron {
  uint32_t rng;
  Q16 v, u, I;
  Q16 a, b, c, d, Ir;  // set by the host
};

static inline uint32_t snnRandom(uint32_t* state) {
  *state = *state * 1664525u + 1013904223u;
  return *state;
}

// Ir times an approximately normal variate of mean 0 and variance 1 (170 / 13^2).
static inline Q16 snnNoise(SNNNeuron* n) {
  uint32_t r = snnRandom(&n->rng);
  int32_t sum = 0;
  for (int i = 0; i < 8; i++, r >>= 4) sum += static_cast<int32_t>(r & 0xf);
  return static_cast<Q16>(static_cast<int64_t>(n->Ir) * (sum - 60) / 13);
}

static inline Q16 snnMul(Q16 x, Q16 y) {
  return static_cast<Q16>(static_cast<int64_t>(x) * y / Q16_ONE);
}

static inline void snnStart(SNNNeuron* n) {
  n->v = -65 * Q16_ONE;
  n->u = snnMul(n->b, n->v);
  n->I = snnNoise(n);
}

// One time step with the input gathered in n->I; draws the next step's noise. True if it fired.
static inline bool snnIntegrate(SNNNeuron* n) {
  for (int half = 0; half < 2; half++) {
    const int64_t v = n->v;
    const int64_t dv = v * v / Q16_ONE / 25 + 5 * v + 140 * Q16_ONE - n->u + n->I;
    n->v = static_cast<Q16>(n->v + dv / 2);
  }
  n->u += snnMul(n->a, snnMul(n->b, n->v) - n->u);
  const bool fired = n->v >= 30 * Q16_ONE;
  if (fired) {
    n->v = n->c;
    n->u += n->d;
  }
  n->I = snnNoise(n);
  return fired;
}

struct SNNSyncState {
  uint32_t id;
  SNNNeuron neuron;
  uint32_t raster[kSNNRasterWords];
};

struct SNNSyncVertex : PVertex<SNNSyncState, Q16, SNNMessage> {
  void init() {
    snnStart(&s->neuron);
    *readyToSend = No;
  }
  void send(volatile SNNMessage*) { *readyToSend = No; }
  void recv(SNNMessage*, Q16* weight) { s->neuron.I += *weight; }
  bool step() {
    if (time >= kSNNSteps) return false;
    if (snnIntegrate(&s->neuron)) {
      s->raster[time / 32] |= 1u << (time % 32);
      *readyToSend = Pin(0);
    }
    return time + 1 < kSNNSteps;
  }
  bool finish(volatile SNNMessage* msg) {
    msg->id = s->id;
    for (uint32_t i = 0; i < kSNNRasterWords; i++) msg->raster[i] = s->raster[i];
    return true;
  }
};

struct SNNGalsState {
  uint32_t id;
  SNNNeuron neuron;
  uint32_t raster[kSNNRasterWords];
  uint32_t fanIn;  // set by the host: in-edges, back-edges included
  uint32_t step;   // steps integrated so far
  uint32_t received, receivedNext;
  Q16 input, inputNext;  // weights of this step's and next step's spikes
  uint8_t sent;
};

struct SNNGalsVertex : PVertex<SNNGalsState, Q16, SNNMessage> {
  void init() {
    snnStart(&s->neuron);
    *readyToSend = Pin(0);
  }
  void send(volatile SNNMessage* msg) {
    const uint32_t t = s->step;
    const bool fired = snnIntegrate(&s->neuron);
    if (fired) s->raster[t / 32] |= 1u << (t % 32);
    msg->time = static_cast<uint16_t>(t);
    msg->fired = fired;
    s->sent = 1;
    *readyToSend = No;
    advance();
  }
  void recv(SNNMessage* msg, Q16* weight) {
    if (msg->time == s->step) {
      if (msg->fired) s->input += *weight;
      s->received++;
      advance();
    } else {
      if (msg->fired) s->inputNext += *weight;
      s->receivedNext++;
    }
  }
  bool step() { return false; }
  bool finish(volatile SNNMessage* msg) {
    msg->id = s->id;
    for (uint32_t i = 0; i < kSNNRasterWords; i++) msg->raster[i] = s->raster[i];
    return true;
  }

 private:
  // Once this step's message went out and every in-neighbour's arrived: their spikes feed the
  // next step's input.
  void advance() {
    if (!s->sent || s->received < s->fanIn || s->step >= kSNNSteps) return;
    s->neuron.I += s->input;
    s->input = s->inputNext;
    s->inputNext = 0;
    s->received = s->receivedNext;
    s->receivedNext = 0;
    s->step++;
    s->sent = 0;
    *readyToSend = s->step < kSNNSteps ? Pin(0) : No;
  }
};

#endif
