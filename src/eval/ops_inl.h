// Inline parts of ops.h.
#pragma once

#include <type_traits>

namespace onnxify::eval {

namespace detail {
template <class F>
inline bool call_each(F& f, Value& v) {
  if constexpr (std::is_same_v<decltype(f(v)), bool>) {
    return f(v);
  } else {
    f(v);
    return true;
  }
}
}  // namespace detail

template <class F>
void for_each(Interp& I, const Value& iterable, F&& f) {
  if (iterable.is_obj()) {
    Type* t = iterable.obj()->type;
    if (t == I.t.list) {
      List* l = as_list(iterable);
      // Indexing each time: the body may grow or shrink the list, as CPython's iterator allows.
      for (size_t i = 0; i < l->items.size(); ++i) {
        Value item = l->items[i];
        if (!detail::call_each(f, item)) return;
      }
      return;
    }
    if (t == I.t.tuple) {
      Value keep = iterable;
      Tuple* tu = as_tuple(iterable);
      for (size_t i = 0; i < tu->items.size(); ++i) {
        Value item = tu->items[i];
        if (!detail::call_each(f, item)) return;
      }
      return;
    }
  }
  Value it = iter(I, iterable);
  for (;;) {
    Value item = next(I, it);
    if (item.is_null()) return;
    if (!detail::call_each(f, item)) return;
  }
}

}  // namespace onnxify::eval
