#include "ocbus_device.h"

#include <stdexcept>

#include "bus_error.h"

namespace tessera::host {

OcbusDevice::OcbusDevice(Machine& machine, const MachineParams& params)
    : waiters_(machine, mutex_, "the open-collector bus") {
  const TesseraOcbusConfig config{machine.num_harts(), params.ocbus_lines,
                                  params.ocbus_settle_cycles, waiters_.registry()};
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
  uint32_t value = 0;
  uint64_t resume_at = 0;
  const char* error = nullptr;
  if (tessera_ocbus_mmio_read(model_, hart.index(), offset, hart.cycles(), &value, &resume_at,
                              &error) == TESSERA_OCBUS_GUEST_ERROR) {
    record(hart, "read at offset " + hex32(offset), error);
    return 0;
  }
  (void)hart.wait_until(resume_at);
  return value;
}

void OcbusDevice::mmio_write32(Hart& hart, uint32_t offset, uint32_t value) {
  std::lock_guard lock(mutex_);
  const char* error = nullptr;
  if (tessera_ocbus_mmio_write(model_, hart.index(), offset, value, hart.cycles(), &error) ==
      TESSERA_OCBUS_GUEST_ERROR) {
    record(hart, "write of " + hex32(value) + " at offset " + hex32(offset), error);
    return;
  }
}

// The host's csr_swap is csrrw: it always writes.
uint32_t OcbusDevice::csr_swap(Hart& hart, uint16_t csr, uint32_t value) {
  std::unique_lock lock(mutex_);
  for (;;) {
    uint32_t result = 0;
    uint64_t resume_at = 0;
    const char* error = nullptr;
    waiters_.arm(hart.index());
    const TesseraOcbusResult r = tessera_ocbus_wait_csr(model_, hart.index(), value,
                                                        hart.cycles(), &result, &resume_at, &error);
    switch (r) {
      case TESSERA_OCBUS_DONE:
        (void)hart.wait_until(resume_at);
        return result;
      case TESSERA_OCBUS_BLOCKED:
        waiters_.wait(lock, hart, BlockedOn::kOcbus);
        break;
      case TESSERA_OCBUS_GUEST_ERROR:
      default:
        record(hart, "csrrw " + hex32(csr) + ", " + hex32(value), error);
        return 0;
    }
  }
}

std::vector<std::string> OcbusDevice::guest_errors() const {
  std::lock_guard lock(mutex_);
  return guest_errors_;
}

void OcbusDevice::record(const Hart& hart, const std::string& access, const char* error) {
  guest_errors_.push_back("hart " + hex32(hart.id()) + ": " + access + ": " +
                          (error != nullptr ? error : "?"));
}

// Called by the model with mutex_ held.
void OcbusDevice::wake(void* opaque, uint32_t hart_index) {
  static_cast<OcbusDevice*>(opaque)->waiters_.wake(hart_index);
}

}  // namespace tessera::host
