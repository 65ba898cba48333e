// libFuzzer target: the clock model (models/clock.c). Up to 64 harts at any
// cpi (and the sizes and cpis it must refuse), then retirements, waits, cycle
// CSR reads and resets in any order; a shadow of retired instructions and
// waited cycles per hart says what every answer must be (docs/fuzzing.md).
//
// Input: the hart count and cpi, then operations until the input runs out.
#include <stddef.h>
#include <stdint.h>

#include <vector>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/hw/machine_params.h"
#include "tessera/hw/regs.h"
#include "tessera/models/clock.h"

namespace {

using fuzz::FuzzInput;

constexpr int kMaxOperations = 4000;

struct Shadow {
  uint64_t retired = 0;
  uint64_t waited = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const uint32_t harts = 1 + in.below(64);
  const uint32_t raw_cpi = in.flag() ? in.u32() : 1 + in.below(TESSERA_MAX_THREADS);
  TesseraClocks* clocks = tessera_clocks_new(harts, raw_cpi);
  // clock.h: cpi within the property's range, harts 1..TESSERA_MAX_HARTS.
  const bool cpi_ok = raw_cpi >= TESSERA_MIN_cpi && raw_cpi <= TESSERA_LIMIT_cpi;
  FUZZ_CHECK((clocks != nullptr) == cpi_ok, "tessera_clocks_new(%u, %u) gave %p", harts, raw_cpi,
             static_cast<void*>(clocks));
  FUZZ_CHECK(tessera_clocks_new(0, 1) == nullptr, "clocks for 0 harts");
  if (clocks == nullptr) {
    return 0;
  }
  const uint64_t cpi = raw_cpi;
  std::vector<Shadow> shadow(harts);
  const auto now = [&](uint32_t h) {
    return h < harts ? shadow[h].retired * cpi + shadow[h].waited : 0;
  };
  for (int i = 0; i < kMaxOperations && !in.empty(); i++) {
    // Indices up to two past the end: out-of-range ones change nothing.
    const uint32_t h = in.below(harts + 2);
    switch (in.below(5)) {
      case 0: {
        const uint64_t n = in.below(1u << 20);
        tessera_clocks_retire(clocks, h, n);
        if (h < harts) {
          shadow[h].retired += n;
        }
        break;
      }
      case 1: {
        const uint64_t until = in.flag() ? now(h) + in.below(1u << 24) : in.u64() >> 8;
        const uint64_t before = now(h);
        const uint64_t added = tessera_clocks_wait_until(clocks, h, until);
        const uint64_t want = h < harts && until > before ? until - before : 0;
        FUZZ_CHECK(added == want, "hart %u at %llu waited until %llu: added %llu, want %llu", h,
                   static_cast<unsigned long long>(before), static_cast<unsigned long long>(until),
                   static_cast<unsigned long long>(added), static_cast<unsigned long long>(want));
        if (h < harts) {
          shadow[h].waited += want;
        }
        break;
      }
      case 2: {
        const uint16_t csr = in.flag() ? (in.flag() ? TESSERA_CSR_CYCLE : TESSERA_CSR_CYCLEH)
                                       : static_cast<uint16_t>(in.below(4096));
        uint32_t value = 0xdeadbeef;
        const bool read = tessera_clocks_read_csr(clocks, h, csr, &value);
        const bool is_cycle = csr == TESSERA_CSR_CYCLE || csr == TESSERA_CSR_CYCLEH;
        const uint32_t want = !is_cycle                  ? 0
                              : csr == TESSERA_CSR_CYCLE ? static_cast<uint32_t>(now(h))
                                                         : static_cast<uint32_t>(now(h) >> 32);
        FUZZ_CHECK(read == is_cycle && value == want, "csr 0x%x of hart %u: %d 0x%x, want 0x%x",
                   csr, h, static_cast<int>(read), value, want);
        break;
      }
      case 3:
        tessera_clocks_reset(clocks);
        shadow.assign(harts, Shadow{});
        break;
      default:
        break;
    }
    FUZZ_CHECK(tessera_clocks_now(clocks, h) == now(h), "hart %u at %llu, shadow %llu", h,
               static_cast<unsigned long long>(tessera_clocks_now(clocks, h)),
               static_cast<unsigned long long>(now(h)));
  }
  FUZZ_CHECK(tessera_clocks_cpi(clocks) == cpi, "cpi %u, want %llu", tessera_clocks_cpi(clocks),
             static_cast<unsigned long long>(cpi));
  tessera_clocks_free(clocks);
  return 0;
}
