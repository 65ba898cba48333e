#include "barrier_ctl_device.h"

#include <stdexcept>

#include "bus_error.h"

namespace tessera::host {

BarrierCtlDevice::BarrierCtlDevice(Machine& machine, const MachineParams& params)
    : machine_(machine), waiters_(machine, mutex_, "the barrier controller") {
  const TesseraShape& shape = machine.shape();
  const TesseraBarrierCtlConfig config{shape,
                                       params.tile_hop_cycles,
                                       params.board_hop_cycles,
                                       params.barrier_tile_x,
                                       params.barrier_tile_y,
                                       waiters_.registry(),
                                       0};  // a table over every uid
  TesseraBarrierCtlHost host{};
  host.opaque = this;
  host.wake = &BarrierCtlDevice::wake;
  host.log = &BarrierCtlDevice::log_line;
  model_ = tessera_barrier_ctl_new(&config, &host);
  if (model_ == nullptr) {
    throw std::invalid_argument(
        "tessera host: the barrier controller's tile (" + std::to_string(params.barrier_tile_x) +
        ", " + std::to_string(params.barrier_tile_y) + ") is outside the global tile grid");
  }
}

BarrierCtlDevice::~BarrierCtlDevice() {
  tessera_barrier_ctl_free(model_);
}

std::vector<uint16_t> BarrierCtlDevice::csrs() const {
  return {TESSERA_CSR_BARRIER_COUNT, TESSERA_CSR_BARRIER_ENTER};
}

uint32_t BarrierCtlDevice::csr_swap(Hart& hart, uint16_t csr, uint32_t value) {
  std::unique_lock lock(mutex_);
  for (;;) {
    uint32_t result = 0;
    uint64_t resume_at = 0;
    const char* error = nullptr;
    waiters_.arm(hart.index());
    const TesseraBarrierCtlResult r = tessera_barrier_ctl_csr(
        model_, hart.index(), csr, value, hart.cycles(), &result, &resume_at, &error);
    switch (r) {
      case TESSERA_BARRIER_CTL_DONE:
        if (error != nullptr) {
          guest_errors_.push_back("hart " + hex32(hart.id()) + ": csrrw " + hex32(csr) + ", " +
                                  hex32(value) + ": " + error);
        }
        (void)hart.wait_until(resume_at);
        return result;
      case TESSERA_BARRIER_CTL_BLOCKED:
        waiters_.wait(lock, hart, BlockedOn::kBarrier);
        break;
      case TESSERA_BARRIER_CTL_UNKNOWN:
      default:
        throw_bus_error(hart, "the barrier controller model does not know CSR " + hex32(csr));
    }
  }
}

std::vector<BarrierLogLine> BarrierCtlDevice::log() const {
  std::lock_guard lock(mutex_);
  return log_;
}

std::vector<std::string> BarrierCtlDevice::guest_errors() const {
  std::lock_guard lock(mutex_);
  return guest_errors_;
}

// Called by the model with mutex_ held.
void BarrierCtlDevice::wake(void* opaque, uint32_t hart_index) {
  static_cast<BarrierCtlDevice*>(opaque)->waiters_.wake(hart_index);
}

void BarrierCtlDevice::log_line(void* opaque, uint32_t hart_index, const char* line) {
  auto* self = static_cast<BarrierCtlDevice*>(opaque);
  self->log_.push_back({self->machine_.hart_at(hart_index).id(), line});
}

}  // namespace tessera::host
