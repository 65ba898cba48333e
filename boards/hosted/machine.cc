#include "tessera/host/machine.h"

#include <sys/mman.h>

#include <algorithm>
#include <new>
#include <stdexcept>
#include <thread>

#include "barrier_ctl_device.h"
#include "bus_error.h"
#include "console_device.h"
#include "core_csrs.h"
#include "exit_device.h"
#include "hart_waiters.h"
#include "mailbox_device.h"
#include "mswi_device.h"
#include "ocbus_device.h"
#include "reflex_device.h"
#include "sysinfo_device.h"

namespace tessera::host {

namespace {

// As the QEMU machine does for dram-mib=0.
uint32_t automatic_dram_size(const TesseraShape& shape, uint32_t partition_size) {
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  const uint64_t needed =
      TESSERA_CODE_SIZE + uint64_t{tessera_threads_per_board(&shape)} * partition_size;
  const uint64_t rounded = (needed + kMiB - 1) / kMiB * kMiB;
  // Too large for 32 bits: leave it to the sysinfo model to refuse.
  return rounded <= UINT32_MAX ? static_cast<uint32_t>(rounded) : UINT32_MAX;
}

}  // namespace

Machine::Machine(const TesseraShape& shape, MachineParams params)
    : shape_(shape), params_(std::move(params)) {
  if (params_.dram_size == 0) {
    params_.dram_size = automatic_dram_size(shape_, params_.partition_size);
  }
  // Sysinfo first: its model validates the shape before anything is sized
  // by it.
  const TesseraTiming timing{params_.cpi,
                             params_.tile_hop_cycles,
                             params_.board_hop_cycles,
                             params_.ocbus_settle_cycles,
                             params_.reflex_hop_cycles,
                             params_.barrier_tile_x,
                             params_.barrier_tile_y};
  const TesseraSysinfoConfig sysinfo_config{shape_,
                                            params_.clock_mhz,
                                            params_.dram_size,
                                            params_.partition_size,
                                            params_.reflex_buffer_flits,
                                            timing};
  auto sysinfo = std::make_unique<SysinfoDevice>(*this, sysinfo_config);

  const uint32_t count = tessera_num_threads(&shape_);
  clocks_.reset(tessera_clocks_new(count, params_.cpi));
  if (clocks_ == nullptr) {
    throw std::invalid_argument("tessera host: cpi " + std::to_string(params_.cpi) +
                                " is outside " + std::to_string(TESSERA_MIN_cpi) + ".." +
                                std::to_string(TESSERA_LIMIT_cpi));
  }
  harts_.resize(count);
  dram_.resize(size_t{shape_.boards_x} * shape_.boards_y);
  blocked_ = std::make_unique<std::atomic<BlockedOn>[]>(count);
  for (uint32_t i = 0; i < count; i++) blocked_[i].store(BlockedOn::kNothing);
  // Ids are dense except past boards_x in each board row; the host id is
  // the first id above them all.
  const uint32_t host_id = tessera_host_id(&shape_);
  for (uint32_t id = 0; id < host_id; id++) {
    if (tessera_thread_exists(&shape_, id)) {
      const uint32_t index = tessera_dense_index(&shape_, id);
      harts_.at(index) = std::make_unique<Hart>(*this, id, index, params_.cpi);
    }
  }

  attach(std::make_unique<CoreCsrs>());
  attach(std::move(sysinfo));
  attach(std::make_unique<ExitDevice>(*this));
  attach(std::make_unique<MswiDevice>(shape_));
  auto console = std::make_unique<ConsoleDevice>(*this, params_.console_sink);
  console_ = console.get();
  attach(std::move(console));
  auto mailbox = std::make_unique<MailboxDevice>(*this, params_);
  mailbox_ = mailbox.get();
  attach(std::move(mailbox));
  auto barrier = std::make_unique<BarrierCtlDevice>(*this, params_);
  barrier_ = barrier.get();
  attach(std::move(barrier));
  auto ocbus = std::make_unique<OcbusDevice>(*this, params_);
  ocbus_ = ocbus.get();
  attach(std::move(ocbus));
  auto reflex = std::make_unique<ReflexDevice>(*this, params_);
  reflex_ = reflex.get();
  attach(std::move(reflex));
}

Machine::~Machine() = default;

Hart& Machine::hart(uint32_t thread_id) {
  if (!tessera_thread_exists(&shape_, thread_id)) {
    throw std::out_of_range("tessera host: no thread " + hex32(thread_id) + " in this machine");
  }
  return *harts_[tessera_dense_index(&shape_, thread_id)];
}

std::vector<uint32_t> Machine::thread_ids() const {
  std::vector<uint32_t> ids;
  ids.reserve(harts_.size());
  for (const auto& hart : harts_) {
    ids.push_back(hart->id());
  }
  return ids;
}

void Machine::attach(std::unique_ptr<Device> device) {
  const std::string name(device->name());
  if (const auto window = device->mmio_window()) {
    if (window->size == 0 || uint64_t{window->base} + window->size > (uint64_t{1} << 32)) {
      throw std::logic_error("tessera host: " + name + " claims an empty or wrapping window");
    }
    for (const auto& [mapped, owner] : mmio_map_) {
      if (window->base < mapped.base + mapped.size && mapped.base < window->base + window->size) {
        throw std::logic_error("tessera host: " + name + " window at " + hex32(window->base) +
                               " overlaps " + std::string(owner->name()));
      }
    }
    mmio_map_.emplace_back(*window, device.get());
    std::sort(mmio_map_.begin(), mmio_map_.end(),
              [](const auto& a, const auto& b) { return a.first.base < b.first.base; });
  }
  for (const uint16_t csr : device->csrs()) {
    if (csr >= csr_map_.size() || csr_map_[csr] != nullptr) {
      throw std::logic_error("tessera host: " + name + " claims CSR " + hex32(csr) +
                             ", which is out of range or taken");
    }
    csr_map_[csr] = device.get();
  }
  devices_.push_back(std::move(device));
}

Device& Machine::device_at(Hart& hart, uint32_t address, uint32_t& offset) {
  if (address % 4 != 0) {
    throw_bus_error(hart, "unaligned 32-bit access at " + hex32(address));
  }
  // The last window starting at or below the address is the only candidate.
  auto after = std::upper_bound(mmio_map_.begin(), mmio_map_.end(), address,
                                [](uint32_t a, const auto& entry) { return a < entry.first.base; });
  if (after != mmio_map_.begin()) {
    const auto& [window, device] = *std::prev(after);
    if (address - window.base < window.size) {
      offset = address - window.base;
      return *device;
    }
  }
  throw_bus_error(hart, "no device at address " + hex32(address));
}

uint32_t Machine::mmio_read32(Hart& hart, uint32_t address) {
  if (hart.count_access()) {
    params_.sleeper->access(hart);
  }
  hart.retire(1);
  uint32_t offset = 0;
  Device& device = device_at(hart, address, offset);
  return device.mmio_read32(hart, offset);
}

void Machine::mmio_write32(Hart& hart, uint32_t address, uint32_t value) {
  if (hart.count_access()) {
    params_.sleeper->access(hart);
  }
  hart.retire(1);
  uint32_t offset = 0;
  Device& device = device_at(hart, address, offset);
  device.mmio_write32(hart, offset, value);
}

void Machine::no_csr_device(Hart& hart, uint16_t csr) {
  throw_bus_error(hart, "no device implements CSR " + hex32(csr));
}

void Machine::run_on_harts(std::span<const uint32_t> thread_ids,
                           const std::function<void(Hart&)>& program) {
  std::vector<Hart*> harts;
  for (const uint32_t id : thread_ids) {
    harts.push_back(&hart(id));
  }
  std::mutex failure_mutex;
  std::exception_ptr first_failure;
  std::vector<std::jthread> threads;
  threads.reserve(harts.size());
  // Until its scope binds it, each new thread counts as active: a deadlock
  // is not declared while harts are still starting.
  change_active(0, static_cast<int>(harts.size()));
  for (Hart* h : harts) {
    threads.emplace_back([&, h] {
      try {
        std::optional<HartScope> scope;
        try {
          scope.emplace(*h);
        } catch (...) {
          change_active(0, -1);
          throw;
        }
        // Bound before it stops starting: the count of active harts never dips.
        change_active(0, -1);
        program(*h);
      } catch (const MachineExit&) {
        // The hart ended the run; the code is in exit_code().
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!first_failure) {
          first_failure = std::current_exception();
        }
      }
    });
  }
  threads.clear();  // joins
  if (first_failure) {
    std::rethrow_exception(first_failure);
  }
}

void Machine::run_on_all_harts(const std::function<void(Hart&)>& program) {
  const std::vector<uint32_t> ids = thread_ids();
  run_on_harts(ids, program);
}

std::vector<ConsoleLine> Machine::console_lines() const {
  return console_->lines();
}

void Machine::flush_console() {
  console_->flush_all();
}

void Machine::end_run(int code) {
  {
    std::lock_guard lock(exit_mutex_);
    if (exit_code_) {
      return;
    }
    exit_code_ = code;
  }
  // As at the end of a QEMU run: nothing a hart printed is lost, and no
  // hart waits any more.
  flush_console();
  for (HartWaiters* waiters : waiters_) {
    waiters->end(code);
  }
}

std::vector<BarrierLogLine> Machine::barrier_log() const {
  return barrier_->log();
}

std::vector<std::string> Machine::barrier_guest_errors() const {
  return barrier_->guest_errors();
}

std::vector<std::string> Machine::ocbus_guest_errors() const {
  return ocbus_->guest_errors();
}

std::vector<std::string> Machine::reflex_guest_errors() const {
  return reflex_->guest_errors();
}

std::optional<int> Machine::exit_code() const {
  std::lock_guard lock(exit_mutex_);
  return exit_code_;
}

volatile void* Machine::scratch_pointer(Hart& hart, uint32_t bus_address) {
  return mailbox_->scratch_pointer(hart, bus_address);
}

void Machine::DramMapping::operator()(uint8_t* p) const {
  munmap(p, size);
}

DeviceMutex& Machine::mailbox_lock(uint32_t part) {
  return mailbox_->lock(part);
}

uint32_t Machine::mailbox_parts() const {
  return mailbox_->parts();
}

uint32_t Machine::mailbox_part_of(uint32_t hart_index) const {
  return mailbox_->part_of_hart(hart_index);
}

bool Machine::mailbox_has_mail(uint32_t part) const {
  return mailbox_->has_mail(part);
}

bool Machine::mailbox_exchange(uint32_t part) {
  return mailbox_->exchange(part);
}

uint32_t Machine::mailbox_idle_window() {
  return mailbox_->idle_window();
}

uint8_t* Machine::board_dram(uint32_t board_index) {
  std::lock_guard lock(dram_mutex_);
  auto& dram = dram_.at(board_index);
  if (!dram) {
    const size_t size = params_.dram_size;
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      throw std::bad_alloc();
    }
    dram = std::unique_ptr<uint8_t, DramMapping>(static_cast<uint8_t*>(p), DramMapping{size});
  }
  return dram.get();
}

void* Machine::dram_pointer(Hart& hart, uint32_t bus_address) {
  if (bus_address < TESSERA_DRAM_BASE || bus_address - TESSERA_DRAM_BASE >= params_.dram_size) {
    throw_bus_error(hart, "dram_pointer: " + hex32(bus_address) + " is outside the board's DRAM");
  }
  const uint32_t board = hart.index() / tessera_threads_per_board(&shape_);
  return board_dram(board) + (bus_address - TESSERA_DRAM_BASE);
}

void* Machine::partition_pointer(uint32_t thread_id, uint32_t offset) {
  Hart& h = hart(thread_id);
  if (offset >= params_.partition_size) {
    throw std::out_of_range("tessera host: offset " + std::to_string(offset) +
                            " is past the partition of thread " + hex32(thread_id));
  }
  const uint32_t base = tessera_partition_base(&shape_, thread_id, params_.partition_size);
  return static_cast<uint8_t*>(dram_pointer(h, base)) + offset;
}

uint32_t Machine::scratch_bus_address(Hart& hart, const volatile void* pointer) {
  return mailbox_->scratch_bus_address(hart, pointer);
}

std::vector<HostMessage> Machine::host_messages() const {
  return mailbox_->host_messages();
}

bool Machine::inject(uint32_t dest_thread_id, std::span<const uint8_t> message, uint64_t time) {
  if (message.empty() || message.size() % TESSERA_BYTES_PER_FLIT != 0 ||
      message.size() > TESSERA_BYTES_PER_SLOT) {
    return false;
  }
  return mailbox_->inject(dest_thread_id, message.data(),
                          static_cast<uint32_t>(message.size() / TESSERA_BYTES_PER_FLIT), time);
}

void Machine::host_ready() {
  mailbox_->host_ready();
}

TesseraMailboxCounts Machine::board_counts(uint32_t board_index) const {
  return mailbox_->board_counts(board_index);
}

TesseraMailboxCounts Machine::thread_counts(uint32_t thread_id) {
  return mailbox_->thread_counts(hart(thread_id).index());
}

TesseraMailboxCounts Machine::host_counts() const {
  return mailbox_->host_counts();
}

uint64_t Machine::mailbox_latency(uint32_t src_id, uint32_t dest_id, uint32_t flits) const {
  return mailbox_->latency(src_id, dest_id, flits);
}

TesseraTermdetStats Machine::idle_stats() const {
  return mailbox_->idle_stats();
}

uint64_t Machine::idle_round_trip() const {
  return mailbox_->idle_round_trip();
}

uint32_t Machine::active_harts() const {
  std::lock_guard lock(blocked_mutex_);
  return static_cast<uint32_t>(bound_harts_ + starting_harts_);
}

void Machine::add_waiters(HartWaiters& waiters) {
  waiters_.push_back(&waiters);
}

void Machine::remove_waiters(HartWaiters& waiters) {
  std::erase(waiters_, &waiters);
}

void Machine::change_active(int bound, int starting) {
  bool deadlocked = false;
  {
    std::lock_guard lock(blocked_mutex_);
    bound_harts_ += bound;
    starting_harts_ += starting;
    // The last hart that could have woken the blocked ones has gone.
    deadlocked = deadlock_now();
  }
  if (deadlocked) {
    declare_deadlock();
  }
}

bool Machine::deadlock_now() {
  const uint32_t active = static_cast<uint32_t>(bound_harts_ + starting_harts_);
  if (!params_.detect_deadlock || deadlocked_ || active == 0 || blocked_count_ < active ||
      exit_code()) {
    return false;
  }
  deadlocked_ = true;
  return true;
}

// Nothing can change any more: every hart that could act is asleep, and only
// a hart's action (or an unbound thread's, with detection off) wakes one.
void Machine::declare_deadlock() {
  std::vector<std::string> devices;
  std::string waits;
  for (const HartWaiters* waiters : waiters_) {
    const std::string part = waiters->waiting();
    if (!part.empty()) {
      devices.push_back(waiters->device());
      waits += part;
    }
  }
  std::string where;
  for (size_t i = 0; i < devices.size(); i++) {
    where += (i == 0 ? "" : i + 1 == devices.size() ? " and " : ", ") + devices[i];
  }
  // The same words as QEMU's report (docs/debugging.md), from the same registries.
  const std::string report =
      "tessera host: deadlock: every running hart is blocked in " + where + ". Waiting:\n" + waits;
  for (HartWaiters* waiters : waiters_) {
    waiters->deadlocked(report);
  }
}

BlockedOn Machine::blocked_on(uint32_t thread_id) {
  return blocked_[hart(thread_id).index()].load();
}

void Machine::wait_until_blocked(uint32_t thread_id, BlockedOn what,
                                 std::chrono::milliseconds timeout) {
  Hart& h = hart(thread_id);
  std::unique_lock lock(blocked_mutex_);
  watchers_++;
  const bool blocked =
      blocked_changed_.wait_for(lock, timeout, [&] { return blocked_[h.index()].load() == what; });
  watchers_--;
  if (blocked) return;
  const BlockedOn now = blocked_[h.index()].load();
  throw WaitTimeout(
      "tessera host: hart " + hex32(h.id()) + " (index " + std::to_string(h.index()) +
      ") did not block in " + std::string(name(what)) + " within " +
      std::to_string(timeout.count()) + " ms; it is " +
      (now == BlockedOn::kNothing ? "not blocked" : "blocked in " + std::string(name(now))) +
      " and " + (h.bound() ? "bound to a thread" : "bound to no thread"));
}

bool Machine::set_blocked(const Hart& hart, BlockedOn what) {
  std::atomic<BlockedOn>& now = blocked_[hart.index()];
  if (!params_.detect_deadlock) {
    // Nothing to count: native mode's workers block and wake harts side by side, and would
    // otherwise all take one mutex for every sleep and wake.
    if (now.load(std::memory_order_relaxed) == what) return false;
    now.store(what);
    if (watchers_.load() != 0) {
      std::lock_guard lock(blocked_mutex_);  // a watcher waits, or checks under it
      blocked_changed_.notify_all();
    }
    return false;
  }
  bool deadlocked = false;
  {
    std::lock_guard lock(blocked_mutex_);
    const BlockedOn before = now.load();
    if (before == what) {
      return false;
    }
    if (before == BlockedOn::kNothing) {
      blocked_count_++;
    } else if (what == BlockedOn::kNothing) {
      blocked_count_--;
    }
    now.store(what);
    deadlocked = what != BlockedOn::kNothing && deadlock_now();
  }
  blocked_changed_.notify_all();
  return deadlocked;
}

}  // namespace tessera::host
