#include "tessera/print.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tessera/drivers/console.h"
#include "tessera/hw/regs.h"

namespace tessera {

int vprintf(const char* format, va_list args) {
  char line[TESSERA_CONSOLE_LINE_MAX];
  const int formatted = vsnprintf(line, sizeof line, format, args);
  if (formatted < 0) {
    return formatted;
  }
  const size_t length = static_cast<size_t>(formatted) < sizeof line - 1
                            ? static_cast<size_t>(formatted)
                            : sizeof line - 1;
  drivers::Console().write(line, length);
  return static_cast<int>(length);
}

int printf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int written = vprintf(format, args);
  va_end(args);
  return written;
}

int puts(const char* text) {
  const size_t length = strlen(text);
  const drivers::Console console;
  console.write(text, length);
  console.put('\n');
  return static_cast<int>(length + 1);
}

}  // namespace tessera
