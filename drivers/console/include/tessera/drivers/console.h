// Console driver: bytes into the writing hart's line buffer of the console device.
//
// The device assembles each hart's bytes into whole lines ('\n', a full buffer of
// TESSERA_CONSOLE_LINE_MAX bytes, or flush() ends a line), so lines of different harts never
// interleave and no locking is needed. The driver holds no state beyond the device address.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "tessera/hw/regs.h"

namespace tessera::drivers {

class Console {
 public:
  constexpr explicit Console(uint32_t base_address = TESSERA_CONSOLE_BASE)
      : base_address_(base_address) {}

  void put(char byte) const;
  void write(const char* bytes, size_t length) const;
  // Writes a NUL-terminated string (without the NUL).
  void write(const char* text) const;
  // "0x" and the lowest hex digits of value; its decimal digits (for programs without printf).
  void write_hex(uint32_t value) const;
  void write_decimal(uint32_t value) const;
  // Prints this hart's partial line, if any, without adding a newline.
  void flush() const;

 private:
  uint32_t base_address_;
};

}  // namespace tessera::drivers
