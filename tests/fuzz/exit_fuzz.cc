// libFuzzer target: the exit model (models/exit.c). Writes and reads of
// any value at any offset; every answer is checked against the rules of
// exit.h, written again here, and against the one that matters most: a run
// ends with status 0 only for PASS itself (docs/fuzzing.md).
//
// Input: operations until the input runs out.
#include <stddef.h>
#include <stdint.h>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/hw/regs.h"
#include "tessera/models/exit.h"
#include "tessera/testing/access.h"

namespace {

using tessera::testing::Action;
using tessera::testing::ActionOf;

using fuzz::FuzzInput;

constexpr int kMaxOperations = 4000;
constexpr int kUntouched = -12345;

struct Expected {
  Action action;
  int code;         // for END
  bool has_reason;  // an error string comes with the answer
};

// exit.h, from the encoding.
Expected expected_write(uint32_t offset, uint32_t value) {
  const uint32_t command = value & 0xffff;
  const uint32_t code = value >> 16;
  if (offset != 0) {
    return {Action::kGuestError, 0, true};
  }
  if (command == TESSERA_EXIT_PASS) {
    return code == 0 ? Expected{Action::kEnd, 0, false} : Expected{Action::kGuestError, 0, true};
  }
  if (command == TESSERA_EXIT_FAIL) {
    return code >= 1 && code <= TESSERA_EXIT_FAIL_CODE_MAX
               ? Expected{Action::kEnd, static_cast<int>(code), false}
               : Expected{Action::kEnd, 1, true};
  }
  if (command == TESSERA_EXIT_RESET) {
    return code == 0 ? Expected{Action::kReset, 0, false} : Expected{Action::kGuestError, 0, true};
  }
  return {Action::kGuestError, 0, true};
}

void check_write(uint32_t offset, uint32_t value) {
  const TesseraAccess a = tessera_exit_write(offset, value);
  const Action action = ActionOf(a);
  const int code = action == Action::kEnd ? a.code : kUntouched;
  const char* error = a.error;
  const Expected want = expected_write(offset, value);
  FUZZ_CHECK(action == want.action, "write 0x%x at 0x%x: action %d, expected %d", value, offset,
             static_cast<int>(action), static_cast<int>(want.action));
  FUZZ_CHECK((error != nullptr) == want.has_reason, "write 0x%x at 0x%x: reason %s, expected %s",
             value, offset, error ? error : "(none)", want.has_reason ? "one" : "none");
  if (action == Action::kEnd) {
    FUZZ_CHECK(code == want.code, "write 0x%x: status %d, expected %d", value, code, want.code);
    FUZZ_CHECK(code >= 0 && code <= static_cast<int>(TESSERA_EXIT_FAIL_CODE_MAX),
               "write 0x%x: status %d does not fit an exit status", value, code);
    FUZZ_CHECK(code != 0 || value == TESSERA_EXIT_PASS, "write 0x%x reads as success", value);
  } else {
    FUZZ_CHECK(a.effect != TESSERA_EFFECT_END_RUN, "write 0x%x at 0x%x: the run ends", value,
               offset);
  }
  // The same write answers the same (the device has no state).
  FUZZ_CHECK(ActionOf(tessera_exit_write(offset, value)) == action,
             "write 0x%x at 0x%x: another action the second time", value, offset);
}

void check_read(uint32_t offset) {
  uint32_t value = 0xdeadbeef;
  const char* error = nullptr;
  FUZZ_CHECK(tessera_access_unpack(tessera_exit_read(offset), &value, nullptr, &error) ==
                     TESSERA_ACCESS_GUEST_ERROR &&
                 value == 0 && error != nullptr,
             "read at 0x%x: not a guest error reading 0 (0x%x)", offset, value);
}

uint32_t value_of(FuzzInput& in) {
  static constexpr uint32_t kCommands[] = {
      TESSERA_EXIT_PASS, TESSERA_EXIT_FAIL, TESSERA_EXIT_RESET, 0, 0x5554, 0x3334, 0xffff};
  static constexpr uint32_t kCodes[] = {0, 1, 2, 254, 255, 256, 257, 511, 512, 0xffff};
  switch (in.below(3)) {
    case 0:
      return in.pick(kCommands) | in.pick(kCodes) << 16;
    case 1:
      return in.pick(kCommands) | in.u16() << 16;
    default:
      return in.u32();
  }
}

uint32_t offset_of(FuzzInput& in) {
  static constexpr uint32_t kOffsets[] = {0, 1, 2, 3, 4, 8, 0xffc, TESSERA_EXIT_SIZE};
  return in.below(4) == 0 ? in.u32() : in.pick(kOffsets);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  for (int i = 0; i < kMaxOperations && !in.empty(); i++) {
    const bool write = in.below(8) != 0;
    const uint32_t offset = in.below(4) == 0 ? offset_of(in) : 0;
    if (write) {
      check_write(offset, value_of(in));
    } else {
      check_read(offset);
    }
  }
  return 0;
}
