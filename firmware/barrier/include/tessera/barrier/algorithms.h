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
// clang-format off
#define TESSERA_SOFTWARE_BARRIERS(X)                                   \
  X(Central, "central", plan_central, 0)                               \
  X(CombiningTree, "combining-tree", plan_combining_tree, 4)           \
  X(Tournament, "tournament", plan_tournament, 2)                      \
  X(FWayTournament, "f-way-tournament", plan_f_way_tournament, 4)      \
  X(Mcs, "mcs", plan_mcs, 0)                                           \
  X(Binomial, "binomial", plan_binomial, 0)                            \
  X(Butterfly, "butterfly", plan_butterfly, 0)                         \
  X(PairwiseExchange, "pairwise", plan_pairwise, 0)                    \
  X(Dissemination, "dissemination", plan_dissemination, 0)             \
  X(GatherBroadcast, "gather-broadcast", plan_gather_broadcast, 0)
// clang-format on

// The planners; each file's comment gives the algorithm, its messages and its critical path.
// Central counter: every rank sends its arrival to rank 0, which counts P - 1 of them and sends
// each a release.
void plan_central(const Group& group, uint32_t rank, uint32_t param, Schedule& out);
// Combining tree of fan-in param (default 4); the root releases every rank directly.
void plan_combining_tree(const Group& group, uint32_t rank, uint32_t param, Schedule& out);
// Binary tournament: static winners, wake-up retracing the rounds.
void plan_tournament(const Group& group, uint32_t rank, uint32_t param, Schedule& out);
// f-way tournament, f = param (default 4).
void plan_f_way_tournament(const Group& group, uint32_t rank, uint32_t param, Schedule& out);
// MCS tree: 4-ary arrival tree, binary wake-up tree.
void plan_mcs(const Group& group, uint32_t rank, uint32_t param, Schedule& out);
// Binomial spanning tree (MPI's): up and down.
void plan_binomial(const Group& group, uint32_t rank, uint32_t param, Schedule& out);
// Butterfly, with virtual partners when P is not a power of two.
void plan_butterfly(const Group& group, uint32_t rank, uint32_t param, Schedule& out);
// Pairwise exchange by recursive doubling, with the group a/b extension.
void plan_pairwise(const Group& group, uint32_t rank, uint32_t param, Schedule& out);
// Dissemination.
void plan_dissemination(const Group& group, uint32_t rank, uint32_t param, Schedule& out);
// Gather to rank 0, broadcast by board leaders and per-tile multicasts.
void plan_gather_broadcast(const Group& group, uint32_t rank, uint32_t param, Schedule& out);

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
