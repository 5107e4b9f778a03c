#include "eval/heap.h"

#include <fmt/core.h>

#include "eval/interp.h"
#include "eval/ops.h"

namespace onnxify::eval {

thread_local Heap* tl_heap = nullptr;
thread_local bool tl_heap_teardown = false;

Object::~Object() {
  if (dict) decref(reinterpret_cast<Object*>(dict));
  if (type) decref(reinterpret_cast<Object*>(type));
}

Heap::Heap() {
  head.heap_next = &head;
  head.heap_prev = &head;
  head.refcnt = 1u << 30;
}

Heap::~Heap() { teardown(); }

void Heap::adjust(Object* o, int64_t delta) {
  int64_t nb = static_cast<int64_t>(o->heap_bytes) + delta;
  if (nb > static_cast<int64_t>(UINT32_MAX)) memory_budget_exceeded(*this, static_cast<size_t>(delta));
  if (nb < 0) {  // never give back more than the object was charged
    delta = -static_cast<int64_t>(o->heap_bytes);
    nb = 0;
  }
  o->heap_bytes = static_cast<uint32_t>(nb);
  bytes += delta;
  if (delta > 0) {
    if (bytes > limit) memory_budget_exceeded(*this, static_cast<size_t>(delta));
    if (bytes > peak) peak = bytes;
  }
}

// Frees one object: unlink it, give its bytes back, run its destructor (which drops its
// references, possibly freeing more objects through dealloc()).
static void free_one(Heap& h, Object* o) {
  o->heap_prev->heap_next = o->heap_next;
  o->heap_next->heap_prev = o->heap_prev;
  h.bytes -= o->heap_bytes;
  o->heap_bytes = 0;  // a destructor that gives memory back (adjust) finds nothing left to give
  --h.objects;
  delete o;
}

void dealloc(Object* o) noexcept {
  Heap* h = tl_heap;
  if (h == nullptr || h->tearing_down) return;
  // Freeing a long chain (a linked list of 10^6 nodes) recursively would overflow the C++ stack:
  // past a small depth, frees are queued and done by the outermost dealloc (CPython's trashcan).
  if (h->dealloc_depth > 50) {
    h->deferred.push_back(o);
    return;
  }
  ++h->dealloc_depth;
  free_one(*h, o);
  if (h->dealloc_depth == 1) {
    while (!h->deferred.empty()) {
      Object* d = h->deferred.back();
      h->deferred.pop_back();
      free_one(*h, d);
    }
  }
  --h->dealloc_depth;
}

void Heap::teardown() {
  if (tearing_down) return;
  tearing_down = true;
  // Cycles (a class and its methods' globals, a module and its functions) never reach refcount
  // zero. With tearing_down set, decref no longer frees, so destructors can run in any order; the
  // memory is released only after every destructor has run.
  std::vector<Object*> all;
  all.reserve(objects);
  for (Object* o = head.heap_next; o != &head; o = o->heap_next) all.push_back(o);
  bool outer = tl_heap_teardown;
  tl_heap_teardown = true;
  for (Object* o : all) o->~Object();
  tl_heap_teardown = outer;
  for (Object* o : all) ::operator delete(static_cast<void*>(o));
  head.heap_next = head.heap_prev = &head;
  objects = 0;
  bytes = 0;
  deferred.clear();
}

void memory_budget_exceeded(Heap& h, size_t wanted) {
  size_t limit = h.limit;
  // Let the error path allocate what it needs (the diagnostic, the unwinding).
  h.limit = SIZE_MAX;
  std::string msg = fmt::format("memory budget exceeded: Python objects would hold more than {} MiB",
                                limit >> 20);
  if (h.interp) {
    fatal(*h.interp, msg, "raise the budget with --max-memory MIB (or ONNXIFY_MAX_MEMORY)");
  }
  throw Diagnostic::error(msg);
}

}  // namespace onnxify::eval
