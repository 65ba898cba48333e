// Shared by the idle (termination detection) test apps: each is built once per backend
// (idle_<case>_hw, _clocktree, _safra; tessera_termination_app) and runs the same logic on the
// backend tessera/termination/select.h picks.
#pragma once

#include <inttypes.h>
#include <stdint.h>

#include "tessera/drivers/sysinfo.h"
#include "tessera/exit.h"
#include "tessera/hal/csr.h"
#include "tessera/hal/cycles.h"
#include "tessera/hw/regs.h"
#include "tessera/print.h"
#include "tessera/termination/select.h"
#include "tinsel.h"

namespace idle_app {

using Det = tessera::termination::Selected;

// One flit: word 0 belongs to the detector.
struct Msg {
  uint32_t reserved;
  uint32_t a;
  uint32_t b;
  uint32_t c;
};

inline uint64_t cycles() { return tessera::hal::cycle_count(); }

struct Machine {
  TesseraShape shape;
  uint32_t n;      // threads
  uint32_t me;     // my dense index
  uint32_t id;     // my thread id

  Machine() {
    const tessera::drivers::Sysinfo sysinfo;
    shape = sysinfo.shape();
    n = tessera_num_threads(&shape);
    me = sysinfo.hart_index();
    id = tinselId();
  }
  uint32_t boards() const { return shape.boards_x * shape.boards_y; }
  uint32_t per_board() const { return tessera_threads_per_board(&shape); }
  // Thread id of dense index i (the inverse of tessera_dense_index).
  uint32_t thread_at(uint32_t i) const { return tessera_thread_at(&shape, i); }
  uint32_t board_of(uint32_t i) const { return i / per_board(); }
};

inline void send_msg(Det& det, uint32_t dest, uint32_t a, uint32_t b, uint32_t c) {
  volatile Msg* m = static_cast<volatile Msg*>(det.send_slot());
  m->a = a;
  m->b = b;
  m->c = c;
  det.send(dest, m, 1);
}

inline Msg recv_msg(Det& det) {
  volatile Msg* m = static_cast<volatile Msg*>(det.recv());
  const Msg got = {0, m->a, m->b, m->c};
  det.free(m);
  return got;
}

// Release reports: every other thread sends {its index, release cycle (low, high)} to one
// thread, which takes `count` of them and learns who was released first, and when.
inline void report_release(Det& det, uint32_t dest, uint32_t me, uint64_t released) {
  send_msg(det, dest, me, static_cast<uint32_t>(released), static_cast<uint32_t>(released >> 32));
}

struct FirstRelease {
  uint64_t cycle = UINT64_MAX;
  uint32_t thread = 0;
};

inline FirstRelease first_release(Det& det, uint32_t count) {
  FirstRelease first;
  for (uint32_t i = 0; i < count; i++) {
    const Msg got = recv_msg(det);
    const uint64_t at = static_cast<uint64_t>(got.c) << 32 | got.b;
    if (at < first.cycle) {
      first = {at, got.a};
    }
  }
  return first;
}

// Burns about `n` instructions (modelled cycles at cpi 1) without touching any device.
inline void compute(uint32_t n) {
  for (uint32_t i = 0; i < n / 2; i++) {
    asm volatile("" ::: "memory");
  }
}

[[noreturn]] inline void fail(const char* what, uint32_t a = 0, uint32_t b = 0) {
  tessera::printf("FAIL idle (%s): thread 0x%" PRIx32 ": %s (%" PRIu32 ", %" PRIu32 ")\n",
                  Det::kName, tinselId(), what, a, b);
  tessera::exit(1);
}

}  // namespace idle_app
