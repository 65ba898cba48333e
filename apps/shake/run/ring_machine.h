// Runs the parallel SHAKE on -M tessera (docs/shake.md, "On the machine"): picks a machine of
// exactly the ring's threads across boards, writes each thread's image through HostLink's
// preload, boots apps/shake, and collects the threads' particles and reports.
#ifndef TESSERA_SHAKE_RING_MACHINE_H
#define TESSERA_SHAKE_RING_MACHINE_H

#include <cstdint>
#include <string>

#include "tessera/hw/regs.h"
#include "tessera/shake/ring_run.h"

namespace tessera::shake {

struct MachineOptions {
  std::string image;                 // apps/shake's ELF
  uint32_t partitionKib = 64;        // per thread; a quarter of it holds the thread's image
  bool cpiIsThreadsPerCore = false;  // cpi = threads per core (every thread of a core shares
                                     // its pipeline, as on Tinsel) instead of 1
};

struct RingShape {
  std::string properties;  // for -M tessera
  TesseraShape shape;
  std::string error;  // no shape has exactly that many harts
};

// The machine of a ring of `threads`: every hart a thread of the ring, over at least two boards
// in a row, 4 threads per core where there are that many.
RingShape ringShape(uint32_t threads, const MachineOptions& options);

// The SRAM heap each thread gets for its image.
uint32_t imageCapacity(const MachineOptions& options);

struct MachineRun {
  RingRun run;
  std::string shape;       // the machine properties used
  double hostSeconds = 0;  // from boot to the last report
};

// Boots the images on the ring's machine and collects the run. Errors (a machine that does not
// start or ends early) end the program with HostLink's one line, as HostLink does.
MachineRun runOnMachine(const FixedMolecule& m, const RingLayout& layout, const RingImages& images,
                        const MachineOptions& options);

}  // namespace tessera::shake

#endif
