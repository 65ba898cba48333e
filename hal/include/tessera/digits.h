// Numbers as text without printf, for the code that must not depend on the C library: the
// console driver's write_hex/write_decimal and the trap report. Each writes the digits of
// `value` at `out` (no NUL) and returns how many it wrote.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace tessera {

inline constexpr size_t kMaxDecimalDigits = 10;  // of a uint32_t
inline constexpr size_t kMaxHexDigits = 8;

inline size_t decimal_digits(uint32_t value, char* out) {
  char reversed[kMaxDecimalDigits];
  size_t n = 0;
  do {
    reversed[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  for (size_t i = 0; i < n; i++) {
    out[i] = reversed[n - 1 - i];
  }
  return n;
}

// Lower-case hex, at least min_digits (1..8) digits: leading zeros pad to that width.
inline size_t hex_digits(uint32_t value, int min_digits, char* out) {
  size_t n = 0;
  bool leading = true;
  for (int shift = 28; shift >= 0; shift -= 4) {
    const uint32_t nibble = (value >> shift) & 0xf;
    if (leading && nibble == 0 && shift >= 4 * min_digits) {
      continue;
    }
    leading = false;
    out[n++] = "0123456789abcdef"[nibble];
  }
  return n;
}

}  // namespace tessera
