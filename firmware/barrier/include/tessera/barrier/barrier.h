// The barrier library (docs/barriers.md): every algorithm of the barrier survey over mailbox
// messages, and the machine's hardware barriers, behind one interface.
//
//   tessera::barrier::Endpoint endpoint;              // one per thread, on that thread
//   Group group = Group::all();                       // or Group::of(ids, count, tag)
//
//   Dissemination b(endpoint, group);                 // chosen at compile time, by type
//   AnyBarrier b;                                     // or at start-up, by name:
//   (void)b.init("dissemination", endpoint, group);   //   "auto" asks the model (model.h)
//   if (!b.init(...).ok()) ...                        // InvalidArgument: not for this group
//
//   b.barrier();                                      // full barrier, or split phase:
//   b.notify();  ... work that needs nobody ...  b.wait();
//   b.finish();                                       // done with it: gives back what it holds
//
// notify() enters the next episode and never waits for another thread; wait() returns once
// every member has entered this episode. Every member of a group makes the same calls. A thread
// may use barriers over several groups: disjoint groups synchronise independently; groups that
// overlap need different tags (group.h).
#pragma once

#include <stdint.h>

#include "tessera/status.h"

namespace tessera::barrier {

namespace detail {
// <concepts> is part of the C++ library, which the target doesn't have.
template <typename A, typename B>
concept SameAs = __is_same(A, B) && __is_same(B, A);
}  // namespace detail

template <typename B>
concept Barrier = requires(B& b, const B& cb) {
  { B::kName } -> detail::SameAs<const char* const&>;
  { b.init() } -> detail::SameAs<Status>;
  { b.notify() } -> detail::SameAs<void>;
  { b.wait() } -> detail::SameAs<void>;
  { b.barrier() } -> detail::SameAs<void>;
  { b.finish() } -> detail::SameAs<void>;        // after the last episode, on every member
  { cb.episode() } -> detail::SameAs<uint32_t>;  // episodes entered
  { cb.rank() } -> detail::SameAs<uint32_t>;     // the caller's rank in the group
};

}  // namespace tessera::barrier
