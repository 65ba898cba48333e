#include "tessera/drivers/barrier_ctl.h"

#include "tessera/hal/csr.h"

namespace tessera::drivers {

Status BarrierController::status_of(uint32_t barrier_status) {
  switch (barrier_status) {
    case TESSERA_BARRIER_OK:
      return OkStatus();
    case TESSERA_BARRIER_NO_COUNT:
      return Status::FailedPrecondition();
    case TESSERA_BARRIER_MISMATCH:
      return Status(StatusCode::kAborted);
    case TESSERA_BARRIER_BUSY:
      return Status::Unavailable();
    case TESSERA_BARRIER_TOO_MANY:
      return Status::OutOfRange();
    case TESSERA_BARRIER_FULL:
      return Status(StatusCode::kResourceExhausted);
    default:
      return Status::Internal();
  }
}

Status BarrierController::enter(uint32_t uid, uint32_t count) const {
  if (uid > kMaxUid || count > kMaxCount) {
    return Status::InvalidArgument();
  }
  return status_of(hal::csr_swap<TESSERA_CSR_BARRIER_ENTER>(TESSERA_BARRIER_VALUE(uid, count)));
}

Status BarrierController::set_count(uint32_t uid, uint32_t count, uint32_t* previous) const {
  if (uid > kMaxUid || count > kMaxCount) {
    return Status::InvalidArgument();
  }
  const uint32_t old = hal::csr_swap<TESSERA_CSR_BARRIER_COUNT>(TESSERA_BARRIER_VALUE(uid, count));
  if (previous != nullptr) {
    *previous = old;
  }
  return OkStatus();
}

}  // namespace tessera::drivers
