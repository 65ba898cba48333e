// A device model's answer (tessera/models/access.h) as one value to compare, for the model tests
// and the fuzz targets alike (no GoogleTest here: the fuzz targets include it too).
#pragma once

#include "tessera/models/access.h"

namespace tessera::testing {

// What a write asks of the host: the effect, or else a guest error (or nothing).
enum class Action { kNone, kEnd, kReset, kGuestError };

inline Action ActionOf(const TesseraAccess& a) {
  if (a.effect == TESSERA_EFFECT_END_RUN) return Action::kEnd;
  if (a.effect == TESSERA_EFFECT_RESET) return Action::kReset;
  return a.status == TESSERA_ACCESS_GUEST_ERROR ? Action::kGuestError : Action::kNone;
}

// A check-in's answer as one value: its status, or kRunEnds when it ends the run (the effect,
// whose code goes to *exit_code); *error is the answer's error. Either pointer may be null.
inline constexpr int kRunEnds = 1000;

inline int StatusOrRunEnds(const TesseraAccess& a, int* exit_code, const char** error) {
  if (error != nullptr) *error = a.error;
  if (a.effect != TESSERA_EFFECT_END_RUN) return a.status;
  if (exit_code != nullptr) *exit_code = a.code;
  return kRunEnds;
}

// An MSWI write's status, the board-local hart whose msip it wrote (the effect; *hart is left
// alone otherwise) and the reason. Either pointer may be null.
inline TesseraAccessStatus MswiWrite(const TesseraAccess& a, uint32_t* hart, const char** error) {
  if (hart != nullptr && a.effect == TESSERA_EFFECT_MSIP) *hart = static_cast<uint32_t>(a.code);
  if (error != nullptr) *error = a.error;
  return a.status;
}

}  // namespace tessera::testing
