// A user-level fiber: a stack of its own and a small context switch (x86-64: callee-saved
// registers and the stack pointer; elsewhere ucontext). Native mode runs each hart's code on one
// (docs/native.md), thousands of them over a few worker threads.
//
// A fiber runs from resume() until it calls suspend() (back to where it was resumed from) or its
// function returns. Exceptions must not leave the function. Under AddressSanitizer each switch
// tells it the stack in use, so that its checks follow the fiber.
#pragma once

#include <stddef.h>

#include <functional>

namespace tessera::native {

class Fiber {
 public:
  // `stack_bytes` of stack (rounded up to pages, with a guard page below it), mapped at first
  // resume and unmapped as the fiber finishes.
  Fiber(std::function<void()> function, size_t stack_bytes);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // From a worker thread: runs the fiber until it suspends or finishes.
  void resume();
  // From the fiber itself: back to its resume().
  void suspend();
  bool finished() const { return finished_; }

 private:
  static void entry(Fiber* self);
  [[noreturn]] static void trampoline();
  void switch_out(bool finishing);

  std::function<void()> function_;
  size_t stack_bytes_;
  void* mapping_ = nullptr;  // guard page, then the stack
  size_t mapping_bytes_ = 0;
  void* stack_bottom_ = nullptr;
  bool finished_ = false;

  // Saved stack pointers (x86-64) or contexts (elsewhere).
  [[maybe_unused]] void* fiber_sp_ = nullptr;
  [[maybe_unused]] void* worker_sp_ = nullptr;
  [[maybe_unused]] void* contexts_ = nullptr;  // ucontext_t[2], elsewhere

  // AddressSanitizer's fake-stack handles and the worker's stack, across switches.
  void* fiber_fake_stack_ = nullptr;
  void* worker_fake_stack_ = nullptr;
  const void* worker_stack_bottom_ = nullptr;
  size_t worker_stack_size_ = 0;
};

}  // namespace tessera::native
