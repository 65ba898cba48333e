// Tournament barrier (Hensgen, Finkel and Manber 1988; Mellor-Crummey and Scott 1991), as
// messages. In round k the ranks that are multiples of 2^k meet in pairs: the winner, chosen
// statically (the one with bit k clear), waits for the loser's arrival; a rank whose opponent
// does not exist (P not a power of two) has a bye. A loser waits for its wake-up, then wakes the
// ranks it beat in earlier rounds, latest round first; the champion (rank 0) starts the
// wake-up. Messages: 2(P - 1). Critical path: ceil(log2 P) rounds up and as many down.
//
// With messages this is the binary tree of the lowest set bit: rank r's opponent-winner is
// r - lowbit(r). binomial.cc builds the other binomial tree, of the highest set bit.
#include <stdint.h>

#include "slots.h"
#include "tessera/barrier/algorithms.h"

namespace tessera::barrier {

namespace {

// The rounds rank r won against an existing opponent, in the f-ary generalisation: round k's
// group is the f consecutive multiples of f^k starting at the multiple of f^(k+1) below r.
void plan_rounds(uint32_t p, uint32_t rank, uint32_t f, Schedule& out) {
  uint32_t rounds = 0;  // rounds this rank won (took part in as the group's first)
  uint64_t stride = 1;
  for (; stride < p; stride *= f, rounds++) {
    const uint64_t span = stride * f;
    if (rank % span != 0) {
      break;
    }
    // Wait for this round's losers, one by one in rank order (a tournament looks at one
    // opponent at a time).
    uint32_t losers = 0;
    for (uint64_t r = rank + stride; r < rank + span && r < p; r += stride) {
      losers++;
    }
    out.recv(rounds, losers);
  }
  if (stride < p) {
    // Lost in round `rounds`: arrive at the winner, wait for the wake-up.
    const uint64_t span = stride * f;
    out.send(static_cast<uint32_t>(rank - rank % span), rounds);
    out.recv(slots::kRelease, 1);
  }
  // Wake the ranks beaten, latest round first.
  for (uint32_t k = rounds; k-- > 0;) {
    uint64_t s = 1;
    for (uint32_t i = 0; i < k; i++) {
      s *= f;
    }
    for (uint64_t r = rank + s; r < rank + s * f && r < p; r += s) {
      out.send(static_cast<uint32_t>(r), slots::kRelease);
    }
  }
}

}  // namespace

void plan_tournament(const Group& group, uint32_t rank, uint32_t /*param*/, Schedule& out) {
  plan_rounds(group.size(), rank, 2, out);
}

// f-way tournament (Grunwald and Vajracharya 1994): the same with f ranks meeting in each round
// (param = f, default 4): the winner takes f - 1 arrivals per round, so there are ceil(log_f P)
// rounds. Unlike the combining tree, the wake-up retraces the tournament: each winner wakes the
// ranks it beat, so the root sends at most (f - 1) ceil(log_f P) releases, not P - 1.
void plan_f_way_tournament(const Group& group, uint32_t rank, uint32_t param, Schedule& out) {
  plan_rounds(group.size(), rank, param < 2 ? 2 : param, out);
}

}  // namespace tessera::barrier
