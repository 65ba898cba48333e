// libFuzzer target: the mailbox's quick path for the send registers
// (tessera_mailbox_rules_quick_write, models/include/tessera/models/mailbox_rules.h), against
// the full rules (tessera_mailbox_rules_csr) on a copy of the same registers. Where the quick
// path takes a write, the full rules must complete it at once with the same old value, leave the
// same registers, and call nothing but the detector's settle (which has nothing to run then);
// where it refuses, it must have changed nothing. A host takes the quick path without its
// locks and clocks (the QEMU machine's mailbox handler), so this is what makes that safe.
//
// Input: a thread's registers (any values, any idle state), then writes until it runs out.
#include <stddef.h>
#include <stdint.h>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/hw/regs.h"
#include "tessera/models/mailbox_rules.h"

namespace {

using fuzz::FuzzInput;

constexpr int kMaxWrites = 256;

// The callbacks the full rules may make: any but settle is a difference from the quick path.
struct Calls {
  int other = 0;
  int settle = 0;
};

Calls* calls(void* ctx) {
  return static_cast<Calls*>(ctx);
}

const TesseraMailboxRulesOps kOps = {
    [](void* c, const TesseraMailboxRegs*) { return calls(c)->other++, true; },
    [](void* c, const TesseraMailboxRegs*) { return calls(c)->other++, uint64_t{0}; },
    [](void* c, const TesseraMailboxRegs*, uint32_t) { return calls(c)->other++, uint64_t{0}; },
    [](void* c, uint32_t) { return calls(c)->other++, true; },
    [](void* c, uint32_t) { return calls(c)->other++, true; },
    [](void* c, TesseraMailboxRegs*, uint32_t, uint64_t, uint64_t now) {
      return calls(c)->other++, now;
    },
    [](void* c, TesseraMailboxRegs*, uint32_t, uint64_t) { calls(c)->other++; },
    [](void* c, TesseraMailboxRegs*, uint32_t, bool, uint64_t) { return calls(c)->other++, false; },
    [](void* c, TesseraMailboxRegs*, bool, uint64_t) { calls(c)->other++; },
    [](void* c, TesseraMailboxRegs*, uint64_t) { calls(c)->other++; },
    [](void* c, TesseraMailboxRegs*, uint64_t) { calls(c)->other++; },
    [](void* c) { calls(c)->settle++; },
};

bool Same(const TesseraMailboxRegs& a, const TesseraMailboxRegs& b) {
  return a.send_ptr == b.send_ptr && a.send_len == b.send_len && a.mcast_hi == b.mcast_hi &&
         a.mcast_lo == b.mcast_lo && a.last_fault == b.last_fault && a.wait_bits == b.wait_bits &&
         a.free.head == b.free.head && a.free.tail == b.free.tail && a.recv.head == b.recv.head &&
         a.recv.tail == b.recv.tail && a.idle == b.idle && a.idle_value == b.idle_value &&
         a.idle_resume == b.idle_resume;
}

const uint32_t kCsrs[] = {TESSERA_CSR_SEND_LEN, TESSERA_CSR_SEND_PTR, TESSERA_CSR_MCAST_HI,
                          TESSERA_CSR_MCAST_LO, TESSERA_CSR_CAN_RECV, TESSERA_CSR_FREE};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  TesseraMailboxRegs regs{};
  regs.send_ptr = in.u32();
  regs.send_len = in.below(TESSERA_MAX_FLITS);
  regs.mcast_hi = in.u32();
  regs.mcast_lo = in.u32();
  regs.last_fault = in.below(8);
  // Mostly a running thread (no wait, not idle), as the quick path's writes come from.
  regs.wait_bits = in.below(4) == 0 ? in.below(16) : 0;
  regs.idle = static_cast<uint8_t>(in.below(4) == 0 ? in.below(3) : TESSERA_IDLE_NONE);
  regs.free.head = regs.free.tail = regs.recv.head = regs.recv.tail = TESSERA_MAILBOX_NO_SLOT;
  uint8_t state[TESSERA_SLOTS_PER_TILE] = {};
  uint16_t next[TESSERA_SLOTS_PER_TILE] = {};
  const TesseraMailboxTile tile = {state, next, 16};

  for (int i = 0; i < kMaxWrites && !in.empty(); i++) {
    const uint32_t csr = kCsrs[in.below(sizeof kCsrs / sizeof kCsrs[0])];
    // Values near the edges of what each register takes, or anything.
    uint32_t value = in.flag() ? in.u32() : in.below(8);
    if (csr == TESSERA_CSR_SEND_PTR && in.flag()) {
      value = TESSERA_SCRATCH_BASE + in.below(TESSERA_SLOTS_PER_TILE + 2) * TESSERA_BYTES_PER_SLOT +
              (in.flag() ? 4 : 0);
    }
    const uint64_t now = in.below(1000);

    TesseraMailboxRegs quick = regs;
    uint32_t quick_old = 0xdeadbeef;
    const bool taken = tessera_mailbox_rules_quick_write(&quick, csr, value, &quick_old);

    TesseraMailboxRegs full = regs;
    Calls c;
    uint32_t out = 0xdeadbeef;
    uint64_t at = now;  // as tessera_mailbox_csr starts it: the rules move it only to wait
    TesseraMailboxFault fault = TESSERA_FAULT_NONE;
    const TesseraAccessStatus r =
        tessera_mailbox_rules_csr(&kOps, &c, &tile, &full, csr, value, now, &out, &at, &fault);

    if (taken) {
      FUZZ_CHECK(r == TESSERA_ACCESS_DONE && fault == TESSERA_FAULT_NONE,
                 "csr 0x%x value 0x%x: quick took it, the rules gave %d (fault %d)", csr, value,
                 static_cast<int>(r), static_cast<int>(fault));
      FUZZ_CHECK(out == quick_old, "csr 0x%x: quick read 0x%x, the rules 0x%x", csr, quick_old,
                 out);
      FUZZ_CHECK(at == now, "csr 0x%x: the rules took time (%llu, now %llu)", csr,
                 static_cast<unsigned long long>(at), static_cast<unsigned long long>(now));
      FUZZ_CHECK(Same(quick, full), "csr 0x%x value 0x%x: the registers differ", csr, value);
      FUZZ_CHECK(c.other == 0, "csr 0x%x: the rules made %d other calls", csr, c.other);
    } else {
      FUZZ_CHECK(Same(quick, regs), "csr 0x%x value 0x%x: quick refused but wrote", csr, value);
    }
    // Go on from what the full rules left (a fault is recorded, an idle call abandoned).
    regs = full;
  }
  return 0;
}
