// FUZZ_CHECK(condition, format, ...): an invariant of a device model. On
// violation it prints where and what, then aborts, which libFuzzer reports
// as a crash and saves the input that caused it.
#pragma once

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

namespace fuzz {

[[noreturn]] inline void fail(const char* file, int line, const char* condition,
                              const char* format, ...) __attribute__((format(printf, 4, 5)));

[[noreturn]] inline void fail(const char* file, int line, const char* condition,
                              const char* format, ...) {
  va_list args;
  fprintf(stderr, "\n==== fuzz invariant violated at %s:%d\n  check: %s\n  ", file, line,
          condition);
  va_start(args, format);
  vfprintf(stderr, format, args);
  va_end(args);
  fprintf(stderr, "\n");
  abort();
}

}  // namespace fuzz

#define FUZZ_CHECK(condition, ...)                                    \
  do {                                                                \
    if (!(condition)) {                                               \
      ::fuzz::fail(__FILE__, __LINE__, #condition, __VA_ARGS__);      \
    }                                                                 \
  } while (0)
