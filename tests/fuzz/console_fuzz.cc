// libFuzzer target: the console model (models/console.c). Bytes,
// flushes and out-of-range harts in any order, directly and through the
// register decode (TX, FLUSH, other offsets, reads) and the EMIT CSR; a
// shadow line buffer per hart says exactly which line each emit must carry
// and which access is a guest error (docs/fuzzing.md).
//
// Input: the number of harts, then operations until the input runs out.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <deque>
#include <string>
#include <vector>

#include "fuzz_check.h"
#include "fuzz_input.h"
#include "tessera/hw/regs.h"
#include "tessera/models/console.h"

namespace {

using fuzz::FuzzInput;

constexpr int kMaxOperations = 1000;
// Bytes put per input: eight full lines and more, and a bound on the cost of
// an input (runs of bytes would otherwise make long inputs very slow).
constexpr uint32_t kMaxPuts = 2048;

struct Line {
  uint32_t hart;
  std::string text;
};

// How a byte reaches the model.
enum class Via { kPut, kTx, kEmitCsr };

class Scenario {
 public:
  explicit Scenario(uint32_t harts) : pending_(harts) {
    console_ = tessera_console_new(harts, emit, this);
    FUZZ_CHECK(console_ != nullptr, "tessera_console_new(%u) failed", harts);
  }
  ~Scenario() { tessera_console_free(console_); }
  Scenario(const Scenario&) = delete;
  Scenario& operator=(const Scenario&) = delete;

  uint32_t harts() const { return static_cast<uint32_t>(pending_.size()); }
  bool spent() const { return puts_ >= kMaxPuts; }

  // console.h: '\n' ends the line (even an empty one); a byte that finds
  // the buffer full first emits the full buffer as a line of its own.
  // `high` is what a register or CSR write carries above the byte.
  void put(uint32_t hart, uint8_t byte, Via via = Via::kPut, uint32_t high = 0) {
    puts_++;
    if (via == Via::kEmitCsr) {
      emit_word(hart, high << 8 | byte);
      return;
    }
    if (hart < harts()) {
      std::string& p = pending_[hart];
      if (byte == '\n') {
        expect(hart, p);
        p.clear();
      } else {
        if (p.size() == TESSERA_CONSOLE_LINE_MAX) {
          expect(hart, p);
          p.clear();
        }
        p.push_back(static_cast<char>(byte));
      }
    }
    const uint32_t value = high << 8 | byte;
    switch (via) {
      case Via::kPut:
        tessera_console_put(console_, hart, byte);
        break;
      case Via::kTx: {
        const char* error = nullptr;
        const TesseraAccessStatus action =
            tessera_access_unpack(tessera_console_write(console_, hart, TESSERA_CONSOLE_TX, value),
                                  nullptr, nullptr, &error);
        check_decode(action, error, hart < harts(), "TX");
        break;
      }
      case Via::kEmitCsr:
        break;  // emit_word
    }
    check_all_emitted();
  }

  // console.h: an EMIT write flushes the hart's partial line, then prints
  // the word as a line of its own; a hart outside the machine changes nothing.
  void emit_word(uint32_t hart, uint32_t value) {
    if (hart < harts()) {
      if (!pending_[hart].empty()) {
        expect(hart, pending_[hart]);
        pending_[hart].clear();
      }
      char line[32];
      snprintf(line, sizeof line, "emit 0x%08x", value);
      expect(hart, line);
    }
    FUZZ_CHECK(tessera_console_emit_csr(console_, hart, true, value) == 0,
               "EMIT of hart %u read non-zero", hart);
    check_all_emitted();
  }

  // A register write that must change nothing: another offset, or a
  // hart outside the machine. Or FLUSH by a real hart.
  void write(uint32_t hart, uint32_t offset, uint32_t value) {
    const bool flush = offset == TESSERA_CONSOLE_FLUSH && hart < harts();
    FUZZ_CHECK(offset != TESSERA_CONSOLE_TX, "use put() for TX");
    if (flush && !pending_[hart].empty()) {
      expect(hart, pending_[hart]);
      pending_[hart].clear();
    }
    const char* error = nullptr;
    const TesseraAccessStatus action = tessera_access_unpack(
        tessera_console_write(console_, hart, offset, value), nullptr, nullptr, &error);
    check_decode(action, error, flush, "a write");
    check_all_emitted();
  }

  void read(uint32_t offset) {
    uint32_t value = 0xdeadbeef;
    const char* error = nullptr;
    FUZZ_CHECK(tessera_access_unpack(tessera_console_read(console_, offset), &value, nullptr,
                                     &error) == TESSERA_ACCESS_GUEST_ERROR &&
                   value == 0 && error != nullptr,
               "read at 0x%x: not a guest error reading 0 (value 0x%x)", offset, value);
  }

  // An EMIT that does not write (csrr): reads 0, changes nothing.
  void emit_read(uint32_t hart, uint32_t value) {
    FUZZ_CHECK(tessera_console_emit_csr(console_, hart, false, value) == 0,
               "EMIT read of hart %u read non-zero", hart);
    check_all_emitted();
  }

  void flush(uint32_t hart) {
    if (hart < harts() && !pending_[hart].empty()) {
      expect(hart, pending_[hart]);
      pending_[hart].clear();
    }
    tessera_console_flush(console_, hart);
    check_all_emitted();
  }

  void flush_all() {
    for (uint32_t h = 0; h < harts(); h++) {
      if (!pending_[h].empty()) {
        expect(h, pending_[h]);
        pending_[h].clear();
      }
    }
    tessera_console_flush_all(console_);
    check_all_emitted();
  }

 private:
  static void emit(void* opaque, uint32_t hart, const char* line, size_t len) {
    auto* self = static_cast<Scenario*>(opaque);
    FUZZ_CHECK(!self->expected_.empty(), "hart %u emitted a line (%zu bytes) nobody ended", hart,
               len);
    const Line& want = self->expected_.front();
    FUZZ_CHECK(hart == want.hart && len == want.text.size() && std::string(line, len) == want.text,
               "emit of hart %u (%zu bytes), expected hart %u (%zu bytes) or other content", hart,
               len, want.hart, want.text.size());
    FUZZ_CHECK(len <= TESSERA_CONSOLE_LINE_MAX, "a line of %zu bytes", len);
    self->expected_.pop_front();
  }

  void expect(uint32_t hart, const std::string& text) { expected_.push_back({hart, text}); }

  static void check_decode(TesseraAccessStatus action, const char* error, bool done,
                           const char* what) {
    FUZZ_CHECK(action == (done ? TESSERA_ACCESS_DONE : TESSERA_ACCESS_GUEST_ERROR),
               "%s: action %d, expected %s", what, static_cast<int>(action),
               done ? "done" : "a guest error");
    FUZZ_CHECK(done || error != nullptr, "%s: a guest error without a reason", what);
  }

  void check_all_emitted() const {
    FUZZ_CHECK(expected_.empty(), "%zu lines were due and not emitted (first of hart %u)",
               expected_.size(), expected_.front().hart);
  }

  TesseraConsole* console_ = nullptr;
  std::vector<std::string> pending_;
  std::deque<Line> expected_;
  uint32_t puts_ = 0;
};

void noop_emit(void*, uint32_t, const char*, size_t) {}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzInput in(data, size);
  const uint8_t first = in.byte();
  // console.h: no console for 0 harts or without an emit callback.
  FUZZ_CHECK(tessera_console_new(0, noop_emit, nullptr) == nullptr, "a console of 0 harts");
  FUZZ_CHECK(tessera_console_new(1, nullptr, nullptr) == nullptr, "a console without emit");
  Scenario scenario(1 + first % 64);
  for (int i = 0; i < kMaxOperations && !in.empty() && !scenario.spent(); i++) {
    const uint8_t kind = in.byte();
    // Mostly real harts, some beyond the last one.
    const uint32_t hart = in.below(4) == 0 ? scenario.harts() + in.below(300) - (kind & 1)
                                           : in.below(scenario.harts());
    switch (kind % 10) {
      case 0:
      case 1:
      case 2:
        scenario.put(hart, in.byte());
        break;
      case 3:
        scenario.put(hart, '\n');
        break;
      case 4: {
        // A run of one byte: lines of 256 and more come quickly.
        const uint32_t n = in.below(300);
        const uint8_t byte = in.byte();
        for (uint32_t k = 0; k < n; k++) {
          scenario.put(hart, byte);
        }
        break;
      }
      case 5:
        scenario.flush(hart);
        break;
      case 6:
        if (in.flag()) {
          scenario.flush_all();
        } else {
          scenario.put(UINT32_MAX - in.below(2), in.byte());
        }
        break;
      case 7:
        // A line of exactly the buffer's size and its newline: one line.
        for (uint32_t k = 0; k < TESSERA_CONSOLE_LINE_MAX; k++) {
          scenario.put(hart, static_cast<uint8_t>('a' + k % 26));
        }
        scenario.put(hart, '\n');
        break;
      case 8: {
        // Through TX or EMIT, with garbage above the byte. EMIT comes from real harts only, as
        // on its hosts; TX from any.
        const bool tx = in.flag() || hart >= scenario.harts();
        const uint8_t byte = in.byte();
        scenario.put(hart, byte, tx ? Via::kTx : Via::kEmitCsr, in.u32() >> 8);
        break;
      }
      default: {
        // Any other access: FLUSH, offsets near the block's or anywhere, reads, an EMIT read.
        static constexpr uint32_t kOffsets[] = {TESSERA_CONSOLE_FLUSH, 1, 2, 3, 5, 8, 0xffc,
                                                TESSERA_CONSOLE_SIZE};
        const uint32_t op = in.below(4);
        const uint32_t offset = in.flag() ? in.u32() : in.pick(kOffsets);
        if (op == 0) {
          scenario.read(offset);
        } else if (op == 1 && hart < scenario.harts()) {
          scenario.emit_read(hart, in.u32());
        } else if (offset != TESSERA_CONSOLE_TX) {
          scenario.write(hart, offset, in.u32());
        }
        break;
      }
    }
  }
  scenario.flush_all();
  return 0;
}
