// Counting barrier controller driver (docs/barrier-controller.md): enter a
// barrier uid with a number of participants and block, without spinning,
// until the last of them has entered; or register a uid's count once so that
// entries can leave it out.
#pragma once

#include <stdint.h>

#include "tessera/hw/regs.h"
#include "tessera/status.h"

namespace tessera::drivers {

class BarrierController {
 public:
  static constexpr uint32_t kMaxUid = TESSERA_BARRIER_UID_MASK;
  static constexpr uint32_t kMaxCount = 0xffff;  // the count field of a value

  // Blocks until `count` threads (0: the count registered for uid) have
  // entered uid. Ok once released; InvalidArgument (no entry) for a uid or
  // count out of range; otherwise the controller's refusal, which changed
  // nothing: FailedPrecondition (count 0, none registered), Aborted (uid
  // open with another count), Unavailable (this thread has an entry out),
  // OutOfRange (more than the machine's threads), ResourceExhausted
  // (TESSERA_BARRIER_MAX_OPEN uids open).
  [[nodiscard]] Status enter(uint32_t uid, uint32_t count = 0) const;

  // Registers `count` for uid (0 removes it); it applies from the uid's
  // next episode. *previous (if given) gets the count registered before.
  // InvalidArgument for a uid or count out of range. A count above the
  // machine's threads is refused by the controller (a guest error) and
  // leaves the registration as it was.
  [[nodiscard]] Status set_count(uint32_t uid, uint32_t count, uint32_t* previous = nullptr) const;

  // The Status of an ENTER status (TESSERA_BARRIER_*).
  static Status status_of(uint32_t barrier_status);
};

}  // namespace tessera::drivers
