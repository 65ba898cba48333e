// Reads a libFuzzer input as a stream of small decisions. Every read
// succeeds: once the input is used up it yields zeros, so a target never
// has to check lengths and a short input is simply a short scenario.
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <string.h>

namespace fuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool empty() const { return pos_ >= size_; }
  size_t remaining() const { return empty() ? 0 : size_ - pos_; }

  uint8_t byte() { return empty() ? 0 : data_[pos_++]; }

  bool flag() { return (byte() & 1) != 0; }

  // Little-endian, as many bytes as the width.
  uint16_t u16() { return static_cast<uint16_t>(byte() | byte() << 8); }
  uint32_t u32() { return static_cast<uint32_t>(u16()) | static_cast<uint32_t>(u16()) << 16; }
  uint64_t u64() { return static_cast<uint64_t>(u32()) | static_cast<uint64_t>(u32()) << 32; }

  // 0..n-1 (0 if n is 0), from one byte when n fits in one, else two, else
  // four, so that small choices cost the fuzzer little.
  uint32_t below(uint32_t n) {
    if (n <= 1) {
      return 0;
    }
    if (n <= 0x100) {
      return byte() % n;
    }
    if (n <= 0x10000) {
      return u16() % n;
    }
    return u32() % n;
  }

  // lo..hi inclusive.
  uint32_t in_range(uint32_t lo, uint32_t hi) { return lo + below(hi - lo + 1); }

  // One of the entries of a table.
  template <typename T, size_t N>
  T pick(const T (&table)[N]) {
    return table[below(N)];
  }

  // Copies up to n bytes; the rest of `out` is zero-filled. Returns how
  // many came from the input.
  size_t take(uint8_t* out, size_t n) {
    const size_t got = n < remaining() ? n : remaining();
    if (got > 0) {
      memcpy(out, data_ + pos_, got);
    }
    memset(out + got, 0, n - got);
    pos_ += got;
    return got;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace fuzz
