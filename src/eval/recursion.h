// The recursion budget: Python-level depth (like sys.getrecursionlimit()) and the native stack.
// Every recursive path in the evaluator (calls, repr of nested containers, comparisons, deep
// expressions) goes through a guard, so untrusted code gets a RecursionError, never a C++ stack
// overflow.
#pragma once

#include "eval/interp.h"

namespace onnxify::eval {

[[noreturn]] void recursion_error(Interp& I, const char* where);

inline bool native_stack_low(const Interp& I) {
  return static_cast<const char*>(__builtin_frame_address(0)) < I.stack_limit;
}

// Checks only the native stack (for recursion that is not a Python-level call).
inline void check_native_stack(Interp& I) {
  if (native_stack_low(I)) recursion_error(I, "");
}

class RecursionGuard {
 public:
  RecursionGuard(Interp& I, const char* where) : I_(I) {
    if (++I.depth > I.opts.budgets.max_depth || native_stack_low(I)) {
      --I.depth;
      recursion_error(I, where);
    }
  }
  ~RecursionGuard() { --I_.depth; }
  RecursionGuard(const RecursionGuard&) = delete;
  RecursionGuard& operator=(const RecursionGuard&) = delete;

 private:
  Interp& I_;
};

}  // namespace onnxify::eval
