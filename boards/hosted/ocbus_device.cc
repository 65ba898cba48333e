#include "ocbus_device.h"

#include <stdexcept>

#include "bus_error.h"

namespace tessera::host {

OcbusDevice::OcbusDevice(Machine& machine, const MachineParams& params)
    : waiters_(machine, mutex_, "the open-collector bus") {
  const TesseraOcbusConfig config{machine.num_harts(), params.ocbus_lines,
                                  params.ocbus_settle_cycles, waiters_.registry(), false};
  TesseraOcbusHost host{};
  host.opaque = this;
  host.wake = &OcbusDevice::wake;
  model_ = tessera_ocbus_new(&config, &host);
  if (model_ == nullptr) {
    throw std::invalid_argument("tessera host: the open-collector bus has " +
                                std::to_string(TESSERA_OCBUS_MIN_LINES) + ".." +
                                std::to_string(TESSERA_OCBUS_MAX_LINES) + " lines, not " +
                                std::to_string(params.ocbus_lines));
  }
}

OcbusDevice::~OcbusDevice() {
  tessera_ocbus_free(model_);
}

std::optional<MmioWindow> OcbusDevice::mmio_window() const {
  return MmioWindow{TESSERA_OCBUS_BASE, TESSERA_OCBUS_SIZE};
}

std::vector<uint16_t> OcbusDevice::csrs() const {
  return {TESSERA_CSR_OCBUS_WAIT};
}

uint32_t OcbusDevice::mmio_read32(Hart& hart, uint32_t offset) {
  std::lock_guard lock(mutex_);
  return complete(hart, tessera_ocbus_mmio_read(model_, hart.index(), offset, hart.cycles()),
                  {AccessSite::Kind::kRead, offset, 0}, &guest_errors_);
}

void OcbusDevice::mmio_write32(Hart& hart, uint32_t offset, uint32_t value) {
  std::lock_guard lock(mutex_);
  (void)complete(hart, tessera_ocbus_mmio_write(model_, hart.index(), offset, value, hart.cycles()),
                 {AccessSite::Kind::kWrite, offset, value}, &guest_errors_);
}

// The host's csr_swap is csrrw: it always writes.
uint32_t OcbusDevice::csr_swap(Hart& hart, uint16_t csr, uint32_t value) {
  std::unique_lock lock(mutex_);
  const TesseraAccess access = waiters_.until_done(
      lock, hart,
      [&] { return tessera_ocbus_wait_csr(model_, hart.index(), value, hart.cycles()); },
      [] { return BlockedOn::kOcbus; });
  return complete(hart, access, {AccessSite::Kind::kCsrWrite, csr, value}, &guest_errors_);
}

std::vector<std::string> OcbusDevice::guest_errors() const {
  std::lock_guard lock(mutex_);
  return guest_errors_.lines();
}

// Called by the model with mutex_ held.
void OcbusDevice::wake(void* opaque, uint32_t hart_index) {
  static_cast<OcbusDevice*>(opaque)->waiters_.wake(hart_index);
}

}  // namespace tessera::host
