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
                                       0,  // a table over every uid
                                       false};
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
  const TesseraAccess access = waiters_.until_done(
      lock, hart,
      [&] { return tessera_barrier_ctl_csr(model_, hart.index(), csr, value, hart.cycles()); },
      [] { return BlockedOn::kBarrier; });
  return complete(hart, access, {AccessSite::Kind::kCsrWrite, csr, value}, &guest_errors_);
}

std::vector<BarrierLogLine> BarrierCtlDevice::log() const {
  std::lock_guard lock(mutex_);
  return log_;
}

std::vector<std::string> BarrierCtlDevice::guest_errors() const {
  std::lock_guard lock(mutex_);
  return guest_errors_.lines();
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
