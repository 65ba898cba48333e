#include "reflex_device.h"

#include <stdexcept>

#include "bus_error.h"

namespace tessera::host {

ReflexDevice::ReflexDevice(Machine& machine, const MachineParams& params)
    : machine_(machine), waiters_(machine, mutex_, "the reflex switches") {
  const TesseraReflexConfig config{machine.shape(), params.reflex_buffer_flits,
                                   params.reflex_hop_cycles, waiters_.registry()};
  TesseraReflexHost host{};
  host.opaque = this;
  host.wake = &ReflexDevice::wake;
  model_.reset(tessera_reflex_new(&config, &host));
  if (!model_) {
    throw std::invalid_argument("tessera host: reflex_buffer_flits " +
                                std::to_string(params.reflex_buffer_flits) + " is outside " +
                                std::to_string(TESSERA_MIN_reflex_buffer_flits) + ".." +
                                std::to_string(TESSERA_LIMIT_reflex_buffer_flits));
  }
}

ReflexDevice::~ReflexDevice() = default;

// Every CSR regs.h calls a reflex CSR, as the QEMU wrapper registers them.
std::vector<uint16_t> ReflexDevice::csrs() const {
  return csrs_where(tessera_csr_is_reflex);
}

uint32_t ReflexDevice::csr_swap(Hart& hart, uint16_t csr, uint32_t value) {
  return access(hart, csr, true, value);
}

uint32_t ReflexDevice::csr_read(Hart& hart, uint16_t csr) {
  return access(hart, csr, false, 0);
}

uint32_t ReflexDevice::access(Hart& hart, uint16_t csr, bool write, uint32_t value) {
  std::unique_lock lock(mutex_);
  const TesseraAccess access = waiters_.until_done(
      lock, hart,
      [&] {
        const TesseraAccess a =
            tessera_reflex_csr(model_.get(), hart.index(), csr, write, value, hart.cycles());
        uint32_t sender = 0;
        while (const char* taken = tessera_reflex_take_error(model_.get(), &sender)) {
          guest_errors_.record_thread(machine_.hart_at(sender).id(), taken);
        }
        return a;
      },
      [csr] {
        return csr == TESSERA_CSR_REFLEX_RECV ? BlockedOn::kReflexRecv : BlockedOn::kReflexWaitSend;
      });
  return complete(hart, access,
                  {write ? AccessSite::Kind::kCsrWrite : AccessSite::Kind::kCsrRead, csr, value},
                  &guest_errors_);
}

std::vector<std::string> ReflexDevice::guest_errors() const {
  std::lock_guard lock(mutex_);
  return guest_errors_.lines();
}

// Called by the model with mutex_ held.
void ReflexDevice::wake(void* opaque, uint32_t hart_index) {
  static_cast<ReflexDevice*>(opaque)->waiters_.wake(hart_index);
}

}  // namespace tessera::host
