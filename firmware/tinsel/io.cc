// Tinsel's console calls (io.h) on the console driver: every byte joins the calling thread's
// console line, as on Tinsel every byte goes to its thread's DebugLink stream. C linkage: C and
// C++ programs call them, and they take the place of picolibc's functions of the same names.
#include "io.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/digits.h"
#include "tessera/drivers/console.h"

namespace {

int put_string(const tessera::drivers::Console& console, const char* s) {
  int count = 0;
  for (; *s != '\0'; s++, count++) console.put(*s);
  return count;
}

int put_text(const tessera::drivers::Console& console, const char* text, size_t length) {
  console.write(text, length);
  return static_cast<int>(length);
}

int put_hex(const tessera::drivers::Console& console, uint32_t value) {
  char digits[tessera::kMaxHexDigits];
  return put_text(console, digits, tessera::hex_digits(value, 8, digits));
}

int put_decimal(const tessera::drivers::Console& console, uint32_t value) {
  char digits[tessera::kMaxDecimalDigits];
  return put_text(console, digits, tessera::decimal_digits(value, digits));
}

}  // namespace

extern "C" int putchar(int c) {
  tessera::drivers::Console().put(static_cast<char>(c));
  return static_cast<unsigned char>(c);
}

extern "C" int puts(const char* s) {
  return put_string(tessera::drivers::Console(), s);
}

extern "C" int puthex(unsigned x) {
  return put_hex(tessera::drivers::Console(), x);
}

extern "C" int printf(const char* fmt, ...) {
  const tessera::drivers::Console console;
  va_list args;
  va_start(args, fmt);
  int count = 0;
  for (; *fmt != '\0'; fmt++) {
    if (*fmt != '%') {
      console.put(*fmt);
      count++;
      continue;
    }
    fmt++;
    switch (*fmt) {
      case '\0':
        va_end(args);
        return count;
      case 's':
        count += put_string(console, va_arg(args, const char*));
        break;
      case 'x':  // Tinsel's %x: eight digits, as puthex
        count += put_hex(console, va_arg(args, unsigned));
        break;
      case 'p':
        count += put_string(console, "0x");
        count += put_hex(console, static_cast<uint32_t>(va_arg(args, uintptr_t)));
        break;
      case 'u':
        count += put_decimal(console, va_arg(args, unsigned));
        break;
      case 'd':
      case 'i': {
        const int value = va_arg(args, int);
        uint32_t magnitude = static_cast<uint32_t>(value);
        if (value < 0) {
          console.put('-');
          count++;
          magnitude = 0u - magnitude;
        }
        count += put_decimal(console, magnitude);
        break;
      }
      case 'c':
        console.put(static_cast<char>(va_arg(args, int)));
        count++;
        break;
      case '%':
        console.put('%');
        count++;
        break;
      default:  // as on Tinsel, an unknown conversion prints nothing
        break;
    }
  }
  va_end(args);
  return count;
}
