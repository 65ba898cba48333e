// The spiking neural network on the host, time step by time step with the neurons' own
// arithmetic (snn.h): the reference raster for both SNN versions. Also sets up the neurons, so
// that tests and benchmarks give the harts and the reference the same network.
#ifndef TESSERA_APPS_VERTEX_REFERENCE_SNN_H
#define TESSERA_APPS_VERTEX_REFERENCE_SNN_H

#include <algorithm>
#include <array>
#include <random>

#include "../snn.h"
#include "graph.h"

namespace vertex_reference {

using Raster = std::array<uint32_t, kSNNRasterWords>;

// Izhikevich's mix: four in five neurons excitatory (regular spiking to chattering), the rest
// inhibitory (fast spiking to low threshold); an excitatory synapse weighs up to +0.5, an
// inhibitory one down to -1. The graph's weights are replaced by these.
struct SNNNetwork {
  std::vector<SNNNeuron> neurons;
  Graph synapses;
};

inline SNNNetwork snnNetwork(const Graph& g, uint32_t seed) {
  std::mt19937 rng(seed);
  const auto unit = [&] { return static_cast<Q16>(rng() >> 16); };  // [0, 1) in Q16
  SNNNetwork net;
  net.neurons.resize(g.vertices);
  std::vector<bool> excitatory(g.vertices);
  for (uint32_t v = 0; v < g.vertices; v++) {
    SNNNeuron& n = net.neurons[v];
    const Q16 r = unit();
    excitatory[v] = rng() % 5 != 0;
    if (excitatory[v]) {
      n.a = Q16_ONE / 50;
      n.b = Q16_ONE / 5;
      n.c = -65 * Q16_ONE + 15 * snnMul(r, r);
      n.d = 8 * Q16_ONE - 6 * snnMul(r, r);
      n.Ir = 5 * Q16_ONE;
    } else {
      n.a = Q16_ONE / 50 + snnMul(Q16_ONE * 8 / 100, r);
      n.b = Q16_ONE / 4 - snnMul(Q16_ONE * 5 / 100, r);
      n.c = -65 * Q16_ONE;
      n.d = 2 * Q16_ONE;
      n.Ir = 2 * Q16_ONE;
    }
    n.rng = rng();
  }
  net.synapses.vertices = g.vertices;
  for (const Edge& e : g.edges) {
    const Q16 w = excitatory[e.from] ? unit() / 2 : -unit();
    net.synapses.edges.push_back({e.from, e.to, w});
  }
  return net;
}

// Each neuron's raster: bit t set if it fired in step t.
inline std::vector<Raster> snnRasters(const SNNNetwork& net) {
  std::vector<SNNNeuron> neurons = net.neurons;
  const auto out = net.synapses.outEdges();
  std::vector<Raster> raster(neurons.size(), Raster{});
  for (SNNNeuron& n : neurons) snnStart(&n);
  for (uint32_t t = 0; t < kSNNSteps; t++) {
    std::vector<uint32_t> fired;
    for (uint32_t v = 0; v < neurons.size(); v++) {
      if (snnIntegrate(&neurons[v])) {
        raster[v][t / 32] |= 1u << (t % 32);
        fired.push_back(v);
      }
    }
    for (uint32_t v : fired) {
      for (const Edge& e : out[v]) neurons[e.to].I += e.weight;
    }
  }
  return raster;
}

// The zero-weight back-edges the GALS version needs: one from v to u for every synapse u -> v
// that has no v -> u.
inline std::vector<Edge> snnBackEdges(const Graph& synapses) {
  std::vector<std::vector<uint32_t>> out(synapses.vertices);
  for (const Edge& e : synapses.edges) out[e.from].push_back(e.to);
  for (auto& targets : out) std::sort(targets.begin(), targets.end());
  std::vector<Edge> back;
  for (const Edge& e : synapses.edges) {
    if (!std::binary_search(out[e.to].begin(), out[e.to].end(), e.from)) {
      back.push_back({e.to, e.from, 0});
    }
  }
  return back;
}

}  // namespace vertex_reference

#endif
