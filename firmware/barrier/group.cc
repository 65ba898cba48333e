#include "tessera/barrier/group.h"

#include <stdint.h>

#include "tessera/drivers/sysinfo.h"

namespace tessera::barrier {

Group Group::all(const TesseraShape& shape, uint32_t tag) {
  Group g;
  g.shape_ = shape;
  g.size_ = tessera_num_threads(&shape);
  g.tag_ = tag;
  return g;
}

Group Group::all(uint32_t tag) {
  return all(drivers::Sysinfo().shape(), tag);
}

Group Group::of(const uint32_t* ids, uint32_t count, uint32_t tag) {
  return of(drivers::Sysinfo().shape(), ids, count, tag);
}

Group Group::of(const TesseraShape& shape, const uint32_t* ids, uint32_t count, uint32_t tag) {
  Group g;
  g.shape_ = shape;
  g.ids_ = count != 0 ? ids : nullptr;
  g.size_ = count;
  g.tag_ = tag;
  return g;
}

uint32_t Group::rank_of(uint32_t id) const {
  if (ids_ == nullptr) {
    return size_ != 0 && tessera_thread_exists(&shape_, id) ? tessera_dense_index(&shape_, id)
                                                            : kNotMember;
  }
  for (uint32_t r = 0; r < size_; r++) {
    if (ids_[r] == id) {
      return r;
    }
  }
  return kNotMember;
}

}  // namespace tessera::barrier
