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
#pragma once

#include <stdint.h>

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

  DeviceMutex& lock() const { return mutex_; }

 private:
  static uint8_t* scratchpad(void* opaque, uint32_t tile_index);
  static void wake(void* opaque, uint32_t hart_index);
  static bool to_host(void* opaque, uint32_t src_thread_id, const uint8_t* msg, uint32_t flits,
                      uint64_t time);

  uint8_t* tile_scratch(const Hart& hart) const;
  // CAN_RECV or CAN_SEND, if it only reads the model: its value, under mutex_.
  bool read_only(Hart& hart, uint16_t csr, uint32_t& value) const;
  static constexpr uint8_t known_bit(uint16_t csr) { return csr == TESSERA_CSR_CAN_RECV ? 1 : 2; }
  uint8_t known_now(const Hart& hart) const;

  const uint32_t tile_shift_;
  std::function<bool(const HostMessage&)> host_sink_;

  // Slots start cache lines, as on the hardware: a message is one line, not two.
  static constexpr std::align_val_t kScratchAlign{64};
  struct ScratchDelete {
    void operator()(uint8_t* p) const { ::operator delete[](p, kScratchAlign); }
  };

  mutable DeviceMutex mutex_;  // guards everything below and the model
  // Every tile's scratchpad, by dense tile index.
  std::unique_ptr<uint8_t[], ScratchDelete> scratch_;
  // Harts asleep in WAIT_UNTIL, and the wait registry the model reports to.
  HartWaiters waiters_;
  TesseraMailbox* model_ = nullptr;
  std::vector<HostMessage> host_messages_;
  // Per hart, by dense index: which of CAN_RECV and CAN_SEND the model last answered 1 for it
  // (known_bit), as of the hart's last locked access. Only the hart's own RECV or send can turn
  // either back to 0, and each of those takes the lock and refreshes this, so a polling hart is
  // answered 1 here without the lock or the model: the model's own answer. Written and read by
  // the hart's own accesses only (no lock needed: a hart runs on one thread at a time).
  std::unique_ptr<uint8_t[]> known_true_;
};

}  // namespace tessera::host
