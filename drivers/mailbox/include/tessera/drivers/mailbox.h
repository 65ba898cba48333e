// Mailbox driver: typed access to the Tinsel mailbox CSRs of the calling thread (docs/mailbox.md).
// A C++ layer over the driver's core (tessera/drivers/mailbox_core.h), which issues every mailbox
// CSR; this layer adds the thread's facts, checks and Status results.
//
// Each tile has one mailbox whose scratchpad holds 64-byte message slots at TESSERA_SCRATCH_BASE;
// the slots are divided evenly among the tile's threads in thread order, and a thread's first
// slot is its send slot, the others are for receiving. A message is 1..4 flits of 16 bytes.
//
//   Mailbox mailbox;                              // on the hart that uses it
//   (void)mailbox.give_receive_slots();           // v2 programs: the runtime does this
//   Slot out = mailbox.send_slot();
//   out.as<Ping>()->seq = 1;
//   Status s = mailbox.send(partner, out, 1);     // waits for can-send, then sends
//   Slot in = mailbox.recv();                     // waits for a message
//   ... in.as<Ping>() ...
//   s = mailbox.give(in);                         // hand the slot back for receiving
//
// Waiting always goes through the WAIT_UNTIL CSR (the hart sleeps in the device), never a spin.
// The driver checks what it can before touching the hardware and answers with a Status:
// InvalidArgument for a slot outside the scratchpad or misaligned, a length outside 1..4 flits,
// a destination that is neither a thread nor the host, a multicast mask naming threads the
// mailbox doesn't have; Unavailable from the try_ forms when the hardware cannot act now. What
// only the hardware knows (giving a slot it already owns) is a mailbox fault: an
// illegal-instruction trap on the target, tessera::host::MailboxFault on the host machine.
//
// A Mailbox holds facts of the calling thread (its id, the machine's shape): construct it on
// the hart that uses it. It holds no mailbox state, so any number of them may coexist.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "tessera/drivers/mailbox_core.h"
#include "tessera/hw/regs.h"
#include "tessera/status.h"

namespace tessera::drivers {

// Codes read from TESSERA_CSR_MBOX_FAULT (the model's TesseraMailboxFault).
enum class MailboxFault : uint32_t {  // the codes of TESSERA_MAILBOX_FAULTS (regs.h)
  kNone = TESSERA_FAULT_NONE,
  kBadDestination = TESSERA_FAULT_BAD_DESTINATION,
  kBadSlot = TESSERA_FAULT_BAD_SLOT,
  kBadLength = TESSERA_FAULT_BAD_LENGTH,
  kDoubleFree = TESSERA_FAULT_DOUBLE_FREE,
  kRecvEmpty = TESSERA_FAULT_RECV_EMPTY,
  kSendBusy = TESSERA_FAULT_SEND_BUSY,
  kBadWait = TESSERA_FAULT_BAD_WAIT,
};

// "double free", ...; "unknown fault" for a code outside the list.
const char* mailbox_fault_name(uint32_t code);

// Conditions of Mailbox::wait_until (the TESSERA_WAIT_* bits), combinable with |.
class WaitConditions {
 public:
  static constexpr WaitConditions can_send() { return WaitConditions(TESSERA_WAIT_CAN_SEND); }
  static constexpr WaitConditions can_recv() { return WaitConditions(TESSERA_WAIT_CAN_RECV); }
  static constexpr WaitConditions none() { return WaitConditions(0); }

  constexpr WaitConditions operator|(WaitConditions other) const {
    return WaitConditions(bits_ | other.bits_);
  }
  constexpr bool has(WaitConditions c) const { return (bits_ & c.bits_) == c.bits_ && c.bits_; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr uint32_t bits() const { return bits_; }
  friend constexpr bool operator==(WaitConditions, WaitConditions) = default;

 private:
  constexpr explicit WaitConditions(uint32_t bits) : bits_(bits) {}
  uint32_t bits_;
};

// A message slot of the calling hart's tile, named by its bus address.
class Slot {
 public:
  constexpr Slot() = default;  // no slot: valid() is false
  static constexpr Slot at(uint32_t bus_address) { return Slot(bus_address); }
  // The slot a pointer from data() (or a Tinsel-style message pointer) points into the start of.
  static Slot from_pointer(const volatile void* pointer) {
    return Slot(tessera_mbox_bus_address(pointer));
  }

  constexpr uint32_t bus_address() const { return bus_address_; }
  // Inside the scratchpad window and 64-byte aligned.
  constexpr bool valid() const { return tessera_mbox_slot_valid(bus_address_) != 0; }

  // The slot's 64 bytes; only for a valid slot.
  volatile void* data() const { return tessera_mbox_pointer(bus_address_); }
  template <typename T>
  volatile T* as() const {
    static_assert(sizeof(T) <= TESSERA_BYTES_PER_SLOT, "a message is at most 64 bytes");
    return static_cast<volatile T*>(data());
  }
  // Copies size (<= 64) bytes into or out of the slot.
  void write(const void* bytes, size_t size) const;
  void read(void* bytes, size_t size) const;

  friend constexpr bool operator==(Slot, Slot) = default;

 private:
  constexpr explicit Slot(uint32_t bus_address) : bus_address_(bus_address) {}
  uint32_t bus_address_ = 0;
};

// Slot layout (the core's): slots per thread for a tile of `threads_per_tile` threads, and the
// bus address of slot n of thread `thread_id` (slot 0 is its send slot).
constexpr uint32_t mailbox_slots_per_thread(uint32_t threads_per_tile) {
  return tessera_mbox_slots_per_thread(threads_per_tile);
}
constexpr uint32_t mailbox_slot_address(uint32_t thread_id, uint32_t threads_per_tile,
                                        uint32_t n) {
  return tessera_mbox_slot_address(thread_id, threads_per_tile, n);
}

class Mailbox {
 public:
  // Reads the calling thread's id (HART_ID) and the machine's shape and host id (sysinfo).
  Mailbox();

  uint32_t thread_id() const { return thread_id_; }
  // Mailbox id of this thread: thread id >> log2(threads per tile).
  uint32_t mailbox_id() const { return thread_id_ >> tile_shift_; }
  uint32_t host_id() const { return host_id_; }
  const TesseraShape& shape() const { return shape_; }
  uint32_t threads_per_tile() const { return 1u << tile_shift_; }
  uint32_t slots_per_thread() const { return mailbox_slots_per_thread(threads_per_tile()); }

  // This thread's n-th slot (0 = the send slot); no slot (invalid) if n >= slots_per_thread().
  Slot slot(uint32_t n) const;
  Slot send_slot() const { return slot(0); }
  uint32_t receive_slot_count() const { return slots_per_thread() - 1; }
  // The n-th receive slot, n < receive_slot_count(): slot(n + 1).
  Slot receive_slot(uint32_t n) const { return slot(n + 1); }

  bool can_send() const;
  bool can_recv() const;
  // Sleeps until one of the conditions holds (none() returns none() at once); returns the
  // conditions that hold. The hart's cycle count moves on to when it became true.
  WaitConditions wait_until(WaitConditions conditions) const;

  // Sends `flits` (1..4) flits of `slot` to thread `dest` (or the host id). The message is
  // copied out when it is sent; the slot may be reused once send/try_send return.
  // try_send: Unavailable if can-send is 0. send: waits for can-send first.
  [[nodiscard]] Status try_send(uint32_t dest, Slot slot, uint32_t flits) const;
  [[nodiscard]] Status send(uint32_t dest, Slot slot, uint32_t flits) const;
  // One message to each thread k of mailbox `mailbox` with bit k of `mask` set (k < 64 and
  // < threads per tile). An empty mask sends nothing.
  [[nodiscard]] Status try_multicast(uint32_t mailbox, uint64_t mask, Slot slot,
                                     uint32_t flits) const;
  [[nodiscard]] Status multicast(uint32_t mailbox, uint64_t mask, Slot slot,
                                 uint32_t flits) const;

  // The slot holding the oldest waiting message, now the caller's. try_recv: Unavailable (and
  // *slot untouched) if none is waiting. recv: waits for one.
  [[nodiscard]] Status try_recv(Slot* slot) const;
  Slot recv() const;

  // Gives a slot to hardware to receive into (Tinsel's tinselAlloc/tinselFree); a received
  // message in it counts as received from then on. Giving a slot hardware already owns is a
  // mailbox fault.
  [[nodiscard]] Status give(Slot slot) const;
  // Gives every receive slot of this thread but the first `kept_back` (what a v2 program's
  // runtime does before main; it keeps slot 1 back for tinselSendSlotExtra).
  [[nodiscard]] Status give_receive_slots(uint32_t kept_back = 0) const;

  // Code of this thread's last mailbox fault (MailboxFault), 0 if none.
  uint32_t last_fault() const;

 private:
  bool is_destination(uint32_t id) const;
  void start_send(uint32_t dest, Slot slot, uint32_t flits) const;
  void start_multicast(uint32_t mailbox, uint64_t mask, Slot slot, uint32_t flits) const;
  Status check_multicast(uint32_t mailbox, uint64_t mask, Slot slot, uint32_t flits) const;

  TesseraShape shape_;
  uint32_t thread_id_;
  uint32_t host_id_;
  uint32_t tile_shift_;
};

}  // namespace tessera::drivers
