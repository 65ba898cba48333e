// The system headers Tinsel's host-side POLite.h includes, directly or through its own headers
// (PGraph.h, HostLink.h, Placer.h, Seq.h, Graph.h, Bitmap.h), which Tinsel programs rely on
// without including them (docs/tinsel.md, "Headers"). POLite.h includes this on the host; Tessera's
// own code includes what it uses.
#ifndef TESSERA_POLITE_TINSELINCLUDES_H
#define TESSERA_POLITE_TINSELINCLUDES_H

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <queue>
#include <type_traits>

// Tinsel's placer includes METIS and OpenMP; their declarations are visible to Tinsel programs.
// (Calling OpenMP's functions also needs -fopenmp when linking, as on Tinsel.)
#if __has_include(<metis.h>)
#include <metis.h>
#endif
#if __has_include(<omp.h>)
#include <omp.h>
#endif

// Tinsel's tinsel-interface.h, which its PDevice.h includes on the host too, defines INLINE.
#ifndef INLINE
#define INLINE inline __attribute__((always_inline))
#endif

// Tinsel's PGraph.h includes HostLink.h, so a program may include only POLite.h. HostLink.h needs
// the program's config.h; a program without one (Tessera's unit tests) gets no HostLink here.
#if __has_include(<config.h>)
#include <config.h>
#endif
#if defined(TesseraConfigProperties) && __has_include(<HostLink.h>)
#include <HostLink.h>
#endif

#endif
