// barrier: every barrier of the barrier library, chosen by name at start-up (AnyBarrier), over
// groups of many sizes on the machine (docs/barriers.md).
//
// BARRIER_MODE_TEST (image `barrier`, tests/qemu): for each name (the software algorithms, the
// hardware barriers, "auto") and each group size P in {1, 2, 3, 5, 8, 13, 64, the machine}, the
// first P threads of a scattered order (every third dense index first) run 100 episodes (20 on
// more than 64 threads), one late thread in each, half of them split phase with work between
// notify and wait; then two disjoint groups (even and odd dense indices) at once. After each
// episode a member checks, in its board's DRAM, that every member on its board has entered that
// episode (threads share no memory across boards; the host tests check the whole group, in modelled
// time too). One line per configuration; the exit status is the verdict.
//
// BARRIER_MODE_BENCH (image `barrier_bench`, tests/bench/barrier.sh): for each name and each P in
// {1, 2, 3, 4, 5, 8, 13, 16, 32, ... the machine}, with simultaneous and with jittered arrival,
// rank 0 of the group measures the modelled cycles of kBenchEpisodes episodes after a warm-up,
// gathers the barrier messages every member sent, and prints them with the model's prediction.
// Jittered arrival: before each episode each member works a pseudo-random 0..kJitter loop
// iterations; as in EPCC syncbench, the delay is subtracted (here the latest arrival's, which
// is what a barrier waits for), so the figure is the barrier's own cost after the last arrival.
//
// Between configurations every thread of the machine meets on the counting barrier controller
// (uid kControlUid); a thread that is not in a group of the open-collector bus stands aside.
#include <inttypes.h>
#include <stdint.h>

#include "tessera/barrier/any.h"
#include "tessera/barrier/endpoint.h"
#include "tessera/barrier/group.h"
#include "tessera/barrier/hardware.h"
#include "tessera/barrier/model.h"
#include "tessera/drivers/barrier_ctl.h"
#include "tessera/drivers/mailbox.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/exit.h"
#include "tessera/hal/csr.h"
#include "tessera/hal/cycles.h"
#include "tessera/hw/regs.h"
#include "tessera/print.h"

#if !defined(BARRIER_MODE_TEST) && !defined(BARRIER_MODE_BENCH)
#error "build with BARRIER_MODE_TEST or BARRIER_MODE_BENCH"
#endif

namespace {

using tessera::Status;
using tessera::barrier::AnyBarrier;
using tessera::barrier::barrier_name;
using tessera::barrier::Endpoint;
using tessera::barrier::Group;
using tessera::barrier::kBarrierCount;
using tessera::barrier::MachineTiming;
using tessera::barrier::names_equal;
using tessera::barrier::OcBusBarrier;
using tessera::barrier::predict_cycles;

constexpr uint32_t kControlUid = 0xfffe;
// The ids of a group live on each thread's stack: room for the machine's threads (a dev board
// has only a few, and little RAM).
#ifdef TESSERA_BOARD_THREADS
constexpr uint32_t kMaxThreads = TESSERA_BOARD_THREADS;
#else
constexpr uint32_t kMaxThreads = 1024;
#endif
constexpr uint32_t kEpisodes = 100;
constexpr uint32_t kBenchEpisodes = 40;
constexpr uint32_t kWarmUp = 3;
constexpr uint32_t kLateWork = 300;  // loop iterations of the late thread
constexpr uint32_t kJitter = 200;    // loop iterations, at most, of a jittered arrival

// Per board: the latest episode each thread of the board entered, by board-local index, on a
// count that runs on across configurations (so nothing needs resetting).
volatile uint32_t entered[kMaxThreads];

struct Me {
  TesseraShape shape;
  uint32_t id, index, threads, per_board, local;
};

Me whoami() {
  const tessera::drivers::Sysinfo sysinfo;
  Me m{};
  m.shape = sysinfo.shape();
  m.id = tessera::hal::csr_read<TESSERA_CSR_HART_ID>();
  m.index = sysinfo.hart_index();
  m.threads = sysinfo.num_harts();
  m.per_board = tessera_threads_per_board(&m.shape);
  m.local = m.index % m.per_board;
  return m;
}

// Work that the modelled clock counts (a late or jittered arrival), not a wait. Not inlined, so
// that every call runs the same instructions per iteration: the bench's delay-only reference
// times one call for the work of many.
[[gnu::noinline]] void work(uint32_t iterations) {
  volatile uint32_t sum = 0;
  for (uint32_t i = 0; i < iterations; i++) sum = sum + i;
}

// Every thread of the machine meets here between configurations.
void meet_all(const Me& m) {
  if (!tessera::drivers::BarrierController().enter(kControlUid, m.threads).ok()) {
    tessera::printf("FAIL barrier: thread 0x%" PRIx32 ": the control barrier refused\n", m.id);
    tessera::exit(1);
  }
}

bool serves(const char* name, const Group& group, const MachineTiming& timing) {
  return predict_cycles(names_equal(name, "auto") ? "central" : name, group, timing) != 0;
}

// Joins `group` with barrier `name`, or stands aside; then everyone meets, so that every
// member's set-up is done before the first episode.
bool join(const Me& m, const char* name, const Group& group, Endpoint& endpoint,
          AnyBarrier& barrier) {
  const bool member = group.rank_of(m.id) != Group::kNotMember;
  if (member) {
    const Status s = barrier.init(name, endpoint, group);
    if (!s.ok()) {
      tessera::printf("FAIL barrier: thread 0x%" PRIx32 ": %s refused a group of %" PRIu32
                      " (status %s)\n",
                      m.id, name, group.size(), tessera::status_code_name(s.code()));
      tessera::exit(1);
    }
  } else if (names_equal(name, OcBusBarrier::kName)) {
    OcBusBarrier::stand_aside();
  }
  meet_all(m);
  return member;
}

#if defined(BARRIER_MODE_TEST)

// Episodes per configuration: fewer on large machines, to keep a test run short.
uint32_t episodes(const Me& m) {
  return m.threads > 64 ? kEpisodes / 5 : kEpisodes;
}

// The machine's threads in the scattered order: every third dense index first.
void scattered_ids(const Me& m, uint32_t* ids) {
  uint32_t n = 0;
  for (uint32_t start = 0; start < 3; start++) {
    for (uint32_t i = start; i < m.threads; i += 3) ids[n++] = tessera_thread_at(&m.shape, i);
  }
}

// Every member of `group` on my board has entered episode `e`.
bool board_entered(const Me& m, const Group& group, uint32_t e) {
  for (uint32_t r = 0; r < group.size(); r++) {
    const uint32_t index = tessera_dense_index(&m.shape, group.member(r));
    if (index / m.per_board == m.index / m.per_board && entered[index % m.per_board] < e) {
      return false;
    }
  }
  return true;
}

// episodes(m) episodes of a joined barrier, one member late in each, the second half split phase.
// `base`: the count behind `entered` before this configuration (the same on every thread).
void run_episodes(const Me& m, const char* name, const Group& group, AnyBarrier& barrier,
                  uint32_t base) {
  const uint32_t rank = group.rank_of(m.id);
  const uint32_t p = group.size();
  for (uint32_t k = 1; k <= episodes(m); k++) {
    const uint32_t e = base + k;
    if (k % p == rank) work(kLateWork);
    entered[m.local] = e;
    if (k <= episodes(m) / 2) {
      barrier.barrier();
    } else {
      barrier.notify();
      work(20);
      barrier.wait();
    }
    if (!board_entered(m, group, e)) {
      tessera::printf("FAIL barrier: %s p=%" PRIu32 ": thread 0x%" PRIx32 " left episode %" PRIu32
                      " before a member of its board entered it\n",
                      name, p, m.id, k);
      tessera::exit(1);
    }
  }
  barrier.finish();
}

void one_group(const Me& m, const MachineTiming& timing, const char* name, const uint32_t* ids,
               uint32_t p, uint32_t& base) {
  // The whole machine as Group::all, which tinselIdle needs.
  const Group group = p == m.threads ? Group::all(m.shape) : Group::of(m.shape, ids, p);
  if (!serves(name, group, timing)) return;
  Endpoint endpoint;
  AnyBarrier barrier;
  const bool member = join(m, name, group, endpoint, barrier);
  if (member) run_episodes(m, name, group, barrier, base);
  base += episodes(m);
  meet_all(m);
  if (member && group.rank_of(m.id) == 0) {
    tessera::printf("barrier: %s%s%s p=%" PRIu32 " episodes=%" PRIu32
                    ": every member entered before any left\n",
                    name, names_equal(name, "auto") ? " chose " : "",
                    names_equal(name, "auto") ? barrier.name() : "", p, episodes(m));
  }
}

// Even and odd dense indices, at once.
void two_groups(const Me& m, const char* name, uint32_t* ids, uint32_t& base) {
  if (names_equal(name, "idle") || names_equal(name, "ocbus")) return;  // one group at a time
  uint32_t halves[2] = {0, 0};
  const uint32_t odd_start = (m.threads + 1) / 2;
  for (uint32_t i = 0; i < m.threads; i++) {
    ids[i % 2 == 0 ? halves[0]++ : odd_start + halves[1]++] = tessera_thread_at(&m.shape, i);
  }
  const uint32_t mine = m.index % 2;
  const Group group = Group::of(m.shape, ids + (mine ? odd_start : 0), halves[mine]);
  Endpoint endpoint;
  AnyBarrier barrier;
  (void)join(m, name, group, endpoint, barrier);
  run_episodes(m, name, group, barrier, base);
  base += episodes(m);
  meet_all(m);
  if (group.rank_of(m.id) == 0) {
    tessera::printf("barrier: %s two groups of %" PRIu32 " and %" PRIu32 " at once, group %" PRIu32
                    ": every member entered before any left\n",
                    name, halves[0], halves[1], mine);
  }
}

int run(const Me& m) {
  static const uint32_t kSizes[] = {1, 2, 3, 5, 8, 13, 64};
  const MachineTiming timing = MachineTiming::of_this_machine();
  uint32_t ids[kMaxThreads];
  uint32_t configurations = 0;
  uint32_t base = 0;
  for (uint32_t i = 0; i <= kBarrierCount; i++) {
    const char* name = i < kBarrierCount ? barrier_name(i) : "auto";
    for (uint32_t p : kSizes) {
      if (p < m.threads) {
        scattered_ids(m, ids);
        one_group(m, timing, name, ids, p, base);
        configurations++;
      }
    }
    scattered_ids(m, ids);
    one_group(m, timing, name, ids, m.threads, base);
    two_groups(m, name, ids, base);
    configurations += 2;
  }
  if (m.index == 0) {
    tessera::printf("barrier: %" PRIu32 " barriers on %" PRIu32 " threads: all passed\n",
                    kBarrierCount + 1, m.threads);
  }
  (void)configurations;
  return 0;
}

#else  // BARRIER_MODE_BENCH

uint32_t jitter(uint32_t episode, uint32_t rank) {
  uint32_t x = episode * 0x9e3779b9u ^ (rank + 1) * 0x85ebca6bu;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  return x % (kJitter + 1);
}

// One measured configuration: rank 0 prints what it measured.
void measure(const Me& m, const MachineTiming& timing, const char* name, const uint32_t* ids,
             uint32_t p, bool jittered) {
  // The whole machine as Group::all, which tinselIdle needs.
  const Group group = p == m.threads ? Group::all(m.shape) : Group::of(m.shape, ids, p);
  if (!serves(name, group, timing)) return;
  Endpoint endpoint;
  AnyBarrier barrier;
  const char* arrival = jittered ? "jittered" : "simultaneous";
  const bool member = join(m, name, group, endpoint, barrier);
  const uint32_t rank = group.rank_of(m.id);
  if (rank == 0) {
    tessera::printf("barrier-bench: begin name=%s p=%" PRIu32 " arrival=%s\n", name, p, arrival);
  }
  if (member) {
    for (uint32_t k = 0; k < kWarmUp; k++) barrier.barrier();
    const uint32_t sent_before = endpoint.barrier_sent();
    const uint64_t start = tessera::hal::cycle_count();
    for (uint32_t k = 1; k <= kBenchEpisodes; k++) {
      if (jittered) work(jitter(k, rank));
      barrier.barrier();
    }
    const uint64_t cycles = tessera::hal::cycle_count() - start;
    const uint32_t sent = endpoint.barrier_sent() - sent_before;
    barrier.finish();
    // Every member's messages, to rank 0 (application messages through the endpoint), once
    // everyone has left the barrier: a message that reached rank 0 while it still waited in the
    // barrier would take one of the endpoint's few copies.
    meet_all(m);
    if (rank != 0) {
      volatile uint32_t* out = static_cast<volatile uint32_t*>(endpoint.send_slot());
      out[1] = sent;
      endpoint.send_application(group.member(0), out, 1);
    } else {
      uint64_t messages = sent;
      for (uint32_t r = 1; r < p; r++) {
        volatile uint32_t* in = static_cast<volatile uint32_t*>(endpoint.recv());
        messages += in[1];
        endpoint.free(in);
      }
      // The latest arrival's delay in each episode, in cycles of this thread's own work loop.
      uint64_t jitter_cycles = 0;
      if (jittered) {
        uint64_t iterations = 0;
        for (uint32_t k = 1; k <= kBenchEpisodes; k++) {
          uint32_t latest = 0;
          for (uint32_t r = 0; r < p; r++) {
            const uint32_t d = jitter(k, r);
            latest = d > latest ? d : latest;
          }
          iterations += latest;
        }
        const uint64_t t0 = tessera::hal::cycle_count();
        work(static_cast<uint32_t>(iterations));
        jitter_cycles = tessera::hal::cycle_count() - t0;
      }
      tessera::printf("barrier-bench: name=%s chosen=%s p=%" PRIu32 " arrival=%s episodes=%" PRIu32
                      " cycles=%" PRIu64 " jitter_cycles=%" PRIu64 " messages=%" PRIu64
                      " predicted=%" PRIu64 "\n",
                      name, barrier.name(), p, arrival, kBenchEpisodes, cycles, jitter_cycles,
                      messages, predict_cycles(barrier.name(), group, timing));
    }
  } else {
    meet_all(m);  // the members' meeting after their episodes
  }
  meet_all(m);
}

// The model's instruction counts, measured (docs/barriers.md, "The model"): threads 0 and 1 (one
// tile) time kCalibration barrier sends back to back and, with the messages already waiting,
// kCalibration receives; with the machine's cpi, cycles per send and per receive.
void calibrate(const Me& m) {
  constexpr uint32_t kCalibration = 16;
  constexpr uint32_t kTag = 3;
  Endpoint endpoint;
  endpoint.enter(kTag, 1);
  const uint32_t partner = tessera_thread_at(&m.shape, 1 - m.index);
  uint64_t send_cycles = 0;
  uint64_t receive_cycles = 0;
  meet_all(m);
  if (m.index == 0) {  // sends while thread 1 takes them in
    const uint64_t t0 = tessera::hal::cycle_count();
    for (uint32_t i = 0; i < kCalibration; i++) endpoint.send(partner, kTag, 0);
    send_cycles = tessera::hal::cycle_count() - t0;
  } else if (m.index == 1) {
    endpoint.await(kTag, 0, kCalibration);
  }
  meet_all(m);
  if (m.index == 0) {
    for (uint32_t i = 0; i < kCalibration; i++) endpoint.send(partner, kTag, 1);
  }
  meet_all(m);
  if (m.index == 1) {  // receives of messages that are already there
    const uint64_t t0 = tessera::hal::cycle_count();
    endpoint.await(kTag, 1, kCalibration);
    receive_cycles = tessera::hal::cycle_count() - t0;
    tessera::printf("barrier-bench: calibration receive_cycles=%" PRIu64 " count=%" PRIu32 "\n",
                    receive_cycles, kCalibration);
  }
  meet_all(m);
  if (m.index == 0) {
    tessera::printf("barrier-bench: calibration send_cycles=%" PRIu64 " count=%" PRIu32 "\n",
                    send_cycles, kCalibration);
  }
}

int run(const Me& m) {
  static const uint32_t kSizes[] = {1, 2, 3, 4, 5, 8, 13, 16, 32, 64, 128, 256, 512, 1024};
  const MachineTiming timing = MachineTiming::of_this_machine();
  uint32_t ids[kMaxThreads];
  for (uint32_t k = 0; k < m.threads; k++) ids[k] = tessera_thread_at(&m.shape, k);
  if (m.threads >= 2) calibrate(m);
  for (uint32_t i = 0; i <= kBarrierCount; i++) {
    const char* name = i < kBarrierCount ? barrier_name(i) : "auto";
    for (uint32_t p : kSizes) {
      if (p > m.threads) break;
      measure(m, timing, name, ids, p, false);
      measure(m, timing, name, ids, p, true);
    }
    if (m.threads & (m.threads - 1)) {  // the machine itself, if it is no power of two
      measure(m, timing, name, ids, m.threads, false);
      measure(m, timing, name, ids, m.threads, true);
    }
  }
  if (m.index == 0) tessera::printf("barrier-bench: done\n");
  return 0;
}

#endif

}  // namespace

int main() {
  const Me m = whoami();
  if (m.threads > kMaxThreads) {
    if (m.index == 0) {
      tessera::printf("FAIL barrier: %" PRIu32 " threads; this app runs on at most %" PRIu32 "\n",
                      m.threads, kMaxThreads);
    }
    return 2;
  }
  return run(m);
}
