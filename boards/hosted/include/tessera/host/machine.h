// The host machine: the Tessera memory map and CSRs backed by the same
// plain-C device models as the QEMU machine (DESIGN 2.5), with host threads
// standing in for harts. Each Machine owns its models, so tests that build
// their own machines share no state.
#pragma once

#include <stdint.h>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tessera/host/device.h"
#include "tessera/host/hart.h"
#include "tessera/host/hart_sleeper.h"
#include "tessera/hw/machine_params.h"
#include "tessera/hw/regs.h"
#include "tessera/models/clock.h"
#include "tessera/models/mailbox.h"

namespace tessera::host {

// One whole console line of one hart, without its newline.
struct ConsoleLine {
  uint32_t hart_id;
  uint32_t hart_index;
  std::string text;
};

// A message a thread sent to the host id (tinselSend(tinselHostId(), ...)).
struct HostMessage {
  uint32_t source;             // thread id of the sender
  std::vector<uint8_t> bytes;  // flits * 16 bytes
  uint32_t flits;
  uint64_t time;  // modelled cycle at which it reached the host
};

// One command of the barrier controller's log (docs/barrier-controller.md):
// the thread it concerns and the line, e.g. "BARRIER 0 1 255 4".
struct BarrierLogLine {
  uint32_t thread_id;
  std::string text;
  bool operator==(const BarrierLogLine&) const = default;
};

// Defaults are those of the QEMU machine (-M tessera): tessera/hw/machine_params.h.
struct MachineParams {
  uint32_t clock_mhz = TESSERA_DEFAULT_clock_mhz;
  // Bytes per board; 0: just enough for the image and the partitions,
  // rounded up to whole MiB.
  uint32_t dram_size = 0;
  uint32_t partition_size = TESSERA_DEFAULT_partition_kib
                            << 10;  // bytes of stack and heap per hart
  // Modelled cycles per retired instruction (per CSR or MMIO access here).
  uint32_t cpi = TESSERA_DEFAULT_cpi;
  // Called with every console line as it is emitted, besides recording it
  // (e.g. to echo the guest's output). Called under the console's lock.
  std::function<void(const ConsoleLine&)> console_sink;

  // The mailbox network (docs/mailbox.md).
  uint32_t tile_hop_cycles = TESSERA_DEFAULT_tile_hop_cycles;
  uint32_t board_hop_cycles = TESSERA_DEFAULT_board_hop_cycles;  // L
  uint32_t buffer_flits = TESSERA_DEFAULT_buffer_flits;          // toward each mailbox
  // Offered every message sent to the host id; returning false means the
  // host cannot take it now (its sender stalls until Machine::host_ready).
  // Unset: the host takes everything. Called under the mailbox's lock: it
  // must not call back into the machine. Taken messages are recorded in
  // Machine::host_messages().
  std::function<bool(const HostMessage&)> host_sink;
  // Where the termination detector's master sits (docs/idle.md; QEMU's
  // idle-master=origin|centre).
  TesseraTermdetMaster idle_master = TESSERA_TERMDET_MASTER_ORIGIN;
  // The mailbox model untimed (TesseraMailboxConfig.untimed): what happens as with timing, but
  // messages take no modelled time and are received in the order they were delivered. Native
  // mode's (docs/native.md); modelled cycles are then not the machine's.
  bool untimed_mailbox = false;
  // Native mode's parts (docs/native.md): the boards split into this many rectangles, each with
  // a mailbox model and lock of its own, handing messages over at exchanges (mailbox_exchange).
  // More than 1 needs untimed_mailbox.
  uint32_t mailbox_parts = 1;
  // The open-collector bus (docs/ocbus.md).
  uint32_t ocbus_lines = TESSERA_DEFAULT_ocbus_lines;
  uint32_t ocbus_settle_cycles = TESSERA_DEFAULT_ocbus_settle_cycles;
  // The barrier controller's tile in the global tile grid (docs/barrier-controller.md).
  uint32_t barrier_tile_x = TESSERA_DEFAULT_barrier_tile_x;
  uint32_t barrier_tile_y = TESSERA_DEFAULT_barrier_tile_y;

  // The reflex switches (docs/reflex.md): buffer B in flits, and one hop's latency.
  uint32_t reflex_buffer_flits = TESSERA_DEFAULT_reflex_buffer_flits;
  uint32_t reflex_hop_cycles = TESSERA_DEFAULT_reflex_hop_cycles;

  // Deadlock detection: when every hart bound to a thread (or starting in
  // run_on_harts) is blocked in a device's wait and none of them has been
  // woken, each of them throws Deadlock instead of hanging. Decided from that
  // state alone, as the last hart blocks or the last other one unbinds, with
  // no timer. A test whose unbound thread wakes harts (inject, end_run) turns
  // detection off.
  bool detect_deadlock = true;

  // How blocked harts sleep: null (the default) for harts that are host threads (a condition
  // variable each); native mode's fiber scheduler otherwise (tessera/host/hart_sleeper.h). Not
  // owned; it outlives the machine's runs.
  HartSleeper* sleeper = nullptr;
};

// Thrown on a hart whose mailbox CSR faults: the real machine raises an
// illegal-instruction trap there (docs/mailbox.md lists the faults).
class MailboxFault : public std::logic_error {
 public:
  MailboxFault(const Hart& hart, uint16_t csr, uint32_t value, uint32_t fault);
  uint16_t csr() const { return csr_; }
  uint32_t value() const { return value_; }
  uint32_t fault() const { return fault_; }  // TESSERA_FAULT_*

 private:
  uint16_t csr_;
  uint32_t value_;
  uint32_t fault_;
};

// Thrown on every blocked hart when all running harts are blocked for good
// (see MachineParams::detect_deadlock).
class Deadlock : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Thrown by Machine::wait_until_blocked when the hart did not block in time.
class WaitTimeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Thrown on the hart that ends the run through the exit device: on the
// real machine nothing after that write executes. Machine::run_on_harts
// catches it; the code is in Machine::exit_code().
class MachineExit : public std::exception {
 public:
  explicit MachineExit(int code) : code_(code) {}
  int code() const { return code_; }
  const char* what() const noexcept override { return "tessera: the machine has exited"; }

 private:
  int code_;
};

class BarrierCtlDevice;
class ConsoleDevice;
class HartWaiters;
class MailboxDevice;
class OcbusDevice;
class ReflexDevice;

class Machine {
 public:
  // Throws std::invalid_argument for a shape or parameters the machine
  // cannot have (see tessera_sysinfo_new and tessera_mswi_new).
  explicit Machine(const TesseraShape& shape, MachineParams params = {});
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  const TesseraShape& shape() const { return shape_; }
  const MachineParams& params() const { return params_; }
  uint32_t num_harts() const { return static_cast<uint32_t>(harts_.size()); }

  // Throws std::out_of_range for an id that names no thread of the shape.
  Hart& hart(uint32_t thread_id);
  Hart& hart_at(uint32_t dense_index) { return *harts_.at(dense_index); }
  // Every thread id, in dense-index order.
  std::vector<uint32_t> thread_ids() const;

  // Adds a device to the bus. Only before any hart runs: the dispatch
  // tables are read without a lock. Throws std::logic_error if the device
  // claims an address or a CSR that another device has.
  void attach(std::unique_ptr<Device> device);

  // The bus as seen by `hart`. Each access costs the hart one cycle.
  // Unmapped or unaligned addresses and unimplemented CSRs throw
  // std::logic_error naming the address or CSR and the hart.
  uint32_t mmio_read32(Hart& hart, uint32_t address);
  void mmio_write32(Hart& hart, uint32_t address, uint32_t value);
  // Inline: a vertex program makes most of its accesses here, hundreds of thousands per step.
  uint32_t csr_swap(Hart& hart, uint16_t csr, uint32_t value) {
    return csr_device(hart, csr).csr_swap(hart, csr, value);
  }
  uint32_t csr_read(Hart& hart, uint16_t csr) {  // csrr: writes nothing
    return csr_device(hart, csr).csr_read(hart, csr);
  }

  // Runs `program` on one new host thread per listed hart, each inside a
  // HartScope, and waits for all of them. A hart that ends the run through
  // the exit device stops there; the first other exception is rethrown
  // once every thread has finished.
  void run_on_harts(std::span<const uint32_t> thread_ids,
                    const std::function<void(Hart&)>& program);
  void run_on_all_harts(const std::function<void(Hart&)>& program);

  // Every console line emitted so far, in emission order.
  std::vector<ConsoleLine> console_lines() const;
  // Emits every hart's partial console line (as at machine exit).
  void flush_console();

  // Ends the run with `code` (0 = success). The first call wins; later ones
  // are ignored, as if the process had ended. Called by devices.
  void end_run(int code);
  // The run's exit code, once a device has ended it.
  std::optional<int> exit_code() const;

  // --- Mailboxes and the network (docs/mailbox.md) ---------------------------
  // The scratchpad of `hart`'s tile as firmware sees it: a pointer to the
  // byte at bus_address (in the TESSERA_SCRATCH window), and back. Outside
  // it: std::logic_error. Prefer the hal::scratch_* facade in driver code.
  volatile void* scratch_pointer(Hart& hart, uint32_t bus_address);
  // The byte at bus_address of `hart`'s board DRAM (TESSERA_DRAM_BASE, dram_size bytes), as host
  // memory: where the hart's partition lives (tinselHeapBase, tinselHeapBaseSRAM). Each board has
  // its own, zeroed at first. Outside it: std::logic_error. Prefer hal::dram_pointer.
  void* dram_pointer(Hart& hart, uint32_t bus_address);
  // The same for any thread, from outside the harts (a host program loading memory): the byte
  // `offset` into the partition of thread `thread_id`. std::out_of_range past the partition.
  void* partition_pointer(uint32_t thread_id, uint32_t offset);
  uint32_t scratch_bus_address(Hart& hart, const volatile void* pointer);
  // Messages threads sent to the host id that the host took, in order.
  std::vector<HostMessage> host_messages() const;
  // Offers the host's message (1..4 whole flits of bytes) to a thread, sent
  // at modelled cycle `time`. False (nothing taken) if the thread doesn't
  // exist, the length is wrong or the network toward it is full.
  bool inject(uint32_t dest_thread_id, std::span<const uint8_t> message, uint64_t time = 0);
  // The host can take messages again (after host_sink refused one).
  void host_ready();
  // Messages sent/received by a board's threads, a thread, the host.
  TesseraMailboxCounts board_counts(uint32_t board_index) const;
  TesseraMailboxCounts thread_counts(uint32_t thread_id);
  TesseraMailboxCounts host_counts() const;
  // Uncontended modelled latency from one thread (or the host id) to another.
  uint64_t mailbox_latency(uint32_t src_id, uint32_t dest_id, uint32_t flits = 1) const;
  // The mailbox's lock, which almost every access of a vertex program takes: native mode's
  // worker holds it across the fibers it runs (DeviceMutex is recursive), and lets go between
  // two when another thread waits for it.
  DeviceMutex& mailbox_lock(uint32_t part = 0);
  // Mailbox parts (MachineParams::mailbox_parts): how many, a hart's (by dense index), whether a
  // part has messages to hand over or take in (a hint), its exchange (true if anything moved),
  // and, when no hart runs, every exchange and then the termination detector's window over all
  // parts (0: nothing moved or was heard).
  uint32_t mailbox_parts() const;
  uint32_t mailbox_part_of(uint32_t hart_index) const;
  bool mailbox_has_mail(uint32_t part) const;
  bool mailbox_exchange(uint32_t part);
  uint32_t mailbox_idle_window();

  // --- Termination detection, tinselIdle (docs/idle.md) ---------------------------------------
  // Rounds, detections and round trips so far, and the modelled time of the latest detection.
  TesseraTermdetStats idle_stats() const;
  // One master<->boards round trip in cycles: 2 * board_hop_cycles * (hops to the farthest board).
  uint64_t idle_round_trip() const;

  // --- Counting barrier controller (docs/barrier-controller.md) ------------------------------
  // Its command log so far, and the guest errors (bad use) it answered with a status.
  std::vector<BarrierLogLine> barrier_log() const;
  std::vector<std::string> barrier_guest_errors() const;

  // --- Open-collector bus (docs/ocbus.md) ----------------------------------------------------
  // The guest errors (register misuse) it answered, each naming the hart and the access.
  std::vector<std::string> ocbus_guest_errors() const;

  // --- Reflex switches (docs/reflex.md) ------------------------------------------------------
  // The guest errors the reflex switches answered (bad configuration, refused sends), one line
  // each, in order: QEMU logs the same ones with LOG_GUEST_ERROR.
  std::vector<std::string> reflex_guest_errors() const;

  // Harts bound to a thread now, or about to be (run_on_harts); what
  // deadlock detection compares the blocked harts against.
  uint32_t active_harts() const;

  // --- Blocking, for tests -----------------------------------------------------------------
  // What the hart's thread is asleep in now. A hart counts as blocked from the moment its
  // device has recorded it as a waiter (so anything done after seeing the state wakes it)
  // until the device wakes it.
  BlockedOn blocked_on(uint32_t thread_id);
  // Returns once the hart is blocked in `what`, without polling. Throws WaitTimeout, naming
  // the hart, `what` and what the hart is doing instead, if that takes longer than `timeout`:
  // a test that waits for a hart to fall asleep fails there rather than hanging.
  static constexpr std::chrono::milliseconds kBlockedTimeout{10000};
  void wait_until_blocked(uint32_t thread_id, BlockedOn what,
                          std::chrono::milliseconds timeout = kBlockedTimeout);
  // Called by devices, under their own lock, as the hart falls asleep in `what` and as it
  // is woken (BlockedOn::kNothing). True when this made the machine deadlocked: the caller
  // lets go of its lock and calls declare_deadlock().
  [[nodiscard]] bool set_blocked(const Hart& hart, BlockedOn what);

 private:
  friend class HartScope;
  friend class Hart;  // its clock is an entry of clocks_
  friend class HartWaiters;

  // Every device's sleeping harts, told of the end of the run and of a deadlock.
  void add_waiters(HartWaiters& waiters);
  void remove_waiters(HartWaiters& waiters);
  // A thread binds to a hart or unbinds (bound), run_on_harts starts threads or one has
  // bound (starting): the harts that can still wake others change.
  void change_active(int bound, int starting);
  // Under blocked_mutex_: every active hart is blocked, for the first time. Decided once.
  bool deadlock_now();
  // Words the report from every device's waits and stops their harts with it. Called
  // with no device's lock held, once deadlock_now() said so.
  void declare_deadlock();

  Device& device_at(Hart& hart, uint32_t address, uint32_t& offset);
  uint8_t* board_dram(uint32_t board_index);
  // The device of a CSR access, the access retired; throws for no device.
  Device& csr_device(Hart& hart, uint16_t csr) {
    if (hart.count_access()) {
      params_.sleeper->access(hart);
    }
    hart.retire(1);
    Device* device = csr < csr_map_.size() ? csr_map_[csr] : nullptr;
    if (device == nullptr) {
      no_csr_device(hart, csr);
    }
    return *device;
  }
  [[noreturn]] static void no_csr_device(Hart& hart, uint16_t csr);

  TesseraShape shape_;
  MachineParams params_;
  std::vector<std::unique_ptr<Hart>> harts_;  // by dense index
  // Modelled time, by dense index.
  std::unique_ptr<TesseraClocks, void (*)(TesseraClocks*)> clocks_{nullptr, tessera_clocks_free};
  // Before devices_: each device's HartWaiters takes itself out as it is destroyed.
  std::vector<HartWaiters*> waiters_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<std::pair<MmioWindow, Device*>> mmio_map_;  // sorted by base
  std::array<Device*, 4096> csr_map_{};                   // by CSR number
  ConsoleDevice* console_ = nullptr;
  MailboxDevice* mailbox_ = nullptr;
  BarrierCtlDevice* barrier_ = nullptr;
  OcbusDevice* ocbus_ = nullptr;
  ReflexDevice* reflex_ = nullptr;

  // Each board's DRAM, mapped at first use (untouched pages cost nothing).
  struct DramMapping {
    void operator()(uint8_t* p) const;
    size_t size;
  };
  std::mutex dram_mutex_;
  std::vector<std::unique_ptr<uint8_t, DramMapping>> dram_;  // by dense board index

  mutable std::mutex exit_mutex_;
  std::optional<int> exit_code_;

  // Taken after a device's lock, never before one. Guards the deadlock detector's state:
  // what each hart is blocked in and how many harts can still act.
  mutable std::mutex blocked_mutex_;
  std::condition_variable blocked_changed_;
  // By dense index. With deadlock detection off (native mode) written without blocked_mutex_,
  // which a thread then takes only to wake a wait_until_blocked (watchers_).
  std::unique_ptr<std::atomic<BlockedOn>[]> blocked_;
  std::atomic<uint32_t> watchers_{0};  // threads in wait_until_blocked
  uint32_t blocked_count_ = 0;         // entries of blocked_ other than kNothing
  int bound_harts_ = 0;
  int starting_harts_ = 0;
  bool deadlocked_ = false;
};

}  // namespace tessera::host
