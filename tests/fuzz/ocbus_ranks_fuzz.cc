// libFuzzer target: the open-collector bus with time windows over several processes
// (tessera/models/ocbus.h, "time windows"; docs/ranks.md). The same writes and waits go to one bus
// of the whole machine and to the copy of the process that owns the hart; at each window's end the
// copies take every copy's drives and the combined times, as MPI would give them. Every wait
// answers alike (status, value, time), and after each window's end every copy reads what the one
// bus reads, settled at the same cycle, and wakes the same harts. Raw drives, as another process
// might send them, are taken whole or refused with nothing changed.
//
// Input: harts (1..32), lines (4..8), copies (2..4), then operations until the input runs out.
#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/models/ocbus.h"

namespace {

using fuzz::FuzzInput;

class Bus {
 public:
  Bus(uint32_t harts, uint32_t lines) {
    const TesseraOcbusConfig config{harts, lines, 10, nullptr, true};
    TesseraOcbusHost host{};
    host.opaque = this;
    host.wake = [](void* self, uint32_t hart) { static_cast<Bus*>(self)->woken.push_back(hart); };
    bus_ = tessera_ocbus_new(&config, &host);
  }
  ~Bus() { tessera_ocbus_free(bus_); }
  Bus(const Bus&) = delete;
  Bus& operator=(const Bus&) = delete;
  TesseraOcbus* get() const { return bus_; }
  std::vector<uint32_t> woken;

 private:
  TesseraOcbus* bus_ = nullptr;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const uint32_t harts = 1 + in.below(32);
  const uint32_t lines = in.in_range(TESSERA_OCBUS_MIN_LINES, TESSERA_OCBUS_MAX_LINES);
  const uint32_t copies = std::min<uint32_t>(harts, 2 + in.below(3));
  Bus one(harts, lines);
  std::vector<std::unique_ptr<Bus>> copy;
  for (uint32_t c = 0; c < copies; c++) copy.push_back(std::make_unique<Bus>(harts, lines));
  FUZZ_CHECK(one.get() != nullptr, "the bus refused %u harts, %u lines", harts, lines);
  auto owner = [&](uint32_t h) -> Bus& { return *copy[uint64_t{h} * copies / harts]; };
  std::vector<uint64_t> now(harts, 0);
  uint64_t until = 0;
  for (int op = 0; op < 4000 && !in.empty(); op++) {
    const uint8_t kind = in.byte();
    const uint32_t h = in.below(harts);
    now[h] = std::max(now[h], until) + in.below(200);
    if (kind < 100) {  // a write of any value, also with lines the machine lacks
      const uint32_t local = in.byte();
      const TesseraAccess a = tessera_ocbus_write(one.get(), h, local, now[h]);
      const TesseraAccess b = tessera_ocbus_write(owner(h).get(), h, local, now[h]);
      FUZZ_CHECK(a.status == b.status, "hart %u write 0x%x: one bus %d, its copy %d", h, local,
                 static_cast<int>(a.status), static_cast<int>(b.status));
    } else if (kind < 180) {  // a wait
      const uint32_t mask = in.byte(), value = in.byte();
      const TesseraAccess a = tessera_ocbus_wait(one.get(), h, mask, value, now[h]);
      const TesseraAccess b = tessera_ocbus_wait(owner(h).get(), h, mask, value, now[h]);
      FUZZ_CHECK(a.status == b.status && a.value == b.value && a.resume_at == b.resume_at,
                 "hart %u wait 0x%x/0x%x: one bus %d/0x%x/%llu, its copy %d/0x%x/%llu", h, mask,
                 value, static_cast<int>(a.status), a.value,
                 static_cast<unsigned long long>(a.resume_at), static_cast<int>(b.status), b.value,
                 static_cast<unsigned long long>(b.resume_at));
    } else if (kind < 250) {  // the window ends
      until += 1 + in.below(400);
      std::vector<TesseraOcbusDrive> all;
      TesseraOcbusTimes sum;
      const TesseraOcbusDrive* d = nullptr;
      size_t n = tessera_ocbus_window(one.get(), &d, &sum);
      const std::vector<TesseraOcbusDrive> own(d, d + n);
      bool ok = false;
      const uint32_t changed =
          tessera_ocbus_window_end(one.get(), own.data(), own.size(), &sum, until, &ok);
      FUZZ_CHECK(ok, "the one bus refused its own drives");
      TesseraOcbusTimes times;
      tessera_ocbus_window(copy[0]->get(), &d, &sum);
      for (auto& c : copy) {
        n = tessera_ocbus_window(c->get(), &d, &times);
        all.insert(all.end(), d, d + n);
        tessera_ocbus_times_add(&sum, &times);
      }
      std::vector<uint32_t> woken;
      for (auto& c : copy) {
        FUZZ_CHECK(tessera_ocbus_window_end(c->get(), all.data(), all.size(), &sum, until, &ok) ==
                           changed &&
                       ok,
                   "a copy changed other lines than the one bus");
        woken.insert(woken.end(), c->woken.begin(), c->woken.end());
        c->woken.clear();
      }
      std::sort(woken.begin(), woken.end());
      std::sort(one.woken.begin(), one.woken.end());
      FUZZ_CHECK(woken == one.woken, "the copies woke %zu harts, the one bus %zu", woken.size(),
                 one.woken.size());
      one.woken.clear();
      uint64_t t1 = 0, t2 = 0;
      const uint32_t v1 = tessera_ocbus_read(one.get(), 0, &t1);
      for (auto& c : copy) {
        FUZZ_CHECK(tessera_ocbus_read(c->get(), 0, &t2) == v1 && t1 == t2,
                   "a copy reads other lines, or settled at another cycle, than the one bus");
      }
    } else {  // a raw drive from another process: whole or refused
      Bus& c = *copy[in.below(copies)];
      const TesseraOcbusDrive raw{in.u32() % (harts + 2), in.byte()};
      TesseraOcbusTimes times;
      const TesseraOcbusDrive* d = nullptr;
      tessera_ocbus_window(c.get(), &d, &times);
      bool ok = false;
      const uint32_t before = tessera_ocbus_read(c.get(), 0, nullptr);
      (void)tessera_ocbus_window_end(c.get(), &raw, 1, &times, until, &ok);
      const bool valid = raw.hart < harts && !(raw.local & ~((1u << lines) - 1));
      FUZZ_CHECK(ok == valid, "a raw drive of hart %u, 0x%x: %s", raw.hart, raw.local,
                 ok ? "taken" : "refused");
      FUZZ_CHECK(ok || tessera_ocbus_read(c.get(), 0, nullptr) == before,
                 "a refused drive changed the lines");
      return 0;  // the copies differ from the one bus from here
    }
  }
  return 0;
}
