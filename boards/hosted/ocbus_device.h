// The open-collector bus over its model (tessera/models/ocbus.h, docs/ocbus.md): the register
// block at TESSERA_OCBUS_BASE and the blocking TESSERA_CSR_OCBUS_WAIT.
//
// A wait the model answers BLOCKED puts the hart's thread to sleep until the model wakes it,
// then the CSR is issued again (never a spin); Machine::blocked_on shows BlockedOn::kOcbus
// meanwhile. Every completed access moves the hart's cycle counter to the model's resume time.
// Register misuse is what QEMU does with it: nothing changes, a read gives 0, and the guest
// error is recorded in guest_errors() (QEMU logs it).
#pragma once

#include <stdint.h>

#include <mutex>
#include <string>
#include <vector>

#include "bus_error.h"
#include "hart_waiters.h"
#include "tessera/host/device.h"
#include "tessera/host/device_mutex.h"
#include "tessera/host/machine.h"
#include "tessera/models/ocbus.h"

namespace tessera::host {

class OcbusDevice final : public Device {
 public:
  // Throws std::invalid_argument if the model refuses the number of lines.
  OcbusDevice(Machine& machine, const MachineParams& params);
  ~OcbusDevice() override;

  std::string_view name() const override { return "open-collector bus"; }
  std::optional<MmioWindow> mmio_window() const override;
  std::vector<uint16_t> csrs() const override;
  uint32_t mmio_read32(Hart& hart, uint32_t offset) override;
  void mmio_write32(Hart& hart, uint32_t offset, uint32_t value) override;
  uint32_t csr_swap(Hart& hart, uint16_t csr, uint32_t value) override;

  std::vector<std::string> guest_errors() const;

 private:
  static void wake(void* opaque, uint32_t hart_index);

  mutable DeviceMutex mutex_;  // guards everything below and the model
  HartWaiters waiters_;
  TesseraOcbus* model_ = nullptr;
  GuestErrors guest_errors_{"ocbus"};
};

}  // namespace tessera::host
