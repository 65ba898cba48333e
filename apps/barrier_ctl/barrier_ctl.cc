// barrier_ctl: the counting barrier controller on the machine (docs/barrier-controller.md).
// One image per BARRIER_CASE (CMakeLists.txt); tests/qemu checks what it prints, the exit
// status and the controller's command log (machine option barrier-log).
#include "tessera/drivers/barrier_ctl.h"

#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/exit.h"
#include "tessera/hal/csr.h"
#include "tessera/hw/regs.h"
#include "tessera/apps/word_messages.h"
#include "tessera/print.h"
#include "tinsel.h"

#ifndef BARRIER_CASE
#error "build with -DBARRIER_CASE=<case>"
#endif

// Every thread: uid 1 with the count registered by thread 0, and with it given (override),
// episode after episode, one thread late in each; then two disjoint groups (even and odd
// dense indices) on uids 10 and 11 at once. After each release a thread checks, in its
// board's DRAM, that every participant of its board had entered that episode.
#define CASE_EPISODES 1
// Four threads, one per tile of board (0,0) of 2x1 boards of 2x2 tiles, enter uid 255 with
// count 4 in the order of the grid positions (0,1), (0,0), (1,1), (1,0): the log example of the
// issue and the doc.
#define CASE_LOG 2
// Bad use: count 0 with no registered count, a count other than the open uid's, a count
// above the machine's threads (ENTER and COUNT). Prints each status. Two boards or more.
#define CASE_BAD 3
// Thread 0 enters a barrier of 2 that nobody else enters: a deadlock.
#define CASE_DEADLOCK 4
// A machine reset (the exit device's RESET) with a count registered and an entry waiting: the
// next boot finds no registration and no uid open. Two boards or more.
#define CASE_RESET 5

using tessera::apps::receive_word;
using tessera::apps::send_word;

namespace {

using tessera::drivers::BarrierController;

constexpr uint32_t kEpisodes = 200;
// A board has at most one msip word per thread in its MSWI window.
constexpr uint32_t kMaxBoardThreads = TESSERA_MSWI_STRIDE / 4;

// Per board: the last episode each thread of the board entered, by board-local index.
volatile uint32_t entered_all[kMaxBoardThreads];
volatile uint32_t entered_group[kMaxBoardThreads];

// Work that the modelled clock counts (a late thread), not a wait.
void work(uint32_t iterations) {
  volatile uint32_t sum = 0;
  for (uint32_t i = 0; i < iterations; i++) sum = sum + i;
}

struct Me {
  TesseraShape shape;
  uint32_t id, index, threads, per_board, local, board_first;
};

Me whoami() {
  const tessera::drivers::Sysinfo sysinfo;
  Me m{};
  m.shape = sysinfo.shape();
  m.id = tinselId();
  m.index = tessera_dense_index(&m.shape, m.id);
  m.threads = tessera_num_threads(&m.shape);
  m.per_board = tessera_threads_per_board(&m.shape);
  m.local = m.index % m.per_board;
  m.board_first = m.index - m.local;
  return m;
}

int fail(const Me& m, const char* what, uint32_t a, uint32_t b) {
  tessera::printf("FAIL barrier_ctl: thread 0x%" PRIx32 ": %s (%" PRIu32 ", %" PRIu32 ")\n", m.id,
                  what, a, b);
  return 1;
}

// Every thread of my board with an index in [0, threads) and index % stride == phase has
// entered episode k.
bool board_entered(const Me& m, const volatile uint32_t* entered, uint32_t k, uint32_t stride,
                   uint32_t phase) {
  for (uint32_t local = 0; local < m.per_board; local++) {
    const uint32_t index = m.board_first + local;
    if (index % stride == phase && entered[local] < k) return false;
  }
  return true;
}

int episodes() {
  const Me m = whoami();
  const BarrierController barrier;
  const uint32_t n = m.threads;

  if (m.index == 0 && !barrier.set_count(1, n).ok()) return fail(m, "set_count", 1, n);
  // Nobody enters uid 1 on its registered count before it is registered.
  if (!barrier.enter(2, n).ok()) return fail(m, "enter uid 2 given count", 2, n);
  for (uint32_t k = 1; k <= kEpisodes; k++) {
    if (k % n == m.index % n) work(500);
    entered_all[m.local] = k;
    const tessera::Status s = k % 2 ? barrier.enter(1) : barrier.enter(1, n);
    if (!s.ok()) return fail(m, "enter uid 1, episode", k, static_cast<uint32_t>(s.code()));
    if (!board_entered(m, entered_all, k, 1, 0)) return fail(m, "left before all entered", k, 0);
  }
  // Two disjoint groups at once, each on its own uid and count.
  const uint32_t group = m.index % 2;
  const uint32_t group_count = group == 0 ? (n + 1) / 2 : n / 2;
  for (uint32_t k = 1; k <= kEpisodes; k++) {
    if (k % n == m.index % n) work(300);
    entered_group[m.local] = k;
    const tessera::Status s = barrier.enter(10 + group, group_count);
    if (!s.ok()) return fail(m, "enter group uid, episode", k, static_cast<uint32_t>(s.code()));
    if (!board_entered(m, entered_group, k, 2, group)) {
      return fail(m, "left the group before all entered", k, group);
    }
  }
  tessera::printf("barrier_ctl: thread 0x%" PRIx32 " %" PRIu32 " episodes of %" PRIu32
                  " and %" PRIu32 " of group %" PRIu32 " (%" PRIu32 ") ok\n",
                  m.id, kEpisodes, n, kEpisodes, group, group_count);
  return 0;
}

// The thread on tile (x, y) of board (0, 0), core 0, thread 0.
uint32_t thread_at(const Me& m, uint32_t x, uint32_t y) {
  const TesseraCoords c{0, 0, x, y, 0, 0};
  return tessera_thread_id(&m.shape, &c);
}

int log_example() {
  const Me m = whoami();
  static const uint32_t order[4][2] = {{0, 1}, {0, 0}, {1, 1}, {1, 0}};
  const TesseraCoords at = tessera_coords(&m.shape, m.id);
  const TesseraCoords coordinator_at{1, 0, 0, 0, 0, 0};
  const uint32_t coordinator = tessera_thread_id(&m.shape, &coordinator_at);
  if (m.threads != 8) return fail(m, "wants 2x1 boards of 2x2 tiles of one thread", m.threads, 0);
  // The barrier cannot tell anyone that a thread has entered, so the order comes from the
  // scheduling of the deterministic mode (round-robin: a hart runs until it blocks, or until it
  // wakes another, which then runs, with every other hart that can, before it runs on). A
  // coordinator on board (1,0) wakes the four in turn; each enters as soon as it is woken,
  // so it has entered and blocked before the coordinator wakes the next. The log test checks
  // the order this gives.
  if (m.id == coordinator) {
    for (uint32_t i = 0; i < 4; i++) send_word(thread_at(m, order[i][0], order[i][1]), i);
    return 0;
  }
  if (at.board_x != 0) return 0;
  const uint32_t position = receive_word();
  if (position >= 4 || order[position][0] != at.tile_x || order[position][1] != at.tile_y) {
    return fail(m, "woken for another position", position, 0);
  }
  const uint32_t before = tinselCycleCount();
  const tessera::Status s = BarrierController().enter(255, 4);
  const uint32_t after = tinselCycleCount();
  if (!s.ok()) return fail(m, "enter uid 255", static_cast<uint32_t>(s.code()), 0);
  tessera::printf("barrier_ctl: grid (%" PRIu32 ",%" PRIu32 ") entered at about %" PRIu32
                  ", resumed at %" PRIu32 "\n",
                  at.tile_x, at.tile_y, before, after);
  return 0;
}

uint32_t enter_raw(uint32_t uid, uint32_t count) {
  return tessera::hal::csr_swap<TESSERA_CSR_BARRIER_ENTER>(TESSERA_BARRIER_VALUE(uid, count));
}

int bad() {
  const Me m = whoami();
  // Thread 1 enters uid 7 with count 2, then thread 0 misuses it: a coordinator on another
  // board wakes them in that order (the deterministic mode's round-robin, as in log_example).
  if (m.index == m.per_board) {
    send_word(tessera_thread_at(&m.shape, 1), 1);
    send_word(tessera_thread_at(&m.shape, 0), 0);
    return 0;
  }
  if (m.index > 1) return 0;
  (void)receive_word();
  if (m.index == 1) {
    const uint32_t status = enter_raw(7, 2);
    tessera::printf("barrier_ctl: thread 1 enter uid 7 count 2: status %" PRIu32 "\n", status);
    return status == TESSERA_BARRIER_OK ? 0 : 1;
  }
  uint32_t failures = 0;
  const auto expect = [&](const char* what, uint32_t status, uint32_t want) {
    tessera::printf("barrier_ctl: %s: status %" PRIu32 "\n", what, status);
    failures += status != want;
  };
  expect("count 0 with no registered count", enter_raw(5, 0), TESSERA_BARRIER_NO_COUNT);
  expect("count above the threads", enter_raw(8, m.threads + 1), TESSERA_BARRIER_TOO_MANY);
  // COUNT above the threads is refused: the registration stays as it was.
  (void)tessera::hal::csr_swap<TESSERA_CSR_BARRIER_COUNT>(TESSERA_BARRIER_VALUE(9, 3));
  (void)tessera::hal::csr_swap<TESSERA_CSR_BARRIER_COUNT>(TESSERA_BARRIER_VALUE(9, m.threads + 1));
  expect("count of uid 9 after a refused registration",
         tessera::hal::csr_swap<TESSERA_CSR_BARRIER_COUNT>(TESSERA_BARRIER_VALUE(9, 0)), 3);
  expect("count 3 while uid 7 is open with 2", enter_raw(7, 3), TESSERA_BARRIER_MISMATCH);
  expect("the driver gives a mismatch as Aborted (1: yes)",
         BarrierController().enter(7, 3).code() == tessera::StatusCode::kAborted, 1);
  expect("count 2 releases uid 7", enter_raw(7, 2), TESSERA_BARRIER_OK);
  return failures == 0 ? 0 : 1;
}

int deadlock() {
  const Me m = whoami();
  if (m.index == 0) {
    const tessera::Status s = BarrierController().enter(9, 2);
    return fail(m, "released from a barrier nobody else enters", static_cast<uint32_t>(s.code()),
                0);
  }
  return 0;
}

constexpr uint32_t kBootMagic = 0x42415252;  // "BARR"
// Boots so far, kept across the reset in memory the image does not load.
struct BootRecord {
  uint32_t magic;
  uint32_t boots;
};
[[gnu::section(".noinit")]] volatile BootRecord boot_record;

int reset() {
  const Me m = whoami();
  const BarrierController barrier;
  const bool coordinator = m.index == m.per_board;
  if (!coordinator && m.index > 1) return 0;
  // On boot 1, thread 1 enters uid 3 with count 2 and waits there until the reset.
  if (m.index == 1) {
    if (receive_word() == 1) (void)barrier.enter(3, 2);
    return 0;
  }
  // Thread 0 and the coordinator each count boots in their own board's record (thread 1 shares
  // thread 0's board: it must not count, or the two would race for the record).
  if (boot_record.magic != kBootMagic) {
    boot_record.magic = kBootMagic;
    boot_record.boots = 0;
  }
  const uint32_t boot = boot_record.boots + 1;
  boot_record.boots = boot;
  // Thread 1 enters on boot 1; then thread 0 resets the machine. The coordinator wakes them in
  // that order (as in log_example).
  if (coordinator) {
    send_word(tessera_thread_at(&m.shape, 1), boot == 1 ? 1 : 0);
    send_word(tessera_thread_at(&m.shape, 0), boot);
    return 0;
  }
  uint32_t previous = 0;
  if (boot == 1) {
    if (!barrier.set_count(3, 2, &previous).ok() || previous != 0) {
      return fail(m, "boot 1: registered count before", previous, 0);
    }
    (void)receive_word();
    tessera::printf("barrier_ctl: boot 1: uid 3 registered with 2, thread 1 waits in it\n");
    tessera::reboot();
  }
  (void)receive_word();
  if (!barrier.set_count(3, 0, &previous).ok() || previous != 0) {
    return fail(m, "boot 2: uid 3 still registered with", previous, 0);
  }
  // Open with 2 (thread 1's entry of boot 1) would refuse a count of 1 (MISMATCH).
  const uint32_t status = enter_raw(3, 1);
  tessera::printf(
      "barrier_ctl: boot 2: registered count 0, enter uid 3 count 1: status %" PRIu32 "\n", status);
  return status == TESSERA_BARRIER_OK ? 0 : 1;
}

}  // namespace

int main() {
  switch (BARRIER_CASE) {
    case CASE_EPISODES:
      return episodes();
    case CASE_LOG:
      return log_example();
    case CASE_BAD:
      return bad();
    case CASE_DEADLOCK:
      return deadlock();
    case CASE_RESET:
      return reset();
  }
  return 1;
}
