// The threads a barrier synchronises: every thread of the machine, or any list of thread ids.
//
//   Group everyone = Group::all();                 // dense-index order, rank = dense index
//   static const uint32_t evens[] = {...};         // the same list, in the same order, on
//   Group mine = Group::of(evens, 4, /*tag=*/1);   // every member; it must outlive the Group
//
// A member's rank is its position in the list; algorithms name partners by rank. Disjoint
// groups synchronise independently whatever their tags. A thread that uses barriers over
// different groups that overlap gives each group its own tag (0..kMaxTags-1): the tag is
// carried in every barrier message, so that a message of one group is never counted in another.
#pragma once

#include <stdint.h>

#include "tessera/hw/regs.h"

namespace tessera::barrier {

class Group {
 public:
  static constexpr uint32_t kMaxTags = 4;
  static constexpr uint32_t kNotMember = 0xffffffffu;

  Group() = default;  // empty: no thread is a member
  // Every thread of `shape` (the machine's: Sysinfo::shape()).
  static Group all(const TesseraShape& shape, uint32_t tag = 0);
  // Every thread of the machine the caller runs on.
  static Group all(uint32_t tag = 0);
  // The `count` thread ids at `ids` of a machine of `shape`; they stay valid for the Group's life.
  static Group of(const TesseraShape& shape, const uint32_t* ids, uint32_t count, uint32_t tag = 0);
  // The same on the machine the caller runs on.
  static Group of(const uint32_t* ids, uint32_t count, uint32_t tag = 0);

  uint32_t size() const { return size_; }
  uint32_t tag() const { return tag_; }
  bool is_all() const { return ids_ == nullptr && size_ != 0; }
  const uint32_t* ids() const { return ids_; }          // the list of of(); null for all()
  const TesseraShape& shape() const { return shape_; }  // the machine's

  // Thread id of the member of rank r < size().
  uint32_t member(uint32_t rank) const {
    return ids_ != nullptr ? ids_[rank] : tessera_thread_at(&shape_, rank);
  }
  // Rank of thread `id`, or kNotMember.
  uint32_t rank_of(uint32_t id) const;

 private:
  TesseraShape shape_{};
  const uint32_t* ids_ = nullptr;
  uint32_t size_ = 0;
  uint32_t tag_ = 0;
};

}  // namespace tessera::barrier
