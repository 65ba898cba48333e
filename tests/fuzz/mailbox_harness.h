// Drives the mailbox and network model (tessera/models/mailbox.h) the way the
// QEMU wrapper does, one CSR of one hart at a time, plus the host port, and
// checks every answer against a shadow of what the guest and the host know:
//
//   ledger    every message accepted (a unique tag in its first 8 bytes, a
//             copy of its payload), each copy's receiver, and whether that
//             copy has been received (RECV) and then freed (FREE) or taken
//             by the host
//   slots     who owns each slot of each touched tile (software, or
//             hardware and which hart gave it) and which received copy it
//             holds
//   harts     running / halted in WAIT_UNTIL / blocked in tinselIdle /
//             released, their CSR registers, clocks and counts
//
// The invariants it asserts are listed in docs/fuzzing.md. Shared by
// mailbox_fuzz.cc and hostlink_fuzz.cc.
#pragma once

#include <stdint.h>

#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "fuzz_input.h"
#include "mailbox_events.h"
#include "tessera/models/mailbox.h"

namespace fuzz {

// What the input decides before the first operation.
struct MailboxSetup {
  TesseraMailboxConfig config{};
  // Halted harts may issue any CSR, as a debugger or an interrupt handler
  // could. Otherwise a halted hart only issues its CSR again.
  bool interrupts = false;
  bool host_refuses = false;  // the host starts out refusing messages
  bool probe_config = false;  // also check the model's configuration checks
  uint8_t final_votes = 0;    // bit i clear: the i-th hart to idle at the end votes true
};

// Largest machine a scenario drives: small machines run fast, and reach the
// same code. A machine of one wide tile may have up to the 512 threads per
// tile the model allows (2 slots each).
inline constexpr uint32_t kMaxHarts = 64;
inline constexpr uint32_t kMaxWideHarts = TESSERA_SLOTS_PER_TILE / 2;

// Boards 1..8 x 1..8, tiles 1..2 x 1..2, 1..8 cores of 1..8 threads or, for
// wide tiles, up to 512 threads per tile; small buffers and latencies.
// Machines above max_harts (max_wide_harts) are shrunk, boards first.
MailboxSetup decode_mailbox_setup(FuzzInput& in, uint32_t max_harts = kMaxHarts,
                                  uint32_t max_wide_harts = kMaxWideHarts);

// Builds a raw, often invalid, configuration from the input and checks that
// tessera_mailbox_new accepts exactly what mailbox.h documents.
void probe_mailbox_config(FuzzInput& in);

class MailboxHarness {
 public:
  explicit MailboxHarness(const MailboxSetup& setup);
  ~MailboxHarness();
  MailboxHarness(const MailboxHarness&) = delete;
  MailboxHarness& operator=(const MailboxHarness&) = delete;

  uint32_t num_harts() const { return num_harts_; }
  uint32_t host_id() const { return host_id_; }
  const TesseraShape& shape() const { return shape_; }

  // One operation decoded from the input: a guest CSR, a slot write, time
  // passing, or a host action.
  void step(FuzzInput& in);

  // The host offers a message to a thread (the harness writes the tag into
  // the payload's first 8 bytes). Returns what tessera_mailbox_inject did.
  bool inject(uint32_t dest_id, uint32_t flits, const uint8_t* payload, uint64_t time);
  void set_host_accepts(bool accepts) { host_accepts_ = accepts; }
  void host_ready();
  // True once after the model called host->inject_ready.
  bool take_inject_ready();

  // Called for each message the host takes, after the harness checked it.
  std::function<void(uint32_t src_id, const uint8_t* msg, uint32_t flits, uint64_t time)>
      on_to_host;

  // End of a scenario: every accepted message is received and freed (or
  // taken by the host), the counters agree, then every hart calls
  // tinselIdle and termination must be detected.
  void finish();
  // The same without the final tinselIdle calls.
  void finish_delivery();

 private:
  enum class HartState : uint8_t { kRunning, kWaiting, kIdle, kReleased };
  // kRefused: registered before a call that then faulted or refused it.
  enum class CopyState : uint8_t { kPending, kReceived, kDone, kRefused };

  struct Hart {
    HartState state = HartState::kRunning;
    uint32_t wait_value = 0;  // the WAIT_UNTIL it is halted in
    bool woken = false;       // wake() since it halted
    bool listed = false;      // on halted_
    bool vote = false;        // kIdle
    uint32_t released = 0;    // kReleased: tinselIdle's result, 1 or 3
    uint64_t now = 0;
    uint32_t send_len = 0, send_ptr = 0, mcast_hi = 0, mcast_lo = 0;
    uint32_t last_fault = 0;
    uint32_t unreceived = 0;    // copies for it not yet RECV'd
    uint32_t lent_slots = 0;    // slots of its range given by other harts
    uint64_t copies_sent = 0;   // what thread_counts().sent must reach
    uint64_t copies_freed = 0;  // what thread_counts().received must be
  };
  struct Slot {
    bool hardware = false;
    uint32_t giver = 0;     // hardware: who gave it
    uint32_t copy = kNone;  // software: received copy not yet freed
  };
  struct Message {
    uint32_t src;     // hart index, or kHostHart
    uint32_t src_id;  // thread id or host id
    uint32_t flits;
    uint64_t sent_now;  // sender's clock when it sent
    uint32_t first_copy, num_copies;
    uint8_t bytes[TESSERA_BYTES_PER_SLOT];
  };
  struct Copy {
    uint32_t message;
    uint32_t receiver;  // hart index, or kHostHart
    CopyState state;
  };
  struct CsrOutcome {
    TesseraAccessStatus result;
    uint32_t value;
    uint64_t resume_at;
    TesseraMailboxFault fault;
  };
  // What held when the model woke a hart, to judge it afterwards if the
  // wake turns out to be a release.
  struct Wake {
    uint32_t hart;
    bool terminal;
    bool all_voted_true;
  };

  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr uint32_t kHostHart = UINT32_MAX;

  // Callbacks.
  uint8_t* scratch(uint32_t tile);
  void on_wake(uint32_t hart);
  bool on_host_message(uint32_t src_id, const uint8_t* msg, uint32_t flits, uint64_t time);

  // Geometry.
  uint32_t tile_of(uint32_t hart) const { return hart >> tile_shift_; }
  uint32_t first_slot(uint32_t hart) const { return (hart & (tpt_ - 1)) * spt_; }
  uint32_t range_owner(uint32_t tile, uint32_t slot) const { return tile * tpt_ + slot / spt_; }
  bool is_thread(uint32_t id) const;
  uint32_t hart_of(uint32_t id) const;
  uint32_t thread_id(uint32_t hart) const;
  uint64_t expected_latency(uint32_t src_id, uint32_t dest_id) const;
  Slot& slot(uint32_t tile, uint32_t n);
  static std::vector<std::unique_ptr<uint8_t[]>>& scratch_pool();
  static std::vector<std::unique_ptr<Slot[]>>& slot_pool();

  // The terminal condition of DESIGN 1.2, in the shadow.
  bool terminal() const;
  bool all_voted_true() const;

  // Every CSR goes through here: calls the model, checks the generic
  // contract, and handles the wakes it caused.
  CsrOutcome csr(uint32_t hart, uint32_t csrno, uint32_t value);
  void leave_halt(uint32_t hart, uint32_t csrno, uint32_t value);
  void halt(uint32_t hart, HartState state, uint32_t value);
  void after_call(uint64_t rounds_before);
  void judge_release(uint32_t hart, bool terminal, bool all_voted_true, uint64_t rounds_before);
  void check_no_missed_wake();
  uint64_t rounds_started() const;

  // Guest operations.
  uint32_t holds(uint32_t hart, uint32_t bits) const;  // of WAIT_UNTIL bits 0/1
  bool may_give(uint32_t hart, uint32_t tile, uint32_t n);
  void op_free(uint32_t hart, FuzzInput& in);
  void freed(uint32_t hart, uint32_t tile, uint32_t n);
  bool free_slot(uint32_t hart, uint32_t address);
  void exchange(FuzzInput& in);
  // With windows: the termination detector's master hears the window's news (termdet.h).
  void idle_window();
  void op_send(uint32_t hart, FuzzInput& in);
  void check_send_resume(uint32_t hart, uint64_t now, uint64_t resume_at) const;
  bool op_recv(uint32_t hart);
  void took(uint32_t hart, uint32_t address, uint64_t resume_at);
  void op_recv_free(uint32_t hart, FuzzInput& in);
  void op_set_len(uint32_t hart, FuzzInput& in);
  void op_set_ptr(uint32_t hart, FuzzInput& in);
  void op_mcast_mask(uint32_t hart, FuzzInput& in);
  void op_multicast(uint32_t hart, FuzzInput& in);
  void op_can(uint32_t hart, bool send);
  void op_wait(uint32_t hart, FuzzInput& in);
  void op_idle(uint32_t hart, bool vote, uint32_t extra_bits);
  void op_reissue(uint32_t hart);
  void op_read_fault(uint32_t hart);
  void op_write_slot(uint32_t hart, FuzzInput& in);
  void op_unknown(FuzzInput& in);
  void host_step(FuzzInput& in);
  uint32_t pick_slot_address(uint32_t hart, FuzzInput& in);
  uint32_t pick_destination(FuzzInput& in);

  // The ledger.
  uint32_t new_message(uint32_t src, uint32_t src_id, uint32_t flits, uint64_t sent_now,
                       const uint8_t* bytes);
  void add_copy(uint32_t message, uint32_t receiver);
  void refuse(uint32_t message);
  void tag(uint8_t* bytes, uint32_t message) const;
  uint32_t received(uint32_t hart, uint32_t tile, uint32_t slot_number, uint64_t resume_at);
  void check_order(uint32_t src, uint32_t receiver, uint32_t message);

  // End of a scenario.
  void drain();
  void check_counts();
  void quiesce();

  TesseraShape shape_;
  TesseraMailboxConfig config_;
  bool interrupts_;
  uint8_t final_votes_;
  TesseraMailbox* model_ = nullptr;
  TesseraWaits* waits_ = nullptr;  // the wait registry the model reports to
  uint32_t num_harts_, num_tiles_, tpt_, spt_, tile_shift_, host_id_;

  std::vector<Hart> harts_;
  std::vector<std::unique_ptr<uint8_t[]>> scratch_;
  std::vector<std::unique_ptr<Slot[]>> slots_;
  std::vector<uint32_t> tile_unreceived_;  // copies for a tile not yet RECV'd
  std::vector<bool> refused_;              // inject refused, no inject_ready since
  std::vector<uint32_t> halted_;           // harts that may be halted
  std::vector<Message> messages_;
  std::vector<Copy> copies_;
  std::unordered_map<uint64_t, uint32_t> last_in_pair_;  // (src, receiver) -> message

  uint32_t num_idle_ = 0, idle_false_votes_ = 0;
  // The hart whose tinselIdle call is under way, counted as idle meanwhile.
  uint32_t idle_caller_ = kNone;
  bool idle_caller_vote_ = false;
  uint64_t undelivered_ = 0;      // copies not yet freed or taken
  uint32_t host_unreceived_ = 0;  // copies for the host not yet taken
  uint64_t host_sent_ = 0, host_taken_ = 0;
  bool host_accepts_ = true;
  bool inject_ready_ = false;
  std::vector<Wake> wakes_;
  uint32_t last_received_slot_ = 0;  // of the latest successful RECV
  uint64_t detections_seen_ = 0;     // by after_call
  uint64_t episode_ = 0;
  uint32_t episode_result_ = 0;
  MailboxEvents events_;  // the trace hook's events
};

}  // namespace fuzz
