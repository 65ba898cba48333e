// guest_fuzz: every hart issues random operations on the guest interface (GUEST_FUZZ_OPS_TOTAL
// shared among the harts, at least GUEST_FUZZ_MIN_OPS each), driven by a PRNG seeded with
// GUEST_FUZZ_SEED and the thread id (docs/guest-fuzz.md):
//   - CSR instructions (all six forms) on every Tessera CSR and its neighbours (csr_list.h);
//   - loads and stores of every width, aligned and not, in and just outside every device window,
//     the scratchpad and DRAM;
//   - mailbox traffic: sends to threads, holes in the id space and the host, bad lengths and
//     slots, multicasts, receives, frees (double ones too), waits and tinselIdle.
// Traps those operations cause are counted and skipped by the runtime's trap hook. The guest also
// checks what it can see: each trap has the cause and fault code the documentation gives, CSRs
// that do not exist always trap, registers read back what was written, sysinfo reads what it
// should, and in the end every message sent to a thread was received exactly once.
//
// Nothing may block for ever: a wait is issued only when a condition it names already holds, a
// tinselIdle in the middle of the run votes false and holds no received message, and the run ends
// with tinselIdle(vote = true) until every thread voted true. Then each thread sends its counts
// to thread 0, which checks the totals.
//
// Output: one "guest_fuzz: thread ..." line per hart, one "guest_fuzz: all ..." line from thread
// 0, "FAIL guest_fuzz: ..." lines for what went wrong. Exit status 0, or 1 if any check failed.
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>

#include "csr_list.h"
#include "tessera/drivers/console.h"
#include "tessera/drivers/sysinfo.h"
#include "tessera/hal/csr.h"
#include "tessera/hal/mmio.h"
#include "tessera/hw/regs.h"
#include "tessera/print.h"
#include "tessera/trap.h"
#include "tessera/util/xorshift.h"

#ifndef GUEST_FUZZ_SEED
#error "build with -DGUEST_FUZZ_SEED=<n> (apps/guest_fuzz/CMakeLists.txt)"
#endif
// Operations per hart: an even share of GUEST_FUZZ_OPS_TOTAL, at least GUEST_FUZZ_MIN_OPS, so
// that small machines get many operations per hart and large ones still finish in seconds.
#ifndef GUEST_FUZZ_OPS_TOTAL
#define GUEST_FUZZ_OPS_TOTAL 1000000
#endif
#ifndef GUEST_FUZZ_MIN_OPS
#define GUEST_FUZZ_MIN_OPS 2000
#endif

extern "C" {
uint32_t guest_fuzz_csr(uint32_t entry, uint32_t operand);
uint32_t guest_fuzz_mem(uint32_t op, uint32_t address, uint32_t value);
extern const char guest_fuzz_ops_start[];
extern const char guest_fuzz_ops_end[];
}

namespace {

// ---- Traps --------------------------------------------------------------------------------------

constexpr uint32_t kCauseIllegal = 2;
constexpr uint32_t kCauseLoadMisaligned = 4;
constexpr uint32_t kCauseLoadAccess = 5;
constexpr uint32_t kCauseStoreMisaligned = 6;
constexpr uint32_t kCauseStoreAccess = 7;

// Per hart (TLS), written by the trap hook.
struct TrapLog {
  uint32_t count;
  uint32_t by_cause[16];
  uint32_t last_cause;
  uint32_t last_tval;
};
thread_local TrapLog trap_log;

}  // namespace

namespace tessera::runtime {

// Only the single instructions of ops.S may trap on purpose; anything else stays fatal.
bool on_trap(TrapFrame& /*frame*/, TrapContext& trap) {
  const uintptr_t pc = trap.mepc;
  if ((trap.mcause >> 31) != 0 || pc < reinterpret_cast<uintptr_t>(guest_fuzz_ops_start) ||
      pc >= reinterpret_cast<uintptr_t>(guest_fuzz_ops_end)) {
    return false;
  }
  trap_log.count++;
  trap_log.by_cause[trap.mcause & 15]++;
  trap_log.last_cause = trap.mcause;
  trap_log.last_tval = trap.mtval;
  trap.mepc = pc + 4;  // the ret after the instruction
  return true;
}

}  // namespace tessera::runtime

namespace {

// ---- CSR table ----------------------------------------------------------------------------------

#define GUEST_FUZZ_CXX_ENTRY(csr) csr,
constexpr uint16_t kCsrs[] = {GUEST_FUZZ_CSRS(GUEST_FUZZ_CXX_ENTRY)};
constexpr uint32_t kNumCsrs = sizeof kCsrs / sizeof kCsrs[0];

constexpr bool listed(uint32_t csr) {
  for (uint32_t c : kCsrs) {
    if (c == csr) {
      return true;
    }
  }
  return false;
}
static_assert(listed(TESSERA_CSR_FREE) && listed(TESSERA_CSR_CAN_SEND) &&
                  listed(TESSERA_CSR_CAN_RECV) && listed(TESSERA_CSR_SEND_LEN) &&
                  listed(TESSERA_CSR_SEND_PTR) && listed(TESSERA_CSR_SEND) &&
                  listed(TESSERA_CSR_RECV) && listed(TESSERA_CSR_WAIT_UNTIL) &&
                  listed(TESSERA_CSR_FROM_UART) && listed(TESSERA_CSR_TO_UART) &&
                  listed(TESSERA_CSR_EMIT) && listed(TESSERA_CSR_MCAST_HI) &&
                  listed(TESSERA_CSR_MCAST_LO) && listed(TESSERA_CSR_MCAST_SEND) &&
                  listed(TESSERA_CSR_MBOX_FAULT) && listed(TESSERA_CSR_HART_ID) &&
                  listed(TESSERA_CSR_CYCLE) && listed(TESSERA_CSR_CYCLEH),
              "every CSR of regs.h is fuzzed");

constexpr uint32_t csr_position(uint32_t csr) {
  for (uint32_t i = 0; i < kNumCsrs; i++) {
    if (kCsrs[i] == csr) {
      return i;
    }
  }
  return kNumCsrs;
}

enum Form : uint32_t { kRw, kRs, kRc, kRwi, kRsi, kRci, kNumForms };

constexpr bool immediate_form(Form f) {
  return f >= kRwi;
}

uint32_t table_entry(uint32_t position, Form form, uint32_t operand) {
  const uint32_t base = position * GUEST_FUZZ_FORMS_PER_CSR;
  if (!immediate_form(form)) {
    return base + form;
  }
  return base + 3 + (form - kRwi) * 32 + (operand & 31);
}

// What a CSR instruction asks of the CSR (QEMU passes custom CSRs new_value & write_mask):
// csrrw/csrrwi always write the operand; csrrs/csrrsi write it, and csrrc/csrrci write 0, only
// when the operand is non-zero; otherwise the instruction only reads (write mask 0).
struct Effect {
  bool writes;
  uint32_t value;
};

Effect effect_of(Form form, uint32_t operand) {
  switch (form) {
    case kRw:
    case kRwi:
      return {true, operand};
    case kRs:
    case kRsi:
      return {operand != 0, operand};
    default:
      return {operand != 0, 0};
  }
}

// An OCBUS_WAIT value that cannot sleep while every line reads 0 (docs/ocbus.md): one the bus
// refuses (no mask, lines the machine lacks, bits 16 and up), or one waiting for 0s.
bool ocbus_wait_safe_for(uint32_t value, uint32_t lines) {
  const uint32_t mask = value & 0xff, expect = (value >> 8) & 0xff;
  return (value >> 16) != 0 || mask == 0 || (mask >> lines) != 0 || (expect & mask) == 0;
}

// CSRs nothing implements (regs.h defines UART numbers that no build implements,
// docs/memory-map.md).
bool never_implemented(uint32_t csr) {
  switch (csr) {
    case 0x7fe:
    case 0x7ff:
    case 0x800:
    case 0x801:
    case 0x804:
    case TESSERA_CSR_FROM_UART:
    case TESSERA_CSR_TO_UART:
    case 0x80d:
    case 0x80e:
    case 0x810:
      return true;
    default:
      return false;
  }
}

constexpr bool read_only_csr(uint32_t csr) {
  return (csr >> 10) == 3;
}

// ---- PRNG ---------------------------------------------------------------------------------------

// Xorshift32 from a mixed (seed, thread id): the same seed gives the same run on every machine.
class Random : public tessera::Xorshift32 {
 public:
  Random(uint32_t seed, uint32_t thread) : Xorshift32(mix(seed, thread)) {}
  bool percent(uint32_t p) { return below(100) < p; }

 private:
  static constexpr uint32_t mix(uint32_t seed, uint32_t thread) {
    uint32_t x = seed * 0x9e3779b9u ^ (thread + 1) * 0x85ebca6bu;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
  }
};

// ---- The machine as this hart sees it -----------------------------------------------------------

struct Facts {
  TesseraShape shape;
  uint32_t id, index, threads, host_id, boards;
  uint32_t threads_per_tile, tile_shift, slots_per_thread;
  uint32_t my_slots;  // bus address of this thread's first (send) slot
  uint32_t dram_size;
  uint32_t sysinfo[TESSERA_SYSINFO_HOST_ID / 4 + 1];  // expected register values
  uint32_t ocbus_lines;  // every one reads 0 for good: they reset clamped, the fuzzer drives none
};

Facts read_facts() {
  const tessera::drivers::Sysinfo sysinfo;
  Facts f{};
  f.shape = sysinfo.shape();
  f.id = tessera::hal::csr_read<TESSERA_CSR_HART_ID>();
  f.index = sysinfo.hart_index();
  f.threads = sysinfo.num_harts();
  f.host_id = sysinfo.host_id();
  f.boards = f.shape.boards_x * f.shape.boards_y;
  f.threads_per_tile = tessera_threads_per_tile(&f.shape);
  f.tile_shift = tessera_tile_shift(&f.shape);
  f.slots_per_thread = TESSERA_SLOTS_PER_TILE / f.threads_per_tile;
  f.my_slots = TESSERA_SCRATCH_BASE +
               (f.id & (f.threads_per_tile - 1)) * f.slots_per_thread * TESSERA_BYTES_PER_SLOT;
  f.dram_size = sysinfo.dram_size();
  f.ocbus_lines = tessera::hal::mmio_read32(TESSERA_OCBUS_BASE + TESSERA_OCBUS_LINES);
  for (uint32_t r = 0; r <= TESSERA_SYSINFO_HOST_ID / 4; r++) {
    f.sysinfo[r] = tessera::hal::mmio_read32(TESSERA_SYSINFO_BASE + 4 * r);
  }
  return f;
}

bool valid_slot(uint32_t address) {
  return address >= TESSERA_SCRATCH_BASE && address - TESSERA_SCRATCH_BASE < TESSERA_SCRATCH_SIZE &&
         address % TESSERA_BYTES_PER_SLOT == 0;
}

bool valid_thread(const Facts& f, uint32_t id) {
  return tessera_thread_exists(&f.shape, id) != 0;
}

bool valid_mailbox(const Facts& f, uint32_t mailbox) {
  return mailbox <= (UINT32_MAX >> f.tile_shift) && valid_thread(f, mailbox << f.tile_shift);
}

uint32_t popcount(uint32_t x) {
  uint32_t n = 0;
  for (; x != 0; x &= x - 1) {
    n++;
  }
  return n;
}

// ---- Statistics and failures --------------------------------------------------------------------

struct Stats {
  uint32_t ops, csr, loads, stores, sends, mcasts, recvs, frees, waits, idles, releases;
  uint32_t sent_threads;  // messages (multicast copies included) accepted for threads
  uint32_t sent_host, received;
  uint32_t mbox_faults[8];
  uint32_t failures;
};

constexpr uint32_t kMaxFailureLines = 4;

// ---- The fuzzer ---------------------------------------------------------------------------------

class Fuzzer {
 public:
  explicit Fuzzer(const Facts& facts)
      : f_(facts), rng_(GUEST_FUZZ_SEED, facts.id), send_ptr_(facts.my_slots) {}

  void run(uint32_t ops);
  void finish();
  const Stats& stats() const { return s_; }

 private:
  static constexpr uint32_t kMaxHeld = 4;

  struct Outcome {
    uint32_t value;
    bool trapped;
  };

  // Operations
  Outcome csr(uint32_t csr, Form form, uint32_t operand);
  void random_csr();
  void memory_op(bool store);
  void send();
  void multicast();
  void receive();
  void free_one();
  void wait();
  void idle();
  void drain();
  void free_all_held();

  // Operand generators
  uint32_t operand_for(uint32_t csr);
  uint32_t interesting();
  uint32_t destination();
  uint32_t mailbox();
  uint32_t mask_word(bool high);
  uint32_t slot_value();
  uint32_t free_target();
  uint32_t wait_conditions();
  uint32_t console_byte();
  uint32_t address(bool& near_window);

  bool wait_safe(uint32_t conditions);
  bool ocbus_wait_safe(uint32_t value) const { return ocbus_wait_safe_for(value, f_.ocbus_lines); }
  bool may_give(uint32_t slot) const;
  void hold(uint32_t slot);
  bool held(uint32_t slot) const;
  void forget(uint32_t slot);
  void failure(const char* what, uint32_t csr_or_address, uint32_t a, uint32_t b);

  const Facts& f_;
  Random rng_;
  Stats s_{};
  uint32_t held_[kMaxHeld] = {};
  uint32_t held_count_ = 0;
  // What the CSRs that read back their previous value should read back (reset values).
  uint32_t send_len_ = 0, send_ptr_, mcast_hi_ = 0, mcast_lo_ = 0;
};

void Fuzzer::failure(const char* what, uint32_t where, uint32_t a, uint32_t b) {
  if (s_.failures++ < kMaxFailureLines) {
    tessera::drivers::Console().flush();  // fuzzed console bytes may be pending on this line
    tessera::printf("FAIL guest_fuzz: thread 0x%" PRIx32 " op %" PRIu32 ": %s (0x%" PRIx32
                    ", 0x%" PRIx32 ", 0x%" PRIx32 ")\n",
                    f_.id, s_.ops, what, where, a, b);
  }
}

// One CSR instruction through the table, with the bookkeeping and the checks of what the
// documentation promises for it. Every CSR access of the fuzz phase goes through here.
Fuzzer::Outcome Fuzzer::csr(uint32_t csr, Form form, uint32_t operand) {
  if (immediate_form(form)) {
    operand &= 31;
  }
  Effect e = effect_of(form, operand);
  if (csr == TESSERA_CSR_WAIT_UNTIL && !wait_safe(e.value)) {
    // Never a wait that could sleep for ever: ask for a fault (bit 4 up) instead.
    operand = immediate_form(form) ? 16 | (operand & 15) : (rng_.next() | 16);
    e = effect_of(form, operand);
    if (!wait_safe(e.value)) {
      operand = 16;  // csrrc forms write 0, which is safe; anything else now faults
      form = kRw;
      e = effect_of(form, operand);
    }
  }
  if (csr == TESSERA_CSR_OCBUS_WAIT && !ocbus_wait_safe(e.value)) {
    // Never a wait that could sleep for ever (for a line to read 1: nobody releases one): a
    // wait with bits 16 and up instead, which the bus refuses.
    form = kRw;
    operand = 1u << 16 | (operand & 0xffff);
    e = effect_of(form, operand);
  }
  if (csr == TESSERA_CSR_REFLEX_RECV && !e.writes) {
    // A read would wait for ever (no switch is configured, so no flit comes): a write instead,
    // which the switch refuses.
    form = kRw;
    e = effect_of(form, operand);
  }
  if (csr == TESSERA_CSR_FREE && e.writes && !may_give(e.value) && !held(e.value)) {
    operand = e.value + 8;  // a misaligned slot instead: BAD_SLOT (only csrrw/csrrs get here)
    e = effect_of(form, operand);
  }
  if (csr == TESSERA_CSR_WAIT_UNTIL && (e.value & (TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE)) &&
      e.value < 16) {
    free_all_held();  // an idle thread holding a message would never see termination
  }
  const uint32_t traps_before = trap_log.count;
  const uint32_t value = guest_fuzz_csr(table_entry(csr_position(csr), form, operand), operand);
  const bool trapped = trap_log.count != traps_before;

  if (trapped && trap_log.last_cause != kCauseIllegal) {
    failure("CSR trap with a cause other than illegal instruction", csr, trap_log.last_cause,
            operand);
  }
  if (never_implemented(csr)) {
    if (!trapped) {
      failure("CSR that nothing implements did not trap", csr, form, operand);
    }
    return {value, trapped};
  }
  if (read_only_csr(csr) && e.writes && !trapped) {
    failure("write to a read-only CSR did not trap", csr, form, operand);
  }
  if (csr == TESSERA_CSR_EMIT && trapped) {
    failure("EMIT trapped", csr, form, operand);
  }
  if (csr == TESSERA_CSR_OCBUS_WAIT) {
    // A wait the bus takes reads the global value (every line clamped); one it refuses, 0.
    if (trapped || value != 0) {
      failure("ocbus wait trapped or read non-zero", csr, value, e.value);
    }
    return {value, trapped};
  }
  if (tessera_csr_is_reflex(csr)) {
    // The fuzzer configures no switch: every send is refused (no next switch), a read of SEND
    // and a write of RECV are guest errors; none traps, all read 0 (docs/reflex.md).
    if (trapped || value != 0) {
      failure("reflex CSR trapped or read non-zero with no switch configured", csr, value, form);
    }
    return {value, trapped};
  }
  if (!tessera_csr_is_mailbox(csr)) {
    return {value, trapped};
  }

  // Mailbox CSRs.
  uint32_t fault = 0;
  if (trapped) {
    fault = tessera::hal::csr_read<TESSERA_CSR_MBOX_FAULT>();
    if (fault == 0 || fault > 7) {
      failure("mailbox CSR trapped without a fault code", csr, fault, e.value);
    } else {
      s_.mbox_faults[fault]++;
    }
  }
  // Fault expected for what the CSR was asked (0: none), and whether another code may also come
  // (a send may find the outbound register busy).
  uint32_t expect = 0;
  uint32_t may_also = 0;
  if (tessera_csr_is_mailbox_command(csr) && !e.writes) {
    if (trapped || value != 0) {
      failure("csrr of a command CSR did something", csr, value, form);
    }
    return {value, trapped};
  }
  switch (csr) {
    case TESSERA_CSR_FREE:
      expect = valid_slot(e.value) ? 0 : 2;
      may_also = valid_slot(e.value) ? 4 : 0;
      forget(e.value);  // given or, if hardware had it already, not ours: either way not held
      break;
    case TESSERA_CSR_SEND_LEN:
      expect = e.value >= TESSERA_MAX_FLITS ? 3 : 0;
      if (!trapped) {
        if (value != send_len_) {
          failure("SEND_LEN read back another previous value", csr, value, send_len_);
        }
        send_len_ = e.value;
      }
      break;
    case TESSERA_CSR_SEND_PTR:
      expect = valid_slot(e.value) ? 0 : 2;
      if (!trapped) {
        if (value != send_ptr_) {
          failure("SEND_PTR read back another previous value", csr, value, send_ptr_);
        }
        send_ptr_ = e.value;
      }
      break;
    case TESSERA_CSR_SEND: {
      const bool to_host = e.value == f_.host_id;
      expect = to_host || valid_thread(f_, e.value) ? 0 : 1;
      may_also = expect == 0 ? 6 : 0;
      if (!trapped) {
        s_.sends++;
        if (to_host) {
          s_.sent_host++;
        } else {
          s_.sent_threads++;
        }
      }
      break;
    }
    case TESSERA_CSR_MCAST_SEND: {
      const uint64_t mask = static_cast<uint64_t>(mcast_hi_) << 32 | mcast_lo_;
      const bool beyond = f_.threads_per_tile < 64 && (mask >> f_.threads_per_tile) != 0;
      expect = !valid_mailbox(f_, e.value) || beyond ? 1 : 0;
      may_also = expect == 0 ? 6 : 0;
      if (!trapped) {
        s_.mcasts++;
        s_.sent_threads += popcount(mcast_hi_) + popcount(mcast_lo_);
      }
      break;
    }
    case TESSERA_CSR_MCAST_HI:
    case TESSERA_CSR_MCAST_LO: {
      uint32_t& shadow = csr == TESSERA_CSR_MCAST_HI ? mcast_hi_ : mcast_lo_;
      if (!trapped) {
        if (value != shadow) {
          failure("MCAST mask read back another previous value", csr, value, shadow);
        }
        shadow = e.value;
      }
      break;
    }
    case TESSERA_CSR_RECV:
      may_also = 5;  // a message may arrive between any check and the RECV
      if (!trapped) {
        s_.recvs++;
        s_.received++;
        // Any slot of the tile may come back: another thread may have given one of its slots.
        if (valid_slot(value)) {
          hold(value);
        } else {
          failure("RECV returned no slot", csr, value, 0);
        }
      }
      break;
    case TESSERA_CSR_WAIT_UNTIL:
      expect = e.value == 0 || e.value >= 16 ? 7 : 0;
      if (!trapped && expect == 0) {
        if (e.value & (TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE)) {
          s_.idles++;
          s_.releases += (value & TESSERA_WAIT_IDLE) ? 1 : 0;
          if ((value & TESSERA_WAIT_IDLE_VOTE) != 0) {
            failure("tinselIdle(false) released with every vote true", csr, value, e.value);
          }
        } else {
          s_.waits++;
          if ((value & e.value) == 0 || (value & ~e.value) != 0) {
            failure("WAIT_UNTIL returned conditions not asked for or none", csr, value, e.value);
          }
        }
      }
      break;
    case TESSERA_CSR_CAN_SEND:
    case TESSERA_CSR_CAN_RECV:
      if (!trapped && value > 1) {
        failure("can-send/can-recv read neither 0 nor 1", csr, value, 0);
      }
      break;
    case TESSERA_CSR_MBOX_FAULT:
      if (!trapped && value > 7) {
        failure("MBOX_FAULT read an unknown code", csr, value, 0);
      }
      break;
    default:
      break;
  }
  if (expect != 0 && !trapped) {
    failure("mailbox CSR did not fault", csr, expect, e.value);
  } else if (trapped && fault != expect && fault != may_also) {
    failure("mailbox CSR raised another fault", csr, fault, e.value);
  }
  return {value, trapped};
}

void Fuzzer::hold(uint32_t slot) {
  if (held_count_ == kMaxHeld) {
    const uint32_t oldest = held_[0];
    for (uint32_t i = 1; i < held_count_; i++) {
      held_[i - 1] = held_[i];
    }
    held_count_--;
    s_.frees++;
    (void)csr(TESSERA_CSR_FREE, kRw, oldest);
  }
  held_[held_count_++] = slot;
}

bool Fuzzer::held(uint32_t slot) const {
  for (uint32_t i = 0; i < held_count_; i++) {
    if (held_[i] == slot) {
      return true;
    }
  }
  return false;
}

void Fuzzer::forget(uint32_t slot) {
  for (uint32_t i = 0; i < held_count_; i++) {
    if (held_[i] == slot) {
      held_[i] = held_[--held_count_];
      return;
    }
  }
}

void Fuzzer::free_all_held() {
  while (held_count_ > 0) {
    s_.frees++;
    (void)csr(TESSERA_CSR_FREE, kRw, held_[held_count_ - 1]);  // forgets it
  }
}

// A wait may be issued only if it cannot sleep for ever: a fault (0, bits 4 up), or a condition
// that holds now (can-send stays true until this thread sends, can-recv until it receives), or an
// idle that votes false (the end of the run, where every thread votes true, releases it).
bool Fuzzer::wait_safe(uint32_t conditions) {
  if (conditions == 0 || conditions >= 16) {
    return true;
  }
  if (conditions & TESSERA_WAIT_IDLE_VOTE) {
    return false;
  }
  if (conditions & TESSERA_WAIT_IDLE) {
    return true;
  }
  if ((conditions & TESSERA_WAIT_CAN_SEND) && tessera::hal::csr_read<TESSERA_CSR_CAN_SEND>() != 0) {
    return true;
  }
  return (conditions & TESSERA_WAIT_CAN_RECV) &&
         tessera::hal::csr_read<TESSERA_CSR_CAN_RECV>() != 0;
}

// Giving a slot of another thread of the tile is allowed (docs/mailbox.md) and moves the slot to
// this thread if its owner held it. Two cases are left out because they would break the run, not
// the machine: another thread's send slot (each thread writes its own send slot for the final
// report, which must not land in a slot someone else receives into), and any other thread's slot
// when there are few per thread (a thread that lost all its slots could never receive again, and
// the run could not terminate).
constexpr uint32_t kMinSlotsToGiveOthers = 32;

bool Fuzzer::may_give(uint32_t slot) const {
  const uint32_t mine = f_.slots_per_thread * TESSERA_BYTES_PER_SLOT;
  if (!valid_slot(slot) || slot - f_.my_slots < mine) {
    return true;
  }
  const uint32_t index = (slot - TESSERA_SCRATCH_BASE) / TESSERA_BYTES_PER_SLOT;
  return f_.slots_per_thread >= kMinSlotsToGiveOthers && index % f_.slots_per_thread != 0;
}

// ---- Operand generators -------------------------------------------------------------------------

uint32_t Fuzzer::interesting() {
  static constexpr uint32_t kValues[] = {
      0,          1,          2,          3,       4,       5,       7,      8,
      15,         16,         31,         32,      63,      64,      0xff,   0x7fffffff,
      0x80000000, 0xfffffffe, 0xffffffff, 0x10000, 0x10040, 0x1ffc0, 0x20000};
  switch (rng_.below(6)) {
    case 0:
      return kValues[rng_.below(sizeof kValues / sizeof kValues[0])];
    case 1:
      return destination();
    case 2:
      return slot_value();
    case 3:
      return mailbox();
    case 4:
      return rng_.below(64);
    default:
      return rng_.next();
  }
}

// Real threads, this thread, the host, holes of a mesh that is not a power of two, ids past the
// host and anything at all.
uint32_t Fuzzer::destination() {
  switch (rng_.below(10)) {
    case 0:
    case 1:
    case 2:
    case 3:
      return tessera_thread_at(&f_.shape, rng_.below(f_.threads));
    case 4:
      return f_.id;
    case 5:
      return f_.host_id;
    case 6: {
      TesseraCoords c =
          tessera_coords(&f_.shape, tessera_thread_at(&f_.shape, rng_.below(f_.threads)));
      const uint32_t span = 1u << tessera_log2_ceil(f_.shape.boards_x);
      if (span > f_.shape.boards_x) {
        c.board_x = f_.shape.boards_x + rng_.below(span - f_.shape.boards_x);
      } else {
        c.board_y = f_.shape.boards_y + rng_.below(4);
      }
      return tessera_thread_id(&f_.shape, &c);
    }
    case 7:
      return f_.host_id + 1 + rng_.below(64);
    case 8:
      return f_.host_id - 1 - rng_.below(4);
    default:
      return rng_.next();
  }
}

uint32_t Fuzzer::mailbox() {
  switch (rng_.below(4)) {
    case 0:
    case 1:
      return tessera_thread_at(&f_.shape, rng_.below(f_.threads)) >> f_.tile_shift;
    case 2:
      return destination() >> f_.tile_shift;
    default:
      return rng_.percent(50) ? rng_.next() : rng_.below(1u << 12);
  }
}

// Mostly masks within the destination tile's threads; sometimes beyond them.
uint32_t Fuzzer::mask_word(bool high) {
  const uint32_t threads = f_.threads_per_tile;
  uint32_t valid = 0;
  if (high) {
    valid = threads > 32 ? (threads >= 64 ? ~0u : (1u << (threads - 32)) - 1) : 0;
  } else {
    valid = threads >= 32 ? ~0u : (1u << threads) - 1;
  }
  switch (rng_.below(10)) {
    case 0:
      return 0;
    case 1:
      return rng_.next();
    case 2:
      return valid + 1;  // the first thread past the tile (0 if the word is all valid)
    default:
      return high && rng_.percent(70) ? 0 : rng_.next() & valid;
  }
}

uint32_t Fuzzer::slot_value() {
  switch (rng_.below(8)) {
    case 0:
      return f_.my_slots;
    case 1:
    case 2:
      return f_.my_slots + rng_.below(f_.slots_per_thread) * TESSERA_BYTES_PER_SLOT;
    case 3:
      return TESSERA_SCRATCH_BASE + rng_.below(TESSERA_SLOTS_PER_TILE) * TESSERA_BYTES_PER_SLOT;
    case 4:
      return f_.my_slots + 1 + rng_.below(TESSERA_BYTES_PER_SLOT - 1);  // misaligned
    case 5:
      return rng_.percent(50) ? TESSERA_SCRATCH_BASE - TESSERA_BYTES_PER_SLOT
                              : TESSERA_SCRATCH_BASE + TESSERA_SCRATCH_SIZE;
    case 6:
      return TESSERA_DRAM_BASE + rng_.below(64) * TESSERA_BYTES_PER_SLOT;
    default:
      return rng_.next();
  }
}

// Slots to give: held ones, any of this thread's (the send slot too; hardware's own ones fault
// as double frees), receive slots of the other threads of the tile, and bad ones (may_give).
uint32_t Fuzzer::free_target() {
  const uint32_t r = rng_.below(20);
  if (r < 8 && held_count_ > 0) {
    return held_[rng_.below(held_count_)];
  }
  if (r < 13) {
    return f_.my_slots + rng_.below(f_.slots_per_thread) * TESSERA_BYTES_PER_SLOT;
  }
  if (r < 15) {
    const uint32_t thread = rng_.below(f_.threads_per_tile);
    return TESSERA_SCRATCH_BASE +
           (thread * f_.slots_per_thread + 1 + rng_.below(f_.slots_per_thread - 1)) *
               TESSERA_BYTES_PER_SLOT;
  }
  return slot_value();
}

uint32_t Fuzzer::wait_conditions() {
  switch (rng_.below(8)) {
    case 0:
      return 0;
    case 1:
      return rng_.next();
    case 2:
      return 16 + rng_.below(16);
    default:
      return 1 + rng_.below(15);
  }
}

// Mostly printable, some line ends, now and then any byte: the console must cope with all.
uint32_t Fuzzer::console_byte() {
  const uint32_t r = rng_.below(20);
  if (r == 0) {
    return rng_.below(256);
  }
  if (r == 1) {
    return '\n';
  }
  return ' ' + rng_.below(95);
}

uint32_t Fuzzer::operand_for(uint32_t csr) {
  if (rng_.percent(20)) {
    return interesting();
  }
  switch (csr) {
    case TESSERA_CSR_FREE:
      return free_target();
    case TESSERA_CSR_SEND_LEN:
      return rng_.percent(80) ? rng_.below(4) : interesting();
    case TESSERA_CSR_SEND_PTR:
      return slot_value();
    case TESSERA_CSR_SEND:
      return destination();
    case TESSERA_CSR_WAIT_UNTIL:
      return wait_conditions();
    case TESSERA_CSR_MCAST_HI:
      return mask_word(true);
    case TESSERA_CSR_MCAST_LO:
      return mask_word(false);
    case TESSERA_CSR_MCAST_SEND:
      return mailbox();
    case TESSERA_CSR_EMIT:
      return console_byte();
    default:
      return interesting();
  }
}

// ---- Operations ---------------------------------------------------------------------------------

void Fuzzer::random_csr() {
  s_.csr++;
  uint32_t c = kCsrs[rng_.below(kNumCsrs)];
  // The console CSR prints: keep it rare so that the output stays readable.
  if (c == TESSERA_CSR_EMIT && !rng_.percent(10)) {
    c = TESSERA_CSR_MBOX_FAULT;
  }
  const Form form = static_cast<Form>(rng_.below(kNumForms));
  (void)csr(c, form, immediate_form(form) && rng_.percent(50) ? rng_.below(32) : operand_for(c));
}

void Fuzzer::send() {
  if (rng_.percent(40)) {
    (void)csr(TESSERA_CSR_SEND_LEN, kRw, rng_.percent(90) ? rng_.below(4) : 4 + rng_.below(8));
  }
  if (rng_.percent(20)) {
    (void)csr(TESSERA_CSR_SEND_PTR, kRw, rng_.percent(70) ? f_.my_slots : slot_value());
  }
  if (send_ptr_ == f_.my_slots) {
    // Something recognisable in the message (nobody checks it: fuzz stores may overwrite it).
    volatile uint32_t* slot =
        reinterpret_cast<volatile uint32_t*>(static_cast<uintptr_t>(send_ptr_));
    slot[0] = f_.id;
    slot[1] = s_.ops;
  }
  (void)csr(TESSERA_CSR_SEND, kRw, destination());
}

void Fuzzer::multicast() {
  (void)csr(TESSERA_CSR_MCAST_HI, kRw, mask_word(true));
  (void)csr(TESSERA_CSR_MCAST_LO, kRw, mask_word(false));
  (void)csr(TESSERA_CSR_MCAST_SEND, kRw, mailbox());
}

void Fuzzer::receive() {
  // Mostly when something waits; otherwise a RECV_EMPTY fault (or a message that just came).
  if (rng_.percent(80) && tessera::hal::csr_read<TESSERA_CSR_CAN_RECV>() == 0) {
    return;
  }
  const Outcome got = csr(TESSERA_CSR_RECV, kRw, rng_.next());
  if (!got.trapped && rng_.percent(70)) {
    s_.frees++;
    (void)csr(TESSERA_CSR_FREE, kRw, got.value);
  }
}

void Fuzzer::free_one() {
  s_.frees++;
  (void)csr(TESSERA_CSR_FREE, rng_.percent(80) ? kRw : static_cast<Form>(rng_.below(kNumForms)),
            free_target());
}

void Fuzzer::wait() {
  const Form form = rng_.percent(70) ? kRw : static_cast<Form>(rng_.below(kNumForms));
  // csr() turns a wait that could sleep for ever into a fault.
  (void)csr(TESSERA_CSR_WAIT_UNTIL, form, wait_conditions() & ~TESSERA_WAIT_IDLE_VOTE & 0xff);
}

void Fuzzer::idle() {
  // tinselIdle(false), sometimes with can-send or can-recv asked too.
  (void)csr(TESSERA_CSR_WAIT_UNTIL, kRw,
            TESSERA_WAIT_IDLE | TESSERA_WAIT_CAN_RECV * rng_.below(2) |
                TESSERA_WAIT_CAN_SEND * rng_.below(2));
}

void Fuzzer::drain() {
  while (tessera::hal::csr_read<TESSERA_CSR_CAN_RECV>() != 0) {
    const Outcome got = csr(TESSERA_CSR_RECV, kRw, 0);
    if (got.trapped) {
      return;
    }
    s_.frees++;
    (void)csr(TESSERA_CSR_FREE, kRw, got.value);
  }
}

// Windows of the memory map (regs.h) and the bytes around them.
struct Window {
  uint32_t base, size;
};

uint32_t Fuzzer::address(bool& near_window) {
  near_window = true;
  Window w{};
  switch (rng_.below(10)) {
    case 0:
    case 1:
      w = {TESSERA_SCRATCH_BASE, TESSERA_SCRATCH_SIZE};
      break;
    case 8:
      w = {TESSERA_OCBUS_BASE, TESSERA_OCBUS_SIZE};
      break;
    case 2:
      w = {TESSERA_SYSINFO_BASE, TESSERA_SYSINFO_SIZE};
      break;
    case 3:
      w = {TESSERA_EXIT_BASE, TESSERA_EXIT_SIZE};
      break;
    case 4:
      w = {TESSERA_CONSOLE_BASE, TESSERA_CONSOLE_SIZE};
      break;
    case 5:
      // One board's MSWI, this machine's boards and a few past them (unmapped).
      w = {TESSERA_MSWI_BASE + rng_.below(f_.boards + 2) * TESSERA_MSWI_STRIDE,
           TESSERA_MSWI_STRIDE};
      break;
    case 6:
      w = {TESSERA_MSWI_BASE, TESSERA_MSWI_SIZE};
      break;
    case 7:
      w = {TESSERA_DRAM_BASE, f_.dram_size};
      break;
    default:
      near_window = false;
      return rng_.next();
  }
  switch (rng_.below(6)) {
    case 0:
    case 1:
      return w.base + rng_.below(0x48);  // where the registers are
    case 2:
      return w.base + rng_.below(w.size);
    case 3:
      return w.base + w.size - 1 - rng_.below(8);
    case 4:
      return w.base - 1 - rng_.below(8);
    default:
      return w.base + w.size + rng_.below(8);
  }
}

// How the memory map answers an access: RAM never faults, a hole always does, devices answer
// by their access rules (sysinfo and MSWI: aligned words only).
enum class Expect { kNoFault, kFault, kEither };

bool within(uint32_t address, uint32_t bytes, uint32_t base, uint32_t size) {
  return address >= base && address - base < size && bytes <= size - (address - base);
}

bool overlaps(uint32_t address, uint32_t bytes, uint32_t base, uint32_t size) {
  const uint64_t a = address, b = base;
  return a < b + size && b < a + bytes;
}

Expect expected(const Facts& f, uint32_t address, uint32_t bytes, bool store) {
  const bool aligned = address % bytes == 0;
  const uint32_t mswi_size = f.boards * TESSERA_MSWI_STRIDE;
  if (within(address, bytes, TESSERA_SCRATCH_BASE, TESSERA_SCRATCH_SIZE) ||
      (!store && within(address, bytes, TESSERA_DRAM_BASE, f.dram_size))) {
    return Expect::kNoFault;
  }
  if (within(address, bytes, TESSERA_SYSINFO_BASE, TESSERA_SYSINFO_SIZE) ||
      within(address, bytes, TESSERA_OCBUS_BASE, TESSERA_OCBUS_SIZE) ||
      within(address, bytes, TESSERA_MSWI_BASE, mswi_size)) {
    return bytes == 4 && aligned ? Expect::kNoFault : (aligned ? Expect::kFault : Expect::kEither);
  }
  if (within(address, bytes, TESSERA_CONSOLE_BASE, TESSERA_CONSOLE_SIZE)) {
    return aligned ? Expect::kNoFault : Expect::kEither;
  }
  if (within(address, bytes, TESSERA_EXIT_BASE, TESSERA_EXIT_SIZE)) {
    return !aligned ? Expect::kEither : (bytes >= 2 ? Expect::kNoFault : Expect::kFault);
  }
  const bool mapped = overlaps(address, bytes, TESSERA_SCRATCH_BASE, TESSERA_SCRATCH_SIZE) ||
                      overlaps(address, bytes, TESSERA_SYSINFO_BASE, TESSERA_SYSINFO_SIZE) ||
                      overlaps(address, bytes, TESSERA_EXIT_BASE, TESSERA_EXIT_SIZE) ||
                      overlaps(address, bytes, TESSERA_CONSOLE_BASE, TESSERA_CONSOLE_SIZE) ||
                      overlaps(address, bytes, TESSERA_OCBUS_BASE, TESSERA_OCBUS_SIZE) ||
                      overlaps(address, bytes, TESSERA_MSWI_BASE, mswi_size) ||
                      overlaps(address, bytes, TESSERA_DRAM_BASE, f.dram_size);
  return mapped ? Expect::kEither : Expect::kFault;
}

// Stores that would end the run or corrupt this program: the exit device's finisher register,
// the check-in register, DRAM (code, data, stacks), and the bus lines' LOCAL and LINE(i)
// registers (a line released by every thread would make the fuzzer's waits sleep for ever).
bool store_forbidden(const Facts& f, uint32_t address, uint32_t bytes) {
  return overlaps(address, bytes, TESSERA_OCBUS_BASE + TESSERA_OCBUS_LOCAL, 4) ||
         overlaps(address, bytes, TESSERA_OCBUS_BASE + TESSERA_OCBUS_LINE(0), 4 * f.ocbus_lines) ||
         overlaps(address, bytes, TESSERA_EXIT_BASE, 4) ||
         overlaps(address, bytes, TESSERA_SYSINFO_BASE + TESSERA_SYSINFO_CHECKIN, 4) ||
         overlaps(address, bytes, TESSERA_DRAM_BASE, f.dram_size);
}

void Fuzzer::memory_op(bool store) {
  bool near_window = false;
  const uint32_t size_code = rng_.below(3);  // byte, half, word
  const uint32_t bytes = 1u << size_code;
  uint32_t address = this->address(near_window);
  if (near_window && rng_.percent(60)) {
    address &= ~(bytes - 1);  // mostly aligned near the windows
  }
  if (store && store_forbidden(f_, address, bytes)) {
    store = false;
  }
  uint32_t value = interesting();
  if (store && overlaps(address, bytes, TESSERA_CONSOLE_BASE, TESSERA_CONSOLE_SIZE)) {
    value = console_byte();
  }
  // op: 0 lb, 1 lbu, 2 lh, 3 lhu, 4 lw, 5 sb, 6 sh, 7 sw.
  const uint32_t op = store ? 5 + size_code : (size_code == 2 ? 4 : size_code * 2 + rng_.below(2));
  (store ? s_.stores : s_.loads)++;

  const uint32_t traps_before = trap_log.count;
  const uint32_t loaded = guest_fuzz_mem(op, address, value);
  const bool trapped = trap_log.count != traps_before;

  const Expect want = expected(f_, address, bytes, store);
  if (trapped) {
    const uint32_t cause = trap_log.last_cause;
    const bool right_cause = store ? (cause == kCauseStoreAccess || cause == kCauseStoreMisaligned)
                                   : (cause == kCauseLoadAccess || cause == kCauseLoadMisaligned);
    if (!right_cause) {
      failure(store ? "store trapped with a wrong cause" : "load trapped with a wrong cause",
              address, cause, bytes);
    } else if (trap_log.last_tval - address >= bytes) {
      failure("access fault tval outside the access", address, trap_log.last_tval, bytes);
    }
    if (want == Expect::kNoFault) {
      failure(store ? "store to a mapped register or RAM faulted"
                    : "load from a mapped register or RAM faulted",
              address, cause, bytes);
    }
    return;
  }
  if (want == Expect::kFault) {
    failure(store ? "store to a hole did not fault" : "load from a hole did not fault", address,
            bytes, loaded);
    return;
  }
  // Registers whose value is known: sysinfo (but the check-in count), the console and the exit
  // device (write-only: read 0), MSWI (0 or 1).
  if (store || bytes != 4 || address % 4 != 0) {
    return;
  }
  if (address >= TESSERA_SYSINFO_BASE &&
      address <= TESSERA_SYSINFO_BASE + TESSERA_SYSINFO_HOST_ID &&
      address != TESSERA_SYSINFO_BASE + TESSERA_SYSINFO_CHECKIN) {
    const uint32_t want_value = f_.sysinfo[(address - TESSERA_SYSINFO_BASE) / 4];
    if (loaded != want_value) {
      failure("sysinfo register read another value", address, loaded, want_value);
    }
  } else if (within(address, 4, TESSERA_CONSOLE_BASE, TESSERA_CONSOLE_SIZE) ||
             within(address, 4, TESSERA_EXIT_BASE, TESSERA_EXIT_SIZE)) {
    if (loaded != 0) {
      failure("console or exit device read non-zero", address, loaded, 0);
    }
  } else if (within(address, 4, TESSERA_OCBUS_BASE, TESSERA_OCBUS_SIZE)) {
    // Every line clamped: LOCAL, GLOBAL and LINE(i) read 0, as do a missing line and no register.
    const uint32_t offset = address - TESSERA_OCBUS_BASE;
    uint32_t want_value = 0;
    if (offset == TESSERA_OCBUS_LINES) {
      want_value = f_.ocbus_lines;
    } else if (offset == TESSERA_OCBUS_SETTLE) {
      return;
    }
    if (loaded != want_value) {
      failure("ocbus register read another value", address, loaded, want_value);
    }
  } else if (within(address, 4, TESSERA_MSWI_BASE, f_.boards * TESSERA_MSWI_STRIDE) && loaded > 1) {
    failure("msip read neither 0 nor 1", address, loaded, 0);
  }
}

void Fuzzer::run(uint32_t ops) {
  for (s_.ops = 0; s_.ops < ops; s_.ops++) {
    const uint32_t r = rng_.below(100);
    if (r < 30) {
      random_csr();
    } else if (r < 45) {
      memory_op(false);
    } else if (r < 57) {
      memory_op(true);
    } else if (r < 69) {
      send();
    } else if (r < 74) {
      multicast();
    } else if (r < 84) {
      receive();
    } else if (r < 90) {
      free_one();
    } else if (r < 96) {
      wait();
    } else if (r < 97) {
      idle();
    } else {
      drain();
    }
  }
}

// The end: give back every held slot, then receive until every thread is in tinselIdle with a
// true vote and nothing is undelivered. Mid-run idles vote false, so a release with every vote
// true means every thread has finished.
void Fuzzer::finish() {
  free_all_held();
  for (;;) {
    drain();
    const uint32_t got = tessera::hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(
        TESSERA_WAIT_CAN_RECV | TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE);
    if ((got & (TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE)) ==
        (TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE)) {
      // Terminated: nothing may be waiting for this thread (thread 0 may have reports already).
      if (f_.index != 0 && tessera::hal::csr_read<TESSERA_CSR_CAN_RECV>() != 0) {
        failure("a message waits after termination was detected", TESSERA_CSR_CAN_RECV, got, 0);
      }
      return;
    }
  }
}

// ---- Report -------------------------------------------------------------------------------------

constexpr uint32_t kReportMagic = 0x6675a77e;
enum ReportWord : uint32_t {
  kMagic,
  kIndex,
  kSentThreads,
  kReceived,
  kSentHost,
  kFailures,
  kOps,
  kTraps,
  kCheck,
  kReportWords
};

uint32_t report_check(const volatile uint32_t* w) {
  uint32_t sum = 0x2545f491;
  for (uint32_t i = 0; i < kCheck; i++) {
    sum = (sum ^ w[i]) * 0x01000193u;
  }
  return sum;
}

// Thread 0 gathers every thread's counts (threads already terminated: the reports are the only
// messages, all known to be coming, so waiting for them cannot hang).
int gather(const Facts& f, const Stats& mine) {
  uint32_t sent = mine.sent_threads, received = mine.received, host = mine.sent_host;
  uint32_t failures = mine.failures, ops = mine.ops, traps = trap_log.count;
  uint32_t bad_reports = 0;
  for (uint32_t n = 1; n < f.threads; n++) {
    (void)tessera::hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_RECV);
    const uint32_t slot = tessera::hal::csr_read<TESSERA_CSR_RECV>();
    const volatile uint32_t* w =
        reinterpret_cast<const volatile uint32_t*>(static_cast<uintptr_t>(slot));
    if (w[kMagic] != kReportMagic || w[kCheck] != report_check(w)) {
      bad_reports++;
    } else {
      sent += w[kSentThreads];
      received += w[kReceived];
      host += w[kSentHost];
      failures += w[kFailures];
      ops += w[kOps];
      traps += w[kTraps];
    }
    tessera::hal::csr_write<TESSERA_CSR_FREE>(slot);
  }
  const bool exact = bad_reports == 0 && sent == received;
  tessera::printf("guest_fuzz: all %" PRIu32 " threads, seed %" PRIu32 ": %" PRIu32 " ops, %" PRIu32
                  " traps, %" PRIu32 " messages to threads, %" PRIu32 " received, %" PRIu32
                  " to the host, %" PRIu32 " failures: %s\n",
                  f.threads, static_cast<uint32_t>(GUEST_FUZZ_SEED), ops, traps, sent, received,
                  host, failures,
                  exact ? "every message received exactly once" : "MESSAGES LOST OR DUPLICATED");
  if (!exact) {
    tessera::printf("FAIL guest_fuzz: %" PRIu32 " sent to threads, %" PRIu32 " received, %" PRIu32
                    " unreadable reports\n",
                    sent, received, bad_reports);
  }
  return exact && failures == 0 ? 0 : 1;
}

void report(const Facts& f, const Stats& s) {
  const uint32_t slot = f.my_slots;
  volatile uint32_t* w = reinterpret_cast<volatile uint32_t*>(static_cast<uintptr_t>(slot));
  w[kMagic] = kReportMagic;
  w[kIndex] = f.index;
  w[kSentThreads] = s.sent_threads;
  w[kReceived] = s.received;
  w[kSentHost] = s.sent_host;
  w[kFailures] = s.failures;
  w[kOps] = s.ops;
  w[kTraps] = trap_log.count;
  w[kCheck] = report_check(w);
  tessera::hal::csr_write<TESSERA_CSR_SEND_PTR>(slot);
  tessera::hal::csr_write<TESSERA_CSR_SEND_LEN>(2);  // 3 flits: 12 words
  (void)tessera::hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_CAN_SEND);
  tessera::hal::csr_write<TESSERA_CSR_SEND>(0);
}

}  // namespace

int main() {
  const Facts facts = read_facts();
  // Every hart past start-up before anyone writes MSWI registers (a cleared msip could strand a
  // hart still waiting for its board's release) or sends.
  (void)tessera::hal::csr_swap<TESSERA_CSR_WAIT_UNTIL>(TESSERA_WAIT_IDLE | TESSERA_WAIT_IDLE_VOTE);

  Fuzzer fuzzer(facts);
  const uint32_t share = GUEST_FUZZ_OPS_TOTAL / facts.threads;
  fuzzer.run(share > GUEST_FUZZ_MIN_OPS ? share : GUEST_FUZZ_MIN_OPS);
  fuzzer.finish();

  const Stats& s = fuzzer.stats();
  const uint32_t* c = trap_log.by_cause;
  tessera::drivers::Console().flush();  // the summary starts a line of its own
  tessera::printf("guest_fuzz: thread 0x%" PRIx32 " seed %" PRIu32 " ops %" PRIu32 ": csr %" PRIu32
                  " ld %" PRIu32 " st %" PRIu32 " send %" PRIu32 " mcast %" PRIu32 " recv %" PRIu32
                  " free %" PRIu32 " wait %" PRIu32 " idle %" PRIu32 "/%" PRIu32 "; traps %" PRIu32
                  ": ill %" PRIu32 " ld %" PRIu32 " st %" PRIu32 " mis %" PRIu32 "; faults %" PRIu32
                  "/%" PRIu32 "/%" PRIu32 "/%" PRIu32 "/%" PRIu32 "/%" PRIu32 "/%" PRIu32
                  "; sent %" PRIu32 " host %" PRIu32 " got %" PRIu32 " %s\n",
                  facts.id, static_cast<uint32_t>(GUEST_FUZZ_SEED), s.ops, s.csr, s.loads, s.stores,
                  s.sends, s.mcasts, s.recvs, s.frees, s.waits, s.idles, s.releases, trap_log.count,
                  c[kCauseIllegal], c[kCauseLoadAccess], c[kCauseStoreAccess],
                  c[kCauseLoadMisaligned] + c[kCauseStoreMisaligned], s.mbox_faults[1],
                  s.mbox_faults[2], s.mbox_faults[3], s.mbox_faults[4], s.mbox_faults[5],
                  s.mbox_faults[6], s.mbox_faults[7], s.sent_threads, s.sent_host, s.received,
                  s.failures == 0 ? "ok" : "FAILED");
  if (facts.index == 0) {
    // EMIT through csrrs writes its operand, as a mailbox CSR would (tests/qemu checks the line).
    (void)guest_fuzz_csr(table_entry(csr_position(TESSERA_CSR_EMIT), kRs, 0), 0x6e117ed);
    return gather(facts, s);
  }
  report(facts, s);
  return s.failures == 0 ? 0 : 1;
}
