// The object heap: every live object is on one list (so the interpreter can free everything,
// cycles included, when it ends), and every byte it holds is charged to the memory budget.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "eval/value.h"

namespace onnxify::eval {

class Interp;

struct Heap {
  Heap();
  ~Heap();
  Heap(const Heap&) = delete;
  Heap& operator=(const Heap&) = delete;

  // Puts a new object (refcnt already 1) on the list and charges `bytes` for it.
  void link(Object* o, size_t bytes);
  // Changes what `o` is charged by `delta` bytes (containers call this when their capacity changes).
  void adjust(Object* o, int64_t delta);
  // Frees every object still alive, cycles included. The interpreter calls this last.
  void teardown();
  // Raises the budget error when `n` more bytes would not fit. Operations whose result size is
  // known up front (concatenation, repetition, join) call it before allocating, so a doubling
  // string stops at the budget instead of holding twice the budget while its copy is made.
  // A double: n is often a product of two sizes that could overflow size_t.
  void ensure_room(double n);

  size_t bytes = 0;
  size_t peak = 0;
  size_t limit = SIZE_MAX;
  size_t objects = 0;
  Interp* interp = nullptr;  // to report the memory budget
  Object head;               // list sentinel (never freed)
  int dealloc_depth = 0;
  std::vector<Object*> deferred;  // frees postponed to keep deep chains off the C++ stack
  bool tearing_down = false;
};

// The heap of the interpreter running on this thread (set while an Interp exists).
extern thread_local Heap* tl_heap;

[[noreturn]] void memory_budget_exceeded(Heap& h, size_t wanted);

inline void Heap::ensure_room(double n) {
  if (static_cast<double>(bytes) + n > static_cast<double>(limit))
    memory_budget_exceeded(*this, n >= 1.8e19 ? SIZE_MAX : static_cast<size_t>(n));
}

inline void Heap::link(Object* o, size_t bytes_) {
  o->refcnt = 1;
  o->heap_bytes = static_cast<uint32_t>(bytes_);
  o->heap_prev = &head;
  o->heap_next = head.heap_next;
  head.heap_next->heap_prev = o;
  head.heap_next = o;
  ++objects;
  bytes += bytes_;
  if (bytes > limit) memory_budget_exceeded(*this, bytes_);
  if (bytes > peak) peak = bytes;
}

}  // namespace onnxify::eval
