// A barrier chosen at start-up by name (barrier.h): any software algorithm of algorithms.h,
// "idle", "ocbus", "reflex", "controller", or "auto", which picks the one the performance model
// predicts fastest for the group (model.h). No heap and no RTTI: the chosen barrier lives inside
// the AnyBarrier, and calls go through a switch.
#pragma once

#include <stdint.h>

#include "tessera/barrier/algorithms.h"
#include "tessera/barrier/endpoint.h"
#include "tessera/barrier/group.h"
#include "tessera/barrier/hardware.h"
#include "tessera/barrier/software.h"
#include "tessera/status.h"

namespace tessera::barrier {

// The hardware barriers' names, in the order of hardware.h.
inline constexpr const char* kHardwareNames[] = {
    IdleBarrier::kName, OcBusBarrier::kName, ReflexRingBarrier::kName, ControllerBarrier::kName};
inline constexpr uint32_t kHardwareCount = sizeof(kHardwareNames) / sizeof(kHardwareNames[0]);
// Every name init() takes except "auto": the software algorithms', then the hardware's.
inline constexpr uint32_t kBarrierCount = kSoftwareAlgorithmCount + kHardwareCount;
const char* barrier_name(uint32_t i);  // i < kBarrierCount

bool names_equal(const char* a, const char* b);

class AnyBarrier {
 public:
  AnyBarrier() = default;
  AnyBarrier(const AnyBarrier&) = delete;
  AnyBarrier& operator=(const AnyBarrier&) = delete;

  // Builds and initialises the barrier `name` over `group`. NotFound for an unknown name;
  // otherwise the barrier's own init() result (InvalidArgument if it cannot serve the group).
  [[nodiscard]] Status init(const char* name, Endpoint& endpoint, const Group& group);

  void notify();
  void wait();
  void barrier() {
    notify();
    wait();
  }
  void finish();
  uint32_t episode() const;
  uint32_t rank() const;
  // The barrier's name (for "auto", the one chosen); null before a successful init.
  const char* name() const { return name_; }

 private:
  enum class Kind : uint8_t { kNone, kSoftware, kIdle, kOcBus, kReflex, kController };
  template <typename F>
  auto visit(F f) const;
  void destroy();

  Kind kind_ = Kind::kNone;
  const char* name_ = nullptr;
  union Storage {
    Storage() {}
    SoftwareBarrier software;
    IdleBarrier idle;
    OcBusBarrier ocbus;
    ReflexRingBarrier reflex;
    ControllerBarrier controller;
  } storage_;
};

}  // namespace tessera::barrier
