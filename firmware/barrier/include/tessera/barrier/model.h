// The barriers' performance model (docs/barriers.md, "The model"): LogGP with a latency per
// mesh hop, in closed form per algorithm, predicting modelled cycles per episode with every
// member arriving at once. `auto` (any.h) uses it to pick a software algorithm.
//
// Parameters, in cycles, from the machine's properties (sysinfo's timing registers):
//   o_s, o_r   the instructions of one barrier send / one receive in the endpoint, times cpi
//   L(a, b)    the mesh's uncontended latency between two threads' tiles (models/mesh.c, the
//              rule the mailbox network and the barrier controller follow)
//   E          the instructions of one episode's notify and wait around the messages, times cpi
// g, the gap between two sends of one thread, is o_s here (the mailbox takes a one-flit message
// as soon as the previous one has left), and G, the cost per extra flit, does not arise: every
// barrier message is one flit. The instruction counts were measured on -M tessera
// (docs/barriers.md gives the runs).
#pragma once

#include <stdint.h>

#include "tessera/barrier/group.h"
#include "tessera/hw/regs.h"

namespace tessera::barrier {

struct MachineTiming {
  TesseraShape shape;
  TesseraTiming timing;

  // The machine the caller runs on (sysinfo).
  static MachineTiming of_this_machine();
};

// Instructions per operation: cycles at cpi 1 on -M tessera, as ./tessera bench barrier
// measures them (docs/barriers.md, "The model"): a barrier send and a receive of a waiting
// message in the endpoint (its calibration lines), an episode of a group of one (notify and wait
// through AnyBarrier, and the loop), and each hardware barrier over one thread.
struct ModelInstructions {
  static constexpr uint32_t kSend = 52;
  static constexpr uint32_t kReceive = 60;
  static constexpr uint32_t kEpisode = 64;
  static constexpr uint32_t kOcBus = 72;
  static constexpr uint32_t kIdle = 64;
  static constexpr uint32_t kReflex = 140;
  static constexpr uint32_t kController = 62;
};

// Uncontended latency between two threads of the machine.
uint64_t mesh_latency(const MachineTiming& t, uint32_t from_id, uint32_t to_id);

// Predicted cycles per episode of the barrier `name` (algorithms.h's names and hardware.h's)
// over `group`; 0 for an unknown name or a barrier that cannot serve the group.
uint64_t predict_cycles(const char* name, const Group& group, const MachineTiming& t);

// The software algorithm predicted fastest for the group (ties: the first in algorithms.h).
// Software only: a program that asks for `auto` runs wherever the mailbox does, including boards
// without Tessera's barrier hardware (docs/barriers.md).
const char* choose_barrier(const Group& group, const MachineTiming& t);
const char* choose_barrier(const Group& group);  // on the caller's machine

}  // namespace tessera::barrier
