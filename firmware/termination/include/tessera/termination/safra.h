// Safra's termination detection (Dijkstra, EWD998) in software, over a ring of every thread in
// dense-index order: thread 0 (the master) -> 1 -> ... -> N-1 -> 0 (docs/idle.md, "Software
// baselines").
//
// Each thread keeps a count c (application messages sent - received) and a colour: it turns
// black when it receives an application message. A token (sum q, colour, AND of votes) goes
// round the ring; a thread passes it on only while it is blocked in idle(), adding its c and
// its colour, and turns white. The master starts a lap (white token, q = 0) when it is idle,
// turning white itself, and when the token comes back while it is idle it concludes
// termination if the token is white, it is white itself and q + c(master) = 0; otherwise it
// starts another lap. EWD998's invariant proves that such a lap means every thread is idle
// and no message is in flight; a thread that left idle after passing the token on would have
// made the lap fail (a message reached it: either its sender had not yet passed the token on,
// so the sum is off, or the sender was itself woken by such a chain, which ends at a thread
// that received before passing the token on and blackened it). So each thread is still in the
// idle() call whose vote it put on the token.
//
// Release: the master sends a release message round the ring; each thread passes it on at
// once and returns the result from idle(). The master starts the next lap as soon as it is
// idle again; the token follows the release round the ring (messages between two threads
// arrive in order), so the release and the next lap overlap. round_trips() counts the laps
// the master has completed (the release is not counted: it runs just ahead of the next lap).
#pragma once

#include <stdint.h>

#include "tessera/termination/software.h"

namespace tessera::termination {

class Safra : public Software<Safra> {
 public:
  static constexpr const char* kName = "sw-safra";

  Safra();

  uint32_t lap() const { return lap_; }

 private:
  friend class Software<Safra>;

  static constexpr uint32_t kToken = wire::kControl1;    // w1 q, w2 flags, w3 lap
  static constexpr uint32_t kRelease = wire::kControl2;  // header: episode, result

  void on_control(const volatile uint32_t* msg);
  void progress();
  bool step();  // one action if one is due; false if nothing to do
  void start_lap();
  void decide();

  bool master_;
  bool next_is_master_;
  uint32_t next_;

  bool have_token_ = false;  // holds the token (for the master: it has come back)
  bool token_out_ = false;   // master: a lap is under way
  uint32_t q_ = 0;
  bool token_black_ = false;
  bool token_vote_ = true;
  uint32_t lap_ = 0;
};

static_assert(Detector<Safra>);

}  // namespace tessera::termination
