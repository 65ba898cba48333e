// Trap handler: any trap is fatal, unless the image's hook (tessera/trap.h) handles it. Reports
// one console line and ends the run.
//
//   TRAP hart 0x<thread id> cause <code> (<name>) pc 0x<mepc, 8 digits> tval 0x<mtval, 8 digits>
//
// An illegal instruction that is a CSR instruction on a mailbox CSR with a mailbox fault recorded
// (MBOX_FAULT non-zero) adds a second line naming the fault:
//
//   TRAP hart 0x<thread id> mailbox fault <code> (<name>) csr 0x<csr>
//
// Exit status: 128 + exception code (illegal instruction -> 130, breakpoint -> 131, load access
// fault -> 133, ...), or 192 + interrupt code for an interrupt (none is ever enabled in
// mstatus.MIE, so that would be a runtime bug). trap_entry.S saves the registers as a TrapFrame
// and redirects further traps to tessera_trap_nested while this runs.
#include "tessera/trap.h"

#include <stddef.h>
#include <stdint.h>

#include "machine.h"
#include "tessera/digits.h"
#include "tessera/drivers/console.h"
#include "tessera/drivers/exit.h"
#include "tessera/drivers/mailbox.h"
#include "tessera/hal/csr.h"
#include "tessera/hw/regs.h"

namespace tessera::runtime {

// Images that do not define the hook leave it null: every trap is then fatal.
[[gnu::weak]] bool on_trap(TrapFrame& frame, TrapContext& trap);

namespace {

constexpr uintptr_t kMcauseInterrupt = uintptr_t{1} << (__riscv_xlen - 1);
constexpr uint32_t kExceptionExitBase = TESSERA_EXIT_EXCEPTION_BASE;
constexpr uint32_t kInterruptExitBase = TESSERA_EXIT_INTERRUPT_BASE;
constexpr uint32_t kCodeMask = TESSERA_EXIT_CAUSE_MASK;  // both ranges fit an 8-bit status
constexpr uint32_t kIllegalInstruction = 2;

const char* exception_name(uint32_t code) {
  switch (code) {
    case 0:
      return "instruction address misaligned";
    case 1:
      return "instruction access fault";
    case 2:
      return "illegal instruction";
    case 3:
      return "breakpoint";
    case 4:
      return "load address misaligned";
    case 5:
      return "load access fault";
    case 6:
      return "store address misaligned";
    case 7:
      return "store access fault";
    case 8:
      return "environment call from U-mode";
    case 9:
      return "environment call from S-mode";
    case 11:
      return "environment call from M-mode";
    case 12:
      return "instruction page fault";
    case 13:
      return "load page fault";
    case 15:
      return "store page fault";
    default:
      return "unknown exception";
  }
}

const char* interrupt_name(uint32_t code) {
  switch (code) {
    case 1:
      return "supervisor software interrupt";
    case 3:
      return "machine software interrupt";
    case 5:
      return "supervisor timer interrupt";
    case 7:
      return "machine timer interrupt";
    case 9:
      return "supervisor external interrupt";
    case 11:
      return "machine external interrupt";
    default:
      return "unknown interrupt";
  }
}

// Builds the report without printf: the trap may have come from inside the C library, and this
// path must not depend on more than the console.
class Line {
 public:
  void text(const char* s) {
    while (*s != '\0') {
      put(*s++);
    }
  }

  void decimal(uint32_t value) {
    char digits[kMaxDecimalDigits];
    const size_t n = decimal_digits(value, digits);
    for (size_t i = 0; i < n; i++) {
      put(digits[i]);
    }
  }

  // min_digits = 1 prints without leading zeros.
  void hex(uint32_t value, int min_digits) {
    char digits[kMaxHexDigits];
    const size_t n = hex_digits(value, min_digits, digits);
    for (size_t i = 0; i < n; i++) {
      put(digits[i]);
    }
  }

  void write_to(const drivers::Console& console) const { console.write(buffer_, length_); }

 private:
  void put(char c) {
    if (length_ < sizeof buffer_) {
      buffer_[length_++] = c;
    }
  }

  char buffer_[TESSERA_CONSOLE_LINE_MAX - 1];
  size_t length_ = 0;
};

// The CSR a SYSTEM-opcode CSR instruction (csrrw/csrrs/csrrc and immediate forms) names, or
// -1 for any other instruction.
int csr_of_instruction(uint32_t insn) {
  const uint32_t opcode = insn & 0x7f;
  const uint32_t funct3 = (insn >> 12) & 0x7;
  if (opcode != 0x73 || funct3 == 0 || funct3 == 4) {
    return -1;
  }
  return static_cast<int>(insn >> 20);
}

// After the main report, so that it is out even if reading MBOX_FAULT traps again.
void report_mailbox_fault(const drivers::Console& console, uint32_t mepc) {
  // Instructions are 4-byte aligned words of the image (no compressed instructions).
  const uint32_t insn = *reinterpret_cast<const volatile uint32_t*>(static_cast<uintptr_t>(mepc));
  const int csr = csr_of_instruction(insn);
  if (!tessera_csr_is_mailbox(static_cast<uint32_t>(csr))) {
    return;
  }
  const uint32_t fault = hal::csr_read<TESSERA_CSR_MBOX_FAULT>();
  if (fault == 0) {
    return;
  }
  Line line;
  line.text("TRAP hart 0x");
  line.hex(hal::csr_read<TESSERA_CSR_HART_ID>(), 1);
  line.text(" mailbox fault ");
  line.decimal(fault);
  line.text(" (");
  line.text(drivers::mailbox_fault_name(fault));
  line.text(") csr 0x");
  line.hex(static_cast<uint32_t>(csr), 3);
  line.text("\n");
  line.write_to(console);
}

}  // namespace

// Returns only when the image's hook handled the trap: trap_entry.S then restores the frame and
// resumes at mepc.
extern "C" void tessera_trap_handler(TrapFrame* frame) {
  // `p *frame` in a debugger shows the interrupted registers.
  if (on_trap != nullptr) {
    TrapContext trap{machine::read_mcause(), machine::read_mepc(), machine::read_mtval()};
    if (on_trap(*frame, trap)) {
      machine::write_mepc(trap.mepc);
      return;
    }
  }
  const uintptr_t mcause = machine::read_mcause();
  const bool interrupt = (mcause & kMcauseInterrupt) != 0;
  const uint32_t code = static_cast<uint32_t>(mcause & ~kMcauseInterrupt);

  Line line;
  line.text("TRAP hart 0x");
  line.hex(hal::csr_read<TESSERA_CSR_HART_ID>(), 1);
  line.text(" cause ");
  line.decimal(code);
  line.text(" (");
  line.text(interrupt ? interrupt_name(code) : exception_name(code));
  line.text(") pc 0x");
  line.hex(machine::read_mepc(), 8);
  line.text(" tval 0x");
  line.hex(machine::read_mtval(), 8);
  line.text("\n");

  const drivers::Console console;
  console.flush();  // the report starts a line of its own
  line.write_to(console);
  if (!interrupt && code == kIllegalInstruction) {
    report_mailbox_fault(console, machine::read_mepc());
  }

  const uint32_t exit_base = interrupt ? kInterruptExitBase : kExceptionExitBase;
  (void)drivers::ExitDevice().fail(exit_base + (code & kCodeMask));
  machine::park();
}

}  // namespace tessera::runtime
