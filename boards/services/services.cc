// Tessera's devices in software, for dev boards that do not have them (docs/boards.md): the
// HAL's board backend sends every access to Tessera's CSRs and device windows here. The rules
// are the device models' own (models/: sysinfo, console, exit, MSWI), the same plain C that QEMU
// and the host machine use, so a board answers exactly as -M tessera does; the mailbox is the
// board's own (mailbox_service.h), on the same rules. The board supplies its facts, console and
// exit (tessera/board/board.h); its threads are threads.h's.
//
// The services are set up once, by the first thread, before any other runs (start.S). Their
// state lives in its own section, which the runtime's preparation of the image leaves alone.
#include "tessera/board/services.h"

#include <stdio.h>

#include "mailbox_service.h"
#include "tessera/board/board.h"
#include "tessera/models/console.h"
#include "tessera/models/exit.h"
#include "tessera/models/sysinfo.h"
#include "threads.h"

namespace tessera::board {
namespace {

struct Services {
  TesseraSysinfo* sysinfo;
  TesseraConsole* console;
};

[[gnu::section(".tessera_services")]] Services services;
[[gnu::section(".tessera_services")]] uint32_t services_held;

class ServicesLock {
 public:
  ServicesLock() { lock_services(); }
  ~ServicesLock() { unlock_services(); }
  ServicesLock(const ServicesLock&) = delete;
  ServicesLock& operator=(const ServicesLock&) = delete;
};

uint32_t thread_id() {
  const TesseraShape shape = layout().shape;
  return tessera_thread_at(&shape, thread_index());
}

void emit_line(void*, uint32_t, const char* line, size_t length) {
  console_line(line, length);
}

// A guest error: Tessera's machine logs it and carries on; a board has no log but its console.
void guest_error(const char* what, uint32_t where, const char* why) {
  char line[TESSERA_CONSOLE_LINE_MAX];
  const int n = snprintf(line, sizeof line, "tessera-board: thread 0x%lx: %s 0x%lx: %s",
                         static_cast<unsigned long>(thread_id()), what,
                         static_cast<unsigned long>(where), why ? why : "refused");
  console_line(line, n > 0 ? static_cast<size_t>(n) : 0);
}

// What the board does not provide yet ends the run: nothing could run on as it would on
// -M tessera.
[[noreturn]] void unsupported(const char* what, uint32_t where) {
  guest_error(what, where, "not provided on this board (docs/boards.md)");
  finish(1);
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
  uint32_t value = 0;
  const char* error = nullptr;
  if (tessera_sysinfo_read(services.sysinfo, thread_id(), offset, &value, &error) ==
      TESSERA_SYSINFO_GUEST_ERROR) {
    guest_error("sysinfo read at", offset, error);
  }
  return value;
}

void sysinfo_write(uint32_t offset, uint32_t value) {
  int status = 0;
  const char* error = nullptr;
  switch (tessera_sysinfo_write(services.sysinfo, thread_id(), offset, value, &status, &error)) {
    case TESSERA_SYSINFO_EXIT:
      tessera_console_flush_all(services.console);
      finish(status);
    case TESSERA_SYSINFO_GUEST_ERROR:
      guest_error("sysinfo write at", offset, error);
      return;
    case TESSERA_SYSINFO_CONTINUE:
      return;
  }
}

void exit_write(uint32_t offset, uint32_t value) {
  int status = 0;
  const char* error = nullptr;
  switch (tessera_exit_write(offset, value, &status, &error)) {
    case TESSERA_EXIT_ACTION_END:
      tessera_console_flush_all(services.console);
      finish(status);
    case TESSERA_EXIT_ACTION_RESET:
      unsupported("exit device reset, written", value);
    case TESSERA_EXIT_ACTION_GUEST_ERROR:
      guest_error("exit device write at", offset, error);
      return;
    case TESSERA_EXIT_ACTION_NONE:
      return;
  }
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

// A mailbox fault: on Tessera an illegal-instruction trap that the runtime reports and ends the
// run with (status 130); here the same two facts, and the same status.
[[noreturn]] void mailbox_fault(uint32_t csr, uint32_t value, uint32_t code) {
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

// A mailbox CSR, waiting (threads.h) for as long as it blocks.
uint32_t mailbox_csr(uint32_t csr, uint32_t value, bool write) {
  for (;;) {
    {
      const ServicesLock lock;
      uint32_t result = 0;
      switch (mailbox::csr(thread_index(), csr, value, write, &result)) {
        case mailbox::Result::kDone:
          return result;
        case mailbox::Result::kFault:
          mailbox_fault(csr, value, result);
        case mailbox::Result::kBlocked:
          threads::prepare_wait();
          break;
      }
    }
    threads::wait();
  }
}

bool within(uint32_t address, uint32_t base, uint32_t size) {
  return address >= base && address - base < size;
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

void init_services() {
  const Layout board = layout();
  threads::init();
  mailbox::init();
  TesseraSysinfoConfig config{};
  config.shape = board.shape;
  config.clock_mhz = board.clock_mhz;
  // The model's own DRAM rule (partitions after the code window) is Tessera's; the board's
  // partitions and RAM are answered above, so give the model a size it accepts.
  config.partition_size = board.partition_size;
  config.dram_size =
      TESSERA_CODE_SIZE + tessera_threads_per_board(&board.shape) * board.partition_size;
  config.timing.cpi = 1;
  services.sysinfo = tessera_sysinfo_new(&config);
  services.console = tessera_console_new(tessera_num_threads(&board.shape), emit_line, nullptr);
  if (services.sysinfo == nullptr || services.console == nullptr) {
    static const char kNoRoom[] = "tessera-board: no room for the device services";
    console_line(kNoRoom, sizeof kNoRoom - 1);
    finish(1);
  }
}

}  // namespace tessera::board

using namespace tessera::board;

extern "C" uint32_t tessera_board_mmio_read32(uint32_t address) {
  const ServicesLock lock;
  if (within(address, TESSERA_SYSINFO_BASE, TESSERA_SYSINFO_SIZE)) {
    return sysinfo_read(address - TESSERA_SYSINFO_BASE);
  }
  if (within(address, TESSERA_CONSOLE_BASE, TESSERA_CONSOLE_SIZE) ||
      within(address, TESSERA_EXIT_BASE, TESSERA_EXIT_SIZE) ||
      within(address, TESSERA_MSWI_BASE, TESSERA_MSWI_SIZE)) {
    guest_error("read of write-only", address, "reads 0");
    return 0;
  }
  unsupported("read of device address", address);
}

extern "C" void tessera_board_mmio_write32(uint32_t address, uint32_t value) {
  const ServicesLock lock;
  if (within(address, TESSERA_SYSINFO_BASE, TESSERA_SYSINFO_SIZE)) {
    sysinfo_write(address - TESSERA_SYSINFO_BASE, value);
  } else if (within(address, TESSERA_CONSOLE_BASE, TESSERA_CONSOLE_SIZE)) {
    const char* error = nullptr;
    if (tessera_console_write(services.console, thread_index(), address - TESSERA_CONSOLE_BASE,
                              value, &error) == TESSERA_CONSOLE_GUEST_ERROR) {
      guest_error("console write at", address, error);
    }
  } else if (within(address, TESSERA_EXIT_BASE, TESSERA_EXIT_SIZE)) {
    exit_write(address - TESSERA_EXIT_BASE, value);
  } else if (within(address, TESSERA_MSWI_BASE, TESSERA_MSWI_SIZE)) {
    mswi_write(address - TESSERA_MSWI_BASE, value);
  } else {
    unsupported("write to device address", address);
  }
}

extern "C" uint32_t tessera_board_csr(uint32_t csr, uint32_t value, int write) {
  if (tessera_csr_is_mailbox(csr)) return mailbox_csr(csr, value, write != 0);
  switch (csr) {
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
      return tessera_console_emit_csr(services.console, thread_index(), write != 0, value);
    }
    default: {
      const ServicesLock lock;
      unsupported(write ? "write of CSR" : "read of CSR", csr);
    }
  }
}
