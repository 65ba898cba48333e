#include "tessera/barrier/any.h"

#include <stdint.h>

#include "tessera/barrier/model.h"

#if __has_include(<new>)
#include <new>
#else
// Placement new, without the C++ library's <new>, which the target doesn't have.
inline void* operator new(decltype(sizeof(0)), void* where) noexcept {
  return where;
}
#endif

namespace tessera::barrier {

bool names_equal(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    a++;
    b++;
  }
  return *a == *b;
}

const char* barrier_name(uint32_t i) {
  return i < kSoftwareAlgorithmCount ? kSoftwareAlgorithms[i].name
                                     : kHardwareNames[i - kSoftwareAlgorithmCount];
}

Status AnyBarrier::init(const char* name, Endpoint& endpoint, const Group& group) {
  destroy();
  if (names_equal(name, "auto")) {
    name = choose_barrier(group);
  }
  Status status;
  if (const SoftwareAlgorithm* a = find_software_algorithm(name); a != nullptr) {
    kind_ = Kind::kSoftware;
    name_ = a->name;
    status =
        (new (&storage_.software) SoftwareBarrier(endpoint, group, a->planner, a->param))->init();
  } else if (names_equal(name, IdleBarrier::kName)) {
    kind_ = Kind::kIdle;
    name_ = IdleBarrier::kName;
    status = (new (&storage_.idle) IdleBarrier(endpoint, group))->init();
  } else if (names_equal(name, OcBusBarrier::kName)) {
    kind_ = Kind::kOcBus;
    name_ = OcBusBarrier::kName;
    status = (new (&storage_.ocbus) OcBusBarrier(endpoint, group))->init();
  } else if (names_equal(name, ReflexRingBarrier::kName)) {
    kind_ = Kind::kReflex;
    name_ = ReflexRingBarrier::kName;
    status = (new (&storage_.reflex) ReflexRingBarrier(endpoint, group))->init();
  } else if (names_equal(name, ControllerBarrier::kName)) {
    kind_ = Kind::kController;
    name_ = ControllerBarrier::kName;
    status = (new (&storage_.controller) ControllerBarrier(endpoint, group))->init();
  } else {
    return Status(StatusCode::kNotFound);
  }
  if (!status.ok()) {
    destroy();
  }
  return status;
}

template <typename F>
auto AnyBarrier::visit(F f) const {
  auto& s = const_cast<Storage&>(storage_);
  switch (kind_) {
    case Kind::kSoftware:
      return f(s.software);
    case Kind::kIdle:
      return f(s.idle);
    case Kind::kOcBus:
      return f(s.ocbus);
    case Kind::kReflex:
      return f(s.reflex);
    case Kind::kController:
      return f(s.controller);
    case Kind::kNone:
      break;
  }
  __builtin_trap();  // a call before a successful init(): a bug in the caller
}

void AnyBarrier::notify() {
  visit([](auto& b) { b.notify(); });
}

void AnyBarrier::wait() {
  visit([](auto& b) { b.wait(); });
}

void AnyBarrier::finish() {
  visit([](auto& b) { b.finish(); });
}

uint32_t AnyBarrier::episode() const {
  return visit([](auto& b) { return b.episode(); });
}

uint32_t AnyBarrier::rank() const {
  return visit([](auto& b) { return b.rank(); });
}

// Every barrier is trivially destructible (Storage has no destructor, so a barrier that was not
// would not compile here): forgetting one is enough.
void AnyBarrier::destroy() {
  kind_ = Kind::kNone;
  name_ = nullptr;
}

}  // namespace tessera::barrier
