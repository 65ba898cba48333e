// The detector chosen at build time, for programs built once per backend (tests, benchmarks):
// compile with TESSERA_TERMINATION_METHOD defined to one of
//   TESSERA_TERMINATION_HW          tinselIdle (Hardware)
//   TESSERA_TERMINATION_CLOCKTREE   the asynchronous clock tree (ClockTree)
//   TESSERA_TERMINATION_SAFRA       Safra's token ring (Safra)
// and use tessera::termination::Selected. tessera_termination_app() in
// firmware/termination/CMakeLists.txt builds an app once per backend this way.
#pragma once

#include "tessera/termination/clock_tree.h"
#include "tessera/termination/detector.h"
#include "tessera/termination/hardware.h"
#include "tessera/termination/safra.h"

#define TESSERA_TERMINATION_HW 1
#define TESSERA_TERMINATION_CLOCKTREE 2
#define TESSERA_TERMINATION_SAFRA 3

#ifndef TESSERA_TERMINATION_METHOD
#error "define TESSERA_TERMINATION_METHOD (TESSERA_TERMINATION_HW, _CLOCKTREE or _SAFRA)"
#endif

namespace tessera::termination {

#if TESSERA_TERMINATION_METHOD == TESSERA_TERMINATION_HW
using Selected = Hardware;
#elif TESSERA_TERMINATION_METHOD == TESSERA_TERMINATION_CLOCKTREE
using Selected = ClockTree;
#elif TESSERA_TERMINATION_METHOD == TESSERA_TERMINATION_SAFRA
using Selected = Safra;
#else
#error "unknown TESSERA_TERMINATION_METHOD"
#endif

static_assert(Detector<Selected>);

}  // namespace tessera::termination
