// Heat transfer on the host, single-threaded: the synchronous iteration of heat.h, one vertex at
// a time, with the same fixed-point operations, so the machine's temperatures (synchronous and
// GALS) equal it exactly.
#ifndef TESSERA_APPS_VERTEX_REFERENCE_HEAT_REFERENCE_H
#define TESSERA_APPS_VERTEX_REFERENCE_HEAT_REFERENCE_H

#include <stdint.h>

#include <utility>
#include <vector>

#include "heat.h"

// The temperatures (Q16.16) after `iterations` time steps from `initial`, on a graph whose edges
// are (from, to) pairs (an edge given twice counts twice); sources keep their temperature.
inline std::vector<int32_t> HeatReference(const std::vector<int32_t>& initial,
                                          const std::vector<uint8_t>& isSource,
                                          const std::vector<std::pair<uint32_t, uint32_t>>& edges,
                                          uint32_t iterations) {
  const size_t n = initial.size();
  std::vector<uint32_t> fanIn(n, 0);
  for (const auto& [from, to] : edges) fanIn[to]++;
  std::vector<int32_t> temperature = initial;
  std::vector<int32_t> sum(n);
  for (uint32_t i = 0; i < iterations; i++) {
    sum.assign(n, 0);
    for (const auto& [from, to] : edges) sum[to] += temperature[from];
    for (size_t v = 0; v < n; v++) {
      if (!isSource[v]) temperature[v] = HeatNextTemperature(temperature[v], sum[v], fanIn[v]);
    }
  }
  return temperature;
}

// The same iteration in double precision, without rounding (degrees): what the fixed-point
// temperatures approximate.
inline std::vector<double> HeatExact(const std::vector<int32_t>& initial,
                                     const std::vector<uint8_t>& isSource,
                                     const std::vector<std::pair<uint32_t, uint32_t>>& edges,
                                     uint32_t iterations) {
  const size_t n = initial.size();
  std::vector<uint32_t> fanIn(n, 0);
  for (const auto& [from, to] : edges) fanIn[to]++;
  std::vector<double> temperature(n);
  for (size_t v = 0; v < n; v++) temperature[v] = static_cast<double>(initial[v]) / kHeatOne;
  const double cooling = static_cast<double>(kHeatCooling) / kHeatOne;
  std::vector<double> sum(n);
  for (uint32_t i = 0; i < iterations; i++) {
    sum.assign(n, 0.0);
    for (const auto& [from, to] : edges) sum[to] += temperature[from];
    for (size_t v = 0; v < n; v++) {
      if (!isSource[v] && fanIn[v] > 0) {
        temperature[v] += cooling * (sum[v] / fanIn[v] - temperature[v]);
      }
    }
  }
  return temperature;
}

#endif
