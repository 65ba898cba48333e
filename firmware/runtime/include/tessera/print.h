// Console output for applications.
//
// Each call formats into a stack buffer of TESSERA_CONSOLE_LINE_MAX bytes with picolibc's
// vsnprintf (printf conversions including %f) and hands the text to the console, where it joins
// the calling hart's own line; '\n' prints the line whole, so lines of different harts never
// interleave. Output beyond TESSERA_CONSOLE_LINE_MAX - 1 bytes per call is dropped: print one
// line per call.
#pragma once

#include <stdarg.h>

namespace tessera {

// Returns the number of bytes written, or a negative value if the format was invalid.
int printf(const char* format, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char* format, va_list args) __attribute__((format(printf, 1, 0)));

// Writes text and a newline (no length limit, no formatting). Returns the bytes written.
int puts(const char* text);

}  // namespace tessera
