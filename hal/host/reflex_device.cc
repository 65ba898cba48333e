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
  for (;;) {
    uint32_t result = 0;
    uint64_t resume_at = 0;
    const char* error = nullptr;
    const uint64_t now = hart.cycles();
    waiters_.arm(hart.index());
    const TesseraReflexResult r = tessera_reflex_csr(model_.get(), hart.index(), csr, write, value,
                                                     now, &result, &resume_at, &error);
    uint32_t sender = 0;
    while (const char* taken = tessera_reflex_take_error(model_.get(), &sender)) {
      record_guest_error(machine_.hart_at(sender).id(), taken);
    }
    switch (r) {
      case TESSERA_REFLEX_DONE:
        (void)hart.wait_until(resume_at);
        return result;
      case TESSERA_REFLEX_BLOCKED:
        waiters_.wait(
            lock, hart,
            csr == TESSERA_CSR_REFLEX_RECV ? BlockedOn::kReflexRecv : BlockedOn::kReflexWaitSend);
        break;
      case TESSERA_REFLEX_GUEST_ERROR:
      default:
        (void)hart.wait_until(resume_at);
        record_guest_error(hart.id(), std::string(write ? "csrrw " : "csrr ") + hex32(csr) + ", " +
                                          hex32(value) + ": " +
                                          (error != nullptr ? error : "refused"));
        return result;
    }
  }
}

void ReflexDevice::record_guest_error(uint32_t thread_id, const std::string& what) {
  guest_errors_.push_back("tessera-reflex: thread " + hex32(thread_id) + ": " + what);
}

std::vector<std::string> ReflexDevice::guest_errors() const {
  std::lock_guard lock(mutex_);
  return guest_errors_;
}

// Called by the model with mutex_ held.
void ReflexDevice::wake(void* opaque, uint32_t hart_index) {
  static_cast<ReflexDevice*>(opaque)->waiters_.wake(hart_index);
}

}  // namespace tessera::host
