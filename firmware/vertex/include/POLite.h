// POLite, Tessera's vertex-centric API (docs/vertex-api.md): device types (PDevice.h) everywhere;
// on the harts the per-thread runtime (PThread.h), on the host the graph and its placement
// (PGraph.h, in host/polite). TESSERA_POLITE_DEVICE selects the device side on the host too (unit
// tests run the runtime on the host machine).
#ifndef TESSERA_POLITE_H
#define TESSERA_POLITE_H

#include "POLite/PDevice.h"

#if defined(__riscv) || defined(TINSEL) || defined(TESSERA_POLITE_DEVICE)
#include "POLite/PThread.h"
// Tinsel's device-side PDevice.h included <stdlib.h> up to release v0.8 (picolibc's, here).
#include <stdlib.h>
#else
#include "POLite/PGraph.h"
#include "POLite/PResults.h"
#include "POLite/TinselIncludes.h"
#endif

#endif
