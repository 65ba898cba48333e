// Exit device driver: ends the whole run with a verdict (sifive_test encoding).
//
// On the emulator the write ends the process at once: pass -> exit status 0, fail(code) -> exit
// status code. The functions still return, because a device write cannot promise that the
// writing hart stops immediately (other harts run on under multi-threaded TCG, the host model
// reports by exception); the target runtime follows them with a parking wfi loop.
#pragma once

#include <stdint.h>

#include "tessera/hw/regs.h"
#include "tessera/status.h"

namespace tessera::drivers {

class ExitDevice {
 public:
  // A process exit status holds 8 bits: larger codes would read back as a different status (256
  // as success), and code 0 with the FAIL encoding would read as success too.
  static constexpr uint32_t kMinFailCode = 1;
  static constexpr uint32_t kMaxFailCode = TESSERA_EXIT_FAIL_CODE_MAX;

  constexpr explicit ExitDevice(uint32_t base_address = TESSERA_EXIT_BASE)
      : base_address_(base_address) {}

  // Ends the run successfully.
  void pass() const;

  // Ends the run with exit status `code`. InvalidArgument (and no write) unless
  // kMinFailCode <= code <= kMaxFailCode.
  [[nodiscard]] Status fail(uint32_t code) const;
  // fail(code), then stops the calling hart for good: on the target it parks in wfi (no
  // interrupt is enabled in main), on the host machine the device has thrown MachineExit. For
  // libraries that end a run on a broken protocol.
  [[noreturn]] void fail_and_stop(uint32_t code) const;
  // For a library whose protocol was broken (a bug, or a program breaking its rules): prints one
  // console line
  //   FAIL <library>: thread 0x<id> (index <dense index>): <what> (0x<a>, 0x<b>)
  // for the calling thread, then fail_and_stop(code).
  [[noreturn]] void fail_protocol(const char* library, const char* what, uint32_t a, uint32_t b,
                                  uint32_t code) const;

  // Resets the whole machine: every device and hart back to power-on, the image loaded again,
  // and a new boot (QEMU; the host machine cannot reboot and fails the run).
  void reset() const;

 private:
  uint32_t base_address_;
};

}  // namespace tessera::drivers
