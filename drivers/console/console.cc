#include "tessera/drivers/console.h"

#include "tessera/digits.h"
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
  char digits[kMaxHexDigits];
  write("0x");
  write(digits, hex_digits(value, 1, digits));
}

void Console::write_decimal(uint32_t value) const {
  char digits[kMaxDecimalDigits];
  write(digits, decimal_digits(value, digits));
}

void Console::flush() const {
  hal::mmio_write32(base_address_ + TESSERA_CONSOLE_FLUSH, 1);
}

}  // namespace tessera::drivers
