// reflex: the reflex barrier on -M tessera (docs/reflex.md). One image per REFLEX_CASE
// (CMakeLists.txt):
//  - barrier: every hart in one ring, kEpisodes split-phase episodes, a different hart late in
//    each. Before notify each hart writes the episode into its slot of its board's DRAM; after
//    wait it checks every slot of its board's ring members: nobody leaves before all arrived.
//  - two_rings: the same on two disjoint rings at once (even and odd dense indices).
//  - bench_simultaneous, bench_jittered: the root prints modelled cycles per barrier over all
//    harts (tests/bench/reflex.sh), with every hart arriving at once or one hart late each time.
//  - open_ring, no_root, off_full: bad configurations; each is a guest error with a defined
//    outcome that the image checks, then it passes.
//  - deadlock: every hart waits for a flit nobody sends (the machine reports it, status 125).
//  - cost: every hart in one ring; the root arrives last, long after the others, and prints the
//    modelled cycles of its barrier: a constant plus one hop per member (reflex_cost_check.sh).
#include "tessera/drivers/reflex.h"

#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/mailbox.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/csr.h"
#include "tessera/hal/cycles.h"
#include "tessera/print.h"

#ifndef REFLEX_CASE
#error "build with -DREFLEX_CASE=<case>"
#endif

#define CASE_BARRIER 1
#define CASE_TWO_RINGS 2
#define CASE_BENCH_SIMULTANEOUS 3
#define CASE_BENCH_JITTERED 4
#define CASE_OPEN_RING 5
#define CASE_NO_ROOT 6
#define CASE_OFF_FULL 7
#define CASE_DEADLOCK 8
#define CASE_COST 9

namespace {

using tessera::drivers::ReflexBarrier;
using tessera::drivers::ReflexRing;
using tessera::drivers::ReflexRoute;
using tessera::drivers::ReflexSwitch;
using tessera::drivers::Sysinfo;

constexpr uint32_t kEpisodes = 40;
constexpr uint32_t kBenchEpisodes = 50;
constexpr uint32_t kMaxBoardHarts = 4096;

// The episode each hart of this board has arrived in, by board-local index. Each board has its
// own DRAM, so each board checks its own harts; the ring joins them all.
volatile uint32_t arrived[kMaxBoardHarts];
constexpr uint32_t kMaxRing = 8192;
uint32_t ring_ids[2][kMaxRing];  // by parity

// A one-word mailbox message: how the bad-configuration cases order their two threads.
void send_word(uint32_t dest, uint32_t word) {
  const tessera::drivers::Mailbox mailbox;
  const tessera::drivers::Slot out = mailbox.send_slot();
  *out.as<uint32_t>() = word;
  (void)mailbox.send(dest, out, 1);
}

void receive_word() {
  const tessera::drivers::Mailbox mailbox;
  (void)mailbox.give(mailbox.recv());
}

// Work of a length the modelled clock counts: what makes a hart late.
uint32_t work(uint32_t iterations) {
  volatile uint32_t sum = 0;
  for (uint32_t i = 0; i < iterations; i++) {
    sum = sum + i;
  }
  return sum;
}

int fail(const char* what, uint32_t episode) {
  tessera::printf("FAIL reflex: thread 0x%" PRIx32 ": %s in episode %" PRIu32 "\n",
                  tessera::hal::csr_read<TESSERA_CSR_HART_ID>(), what, episode);
  return 1;
}

// Episodes on the ring of the harts whose dense index has parity `parity` (stride 2), or of
// every hart (stride 1). Returns the exit status.
int run_episodes(uint32_t stride, uint32_t parity) {
  const Sysinfo sysinfo;
  const TesseraShape shape = sysinfo.shape();
  const uint32_t harts = sysinfo.num_harts();
  const uint32_t me = sysinfo.hart_index();
  const uint32_t per_board = tessera_threads_per_board(&shape);
  const uint32_t board_first = me - me % per_board;
  const uint32_t members = (harts - parity + stride - 1) / stride;
  if (me % stride != parity || members == 0) {
    return 0;
  }
  if (per_board > kMaxBoardHarts || members > kMaxRing) {
    return fail("the machine is too large for this test", 0);
  }
  // The members in ring order, root first, as thread ids; every member of a board's ring
  // writes the same values.
  uint32_t* ids = ring_ids[parity];
  for (uint32_t i = 0; i < members; i++) {
    ids[i] = tessera_thread_at(&shape, parity + i * stride);
  }
  ReflexRing ring;
  if (!ReflexRing::of(ids, members, &ring).ok()) {
    return fail("ReflexRing::of refused the ring", 0);
  }
  ReflexBarrier barrier(ring);
  if (!barrier.init().ok()) {
    return fail("init failed", 0);
  }
  for (uint32_t e = 1; e <= kEpisodes; e++) {
    const uint32_t late = (e * 7) % members;
    if (parity + late * stride == me) {
      (void)work(3000);
    }
    arrived[me - board_first] = e;
    if (!barrier.notify().ok()) {
      return fail("notify failed", e);
    }
    (void)work((me + e) % 3 * 100);  // split phase: work that needs no one else
    if (!barrier.wait().ok()) {
      return fail("wait failed", e);
    }
    for (uint32_t h = board_first; h < board_first + per_board && h < harts; h++) {
      if (h % stride == parity && arrived[h - board_first] < e) {
        return fail("left before every member arrived", e);
      }
    }
  }
  if (ring.root()) {
    tessera::printf("reflex: ring of %" PRIu32 " harts (root 0x%" PRIx32 "), %" PRIu32
                    " episodes, B %" PRIu32 ": every member arrived before any left\n",
                    members, ids[0], kEpisodes, barrier.buffer_flits());
  }
  return 0;
}

// The root prints modelled cycles per barrier over every hart.
int bench(bool jittered) {
  const Sysinfo sysinfo;
  const uint32_t harts = sysinfo.num_harts();
  const uint32_t me = sysinfo.hart_index();
  ReflexBarrier barrier(ReflexRing::all_harts());
  if (!barrier.init().ok() || !barrier.barrier().ok()) {
    return fail("init failed", 0);
  }
  if (me == 0) {
    tessera::printf("reflex_bench: start\n");  // the bench times the episodes from here
  }
  const uint64_t start = tessera::hal::cycle_count();
  for (uint32_t e = 0; e < kBenchEpisodes; e++) {
    if (jittered && me == (e * 7 + 1) % harts) {
      (void)work(200);
    }
    if (!barrier.barrier().ok()) {
      return fail("barrier failed", e);
    }
  }
  const uint64_t cycles = tessera::hal::cycle_count() - start;
  if (me == 0) {
    tessera::printf("reflex_bench: harts %" PRIu32 " arrival %s episodes %" PRIu32
                    " cycles %" PRIu64 "\n",
                    harts, jittered ? "jittered" : "simultaneous", kBenchEpisodes, cycles);
  }
  return 0;
}

// After a first episode the root computes while the others wait in the next one; its barrier
// then lasts its own accesses plus the trip of its flit round the ring, one hop per member.
int cost() {
  ReflexBarrier barrier(ReflexRing::all_harts());
  if (!barrier.init().ok() || !barrier.barrier().ok()) {
    return fail("init failed", 0);
  }
  if (ReflexRing::all_harts().root()) {
    (void)work(20000);
    const uint64_t start = tessera::hal::cycle_count();
    if (!barrier.barrier().ok()) {
      return fail("barrier failed", 1);
    }
    const uint64_t cycles = tessera::hal::cycle_count() - start;
    tessera::printf("reflex_cost: harts %" PRIu32 " cycles %" PRIu64 "\n",
                    ReflexRing::all_harts().size(), cycles);
    return 0;
  }
  return barrier.barrier().ok() ? 0 : fail("barrier failed", 1);
}

// Threads 0 and 1 of a machine of two or more harts act; the others finish at once.
int bad_configuration(uint32_t which) {
  const Sysinfo sysinfo;
  const TesseraShape shape = sysinfo.shape();
  const uint32_t me = sysinfo.hart_index();
  const uint32_t other = tessera_thread_at(&shape, me ^ 1);
  const ReflexSwitch sw;
  const uint32_t b = sysinfo.reflex_buffer_flits();
  if (me > 1) {
    return 0;
  }
  switch (which) {
    case CASE_OPEN_RING:
      if (me == 0) {
        // A route that passes flits on with no next switch: refused, the switch stays off.
        tessera::hal::csr_write<TESSERA_CSR_REFLEX_ROUTE>(TESSERA_REFLEX_ROUTE_BOTH);
        if (sw.route() != ReflexRoute::kOff || sw.send(1).ok()) {
          return fail("an open ring was accepted", 0);
        }
        tessera::printf("reflex: open ring refused, switch still off\n");
      }
      return 0;
    case CASE_NO_ROOT:
      // Thread 0 sends toward thread 1's switch while it is off (unconfigured): the flit waits
      // there. Then (told by a mailbox message) thread 1 forwards to thread 0, which forwards
      // too: a ring with no root. The flit stays in thread 0's outbound buffer.
      if (me == 1) {
        receive_word();
        if (!sw.configure(other, ReflexRoute::kForward).ok()) {
          return fail("configure failed", 0);
        }
        send_word(other, 2);
        return 0;
      }
      {
        if (!sw.configure(other, ReflexRoute::kForward).ok()) {
          return fail("configure failed", 0);
        }
        if (!sw.send(0x5a).ok() || sw.status().outbound_room != b - 1) {
          return fail("the flit did not wait at the off switch", 0);
        }
        send_word(other, 1);
        receive_word();  // thread 1 has closed the ring
        if (sw.status().outbound_room != b - 1) {
          return fail("a flit left a ring with no root", 0);
        }
        tessera::printf("reflex: ring with no root, the flit stays\n");
      }
      return 0;
    case CASE_OFF_FULL:
      if (me == 1) {
        // The root never reads: its inbound buffer fills and its switch turns off.
        if (!sw.configure(other, ReflexRoute::kCore).ok()) {
          return fail("configure failed", 0);
        }
        return 0;
      }
      if (!sw.configure(other, ReflexRoute::kForward).ok()) {
        return fail("configure failed", 0);
      }
      for (uint32_t i = 0; i < 2 * b; i++) {
        if (!sw.send(i).ok()) {
          return fail("a flit with room was refused", i);
        }
      }
      // B flits in thread 1's inbound buffer, B in our outbound one: a send now is refused.
      if (tessera::hal::csr_swap<TESSERA_CSR_REFLEX_SEND>(99) != 0 ||
          sw.status().outbound_room != 0) {
        return fail("a flit to an off and full switch was accepted", 0);
      }
      tessera::printf("reflex: send to an off and full switch refused\n");
      return 0;
    default:
      return 0;
  }
}

}  // namespace

int main() {
  switch (REFLEX_CASE) {
    case CASE_BARRIER:
      return run_episodes(1, 0);
    case CASE_TWO_RINGS: {
      const uint32_t me = Sysinfo().hart_index();
      return run_episodes(2, me % 2);
    }
    case CASE_BENCH_SIMULTANEOUS:
      return bench(false);
    case CASE_BENCH_JITTERED:
      return bench(true);
    case CASE_COST:
      return cost();
    case CASE_DEADLOCK:
      (void)ReflexSwitch().receive();
      return fail("received a flit nobody sent", 0);
    default:
      return bad_configuration(REFLEX_CASE);
  }
}
