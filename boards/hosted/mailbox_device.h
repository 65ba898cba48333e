// The mailboxes and the network over the mailbox model: the Tinsel CSRs, the
// tile scratchpads (the TESSERA_SCRATCH window of each hart is its tile's),
// the host port, and blocking.
//
// A CSR the model answers BLOCKED puts the calling hart's thread to sleep on
// a condition variable of its own until the model wakes the hart, then the
// CSR is issued again (never a spin). While it sleeps, Machine::blocked_on
// reports what it waits for. A CSR that completes moves the hart's
// cycle counter to the model's resume time. A mailbox fault throws
// MailboxFault (the illegal-instruction trap of the real machine).
//
// Deadlock: when every hart bound to a thread is blocked (here or in another
// device) and none has been woken, every blocked hart throws Deadlock naming
// what each one waits for (Machine::set_blocked decides it).
//
// Parts (MachineParams::mailbox_parts, native mode's, docs/native.md): the
// boards are split into rectangles, each modelled by an untimed model of its
// own under a lock of its own, so that a worker thread per part runs its harts
// beside the others. A message toward another part's board waits at its
// egress until exchange() hands it over; tinselIdle completes at
// idle_window(), made when every part is quiet.
#pragma once

#include <stdint.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "hart_waiters.h"
#include "tessera/host/device.h"
#include "tessera/host/device_mutex.h"
#include "tessera/host/machine.h"
#include "tessera/models/mailbox.h"
#include "tessera/models/termdet.h"

namespace tessera::host {

class MailboxDevice final : public Device {
 public:
  // Throws std::invalid_argument if the model refuses the shape or parameters.
  MailboxDevice(Machine& machine, const MachineParams& params);
  ~MailboxDevice() override;

  std::string_view name() const override { return "mailbox"; }
  std::optional<MmioWindow> mmio_window() const override;
  std::vector<uint16_t> csrs() const override;
  uint32_t mmio_read32(Hart& hart, uint32_t offset) override;
  void mmio_write32(Hart& hart, uint32_t offset, uint32_t value) override;
  uint32_t csr_swap(Hart& hart, uint16_t csr, uint32_t value) override;

  volatile void* scratch_pointer(Hart& hart, uint32_t bus_address);
  uint32_t scratch_bus_address(Hart& hart, const volatile void* pointer);

  std::vector<HostMessage> host_messages() const;
  bool inject(uint32_t dest_thread_id, const uint8_t* bytes, uint32_t flits, uint64_t time);
  void host_ready();
  TesseraMailboxCounts board_counts(uint32_t board_index) const;
  TesseraMailboxCounts thread_counts(uint32_t hart_index) const;
  TesseraMailboxCounts host_counts() const;
  uint64_t latency(uint32_t src_id, uint32_t dest_id, uint32_t flits) const;
  TesseraTermdetStats idle_stats() const;
  uint64_t idle_round_trip() const;

  uint32_t parts() const { return static_cast<uint32_t>(parts_.size()); }
  uint32_t part_of_hart(uint32_t hart_index) const {
    return part_of_board_[hart_index / threads_per_board_];
  }
  DeviceMutex& lock(uint32_t part = 0) const { return parts_[part]->mutex; }
  // With parts: whether the part has messages to hand over or take in (a hint, read without its
  // lock), and the handing over: its leaving messages to their parts, the messages and room
  // other parts handed it into its model. Takes the part's lock; true if anything moved.
  bool has_mail(uint32_t part) const;
  bool exchange(uint32_t part);
  // With parts, when no hart of any part runs: every exchange until nothing moves, then the
  // termination detector's window (termdet.h, "time windows") over all parts. Takes every
  // part's lock; returns what moved and what the detector heard (0: nothing will change until a
  // hart or the host acts).
  uint32_t idle_window();

 private:
  struct Part;
  static uint8_t* scratchpad(void* opaque, uint32_t tile_index);
  static void wake(void* opaque, uint32_t hart_index);
  static bool to_host(void* opaque, uint32_t src_thread_id, const uint8_t* msg, uint32_t flits,
                      uint64_t time);

  Part& part_of(const Hart& hart) const { return *parts_[part_of_hart(hart.index())]; }
  uint8_t* tile_scratch(const Hart& hart) const;
  // CAN_RECV or CAN_SEND, if it only reads the model: its value, under the part's lock.
  bool read_only(const Part& part, Hart& hart, uint16_t csr, uint32_t& value) const;
  static constexpr uint8_t known_bit(uint16_t csr) { return csr == TESSERA_CSR_CAN_RECV ? 1 : 2; }
  uint8_t known_now(const Part& part, const Hart& hart) const;

  Machine& machine_;
  const uint32_t tile_shift_;
  const uint32_t threads_per_board_;
  std::function<bool(const HostMessage&)> host_sink_;

  // Slots start cache lines, as on the hardware: a message is one line, not two.
  static constexpr std::align_val_t kScratchAlign{64};
  struct ScratchDelete {
    void operator()(uint8_t* p) const { ::operator delete[](p, kScratchAlign); }
  };

  // One model and what it guards; a machine without parts has one, of every board.
  struct Part {
    Part(MailboxDevice& device, Machine& machine, uint32_t index)
        : device(device), index(index), waiters(machine, mutex, "the mailbox") {}
    ~Part() { tessera_mailbox_free(model); }
    Part(const Part&) = delete;
    Part& operator=(const Part&) = delete;
    MailboxDevice& device;
    uint32_t index;
    mutable DeviceMutex mutex;  // guards the model, its part of the tiles' scratchpads, waiters
    // Harts asleep in WAIT_UNTIL, and the wait registry the model reports to.
    HartWaiters waiters;
    TesseraMailbox* model = nullptr;
    std::unique_ptr<bool[]> local_boards;  // with parts
    // What other parts handed over, waiting for this part's exchange.
    std::mutex inbox_mutex;
    std::vector<TesseraMailboxTransit> arrived;
    std::vector<TesseraMailboxCredit> credits;
    std::atomic<bool> inbox_full{false};
    // The exchange's own lists, by the part they go to or came from: kept for their capacity.
    std::vector<std::vector<TesseraMailboxTransit>> leaving;
    std::vector<std::vector<TesseraMailboxCredit>> room;
    std::vector<TesseraMailboxTransit> taking;
    std::vector<TesseraMailboxCredit> taking_room;
  };

  std::vector<std::unique_ptr<Part>> parts_;
  std::vector<uint32_t> part_of_board_;  // by dense board index
  // Every tile's scratchpad, by dense tile index; a part's model touches its own tiles' only.
  std::unique_ptr<uint8_t[], ScratchDelete> scratch_;
  mutable std::mutex host_mutex_;  // the host's messages, which any part's model may hand over
  std::vector<HostMessage> host_messages_;
  // Per hart, by dense index: which of CAN_RECV and CAN_SEND the model last answered 1 for it
  // (known_bit), as of the hart's last locked access. Only the hart's own RECV or send can turn
  // either back to 0, and each of those takes the lock and refreshes this, so a polling hart is
  // answered 1 here without the lock or the model: the model's own answer. Written and read by
  // the hart's own accesses only (no lock needed: a hart runs on one thread at a time).
  std::unique_ptr<uint8_t[]> known_true_;
};

}  // namespace tessera::host
