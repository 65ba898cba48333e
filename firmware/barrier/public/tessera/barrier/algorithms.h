// The software barrier algorithms (docs/barriers.md): each a planner (software.h) and a class
// named after it, all listed once in TESSERA_SOFTWARE_BARRIERS, from which the classes, the
// table that start-up selection by name reads and the performance model's list are made.
//
//   tessera::barrier::Endpoint endpoint;                    // one per thread
//   tessera::barrier::Dissemination b(endpoint, Group::all());
//   if (!b.init().ok()) ...
//   b.barrier();                                            // or b.notify(); ...; b.wait();
#pragma once

#include <stdint.h>

#include "tessera/barrier/endpoint.h"
#include "tessera/barrier/group.h"
#include "tessera/barrier/schedule.h"
#include "tessera/barrier/software.h"

namespace tessera::barrier {

// X(Class, "name", planner, param): param is the algorithm's knob where it has one (a fan-in).
#define TESSERA_SOFTWARE_BARRIERS(X) X(Central, "central", plan_central, 0)

// Every planner. Central counter: every rank sends its arrival to rank 0, which counts P - 1 of
// them and sends each a release.
void plan_central(const Group& group, uint32_t rank, uint32_t param, Schedule& out);

#define TESSERA_BARRIER_CLASS_(Class, name, planner, param)   \
  class Class : public SoftwareBarrier {                      \
   public:                                                    \
    static constexpr const char* kName = name;                \
    Class(Endpoint& endpoint, const Group& group)             \
        : SoftwareBarrier(endpoint, group, planner, param) {} \
  };
TESSERA_SOFTWARE_BARRIERS(TESSERA_BARRIER_CLASS_)
#undef TESSERA_BARRIER_CLASS_

struct SoftwareAlgorithm {
  const char* name;
  Planner planner;
  uint32_t param;
};

#define TESSERA_BARRIER_ENTRY_(Class, name, planner, param) {name, planner, param},
inline constexpr SoftwareAlgorithm kSoftwareAlgorithms[] = {
    TESSERA_SOFTWARE_BARRIERS(TESSERA_BARRIER_ENTRY_)};
#undef TESSERA_BARRIER_ENTRY_
inline constexpr uint32_t kSoftwareAlgorithmCount =
    sizeof(kSoftwareAlgorithms) / sizeof(kSoftwareAlgorithms[0]);

// The entry named `name`, or null.
const SoftwareAlgorithm* find_software_algorithm(const char* name);

}  // namespace tessera::barrier
