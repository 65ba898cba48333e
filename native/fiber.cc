#include "tessera/native/fiber.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <new>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TESSERA_NATIVE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TESSERA_NATIVE_ASAN 1
#endif
#ifdef TESSERA_NATIVE_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__x86_64__)
// tessera_native_switch(save, to): pushes the callee-saved registers, stores the stack pointer
// in *save, loads `to` and pops the other context's registers. The SysV ABI makes everything
// else the caller's to save; the x87 control word and MXCSR stay as they are (no code here
// changes them).
extern "C" void tessera_native_switch(void** save, void* to);
asm(R"(
  .text
  .globl tessera_native_switch
  .type tessera_native_switch, @function
tessera_native_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size tessera_native_switch, .-tessera_native_switch
)");
#endif

namespace tessera::native {
namespace {

// The fiber a new stack starts: set just before its first switch, read by trampoline().
thread_local Fiber* starting = nullptr;

size_t page_size() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

Fiber::Fiber(std::function<void()> function, size_t stack_bytes)
    : function_(std::move(function)), stack_bytes_(stack_bytes) {}

Fiber::~Fiber() {
  if (mapping_ != nullptr) munmap(mapping_, mapping_bytes_);
#if !defined(__x86_64__)
  delete[] static_cast<ucontext_t*>(contexts_);
#endif
}

void Fiber::entry(Fiber* self) {
#ifdef TESSERA_NATIVE_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &self->worker_stack_bottom_, &self->worker_stack_size_);
#endif
  self->function_();
  self->finished_ = true;
  self->switch_out(true);
  abort();  // a finished fiber is never resumed
}

void Fiber::trampoline() {
  entry(starting);
  abort();
}

void Fiber::resume() {
  if (finished_) return;
  if (mapping_ == nullptr) {
    const size_t page = page_size();
    const size_t stack = (stack_bytes_ + page - 1) / page * page;
    mapping_bytes_ = stack + page;
    mapping_ = mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (mapping_ == MAP_FAILED) {
      mapping_ = nullptr;
      throw std::bad_alloc();
    }
    mprotect(mapping_, page, PROT_NONE);  // an overflow faults instead of corrupting
    stack_bottom_ = static_cast<char*>(mapping_) + page;
    stack_bytes_ = stack;
#if defined(__x86_64__)
    // The first switch pops six registers, then returns to trampoline with the stack as a call
    // would leave it (16-byte aligned before the call, so 8 off at entry).
    auto* top = reinterpret_cast<uintptr_t*>(
        (reinterpret_cast<uintptr_t>(stack_bottom_) + stack_bytes_) & ~uintptr_t{15});
    *--top = 0;  // trampoline's return address: never used
    *--top = reinterpret_cast<uintptr_t>(&Fiber::trampoline);
    for (int i = 0; i < 6; i++) *--top = 0;
    fiber_sp_ = top;
#else
    auto* contexts = new ucontext_t[2];
    contexts_ = contexts;
    getcontext(&contexts[1]);
    contexts[1].uc_stack.ss_sp = stack_bottom_;
    contexts[1].uc_stack.ss_size = stack_bytes_;
    contexts[1].uc_link = nullptr;
    makecontext(&contexts[1], &Fiber::trampoline, 0);
#endif
    starting = this;
  }
#ifdef TESSERA_NATIVE_ASAN
  __sanitizer_start_switch_fiber(&worker_fake_stack_, stack_bottom_, stack_bytes_);
#endif
#if defined(__x86_64__)
  tessera_native_switch(&worker_sp_, fiber_sp_);
#else
  auto* contexts = static_cast<ucontext_t*>(contexts_);
  swapcontext(&contexts[0], &contexts[1]);
#endif
#ifdef TESSERA_NATIVE_ASAN
  __sanitizer_finish_switch_fiber(worker_fake_stack_, nullptr, nullptr);
#endif
  if (finished_ && mapping_ != nullptr) {
    munmap(mapping_, mapping_bytes_);
    mapping_ = nullptr;
  }
}

void Fiber::suspend() {
  switch_out(false);
}

void Fiber::switch_out(bool finishing) {
#ifdef TESSERA_NATIVE_ASAN
  // A finishing fiber's fake stack is freed (nullptr), as the interface asks.
  __sanitizer_start_switch_fiber(finishing ? nullptr : &fiber_fake_stack_, worker_stack_bottom_,
                                 worker_stack_size_);
#else
  (void)finishing;
#endif
#if defined(__x86_64__)
  tessera_native_switch(&fiber_sp_, worker_sp_);
#else
  auto* contexts = static_cast<ucontext_t*>(contexts_);
  swapcontext(&contexts[1], &contexts[0]);
#endif
#ifdef TESSERA_NATIVE_ASAN
  __sanitizer_finish_switch_fiber(fiber_fake_stack_, &worker_stack_bottom_, &worker_stack_size_);
#endif
}

}  // namespace tessera::native
