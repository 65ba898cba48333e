// Tessera's devices in software, for dev boards that do not have them (docs/boards.md): the
// HAL's board backend sends every access to Tessera's CSRs and device windows here. The rules
// are the device models' own (models/: sysinfo, console, exit, MSWI), the same plain C that QEMU
// and the host machine use, so a board answers exactly as -M tessera does; the mailbox is the
// board's own storage and copying (mailbox_service.h) on the model's rules (mailbox_rules.h). The
// board supplies its facts, console and exit (tessera/board/board.h); its threads are threads.h's.
//
// The services are set up once, by the first thread, before any other runs (start.S). Their
// state lives in its own section, which the runtime's preparation of the image leaves alone.
#include "tessera/board/services.h"

#include <stdio.h>
#include <string.h>

#include "mailbox_service.h"
#include "service_stack.h"
#include "tessera/board/board.h"
#include "tessera/models/barrier_ctl.h"
#include "tessera/models/console.h"
#include "tessera/models/exit.h"
#include "tessera/models/mailbox.h"
#include "tessera/models/ocbus.h"
#include "tessera/models/preload.h"
#include "tessera/models/reflex.h"
#include "tessera/models/sysinfo.h"
#include "threads.h"

extern "C" {
extern const char __tls_block_size[];
// The linker layout's room for a preload file (board.ld), which HostLink fills.
extern const uint8_t __tessera_preload[];
extern const char __tessera_preload_size[];
// board.ld: the services' stack.
extern uint32_t __tessera_service_stack[];
extern char __tessera_service_stack_top[];
}

namespace tessera::board {
namespace {

// The uids the counting barrier controller holds at once (a count registered or an episode
// open): a table of these rather than tables over all 65,536, which no board's RAM holds.
constexpr uint32_t kBarrierUids = 32;

struct Services {
  TesseraSysinfo* sysinfo;
  TesseraConsole* console;
  TesseraOcbus* ocbus;
  TesseraBarrierCtl* barrier_ctl;
  TesseraReflex* reflex;
};

[[gnu::section(".tessera_services")]] Services services;
[[gnu::section(".tessera_services")]] uint32_t services_held;

// The services' stack (service_stack.h), with a paint at its floor that a call must leave as it
// was.
constexpr uint32_t kStackFloorPaint = 0x53565354u;  // "TSVS"
constexpr uint32_t kStackFloorWords = 4;

class ServicesLock {
 public:
  ServicesLock() { lock_services(); }
  ~ServicesLock() { unlock_services(); }
  ServicesLock(const ServicesLock&) = delete;
  ServicesLock& operator=(const ServicesLock&) = delete;
};

// Threads' stacks sit side by side (the partitions), with nothing between them to fault on: a
// stack that has grown past its partition's thread-local block has overwritten memory that is
// not its own, so the run ends, with a line that says so, at the thread's next service call.
// The reports of this file are cold and out of line, so that their line buffers stay off the
// stack of every service call (a thread of the HiFive1 has 2.25 KiB in all).
[[noreturn, gnu::cold, gnu::noinline]] void stack_overflowed(uint32_t index, uintptr_t sp) {
  lock_services();
  char line[TESSERA_CONSOLE_LINE_MAX];
  const int n =
      snprintf(line, sizeof line,
               "tessera-board: thread %lu's stack has overflowed its partition of %lu "
               "bytes (sp 0x%lx)",
               static_cast<unsigned long>(index),
               static_cast<unsigned long>(layout().partition_size), static_cast<unsigned long>(sp));
  console_line(line, static_cast<size_t>(n));
  finish(1);
}

[[noreturn, gnu::cold, gnu::noinline]] void service_stack_overflowed() {
  char line[TESSERA_CONSOLE_LINE_MAX];
  const int n =
      snprintf(line, sizeof line,
               "tessera-board: the services' stack has overflowed its %lu bytes "
               "(TESSERA_BOARD_SERVICE_STACK_BYTES of the board's board.cmake)",
               static_cast<unsigned long>(__tessera_service_stack_top -
                                          reinterpret_cast<char*>(__tessera_service_stack)));
  console_line(line, static_cast<size_t>(n));
  finish(1);
}

void check_stack() {
  uintptr_t sp;
  asm volatile("mv %0, sp" : "=r"(sp));
  const uint32_t index = thread_index();
  const uintptr_t floor = partition_base(index) + reinterpret_cast<uintptr_t>(__tls_block_size);
  if (sp < floor) stack_overflowed(index, sp);
}

uint32_t thread_id() {
  const TesseraShape shape = layout().shape;
  return tessera_thread_at(&shape, thread_index());
}

void emit_line(void*, uint32_t, const char* line, size_t length) {
  console_line(line, length);
}

// A guest error: Tessera's machine logs it and carries on; a board has no log but its console.
[[gnu::cold, gnu::noinline]] void guest_error(const char* what, uint32_t where, const char* why) {
  char line[TESSERA_CONSOLE_LINE_MAX];
  const int n = snprintf(line, sizeof line, "tessera-board: thread 0x%lx: %s 0x%lx: %s",
                         static_cast<unsigned long>(thread_id()), what,
                         static_cast<unsigned long>(where), why ? why : "refused");
  console_line(line, n > 0 ? static_cast<size_t>(n) : 0);
}

// What the board does not provide yet ends the run: nothing could run on as it would on
// -M tessera.
[[noreturn, gnu::cold, gnu::noinline]] void unsupported(const char* what, uint32_t where) {
  guest_error(what, where, "not provided on this board (docs/boards.md)");
  finish(1);
}

// A mailbox fault: on Tessera an illegal-instruction trap that the runtime reports and ends the
// run with (status 130); here the same two facts, and the same status.
[[noreturn, gnu::cold, gnu::noinline]] void mailbox_fault(uint32_t csr, uint32_t value,
                                                          uint32_t code) {
  char line[TESSERA_CONSOLE_LINE_MAX];
  const int n =
      snprintf(line, sizeof line, "TRAP hart 0x%lx mailbox fault %lu (%s) csr 0x%03lx value 0x%lx",
               static_cast<unsigned long>(thread_id()), static_cast<unsigned long>(code),
               tessera_mailbox_fault_name(code), static_cast<unsigned long>(csr),
               static_cast<unsigned long>(value));
  tessera_console_flush_all(services.console);
  console_line(line, n > 0 ? static_cast<size_t>(n) : 0);
  finish(128 + 2);
}

// The board's side of the access contract (tessera/models/access.h), for an answer that is not
// BLOCKED: a guest error is reported and the thread carries on with the value, as -M tessera
// logs it; a fault ends the run as Tessera's trap does; an access no model answers ends it too.
uint32_t complete(const TesseraAccess& a, const char* what, uint32_t where, uint32_t value) {
  switch (a.status) {
    case TESSERA_ACCESS_DONE:
      return a.value;
    case TESSERA_ACCESS_GUEST_ERROR:
      guest_error(what, where, a.error);
      return a.value;
    case TESSERA_ACCESS_FAULT:
      mailbox_fault(where, value, static_cast<uint32_t>(a.code));
    default:
      unsupported(what, where);
  }
}

// A write whose effect ends the run (the exit device, the last check-in).
void effect(const TesseraAccess& a, const char* what, uint32_t where, uint32_t value) {
  (void)complete(a, what, where, value);
  switch (a.effect) {
    case TESSERA_EFFECT_END_RUN:
      tessera_console_flush_all(services.console);
      finish(a.code);
    case TESSERA_EFFECT_RESET:
      unsupported("exit device reset, written", value);
    default:
      return;
  }
}

uint32_t sysinfo_read(uint32_t offset) {
  switch (offset) {
    case TESSERA_SYSINFO_PARTITION_BASE:
      return static_cast<uint32_t>(partition_base(thread_index()));
    case TESSERA_SYSINFO_PARTITION_SIZE:
      return layout().partition_size;
    case TESSERA_SYSINFO_DRAM_SIZE:
      return layout().ram_size;
    default:
      break;
  }
  return complete(tessera_sysinfo_read(services.sysinfo, thread_id(), offset), "sysinfo read at",
                  offset, 0);
}

void sysinfo_write(uint32_t offset, uint32_t value) {
  effect(tessera_sysinfo_write(services.sysinfo, thread_id(), offset, value), "sysinfo write at",
         offset, value);
}

void exit_write(uint32_t offset, uint32_t value) {
  effect(tessera_exit_write(offset, value), "exit device write at", offset, value);
}

// MSWI: board b's msip of local hart k at TESSERA_MSWI_BASE + b * STRIDE + 4k.
void mswi_write(uint32_t offset, uint32_t value) {
  const TesseraShape shape = layout().shape;
  const uint32_t per_board = tessera_threads_per_board(&shape);
  const uint32_t board = offset / TESSERA_MSWI_STRIDE, word = offset % TESSERA_MSWI_STRIDE / 4;
  if (offset % 4 != 0 || word >= per_board || value > 1 ||
      board >= shape.boards_x * shape.boards_y) {
    guest_error("MSWI write at", offset, "no such msip, or a value other than 0 or 1");
    return;
  }
  threads::set_msip(board * per_board + word, value != 0);
}

struct Answer {
  bool blocked;
  uint32_t value;
};

// The board's one blocking loop: issues `access` (one access of a model, under the lock, on the
// services' stack) until it no longer blocks; while it blocks, the thread waits (threads.h) for
// the device to wake it. `what`, `where` and `value` name the access in reports.
template <typename Access>
uint32_t until_done(const char* what, uint32_t where, uint32_t value, Access access) {
  for (;;) {
    {
      const ServicesLock lock;
      const Answer answer = on_service_stack([&] {
        const TesseraAccess a = access();
        if (a.status == TESSERA_ACCESS_BLOCKED) return Answer{true, 0};
        return Answer{false, complete(a, what, where, value)};
      });
      if (!answer.blocked) {
        tessera_waits_unblock(threads::waits(), thread_index());
        return answer.value;
      }
      threads::prepare_wait();
    }
    threads::wait();
  }
}

// The CSR families below stay out of line: inlined into tessera_board_csr, each one's loop
// state took its own stack slots, and a thread's stack (512 bytes on the HiFive1, under its
// Tinsel SRAM heap) paid for all four at every call.
[[gnu::noinline]] uint32_t mailbox_csr(uint32_t csr, uint32_t value, bool write) {
  return until_done("mailbox CSR", csr, value, [=] {
    const TesseraAccess a = mailbox::csr(thread_index(), csr, value, write);
    if (a.status == TESSERA_ACCESS_BLOCKED) {
      // Only WAIT_UNTIL blocks; the mailbox shows what on.
      tessera_waits_block(
          threads::waits(), thread_index(),
          tessera_mailbox_wait_operation(mailbox::peek(thread_index(), TESSERA_CSR_WAIT_UNTIL)),
          cycles());
    }
    return a;
  });
}

// The open-collector bus, the counting barrier controller and the reflex switches: the models'
// own rules over the board's threads, in the board's time. A guest error is reported and the
// access reads 0, as on -M tessera.
void wake_thread(void*, uint32_t index) {
  threads::wake(index);
}

// A device the board does not provide (TESSERA_BOARD_SERVICES of its board.cmake).
void check_provided(const void* device, const char* what, uint32_t where) {
  if (device == nullptr) {
    const ServicesLock lock;
    unsupported(what, where);
  }
}

[[gnu::noinline]] uint32_t ocbus_wait_csr(uint32_t value) {
  check_provided(services.ocbus, "open-collector bus wait, CSR", TESSERA_CSR_OCBUS_WAIT);
  return until_done("open-collector bus wait", value, value, [=] {
    return tessera_ocbus_wait_csr(services.ocbus, thread_index(), value, cycles());
  });
}

[[gnu::noinline]] uint32_t barrier_csr(uint32_t csr, uint32_t value) {
  check_provided(services.barrier_ctl, "barrier controller, CSR", csr);
  return until_done("barrier controller CSR", csr, value, [=] {
    return tessera_barrier_ctl_csr(services.barrier_ctl, thread_index(), csr, value, cycles());
  });
}

[[gnu::noinline]] uint32_t reflex_csr(uint32_t csr, uint32_t value, bool write) {
  check_provided(services.reflex, "reflex switch, CSR", csr);
  return until_done("reflex CSR", csr, value, [=] {
    return tessera_reflex_csr(services.reflex, thread_index(), csr, write, value, cycles());
  });
}

uint32_t ocbus_read(uint32_t offset) {
  return complete(tessera_ocbus_mmio_read(services.ocbus, thread_index(), offset, cycles()),
                  "open-collector bus read at", offset, 0);
}

void ocbus_write(uint32_t offset, uint32_t value) {
  (void)complete(tessera_ocbus_mmio_write(services.ocbus, thread_index(), offset, value, cycles()),
                 "open-collector bus write at", offset, value);
}

bool within(uint32_t address, uint32_t base, uint32_t size) {
  return address >= base && address - base < size;
}

// The bytes for the threads' partitions built into the image (a preload file, as -M tessera
// takes with preload=; tessera/models/preload.h): HostLink puts a program's graph there
// (PGraph::write) before the board boots. Written before any thread runs; an image without one
// holds a header that is not a preload file's.
uint32_t word_at(const uint8_t* bytes) {
  uint32_t word;
  memcpy(&word, bytes, sizeof word);
  return word;
}

// How long the preload file in `room` bytes is, from its header and records' lengths (the room
// itself where they run past its end, for the check to refuse).
size_t preload_length(const uint8_t* data, size_t room) {
  size_t at = TESSERA_PRELOAD_HEADER_BYTES;
  const uint32_t count = word_at(data + 8);
  for (uint32_t r = 0; r < count; ++r) {
    if (room - at < TESSERA_PRELOAD_RECORD_BYTES) return room;
    const size_t padded = (size_t{word_at(data + at + 8)} + 3) & ~size_t{3};
    at += TESSERA_PRELOAD_RECORD_BYTES;
    if (room - at < padded) return room;
    at += padded;
  }
  return at;
}

[[gnu::noinline]] void apply_preload(const Layout& board) {
  const uint8_t* data = __tessera_preload;
  if (word_at(data) != TESSERA_PRELOAD_MAGIC) return;
  const size_t size = preload_length(data, reinterpret_cast<uintptr_t>(__tessera_preload_size));
  char why[TESSERA_CONSOLE_LINE_MAX - 48];
  if (!tessera_preload_check(data, size, &board.shape, board.partition_size, why, sizeof why)) {
    char line[TESSERA_CONSOLE_LINE_MAX];
    const int n = snprintf(line, sizeof line, "tessera-board: the image's preload: %s", why);
    console_line(line, static_cast<size_t>(n));
    finish(1);
  }
  size_t at = 0;
  TesseraPreloadRecord record;
  while (tessera_preload_next(data, size, &at, &record)) {
    const uint32_t index = tessera_dense_index(&board.shape, record.thread_id);
    memcpy(reinterpret_cast<void*>(partition_base(index) + record.offset), record.bytes,
           record.length);
  }
}

// Tessera's device windows, under the lock, on the services' stack.
uint32_t mmio_read(uint32_t address) {
  if (within(address, TESSERA_SYSINFO_BASE, TESSERA_SYSINFO_SIZE)) {
    return sysinfo_read(address - TESSERA_SYSINFO_BASE);
  }
  if (within(address, TESSERA_OCBUS_BASE, TESSERA_OCBUS_SIZE) && services.ocbus != nullptr) {
    return ocbus_read(address - TESSERA_OCBUS_BASE);
  }
  if (within(address, TESSERA_CONSOLE_BASE, TESSERA_CONSOLE_SIZE) ||
      within(address, TESSERA_EXIT_BASE, TESSERA_EXIT_SIZE) ||
      within(address, TESSERA_MSWI_BASE, TESSERA_MSWI_SIZE)) {
    guest_error("read of write-only", address, "reads 0");
    return 0;
  }
  unsupported("read of device address", address);
}

void mmio_write(uint32_t address, uint32_t value) {
  if (within(address, TESSERA_SYSINFO_BASE, TESSERA_SYSINFO_SIZE)) {
    sysinfo_write(address - TESSERA_SYSINFO_BASE, value);
  } else if (within(address, TESSERA_CONSOLE_BASE, TESSERA_CONSOLE_SIZE)) {
    (void)complete(tessera_console_write(services.console, thread_index(),
                                         address - TESSERA_CONSOLE_BASE, value),
                   "console write at", address, value);
  } else if (within(address, TESSERA_EXIT_BASE, TESSERA_EXIT_SIZE)) {
    exit_write(address - TESSERA_EXIT_BASE, value);
  } else if (within(address, TESSERA_MSWI_BASE, TESSERA_MSWI_SIZE)) {
    mswi_write(address - TESSERA_MSWI_BASE, value);
  } else if (within(address, TESSERA_OCBUS_BASE, TESSERA_OCBUS_SIZE) && services.ocbus != nullptr) {
    ocbus_write(address - TESSERA_OCBUS_BASE, value);
  } else {
    unsupported("write to device address", address);
  }
}

}  // namespace

// The models are not reentrant, and several harts may call at once: one at a time. A waiting
// hart spins only for another's device access, a bounded few hundred instructions; a green
// thread never gives its hart away while it holds the lock.
void lock_services() {
  while (__atomic_exchange_n(&services_held, 1u, __ATOMIC_ACQUIRE) != 0) {
  }
}

void unlock_services() {
  __atomic_store_n(&services_held, 0u, __ATOMIC_RELEASE);
}

void init_service_stack() {
  for (uint32_t k = 0; k < kStackFloorWords; ++k) __tessera_service_stack[k] = kStackFloorPaint;
}

void* service_stack_top() {
  return __tessera_service_stack_top;
}

void check_service_stack() {
  for (uint32_t k = 0; k < kStackFloorWords; ++k) {
    if (__tessera_service_stack[k] != kStackFloorPaint) service_stack_overflowed();
  }
}

namespace {

// The models of Tessera's devices, over the board's threads. Out of line, as apply_preload is:
// the two run one after the other on the services' stack, which holds the larger alone.
[[gnu::noinline]] void create_devices(const Layout& board) {
  TesseraSysinfoConfig config{};
  config.shape = board.shape;
  config.clock_mhz = board.clock_mhz;
  // The model's own DRAM rule (partitions after the code window) is Tessera's; the board's
  // partitions and RAM are answered above, so give the model a size it accepts.
  config.partition_size = board.partition_size;
  config.dram_size =
      TESSERA_CODE_SIZE + tessera_threads_per_board(&board.shape) * board.partition_size;
  config.timing.cpi = 1;
  config.reflex_buffer_flits = TESSERA_DEFAULT_reflex_buffer_flits;
  services.sysinfo = tessera_sysinfo_new(&config);
  services.console = tessera_console_new(tessera_num_threads(&board.shape), emit_line, nullptr);
  const uint32_t threads = tessera_num_threads(&board.shape);
  TesseraOcbusConfig ocbus{};
  ocbus.num_harts = threads;
  ocbus.lines = TESSERA_DEFAULT_ocbus_lines;
  ocbus.waits = threads::waits();
  const TesseraOcbusHost ocbus_host{nullptr, wake_thread};
  if (TESSERA_BOARD_PROVIDES_OCBUS) services.ocbus = tessera_ocbus_new(&ocbus, &ocbus_host);
  TesseraBarrierCtlConfig barrier{};
  barrier.shape = board.shape;
  barrier.uid_slots = kBarrierUids;
  barrier.waits = threads::waits();
  const TesseraBarrierCtlHost barrier_host{nullptr, wake_thread, nullptr};
  if (TESSERA_BOARD_PROVIDES_BARRIER_CTL) {
    services.barrier_ctl = tessera_barrier_ctl_new(&barrier, &barrier_host);
  }
  TesseraReflexConfig reflex{};
  reflex.shape = board.shape;
  reflex.buffer_flits = TESSERA_DEFAULT_reflex_buffer_flits;
  reflex.waits = threads::waits();
  const TesseraReflexHost reflex_host{nullptr, wake_thread};
  if (TESSERA_BOARD_PROVIDES_REFLEX) services.reflex = tessera_reflex_new(&reflex, &reflex_host);
  if (services.sysinfo == nullptr || services.console == nullptr ||
      (TESSERA_BOARD_PROVIDES_OCBUS && services.ocbus == nullptr) ||
      (TESSERA_BOARD_PROVIDES_BARRIER_CTL && services.barrier_ctl == nullptr) ||
      (TESSERA_BOARD_PROVIDES_REFLEX && services.reflex == nullptr)) {
    static const char kNoRoom[] = "tessera-board: no room for the device services";
    console_line(kNoRoom, sizeof kNoRoom - 1);
    finish(1);
  }
}

}  // namespace

void init_services() {
  const Layout board = layout();
  init_service_stack();
  threads::init();
  mailbox::init();
  create_devices(board);
  apply_preload(board);
  check_service_stack();
}

}  // namespace tessera::board

using namespace tessera::board;

extern "C" uint32_t tessera_board_mmio_read32(uint32_t address) {
  check_stack();
  const ServicesLock lock;
  return on_service_stack([=] { return mmio_read(address); });
}

extern "C" void tessera_board_mmio_write32(uint32_t address, uint32_t value) {
  check_stack();
  const ServicesLock lock;
  on_service_stack([=] {
    mmio_write(address, value);
    return true;
  });
}

extern "C" uint32_t tessera_board_csr(uint32_t csr, uint32_t value, int write) {
  check_stack();
  if (tessera_csr_is_mailbox(csr)) return mailbox_csr(csr, value, write != 0);
  if (tessera_csr_is_reflex(csr)) return reflex_csr(csr, value, write != 0);
  switch (csr) {
    case TESSERA_CSR_OCBUS_WAIT:
      return ocbus_wait_csr(value);
    case TESSERA_CSR_BARRIER_COUNT:
    case TESSERA_CSR_BARRIER_ENTER:
      return barrier_csr(csr, value);
    case TESSERA_CSR_HART_ID:
      return thread_id();
    case TESSERA_CSR_CYCLE:
      return static_cast<uint32_t>(cycles());
    case TESSERA_CSR_CYCLEH:
      return static_cast<uint32_t>(cycles() >> 32);
    case TESSERA_CSR_MIP:
      return threads::msip(thread_index()) ? TESSERA_MIP_MSIP : 0;
    case TESSERA_CSR_EMIT: {
      const ServicesLock lock;
      return on_service_stack([=] {
        return tessera_console_emit_csr(services.console, thread_index(), write != 0, value);
      });
    }
    default: {
      const ServicesLock lock;
      unsupported(write ? "write of CSR" : "read of CSR", csr);
    }
  }
}
