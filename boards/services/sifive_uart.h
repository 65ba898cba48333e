// The SiFive UART of the FE310 and FU540 (their manuals' UART chapter): the console of both
// boards, 115200 8N1 as the boot ROM or bootloader leaves it.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace tessera::board {

class SifiveUart {
 public:
  explicit constexpr SifiveUart(uintptr_t base) : base_(base) {}

  void enable_transmit() const { reg(kTxctrl) = reg(kTxctrl) | 1u; }

  // Waits while the transmit FIFO is full (the UART drains it at the line rate: a bounded
  // wait with nothing else to do), then queues the byte.
  void put(uint8_t byte) const {
    while ((reg(kTxdata) & kTxFull) != 0) {
    }
    reg(kTxdata) = byte;
  }

  void write(const char* text, size_t length) const {
    for (size_t i = 0; i < length; i++) put(static_cast<uint8_t>(text[i]));
  }

  // Waits until the transmit FIFO is empty (the watermark at 1 entry: ip.txwm is set while
  // fewer are queued), so that nothing queued is lost when the board stops.
  void drain() const {
    reg(kTxctrl) = (reg(kTxctrl) & ~kTxcntMask) | 1u << kTxcntShift;
    while ((reg(kIp) & kTxwm) == 0) {
    }
  }

 private:
  static constexpr uintptr_t kTxdata = 0x00, kTxctrl = 0x08, kIp = 0x14;
  static constexpr uint32_t kTxFull = 1u << 31, kTxwm = 1u;
  static constexpr uint32_t kTxcntShift = 16, kTxcntMask = 7u << kTxcntShift;

  volatile uint32_t& reg(uintptr_t offset) const {
    return *reinterpret_cast<volatile uint32_t*>(base_ + offset);
  }

  uintptr_t base_;
};

}  // namespace tessera::board
