// A device of the host machine: what it claims on the bus and how it
// answers. Devices are called from many hart threads at once, so each one
// locks whatever it shares (usually the plain-C model it wraps).
#pragma once

#include <stdint.h>

#include <optional>
#include <string_view>
#include <vector>

namespace tessera::host {

class Hart;

// Bus addresses [base, base + size) answered by one device.
struct MmioWindow {
  uint32_t base;
  uint32_t size;
};

// Every CSR number (12 bits) for which `is` holds, e.g. tessera_csr_is_mailbox of regs.h: how a
// device claims the CSRs the QEMU wrapper registers too.
std::vector<uint16_t> csrs_where(int (*is)(uint32_t csr));

class Device {
 public:
  virtual ~Device() = default;

  // Names the device in error messages.
  virtual std::string_view name() const = 0;

  // What the device claims; asked once, when the machine attaches it.
  virtual std::optional<MmioWindow> mmio_window() const { return std::nullopt; }
  virtual std::vector<uint16_t> csrs() const { return {}; }

  // offset is relative to the window's base and 4-byte aligned. The
  // defaults throw std::logic_error: a device that claims a window or a CSR
  // overrides the access it supports.
  virtual uint32_t mmio_read32(Hart& hart, uint32_t offset);
  virtual void mmio_write32(Hart& hart, uint32_t offset, uint32_t value);

  // csrrw: writes value, returns the old value.
  virtual uint32_t csr_swap(Hart& hart, uint16_t csr, uint32_t value);
  // csrr (csrrs with x0): a read that writes nothing. The default is a swap
  // of 0, for devices where the two mean the same.
  virtual uint32_t csr_read(Hart& hart, uint16_t csr) { return csr_swap(hart, csr, 0); }
};

}  // namespace tessera::host
