// tuple and list (and their iterators): CPython's semantics for indexing, slicing (including
// extended slice assignment), comparison, repr with recursion markers, and a stable sort that
// stays memory-safe even when user comparisons are inconsistent.
#include <algorithm>

#include "eval/internal.h"
#include "eval/recursion.h"

namespace onnxify::eval {

// ---- construction ---------------------------------------------------------------------------------

Ref<Tuple> new_tuple_ref(Interp& I, std::vector<Value> items) {
  if (items.empty() && I.empty_tuple) return I.empty_tuple;
  auto t = I.make<Tuple>(I.t.tuple, items.size() * sizeof(Value));
  t->items = std::move(items);
  return t;
}

Value tuple_pair(Interp& I, Value a, Value b) {
  auto t = I.make<Tuple>(I.t.tuple, 2 * sizeof(Value));
  t->items.reserve(2);
  t->items.push_back(std::move(a));
  t->items.push_back(std::move(b));
  return t.take_value();
}

// Whether `cache` holds a tuple of n items that only the cache refers to.
static Tuple* reusable_tuple(const Value& cache, size_t n) {
  if (!cache.is_obj() || cache.obj()->refcnt != 1) return nullptr;
  auto* t = static_cast<Tuple*>(cache.obj());
  return t->items.size() == n ? t : nullptr;
}

Value iter_tuple(Interp& I, Value& cache, Value a, Value b) {
  if (Tuple* t = reusable_tuple(cache, 2)) {
    t->items[0] = std::move(a);
    t->items[1] = std::move(b);
    return cache;
  }
  cache = tuple_pair(I, std::move(a), std::move(b));
  return cache;
}

Value iter_tuple(Interp& I, Value& cache, std::vector<Value>&& items) {
  if (Tuple* t = reusable_tuple(cache, items.size())) {
    for (size_t k = 0; k < items.size(); ++k) t->items[k] = std::move(items[k]);
    return cache;
  }
  cache = new_tuple(I, std::move(items));
  return cache;
}

Ref<List> new_list_ref(Interp& I, std::vector<Value> items) {
  auto l = I.make<List>(I.t.list, items.capacity() * sizeof(Value));
  l->items = std::move(items);
  return l;
}

void list_track(Interp& I, List* l, size_t old_capacity) {
  size_t cap = l->items.capacity();
  if (cap != old_capacity)
    I.heap.adjust(l, (static_cast<int64_t>(cap) - static_cast<int64_t>(old_capacity)) * static_cast<int64_t>(sizeof(Value)));
}

void list_append(Interp& I, List* l, Value v) {
  size_t cap = l->items.capacity();
  l->items.push_back(std::move(v));
  if (l->items.capacity() != cap) list_track(I, l, cap);
}

static Value tuple_of_type(Interp& I, Type* cls, std::vector<Value> items) {
  if (cls == I.t.tuple) return new_tuple(I, std::move(items));
  Value o = alloc_instance(I, cls);
  as_tuple(o)->items = std::move(items);
  I.heap.adjust(o.obj(), static_cast<int64_t>(as_tuple(o)->items.size() * sizeof(Value)));
  return o;
}

// ---- shared sequence helpers ----------------------------------------------------------------------------

Value seq_compare(Interp& I, const std::vector<Value>& a, const std::vector<Value>& b, int op) {
  CmpOp cop = static_cast<CmpOp>(op);
  if ((cop == CmpOp::Eq || cop == CmpOp::Ne) && I.symbolic.reduce) {
    // == / != : lengths first, then every item (identity or ==). Items whose equality is only known
    // at run time (`x.shape[-2:] != (h, w)` of symbolic sizes) make a run-time bool: the And of
    // them (the reduce hook's all), unless a known unequal pair decides it.
    if (a.size() != b.size()) return Value::boolean(cop == CmpOp::Ne);
    std::vector<Value> runtime;
    std::vector<Value> xs = a, ys = b;  // items may change under __eq__
    for (size_t i = 0; i < xs.size(); ++i) {
      if (xs[i].is(ys[i])) continue;
      Value r = rich_compare(I, CmpOp::Eq, xs[i], ys[i]);
      Truth t = is_poison(r) ? (is_true(I, r) ? kTrue : kFalse) : truth(I, r);
      if (t == kFalse) return Value::boolean(cop == CmpOp::Ne);
      if (t == kSymbolic) runtime.push_back(r);
    }
    if (runtime.empty()) return Value::boolean(cop == CmpOp::Eq);
    Value all = I.symbolic.reduce(I, "all", new_list(I, std::move(runtime)), Value());
    if (!all) fatal(I, "the truth value of comparing sequences of sizes only known at run time is not known at conversion time",
                    "compare the sizes one by one in an if condition instead");
    return cop == CmpOp::Eq ? all : unary_op(I, UnaryOp::Not, all);
  }
  size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  for (; i < n && i < a.size() && i < b.size(); ++i) {
    if (!eq(I, a[i], b[i])) break;
  }
  if (i >= a.size() || i >= b.size()) {
    size_t la = a.size(), lb = b.size();
    switch (cop) {
      case CmpOp::Eq: return Value::boolean(la == lb);
      case CmpOp::Ne: return Value::boolean(la != lb);
      case CmpOp::Lt: return Value::boolean(la < lb);
      case CmpOp::Le: return Value::boolean(la <= lb);
      case CmpOp::Gt: return Value::boolean(la > lb);
      case CmpOp::Ge: return Value::boolean(la >= lb);
      default: return Value::boolean(false);
    }
  }
  if (cop == CmpOp::Eq) return Value::boolean(false);
  if (cop == CmpOp::Ne) return Value::boolean(true);
  Value x = a[i], y = b[i];
  return compare(I, cop, x, y);
}

static std::string seq_repr(Interp& I, const Value& self, const std::vector<Value>& items, char open, char close,
                            bool tuple) {
  // Recursive containers print as [...] (CPython's Py_ReprEnter).
  static thread_local std::vector<Object*> active;
  for (Object* o : active)
    if (o == self.obj()) return std::string(1, open) + "..." + close;
  active.push_back(self.obj());
  std::string out(1, open);
  try {
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out += ", ";
      Value item = items[i];
      out += repr_string(I, item);
    }
  } catch (...) {
    active.pop_back();
    throw;
  }
  active.pop_back();
  if (tuple && items.size() == 1) out += ',';
  out += close;
  return out;
}

static std::vector<Value> slice_of(Interp& I, const std::vector<Value>& items, Slice* sl) {
  int64_t start, stop, step;
  int64_t n = slice_indices(I, sl, static_cast<int64_t>(items.size()), &start, &stop, &step);
  std::vector<Value> out;
  out.reserve(n);
  for (int64_t k = 0, i = start; k < n; ++k, i += step) out.push_back(items[i]);
  return out;
}

static int64_t seq_index_arg(Interp& I, const Value& key, const char* what) {
  if (!I.type_of(key)->slots.index)
    raisef(I, I.exc.TypeError, "{} indices must be integers or slices, not {}", what, type_name(I, key));
  return index(I, key);
}

static int64_t repeat_count(Interp& I, const Value& n, size_t elem, size_t len) {
  int64_t k = index(I, n);
  if (k <= 0) return 0;
  I.heap.ensure_room(static_cast<double>(k) * static_cast<double>(len) * static_cast<double>(elem));
  return k;
}

// ---- tuple --------------------------------------------------------------------------------------------------

static Value tuple_repr(Interp& I, const Value& self) {
  return I.str(seq_repr(I, self, as_tuple(self)->items, '(', ')', true));
}

static int64_t tuple_hash(Interp& I, const Value& self) {
  constexpr uint64_t P1 = 11400714785074694791ull, P2 = 14029467366897019727ull, P5 = 2870177450012600261ull;
  const auto& items = as_tuple(self)->items;
  uint64_t acc = P5;
  for (const Value& v : items) {
    uint64_t lane = static_cast<uint64_t>(hash(I, v));
    acc += lane * P2;
    acc = (acc << 31) | (acc >> 33);
    acc *= P1;
  }
  acc += items.size() ^ (P5 ^ 3527539ull);
  if (acc == static_cast<uint64_t>(-1)) return 1546275796;
  return static_cast<int64_t>(acc);
}

#define SEQ_CMP(T, IS, name, op)                                                   \
  static Value T##_##name(Interp& I, const Value& self, const Value& other) {      \
    if (!IS(other)) return I.notimplemented;                                      \
    return seq_compare(I, as_##T(self)->items, as_##T(other)->items, static_cast<int>(op)); \
  }
SEQ_CMP(tuple, is_tuple, eq, CmpOp::Eq)
SEQ_CMP(tuple, is_tuple, ne, CmpOp::Ne)
SEQ_CMP(tuple, is_tuple, lt, CmpOp::Lt)
SEQ_CMP(tuple, is_tuple, le, CmpOp::Le)
SEQ_CMP(tuple, is_tuple, gt, CmpOp::Gt)
SEQ_CMP(tuple, is_tuple, ge, CmpOp::Ge)
SEQ_CMP(list, is_list, eq, CmpOp::Eq)
SEQ_CMP(list, is_list, ne, CmpOp::Ne)
SEQ_CMP(list, is_list, lt, CmpOp::Lt)
SEQ_CMP(list, is_list, le, CmpOp::Le)
SEQ_CMP(list, is_list, gt, CmpOp::Gt)
SEQ_CMP(list, is_list, ge, CmpOp::Ge)

static int64_t tuple_len(Interp& I, const Value& self) { return as_tuple(self)->size(); }

static Value tuple_getitem(Interp& I, const Value& self, const Value& key) {
  Tuple* t = as_tuple(self);
  if (key.is_int()) {
    int64_t i = key.i();
    if (!norm_index(i, t->size())) raise(I, I.exc.IndexError, "tuple index out of range");
    return t->items[i];
  }
  if (has_layout(key, Layout::Slice)) {
    Slice* sl = as<Slice>(key);
    if (self.obj()->type == I.t.tuple && sl->start.is_none() && sl->stop.is_none() && sl->step.is_none()) return self;
    return new_tuple(I, slice_of(I, t->items, sl));
  }
  if (I.symbolic.item_at)
    if (Value v = I.symbolic.item_at(I, t->items, key)) return v;
  int64_t i = seq_index_arg(I, key, "tuple");
  if (!norm_index(i, t->size())) raise(I, I.exc.IndexError, "tuple index out of range");
  return t->items[i];
}

static bool tuple_contains(Interp& I, const Value& self, const Value& item) {
  for (const Value& v : as_tuple(self)->items)
    if (eq(I, v, item)) return true;
  return false;
}

static Value tuple_add(Interp& I, const Value& self, const Value& other) {
  if (!is_tuple(self) || !is_tuple(other)) return I.notimplemented;
  I.heap.ensure_room(static_cast<double>(as_tuple(self)->items.size() + as_tuple(other)->items.size()) * sizeof(Value));
  std::vector<Value> r = as_tuple(self)->items;
  const auto& b = as_tuple(other)->items;
  r.insert(r.end(), b.begin(), b.end());
  return new_tuple(I, std::move(r));
}

static Value tuple_mul(Interp& I, const Value& self, const Value& other) {
  if (!I.type_of(other)->slots.index) return I.notimplemented;
  const auto& items = as_tuple(self)->items;
  int64_t k = repeat_count(I, other, sizeof(Value), items.size());
  if (k == 1 && self.obj()->type == I.t.tuple) return self;
  std::vector<Value> r;
  r.reserve(items.size() * k);
  for (int64_t j = 0; j < k; ++j) r.insert(r.end(), items.begin(), items.end());
  return new_tuple(I, std::move(r));
}

extern Value new_index_iterator(Interp& I, Type* t, const Value& seq);
static Value tuple_iter(Interp& I, const Value& self) { return new_index_iterator(I, I.t.tuple_iterator, self); }

static Value tuple_new(Interp& I, Type* cls, const Args& a) {
  if (a.nkw && cls == I.t.tuple) raise(I, I.exc.TypeError, "tuple() takes no keyword arguments");
  if (a.npos > 1) raisef(I, I.exc.TypeError, "tuple expected at most 1 argument, got {}", a.npos);
  if (a.npos == 0) return tuple_of_type(I, cls, {});
  if (cls == I.t.tuple && a[0].is_obj() && a[0].obj()->type == I.t.tuple) return a[0];
  return tuple_of_type(I, cls, to_vector(I, a[0]));
}

static Value tuple_alloc(Interp& I, Type* cls) { return I.make<Tuple>(cls).take_value(); }

static Value seq_count(Interp& I, const std::vector<Value>& items, const Value& x) {
  int64_t n = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    Value v = items[i];
    if (eq(I, v, x)) ++n;
  }
  return Value::integer(n);
}

static Value tuple_count(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "tuple.count", 1, 1);
  return seq_count(I, as_tuple(self)->items, a[0]);
}

static void index_span(Interp& I, const Args& a, int64_t n, int64_t* start, int64_t* stop) {
  *start = 0;
  *stop = n;
  if (a.npos > 1) {
    *start = index(I, a[1]);
    if (*start < 0) *start = std::max<int64_t>(0, *start + n);
  }
  if (a.npos > 2) {
    *stop = index(I, a[2]);
    if (*stop < 0) *stop = std::max<int64_t>(0, *stop + n);
  }
}

static Value tuple_index(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "index", 1, 3);
  const auto& items = as_tuple(self)->items;
  int64_t start, stop;
  index_span(I, a, static_cast<int64_t>(items.size()), &start, &stop);
  for (int64_t i = start; i < stop && i < static_cast<int64_t>(items.size()); ++i)
    if (eq(I, items[i], a[0])) return Value::integer(i);
  raise(I, I.exc.ValueError, "tuple.index(x): x not in tuple");
}

static Value tuple_getnewargs(Interp& I, const Value& self, const Args& a) {
  return new_tuple(I, {new_tuple(I, as_tuple(self)->items)});
}

extern Value generic_alias(Interp& I, const Value& origin, const Value& args);
static Value class_getitem(Interp& I, const Value& cls, const Args& a) {
  check_nargs(I, a, "__class_getitem__", 1, 1);
  return generic_alias(I, cls, a[0]);
}

// ---- list ---------------------------------------------------------------------------------------------------

static Value list_repr(Interp& I, const Value& self) {
  return I.str(seq_repr(I, self, as_list(self)->items, '[', ']', false));
}

static int64_t list_len(Interp& I, const Value& self) { return as_list(self)->size(); }

static Value list_getitem(Interp& I, const Value& self, const Value& key) {
  List* l = as_list(self);
  if (key.is_int()) {
    int64_t i = key.i();
    if (!norm_index(i, l->size())) raise(I, I.exc.IndexError, "list index out of range");
    return l->items[i];
  }
  if (has_layout(key, Layout::Slice)) return new_list(I, slice_of(I, l->items, as<Slice>(key)));
  if (I.symbolic.item_at)
    if (Value v = I.symbolic.item_at(I, l->items, key)) return v;
  int64_t i = seq_index_arg(I, key, "list");
  if (!norm_index(i, l->size())) raise(I, I.exc.IndexError, "list index out of range");
  return l->items[i];
}

static void list_setitem(Interp& I, const Value& self, const Value& key, const Value& v) {
  List* l = as_list(self);
  if (has_layout(key, Layout::Slice)) {
    Slice* sl = as<Slice>(key);
    std::vector<Value> src = to_vector(I, v);
    int64_t start, stop, step;
    int64_t n = slice_indices(I, sl, l->size(), &start, &stop, &step);
    size_t cap = l->items.capacity();
    if (step == 1) {
      if (stop < start) stop = start;
      l->items.erase(l->items.begin() + start, l->items.begin() + stop);
      l->items.insert(l->items.begin() + start, src.begin(), src.end());
      list_track(I, l, cap);
      return;
    }
    if (static_cast<int64_t>(src.size()) != n)
      raisef(I, I.exc.ValueError, "attempt to assign sequence of size {} to extended slice of size {}", src.size(), n);
    for (int64_t k = 0, i = start; k < n; ++k, i += step) l->items[i] = src[k];
    return;
  }
  int64_t i = seq_index_arg(I, key, "list");
  if (!norm_index(i, l->size())) raise(I, I.exc.IndexError, "list assignment index out of range");
  l->items[i] = v;
}

static void list_delitem(Interp& I, const Value& self, const Value& key) {
  List* l = as_list(self);
  if (has_layout(key, Layout::Slice)) {
    int64_t start, stop, step;
    int64_t n = slice_indices(I, as<Slice>(key), l->size(), &start, &stop, &step);
    if (n == 0) return;
    if (step < 0) {
      start = start + (n - 1) * step;
      step = -step;
    }
    std::vector<Value> keep;
    keep.reserve(l->items.size() - n);
    for (int64_t i = 0; i < l->size(); ++i) {
      bool drop = i >= start && (i - start) % step == 0 && (i - start) / step < n;
      if (!drop) keep.push_back(std::move(l->items[i]));
    }
    std::vector<Value> old;
    old.swap(l->items);
    l->items = std::move(keep);
    return;
  }
  int64_t i = seq_index_arg(I, key, "list");
  if (!norm_index(i, l->size())) raise(I, I.exc.IndexError, "list assignment index out of range");
  Value gone = std::move(l->items[i]);
  l->items.erase(l->items.begin() + i);
}

static bool list_contains(Interp& I, const Value& self, const Value& item) {
  List* l = as_list(self);
  for (size_t i = 0; i < l->items.size(); ++i) {
    Value v = l->items[i];
    if (eq(I, v, item)) return true;
  }
  return false;
}

static Value list_add(Interp& I, const Value& self, const Value& other) {
  if (!is_list(self) || !is_list(other)) return I.notimplemented;
  I.heap.ensure_room(static_cast<double>(as_list(self)->items.size() + as_list(other)->items.size()) * sizeof(Value));
  std::vector<Value> r;
  r.reserve(as_list(self)->items.size() + as_list(other)->items.size());
  r = as_list(self)->items;
  const auto& b = as_list(other)->items;
  r.insert(r.end(), b.begin(), b.end());
  return new_list(I, std::move(r));
}

static void list_extend_impl(Interp& I, List* l, const Value& it) {
  size_t cap = l->items.capacity();
  if (I.symbolic.extend && !(it.is_obj() && it.obj() == l) && I.symbolic.extend(I, l, it)) return;
  if (is_list(it) || is_tuple(it))
    I.heap.ensure_room(static_cast<double>(is_list(it) ? as_list(it)->items.size() : as_tuple(it)->items.size()) *
                       sizeof(Value));
  if (it.is_obj() && (it.obj() == l)) {
    std::vector<Value> copy = l->items;
    l->items.insert(l->items.end(), copy.begin(), copy.end());
  } else if (is_list(it) || is_tuple(it)) {
    const auto& src = is_list(it) ? as_list(it)->items : as_tuple(it)->items;
    l->items.insert(l->items.end(), src.begin(), src.end());
  } else {
    for_each(I, it, [&](Value& x) { list_append(I, l, std::move(x)); });
  }
  list_track(I, l, cap);
}

static Value list_iadd(Interp& I, const Value& self, const Value& other) {
  list_extend_impl(I, as_list(self), other);
  return self;
}

static Value list_mul(Interp& I, const Value& self, const Value& other) {
  if (!I.type_of(other)->slots.index) return I.notimplemented;
  int64_t n;
  if (!int_value(other, &n) && I.symbolic.repeat)
    if (Value r = I.symbolic.repeat(I, self, other)) return r;
  const auto& items = as_list(self)->items;
  int64_t k = repeat_count(I, other, sizeof(Value), items.size());
  std::vector<Value> r;
  r.reserve(items.size() * k);
  for (int64_t j = 0; j < k; ++j) r.insert(r.end(), items.begin(), items.end());
  return new_list(I, std::move(r));
}

static Value list_imul(Interp& I, const Value& self, const Value& other) {
  if (!I.type_of(other)->slots.index) return I.notimplemented;
  List* l = as_list(self);
  int64_t k = repeat_count(I, other, sizeof(Value), l->items.size());
  size_t cap = l->items.capacity();
  if (k == 0) {
    std::vector<Value> old;
    old.swap(l->items);
  } else {
    std::vector<Value> base = l->items;
    for (int64_t j = 1; j < k; ++j) l->items.insert(l->items.end(), base.begin(), base.end());
  }
  list_track(I, l, cap);
  return self;
}

static Value list_iter(Interp& I, const Value& self) { return new_index_iterator(I, I.t.list_iterator, self); }

static Value list_new(Interp& I, Type* cls, const Args& a) { return alloc_instance(I, cls); }
static Value list_alloc(Interp& I, Type* cls) { return I.make<List>(cls).take_value(); }

static void list_init(Interp& I, const Value& self, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "list() takes no keyword arguments");
  if (a.npos > 1) raisef(I, I.exc.TypeError, "list expected at most 1 argument, got {}", a.npos);
  List* l = as_list(self);
  std::vector<Value> old;
  old.swap(l->items);
  if (a.npos == 1) list_extend_impl(I, l, a[0]);
}

#define LIST_METHOD(name) static Value list_##name(Interp& I, const Value& self, const Args& a)

LIST_METHOD(append) {
  check_nargs(I, a, "list.append", 1, 1);
  list_append(I, as_list(self), a[0]);
  return Value::none();
}
LIST_METHOD(extend) {
  check_nargs(I, a, "list.extend", 1, 1);
  list_extend_impl(I, as_list(self), a[0]);
  return Value::none();
}
LIST_METHOD(insert) {
  check_nargs(I, a, "insert", 2, 2);
  List* l = as_list(self);
  int64_t i = index(I, a[0]);
  int64_t n = l->size();
  if (i < 0) i = std::max<int64_t>(0, i + n);
  if (i > n) i = n;
  size_t cap = l->items.capacity();
  l->items.insert(l->items.begin() + i, a[1]);
  list_track(I, l, cap);
  return Value::none();
}
LIST_METHOD(pop) {
  check_nargs(I, a, "pop", 0, 1);
  List* l = as_list(self);
  if (l->items.empty()) raise(I, I.exc.IndexError, "pop from empty list");
  int64_t i = a.npos ? index(I, a[0]) : -1;
  if (!norm_index(i, l->size())) raise(I, I.exc.IndexError, "pop index out of range");
  Value v = std::move(l->items[i]);
  l->items.erase(l->items.begin() + i);
  return v;
}
LIST_METHOD(remove) {
  check_nargs(I, a, "list.remove", 1, 1);
  List* l = as_list(self);
  for (size_t i = 0; i < l->items.size(); ++i) {
    Value v = l->items[i];
    if (eq(I, v, a[0])) {
      if (i < l->items.size()) {
        Value gone = std::move(l->items[i]);
        l->items.erase(l->items.begin() + i);
      }
      return Value::none();
    }
  }
  raise(I, I.exc.ValueError, "list.remove(x): x not in list");
}
LIST_METHOD(index) {
  check_nargs(I, a, "index", 1, 3);
  List* l = as_list(self);
  int64_t start, stop;
  index_span(I, a, l->size(), &start, &stop);
  for (int64_t i = start; i < stop && i < l->size(); ++i) {
    Value v = l->items[i];
    if (eq(I, v, a[0])) return Value::integer(i);
  }
  raisef(I, I.exc.ValueError, "{} is not in list", repr_string(I, a[0]));
}
LIST_METHOD(count) {
  check_nargs(I, a, "list.count", 1, 1);
  std::vector<Value> items = as_list(self)->items;
  return seq_count(I, items, a[0]);
}
LIST_METHOD(clear) {
  check_nargs(I, a, "list.clear", 0, 0);
  std::vector<Value> old;
  old.swap(as_list(self)->items);
  return Value::none();
}
LIST_METHOD(copy) {
  check_nargs(I, a, "list.copy", 0, 0);
  return new_list(I, as_list(self)->items);
}
LIST_METHOD(reverse) {
  check_nargs(I, a, "list.reverse", 0, 0);
  auto& v = as_list(self)->items;
  std::reverse(v.begin(), v.end());
  return Value::none();
}

// A merge sort that only ever compares elements in bounds, whatever the comparison returns
// (std::sort's unguarded loops are undefined behaviour for inconsistent user __lt__).
template <class Less>
static void merge_sort(std::vector<size_t>& idx, std::vector<size_t>& tmp, size_t lo, size_t hi, Less& less) {
  if (hi - lo <= 16) {
    for (size_t i = lo + 1; i < hi; ++i) {
      size_t x = idx[i];
      size_t j = i;
      while (j > lo && less(x, idx[j - 1])) {
        idx[j] = idx[j - 1];
        --j;
      }
      idx[j] = x;
    }
    return;
  }
  size_t mid = lo + (hi - lo) / 2;
  merge_sort(idx, tmp, lo, mid, less);
  merge_sort(idx, tmp, mid, hi, less);
  if (!less(idx[mid], idx[mid - 1])) return;
  size_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) tmp[k++] = less(idx[j], idx[i]) ? idx[j++] : idx[i++];
  while (i < mid) tmp[k++] = idx[i++];
  while (j < hi) tmp[k++] = idx[j++];
  for (size_t q = lo; q < hi; ++q) idx[q] = tmp[q];
}

void sort_values(Interp& I, std::vector<Value>& items, const Value& key, bool reverse) {
  size_t n = items.size();
  std::vector<Value> keys;
  if (key && !key.is_none()) {
    keys.reserve(n);
    for (size_t i = 0; i < n; ++i) keys.push_back(call(I, key, items[i]));
  }
  const std::vector<Value>& k = keys.empty() && n ? items : keys;
  std::vector<size_t> idx(n), tmp(n);
  for (size_t i = 0; i < n; ++i) idx[i] = i;
  auto less = [&](size_t a, size_t b) { return reverse ? lt(I, k[b], k[a]) : lt(I, k[a], k[b]); };
  if (n > 1) merge_sort(idx, tmp, 0, n, less);
  std::vector<Value> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(std::move(items[idx[i]]));
  items = std::move(out);
}

LIST_METHOD(sort) {
  static const Signature sig("sort", "*, key=None, reverse=False");
  Value v[2];
  sig.bind(I, a, v);
  List* l = as_list(self);
  // The list looks empty while it is sorted; a change made meanwhile (by a key function or
  // comparison) is detected, as CPython does.
  std::vector<Value> items;
  items.swap(l->items);
  try {
    sort_values(I, items, v[0], v[1] && is_true(I, v[1]));
  } catch (...) {
    if (l->items.empty()) l->items.swap(items);
    throw;
  }
  bool modified = !l->items.empty();
  l->items.swap(items);
  if (modified) raise(I, I.exc.ValueError, "list modified during sort");
  return Value::none();
}

extern Value new_reverse_iterator(Interp& I, const Value& list);
LIST_METHOD(reversed) { return new_reverse_iterator(I, self); }

// ---- slice.indices ------------------------------------------------------------------------------------

int64_t slice_indices(Interp& I, Slice* s, int64_t n, int64_t* start, int64_t* stop, int64_t* step) {
  int64_t st = 1;
  if (!s->step.is_none()) {
    st = index(I, s->step);
    if (st == 0) raise(I, I.exc.ValueError, "slice step cannot be zero");
  }
  auto conv = [&](const Value& v, int64_t dflt, int64_t lo, int64_t hi) {
    if (v.is_none()) return dflt;
    int64_t x = index(I, v);
    if (x < 0) {
      x += n;
      if (x < lo) x = lo;
    } else if (x > hi) {
      x = hi;
    }
    return x;
  };
  int64_t b, e;
  if (st > 0) {
    b = conv(s->start, 0, 0, n);
    e = conv(s->stop, n, 0, n);
  } else {
    b = conv(s->start, n - 1, -1, n - 1);
    e = conv(s->stop, -1, -1, n - 1);
  }
  *start = b;
  *stop = e;
  *step = st;
  if (st > 0) return e > b ? (e - b - 1) / st + 1 : 0;
  return b > e ? (b - e - 1) / (-st) + 1 : 0;
}

void init_sequence_types(Interp& I) {
  {
    TypeSpec s;
    s.name = "tuple";
    s.layout = Layout::Tuple;
    s.alloc = &tuple_alloc;
    Slots& sl = s.slots;
    sl.repr = &tuple_repr;
    sl.hash = &tuple_hash;
    sl.eq = &tuple_eq;
    sl.ne = &tuple_ne;
    sl.lt = &tuple_lt;
    sl.le = &tuple_le;
    sl.gt = &tuple_gt;
    sl.ge = &tuple_ge;
    sl.len = &tuple_len;
    sl.getitem = &tuple_getitem;
    sl.contains = &tuple_contains;
    sl.add = &tuple_add;
    sl.mul = &tuple_mul;
    sl.rmul = &tuple_mul;
    sl.iter = &tuple_iter;
    sl.new_ = &tuple_new;
    s.methods = {{"count", &tuple_count},
                 {"index", &tuple_index},
                 {"__getnewargs__", &tuple_getnewargs},
                 {"__class_getitem__", &class_getitem, kNativeClass}};
    init_native_type(I, I.t.tuple, s);
  }
  {
    TypeSpec s;
    s.name = "list";
    s.layout = Layout::List;
    s.alloc = &list_alloc;
    Slots& sl = s.slots;
    sl.repr = &list_repr;
    sl.eq = &list_eq;
    sl.ne = &list_ne;
    sl.lt = &list_lt;
    sl.le = &list_le;
    sl.gt = &list_gt;
    sl.ge = &list_ge;
    sl.len = &list_len;
    sl.getitem = &list_getitem;
    sl.setitem = &list_setitem;
    sl.delitem = &list_delitem;
    sl.contains = &list_contains;
    sl.add = &list_add;
    sl.iadd = &list_iadd;
    sl.mul = &list_mul;
    sl.rmul = &list_mul;
    sl.imul = &list_imul;
    sl.iter = &list_iter;
    sl.new_ = &list_new;
    sl.init = &list_init;
    s.methods = {
        {"append", &list_append},     {"extend", &list_extend},   {"insert", &list_insert},
        {"pop", &list_pop},           {"remove", &list_remove},   {"index", &list_index},
        {"count", &list_count},       {"clear", &list_clear},     {"copy", &list_copy},
        {"reverse", &list_reverse},   {"sort", &list_sort},       {"__reversed__", &list_reversed},
        {"__class_getitem__", &class_getitem, kNativeClass},
    };
    init_native_type(I, I.t.list, s);
  }
}

}  // namespace onnxify::eval
