// The few C++ ABI hooks GCC emits calls to, for a runtime without heap, exceptions or exit.
//
// Misuse ends in __builtin_trap (ebreak): the trap handler reports it as a breakpoint
// (exit status 131) with the pc of the offending call.
#include <stddef.h>

// A pure virtual function called during construction or destruction.
extern "C" void __cxa_pure_virtual() {
  __builtin_trap();
}

// Referenced by deleting destructors of classes with virtual destructors. There is no heap, so
// nothing is ever deleted.
void operator delete(void*) noexcept {
  __builtin_trap();
}
void operator delete(void*, size_t) noexcept {
  __builtin_trap();
}

// With -fno-use-cxa-atexit GCC registers destructors of static objects with atexit. Harts never
// return to a caller of _start, so those destructors never run: keep no list (and pull in no
// libc exit machinery).
extern "C" int atexit(void (*)()) {
  return 0;
}
