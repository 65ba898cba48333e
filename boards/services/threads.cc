// The board's threads (threads.h, docs/boards.md).
#include "threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/board/board.h"
#include "tessera/board/services.h"

extern "C" {
// switch.S: saves the callee-saved registers, sp, ra and tp into `save` and resumes `load`.
void tessera_board_switch(uintptr_t* save, const uintptr_t* load);
// switch.S: where a thread's first switch lands: enters the runtime with its partition.
void tessera_board_thread_entry();
}

namespace tessera::board::threads {
namespace {

// ra, sp, tp, s0-s11: what switch.S saves, in its order.
constexpr uint32_t kContextWords = 15;
constexpr uint32_t kRa = 0, kSp = 1;

struct Thread {
  uintptr_t context[kContextWords];
  uint32_t waiting;  // in a service call that could not finish (prepare_wait)
  uint32_t woken;    // ... and since woken: it may try again
  uint32_t exited;
  uint32_t msip;
};

struct State {
  Thread* threads;
  TesseraWaits* waits;
  uint32_t* running;  // per hart: the thread it runs
  uint32_t count;
  uint32_t harts;
  uint32_t per_hart;
};

[[gnu::section(".tessera_services")]] State state;

uint32_t load(const uint32_t& word) {
  return __atomic_load_n(&word, __ATOMIC_ACQUIRE);
}

void store(uint32_t& word, uint32_t value) {
  __atomic_store_n(&word, value, __ATOMIC_RELEASE);
}

uint32_t hart_of(uint32_t index) {
  return index / state.per_hart;
}

bool runnable(const Thread& t) {
  return load(t.exited) == 0 && (load(t.waiting) == 0 || load(t.woken) != 0);
}

// The next thread of this hart after `from` that can run, round robin; `from` itself last.
bool next_runnable(uint32_t from, uint32_t* next) {
  const uint32_t first = hart_of(from) * state.per_hart;
  for (uint32_t k = 1; k <= state.per_hart; ++k) {
    const uint32_t candidate = first + (from - first + k) % state.per_hart;
    if (runnable(state.threads[candidate])) {
      *next = candidate;
      return true;
    }
  }
  return false;
}

void switch_to(uint32_t from, uint32_t to) {
  state.running[hart_of(to)] = to;
  tessera_board_switch(state.threads[from].context, state.threads[to].context);
}

// Until this hart's msip is set (by a wake from another hart); then clears it. A wake that lands
// before the wfi leaves msip pending, so the wfi returns at once.
void sleep_hart() {
  unsigned long msie = 1ul << 3;
  asm volatile("csrs mie, %0" : : "r"(msie));
  asm volatile("wfi" : : : "memory");
  hart_interrupt(hart_index(), false);
  asm volatile("fence rw, rw" : : : "memory");
}

// Under the lock: no thread can run again, so no service call will ever wake one. The report is
// -M tessera's (docs/debugging.md), one line per operation that threads wait in.
[[noreturn]] void deadlock() {
  static const char kDeadlock[] =
      "tessera-board: deadlock: every thread waits and nothing can wake one; waiting:";
  console_line(kDeadlock, sizeof kDeadlock - 1);
  char report[TESSERA_CONSOLE_LINE_MAX * 4];
  tessera_waits_report(state.waits, report, sizeof report);
  for (char* line = report; *line != '\0';) {
    char* end = strchr(line, '\n');
    const size_t length = end ? static_cast<size_t>(end - line) : strlen(line);
    console_line(line, length);
    line += length + (end ? 1 : 0);
  }
  finish(TESSERA_DEADLOCK_EXIT_STATUS);
}

// Under the lock: ends the run if every thread that has not exited waits unwoken.
void check_for_deadlock() {
  for (uint32_t i = 0; i < state.count; ++i) {
    if (runnable(state.threads[i])) return;
  }
  deadlock();
}

}  // namespace

void init() {
  const Layout board = layout();
  state.count = tessera_num_threads(&board.shape);
  state.harts = board.harts;
  state.per_hart = state.count / board.harts;
  state.threads = static_cast<Thread*>(calloc(state.count, sizeof(Thread)));
  state.running = static_cast<uint32_t*>(calloc(board.harts, sizeof(uint32_t)));
  state.waits = tessera_waits_new(&board.shape);
  if (state.threads == nullptr || state.running == nullptr || state.waits == nullptr ||
      state.per_hart == 0 || state.count % board.harts != 0) {
    static const char kNoRoom[] = "tessera-board: no room for the threads' state";
    console_line(kNoRoom, sizeof kNoRoom - 1);
    finish(1);
  }
  for (uint32_t i = 0; i < state.count; ++i) {
    Thread& t = state.threads[i];
    t.context[kRa] = reinterpret_cast<uintptr_t>(&tessera_board_thread_entry);
    t.context[kSp] = (partition_base(i) + board.partition_size) & ~uintptr_t{15};
    state.running[hart_of(i)] = hart_of(i) * state.per_hart;
  }
}

TesseraWaits* waits() {
  return state.waits;
}

uint32_t current() {
  if (state.per_hart == 1) return hart_index();
  return state.running[hart_index()];
}

void run_hart() {
  const uint32_t first = hart_index() * state.per_hart;
  uintptr_t discarded[kContextWords];
  state.running[hart_index()] = first;
  tessera_board_switch(discarded, state.threads[first].context);
  __builtin_unreachable();
}

void prepare_wait() {
  Thread& t = state.threads[current()];
  store(t.woken, 0);
  store(t.waiting, 1);
  check_for_deadlock();
}

void wait() {
  const uint32_t me = current();
  Thread& t = state.threads[me];
  while (load(t.woken) == 0) {
    uint32_t next;
    if (state.per_hart > 1 && next_runnable(me, &next) && next != me) {
      switch_to(me, next);
    } else {
      sleep_hart();
    }
  }
  store(t.waiting, 0);
}

void wake(uint32_t index) {
  Thread& t = state.threads[index];
  if (load(t.waiting) == 0 || load(t.woken) != 0) return;
  store(t.woken, 1);
  if (hart_of(index) != hart_of(current())) {
    asm volatile("fence rw, rw" : : : "memory");
    hart_interrupt(hart_of(index), true);
  }
}

void set_msip(uint32_t index, bool pending) {
  store(state.threads[index].msip, pending ? 1 : 0);
  // With one thread a hart, the runtime waits for its msip in wfi (its start-up release).
  if (state.per_hart == 1) hart_interrupt(hart_of(index), pending);
}

bool msip(uint32_t index) {
  return load(state.threads[index].msip) != 0;
}

void exit_thread() {
  const uint32_t me = current();
  lock_services();
  store(state.threads[me].exited, 1);
  tessera_waits_block(state.waits, me, TESSERA_WAIT_OP_FINISHED, cycles());
  check_for_deadlock();
  unlock_services();
  // The hart's other threads may still run, now or once another hart wakes one.
  for (;;) {
    uint32_t next;
    if (state.per_hart > 1 && next_runnable(me, &next)) {
      uintptr_t discarded[kContextWords];
      state.running[hart_index()] = next;
      tessera_board_switch(discarded, state.threads[next].context);
    }
    sleep_hart();
  }
}

}  // namespace tessera::board::threads

namespace tessera::board {

uint32_t thread_index() {
  return threads::current();
}

}  // namespace tessera::board

// start.S of a board whose harts run several threads each.
extern "C" [[noreturn]] void tessera_board_run_threads() {
  tessera::board::threads::run_hart();
}

// The runtime's end of a thread on a board (firmware/runtime/startup.cc).
extern "C" [[noreturn]] void tessera_board_thread_exit() {
  tessera::board::threads::exit_thread();
}

// switch.S's thread entry: the calling thread's partition.
extern "C" uintptr_t tessera_board_thread_partition() {
  return tessera::board::partition_base(tessera::board::threads::current());
}
