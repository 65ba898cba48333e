// Ending a run from firmware.
//
// Normally a run ends when every hart has returned from main: each hart's result is checked in
// with sysinfo, and the machine exits 0 if all were 0, else with the first non-zero result.
// tessera::exit ends the whole run at once, whatever the other harts are doing.
#pragma once

#include <stdint.h>

namespace tessera {

// Exit status a result maps to: 0 stays 0, 1..255 stay as they are, anything else (negative, or
// too wide for a process exit status, where 256 would read as success) becomes 255.
// Convention: applications use 1..127; 128..255 are trap reports (see docs/firmware.md).
constexpr uint32_t exit_status(int result) {
  if (result >= 0 && result <= 255) {
    return static_cast<uint32_t>(result);
  }
  return 255;
}

// Ends the whole run now: pass if code == 0, otherwise fail with exit_status(code).
[[noreturn]] void exit(int code);

// Resets the whole machine now and boots it again: a first boot in every respect, apart from
// memory the image does not load (the .noinit section, linker/tessera.ld).
[[noreturn]] void reboot();

}  // namespace tessera
