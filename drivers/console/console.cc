#include "tessera/drivers/console.h"

#include "tessera/hal/mmio.h"

namespace tessera::drivers {

void Console::put(char byte) const {
  hal::mmio_write32(base_address_ + TESSERA_CONSOLE_TX, static_cast<uint8_t>(byte));
}

void Console::write(const char* bytes, size_t length) const {
  for (size_t i = 0; i < length; ++i) {
    put(bytes[i]);
  }
}

void Console::write(const char* text) const {
  for (; *text != '\0'; ++text) {
    put(*text);
  }
}

void Console::write_hex(uint32_t value) const {
  char digits[8];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[value & 0xf];
    value >>= 4;
  } while (value != 0);
  write("0x");
  while (n > 0) {
    put(digits[--n]);
  }
}

void Console::write_decimal(uint32_t value) const {
  char digits[10];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0) {
    put(digits[--n]);
  }
}

void Console::flush() const {
  hal::mmio_write32(base_address_ + TESSERA_CONSOLE_FLUSH, 1);
}

}  // namespace tessera::drivers
