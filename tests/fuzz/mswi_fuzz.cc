// libFuzzer target: the MSWI model (models/mswi.c). One board of 1..4096
// harts (and the sizes it must refuse), then reads, writes and resets at
// any offset; a shadow msip bit per hart says what every read, every
// pending bit and every guest error must be (docs/fuzzing.md).
//
// Input: the board size, then operations until the input runs out.
#include <stddef.h>
#include <stdint.h>

#include <vector>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/models/mswi.h"
#include "tessera/testing/access.h"

namespace {

using tessera::testing::MswiWrite;

using fuzz::FuzzInput;

constexpr int kMaxOperations = 4000;

class Scenario {
 public:
  explicit Scenario(uint32_t harts) : msip_(harts, false) {
    model_ = tessera_mswi_new(harts);
    FUZZ_CHECK(model_ != nullptr, "tessera_mswi_new(%u) failed", harts);
  }
  ~Scenario() { tessera_mswi_free(model_); }
  Scenario(const Scenario&) = delete;
  Scenario& operator=(const Scenario&) = delete;

  uint32_t harts() const { return static_cast<uint32_t>(msip_.size()); }

  // mswi.h: a multiple of 4 that names a hart of the board.
  bool names_a_hart(uint32_t offset) const { return offset % 4 == 0 && offset / 4 < harts(); }

  void write(uint32_t offset, uint32_t value) {
    uint32_t hart = UINT32_MAX;
    const char* error = nullptr;
    const TesseraAccessStatus action =
        MswiWrite(tessera_mswi_write(model_, offset, value), &hart, &error);
    if (!names_a_hart(offset)) {
      FUZZ_CHECK(action == TESSERA_ACCESS_GUEST_ERROR && error != nullptr && hart == UINT32_MAX,
                 "write at 0x%x (board of %u): not a guest error with a reason", offset, harts());
      return;
    }
    FUZZ_CHECK(action == TESSERA_ACCESS_DONE && hart == offset / 4,
               "write at 0x%x: action %d, hart %u", offset, static_cast<int>(action), hart);
    msip_[hart] = (value & 1) != 0;
    touched_.push_back(hart);
    check_hart(hart);
  }

  void read(uint32_t offset) const {
    uint32_t value = 0xdeadbeef;
    const char* error = nullptr;
    const TesseraAccessStatus action =
        tessera_access_unpack(tessera_mswi_read(model_, offset), &value, nullptr, &error);
    if (!names_a_hart(offset)) {
      FUZZ_CHECK(action == TESSERA_ACCESS_GUEST_ERROR && error != nullptr && value == 0,
                 "read at 0x%x (board of %u): not a guest error reading 0 (0x%x)", offset, harts(),
                 value);
      return;
    }
    FUZZ_CHECK(action == TESSERA_ACCESS_DONE && value == (msip_[offset / 4] ? 1u : 0u),
               "read at 0x%x: action %d value 0x%x, shadow %d", offset, static_cast<int>(action),
               value, static_cast<int>(msip_[offset / 4]));
  }

  void reset() {
    tessera_mswi_reset(model_);
    for (const uint32_t hart : touched_) {
      msip_[hart] = false;
    }
  }

  // Any hart index, inside the board or not.
  void check_hart(uint32_t hart) const {
    const bool want = hart < harts() && msip_[hart];
    FUZZ_CHECK(tessera_mswi_pending(model_, hart) == want, "hart %u pending %d, shadow %d", hart,
               static_cast<int>(!want), static_cast<int>(want));
  }

  // Every hart a write reached, the board's ends and the index past it: a
  // hart no write reached has the power-on bit, which the first read of it
  // checks. Checking all 4,096 harts of a full board after every reset made
  // the target twenty times slower.
  void check_all() const {
    for (const uint32_t hart : touched_) {
      check_hart(hart);
    }
    check_hart(0);
    check_hart(harts() - 1);
    check_hart(harts());
  }

 private:
  TesseraMswi* model_ = nullptr;
  std::vector<bool> msip_;
  std::vector<uint32_t> touched_;  // harts written, with repeats
};

uint32_t offset_of(FuzzInput& in, uint32_t harts) {
  switch (in.below(8)) {
    case 0:
      return in.u32();
    case 1:
      return 4 * harts + 4 * in.below(4);  // just past the last hart
    case 2:
      return 4 * in.below(harts) + 1 + in.below(3);  // unaligned
    case 3:
      return TESSERA_MSWI_STRIDE - 4 * (1 + in.below(2));
    default:
      return 4 * in.below(harts);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  // mswi.h: no board of 0 harts or of more than an MSWI block holds.
  FUZZ_CHECK(tessera_mswi_new(0) == nullptr, "an MSWI of 0 harts");
  FUZZ_CHECK(tessera_mswi_new(TESSERA_MSWI_MAX_HARTS + 1) == nullptr, "an MSWI of %u harts",
             TESSERA_MSWI_MAX_HARTS + 1);
  const uint32_t harts = in.flag() ? 1 + in.below(64) : 1 + in.below(TESSERA_MSWI_MAX_HARTS);
  Scenario scenario(harts);
  for (int i = 0; i < kMaxOperations && !in.empty(); i++) {
    const uint32_t kind = in.below(16);
    if (kind < 8) {
      const uint32_t offset = offset_of(in, harts);
      scenario.write(offset, in.flag() ? in.below(2) : in.u32());
    } else if (kind < 14) {
      scenario.read(offset_of(in, harts));
    } else if (kind == 14) {
      scenario.check_hart(in.below(harts + 2));
    } else {
      scenario.reset();
      scenario.check_all();
    }
  }
  scenario.check_all();
  return 0;
}
