// range, slice, mappingproxy, the dict views, and the iterators of the builtin containers.
#include <cmath>

#include "eval/internal.h"

namespace onnxify::eval {

// ---- range ---------------------------------------------------------------------------------------------

int64_t Range::length() const {
  if (step > 0) return start < stop ? static_cast<int64_t>((static_cast<__int128>(stop) - start - 1) / step + 1) : 0;
  return start > stop ? static_cast<int64_t>((static_cast<__int128>(start) - stop - 1) / (-static_cast<__int128>(step)) + 1) : 0;
}

Value new_range(Interp& I, int64_t start, int64_t stop, int64_t step) {
  auto r = I.make<Range>(I.t.range);
  r->start = start;
  r->stop = stop;
  r->step = step;
  return r.take_value();
}

static Value range_new(Interp& I, Type* cls, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "range() takes no keyword arguments");
  if (a.npos == 0) raise(I, I.exc.TypeError, "range expected at least 1 argument, got 0");
  if (a.npos > 3) raisef(I, I.exc.TypeError, "range expected at most 3 arguments, got {}", a.npos);
  if (I.symbolic.range)
    if (Value r = I.symbolic.range(I, a)) return r;
  int64_t start = 0, stop, step = 1;
  if (a.npos == 1) {
    stop = index(I, a[0]);
  } else {
    start = index(I, a[0]);
    stop = index(I, a[1]);
    if (a.npos == 3) step = index(I, a[2]);
  }
  if (step == 0) raise(I, I.exc.ValueError, "range() arg 3 must not be zero");
  return new_range(I, start, stop, step);
}

static Range* self_range(const Value& v) { return as<Range>(v); }

static Value range_repr(Interp& I, const Value& self) {
  Range* r = self_range(self);
  if (r->step == 1) return I.str(fmt::format("range({}, {})", r->start, r->stop));
  return I.str(fmt::format("range({}, {}, {})", r->start, r->stop, r->step));
}
static int64_t range_len(Interp& I, const Value& self) { return self_range(self)->length(); }
static Truth range_bool(Interp& I, const Value& self) { return self_range(self)->length() ? kTrue : kFalse; }

static Value range_getitem(Interp& I, const Value& self, const Value& key) {
  Range* r = self_range(self);
  int64_t n = r->length();
  if (has_layout(key, Layout::Slice)) {
    int64_t start, stop, step;
    int64_t len = slice_indices(I, as<Slice>(key), n, &start, &stop, &step);
    int64_t nstart = r->start + start * r->step;
    int64_t nstep = r->step * step;
    int64_t nstop = nstart + len * nstep;
    return new_range(I, nstart, nstop, nstep);
  }
  if (!I.type_of(key)->slots.index)
    raisef(I, I.exc.TypeError, "range indices must be integers or slices, not {}", type_name(I, key));
  int64_t i = index(I, key);
  if (!norm_index(i, n)) raise(I, I.exc.IndexError, "range object index out of range");
  return Value::integer(r->start + i * r->step);
}

static bool range_has(Range* r, int64_t v) {
  if (r->step > 0) {
    if (v < r->start || v >= r->stop) return false;
  } else {
    if (v > r->start || v <= r->stop) return false;
  }
  return (v - r->start) % r->step == 0;
}

static bool range_contains(Interp& I, const Value& self, const Value& item) {
  int64_t v;
  if (int_value(item, &v)) return range_has(self_range(self), v);
  Range* r = self_range(self);
  int64_t n = r->length();
  for (int64_t k = 0; k < n; ++k)
    if (eq(I, Value::integer(r->start + k * r->step), item)) return true;
  return false;
}

static Value range_eq_impl(Interp& I, const Value& self, const Value& other, bool ne) {
  if (!has_layout(other, Layout::Range)) return I.notimplemented;
  Range* a = self_range(self);
  Range* b = as<Range>(other);
  int64_t la = a->length(), lb = b->length();
  bool same = la == lb && (la == 0 || (a->start == b->start && (la == 1 || a->step == b->step)));
  return Value::boolean(ne ? !same : same);
}
static Value range_eq(Interp& I, const Value& s, const Value& o) { return range_eq_impl(I, s, o, false); }
static Value range_ne(Interp& I, const Value& s, const Value& o) { return range_eq_impl(I, s, o, true); }
static int64_t range_hash(Interp& I, const Value& self) {
  Range* r = self_range(self);
  int64_t n = r->length();
  Value t = new_tuple(I, {Value::integer(n), n ? Value::integer(r->start) : Value::none(),
                          n > 1 ? Value::integer(r->step) : Value::none()});
  return hash(I, t);
}

struct RangeIter : Object {
  int64_t cur = 0, step = 1, left = 0;
};
static Value range_iter_make(Interp& I, int64_t start, int64_t step, int64_t n) {
  auto it = I.make<RangeIter>(I.t.range_iterator);
  it->cur = start;
  it->step = step;
  it->left = n;
  return it.take_value();
}
static Value range_iter(Interp& I, const Value& self) {
  Range* r = self_range(self);
  return range_iter_make(I, r->start, r->step, r->length());
}
static Value range_iter_next(Interp& I, const Value& self) {
  auto* it = as<RangeIter>(self);
  if (it->left <= 0) return Value();
  --it->left;
  int64_t v = it->cur;
  it->cur += it->step;
  return Value::integer(v);
}
static Value range_reversed(Interp& I, const Value& self, const Args& a) {
  Range* r = self_range(self);
  int64_t n = r->length();
  return range_iter_make(I, r->start + (n - 1) * r->step, -r->step, n);
}
static Value range_count(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "count", 1, 1);
  return Value::integer(range_contains(I, self, a[0]) ? 1 : 0);
}
static Value range_index(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "index", 1, 1);
  Range* r = self_range(self);
  int64_t v;
  if (int_value(a[0], &v) && range_has(r, v)) return Value::integer((v - r->start) / r->step);
  raisef(I, I.exc.ValueError, "{} is not in range", repr_string(I, a[0]));
}
static Value range_start(Interp& I, const Value& self) { return Value::integer(self_range(self)->start); }
static Value range_stop(Interp& I, const Value& self) { return Value::integer(self_range(self)->stop); }
static Value range_step(Interp& I, const Value& self) { return Value::integer(self_range(self)->step); }

// ---- slice ---------------------------------------------------------------------------------------------

Value new_slice(Interp& I, Value start, Value stop, Value step) {
  auto s = I.make<Slice>(I.t.slice);
  s->start = start ? std::move(start) : Value::none();
  s->stop = stop ? std::move(stop) : Value::none();
  s->step = step ? std::move(step) : Value::none();
  return s.take_value();
}
static Value slice_new(Interp& I, Type* cls, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "slice() takes no keyword arguments");
  if (a.npos == 0) raise(I, I.exc.TypeError, "slice expected at least 1 argument, got 0");
  if (a.npos > 3) raisef(I, I.exc.TypeError, "slice expected at most 3 arguments, got {}", a.npos);
  if (a.npos == 1) return new_slice(I, Value::none(), a[0], Value::none());
  return new_slice(I, a[0], a[1], a.npos > 2 ? a[2] : Value::none());
}
static Value slice_repr(Interp& I, const Value& self) {
  Slice* s = as<Slice>(self);
  return I.str(fmt::format("slice({}, {}, {})", repr_string(I, s->start), repr_string(I, s->stop), repr_string(I, s->step)));
}
static Value slice_eq_impl(Interp& I, const Value& self, const Value& other, bool ne) {
  if (!has_layout(other, Layout::Slice)) return I.notimplemented;
  Slice* a = as<Slice>(self);
  Slice* b = as<Slice>(other);
  bool same = eq(I, a->start, b->start) && eq(I, a->stop, b->stop) && eq(I, a->step, b->step);
  return Value::boolean(ne ? !same : same);
}
static Value slice_eq(Interp& I, const Value& s, const Value& o) { return slice_eq_impl(I, s, o, false); }
static Value slice_ne(Interp& I, const Value& s, const Value& o) { return slice_eq_impl(I, s, o, true); }
static Value slice_start(Interp& I, const Value& self) { return as<Slice>(self)->start; }
static Value slice_stop(Interp& I, const Value& self) { return as<Slice>(self)->stop; }
static Value slice_step(Interp& I, const Value& self) { return as<Slice>(self)->step; }
static Value slice_indices_m(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "indices", 1, 1);
  int64_t n = index(I, a[0]);
  if (n < 0) raise(I, I.exc.ValueError, "length should not be negative");
  int64_t start, stop, step;
  slice_indices(I, as<Slice>(self), n, &start, &stop, &step);
  return new_tuple(I, {Value::integer(start), Value::integer(stop), Value::integer(step)});
}

// ---- index-based iterators (list, tuple, str, generic __getitem__) ---------------------------------------

struct SeqIter : Object {
  Value seq;
  int64_t i = 0;
};

Value new_index_iterator(Interp& I, Type* t, const Value& seq) {
  auto it = I.make<SeqIter>(t);
  it->seq = seq;
  return it.take_value();
}
Value new_seq_iterator(Interp& I, const Value& seq) { return new_index_iterator(I, I.t.seq_iterator, seq); }
Value new_str_iterator(Interp& I, const Value& s) { return new_index_iterator(I, I.t.str_iterator, s); }

static Value list_iter_next(Interp& I, const Value& self) {
  auto* it = as<SeqIter>(self);
  if (it->seq.is_null()) return Value();
  List* l = as_list(it->seq);
  if (it->i >= l->size()) {
    it->seq = Value();
    return Value();
  }
  return l->items[it->i++];
}
static Value tuple_iter_next(Interp& I, const Value& self) {
  auto* it = as<SeqIter>(self);
  if (it->seq.is_null()) return Value();
  Tuple* t = as_tuple(it->seq);
  if (it->i >= t->size()) {
    it->seq = Value();
    return Value();
  }
  return t->items[it->i++];
}
static Value str_iter_next(Interp& I, const Value& self) {
  auto* it = as<SeqIter>(self);
  if (it->seq.is_null()) return Value();
  Str* s = as_str(it->seq);
  size_t pos = static_cast<size_t>(it->i);  // byte offset
  if (pos >= s->s.size()) {
    it->seq = Value();
    return Value();
  }
  unsigned char c = static_cast<unsigned char>(s->s[pos]);
  if (c < 0x80) {
    it->i = static_cast<int64_t>(pos + 1);
    return Value::borrow(I.ascii_chars[c]);
  }
  size_t e = pos;
  utf8_next(s->s, e);
  it->i = static_cast<int64_t>(e);
  return I.str(std::string_view(s->s).substr(pos, e - pos));
}
static Value seq_iter_next(Interp& I, const Value& self) {
  auto* it = as<SeqIter>(self);
  if (it->seq.is_null()) return Value();
  try {
    Value v = getitem(I, it->seq, Value::integer(it->i));
    ++it->i;
    return v;
  } catch (PyException& e) {
    if (isinstance(I, e.exc, I.exc.IndexError) || isinstance(I, e.exc, I.exc.StopIteration)) {
      it->seq = Value();
      return Value();
    }
    throw;
  }
}

struct RevIter : Object {
  Value seq;
  int64_t i = 0;
};
Value new_reverse_iterator(Interp& I, const Value& list) {
  auto it = I.make<RevIter>(I.t.list_reverseiterator);
  it->seq = list;
  it->i = as_list(list)->size() - 1;
  return it.take_value();
}
static Value rev_iter_next(Interp& I, const Value& self) {
  auto* it = as<RevIter>(self);
  if (it->seq.is_null()) return Value();
  List* l = as_list(it->seq);
  if (it->i < 0 || it->i >= l->size()) {
    it->seq = Value();
    return Value();
  }
  return l->items[it->i--];
}

static Value iter_self(Interp& I, const Value& self) { return self; }

static Value seq_length_hint(Interp& I, const Value& self, const Args& a) {
  auto* it = as<SeqIter>(self);
  if (it->seq.is_null()) return Value::integer(0);
  int64_t n = 0;
  if (is_list(it->seq)) n = as_list(it->seq)->size() - it->i;
  else if (is_tuple(it->seq)) n = as_tuple(it->seq)->size() - it->i;
  return Value::integer(n < 0 ? 0 : n);
}

// ---- dict iterators and views ------------------------------------------------------------------------

struct DictIter : Object {
  Value dict;
  int64_t pos = 0;
  int64_t used = 0;
  uint32_t version = 0;
  bool reverse = false;
  Value last;  // items: the tuple given last (iter_tuple)
};

Value new_dict_iter(Interp& I, Type* t, const Value& dict, bool reverse) {
  auto it = I.make<DictIter>(t);
  it->dict = dict;
  Dict* d = as_dict(dict);
  it->used = d->used;
  it->version = d->keys_version;
  it->reverse = reverse;
  it->pos = reverse ? static_cast<int64_t>(d->entries.size()) - 1 : 0;
  return it.take_value();
}

static DictEntry* dict_iter_advance(Interp& I, DictIter* it) {
  if (it->dict.is_null()) return nullptr;
  Dict* d = as_dict(it->dict);
  if (d->used != it->used) {
    it->used = -1;
    raise(I, I.exc.RuntimeError, "dictionary changed size during iteration");
  }
  if (d->keys_version != it->version) raise(I, I.exc.RuntimeError, "dictionary keys changed during iteration");
  if (it->reverse) {
    while (it->pos >= 0 && it->pos < static_cast<int64_t>(d->entries.size())) {
      DictEntry* e = &d->entries[it->pos--];
      if (!e->key.is_null()) return e;
    }
  } else {
    while (it->pos < static_cast<int64_t>(d->entries.size())) {
      DictEntry* e = &d->entries[it->pos++];
      if (!e->key.is_null()) return e;
    }
  }
  it->dict = Value();
  return nullptr;
}
static Value dict_keyiter_next(Interp& I, const Value& self) {
  DictEntry* e = dict_iter_advance(I, as<DictIter>(self));
  return e ? e->key : Value();
}
static Value dict_valueiter_next(Interp& I, const Value& self) {
  DictEntry* e = dict_iter_advance(I, as<DictIter>(self));
  return e ? e->value : Value();
}
static Value dict_itemiter_next(Interp& I, const Value& self) {
  DictEntry* e = dict_iter_advance(I, as<DictIter>(self));
  return e ? iter_tuple(I, as<DictIter>(self)->last, e->key, e->value) : Value();
}

struct DictView : Object {
  Value dict;
};
Value new_dict_view(Interp& I, Type* t, const Value& dict) {
  auto v = I.make<DictView>(t);
  v->dict = dict;
  return v.take_value();
}
static int64_t view_len(Interp& I, const Value& self) { return as_dict(as<DictView>(self)->dict)->used; }
static Value keys_iter(Interp& I, const Value& self) {
  return new_dict_iter(I, I.t.dict_keyiterator, as<DictView>(self)->dict, false);
}
static Value values_iter(Interp& I, const Value& self) {
  return new_dict_iter(I, I.t.dict_valueiterator, as<DictView>(self)->dict, false);
}
static Value items_iter(Interp& I, const Value& self) {
  return new_dict_iter(I, I.t.dict_itemiterator, as<DictView>(self)->dict, false);
}
static bool keys_contains(Interp& I, const Value& self, const Value& k) {
  return contains(I, as<DictView>(self)->dict, k);
}
static bool items_contains(Interp& I, const Value& self, const Value& kv) {
  if (!is_tuple(kv) || as_tuple(kv)->size() != 2) return false;
  Value v = dict_get(I, as_dict(as<DictView>(self)->dict), as_tuple(kv)->items[0]);
  return v && eq(I, v, as_tuple(kv)->items[1]);
}
static Value view_repr(Interp& I, const Value& self) {
  Type* t = I.type_of(self);
  Value lst = new_list(I, to_vector(I, self));
  return I.str(fmt::format("{}({})", t->name_view(), repr_string(I, lst)));
}
static Value view_set(Interp& I, const Value& v) {
  Value s = new_set(I);
  set_update(I, as<Set>(s), v);
  return s;
}
static bool is_setlike(Interp& I, const Value& v) {
  Type* t = I.type_of(v);
  return t->layout == Layout::Set || t == I.t.dict_keys || t == I.t.dict_items;
}
#define VIEW_SETOP(name, op)                                                        \
  static Value view_##name(Interp& I, const Value& self, const Value& other) {      \
    if (!is_setlike(I, self) && !is_setlike(I, other) && !I.type_of(other)->slots.iter) return I.notimplemented; \
    return binary_op(I, op, view_set(I, self), view_set(I, other));                \
  }
VIEW_SETOP(and, BinOp::BitAnd)
VIEW_SETOP(or, BinOp::BitOr)
VIEW_SETOP(sub, BinOp::Sub)
VIEW_SETOP(xor, BinOp::BitXor)
static Value view_rsub(Interp& I, const Value& self, const Value& other) {
  return binary_op(I, BinOp::Sub, view_set(I, other), view_set(I, self));
}
static Value view_eq_impl(Interp& I, const Value& self, const Value& other, bool ne) {
  if (!is_setlike(I, other)) return I.notimplemented;
  Value r = rich_compare(I, ne ? CmpOp::Ne : CmpOp::Eq, view_set(I, self), view_set(I, other));
  return r;
}
static Value view_eq(Interp& I, const Value& s, const Value& o) { return view_eq_impl(I, s, o, false); }
static Value view_ne(Interp& I, const Value& s, const Value& o) { return view_eq_impl(I, s, o, true); }
static Value view_reversed(Interp& I, const Value& self, const Args& a) {
  Type* t = I.type_of(self);
  Value d = as<DictView>(self)->dict;
  if (t == I.t.dict_keys) return new_dict_iter(I, I.t.dict_reversekeyiterator, d, true);
  if (t == I.t.dict_values) return new_dict_iter(I, I.t.dict_valueiterator, d, true);
  return new_dict_iter(I, I.t.dict_itemiterator, d, true);
}
static Value view_isdisjoint(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "isdisjoint", 1, 1);
  bool disjoint = true;
  for_each(I, a[0], [&](const Value& k) {
    if (contains(I, self, k)) {
      disjoint = false;
      return false;
    }
    return true;
  });
  return Value::boolean(disjoint);
}
static Value view_mapping(Interp& I, const Value& self) {
  extern Value new_mappingproxy(Interp & I, const Value& d);
  return new_mappingproxy(I, as<DictView>(self)->dict);
}

// ---- set iterator ----------------------------------------------------------------------------------------

struct SetIter : Object {
  Value set;
  int64_t pos = 0;
  int64_t used = 0;
};
Value new_set_iterator(Interp& I, const Value& set) {
  auto it = I.make<SetIter>(I.t.set_iterator);
  it->set = set;
  it->used = as<Set>(set)->used;
  return it.take_value();
}
static Value set_iter_next(Interp& I, const Value& self) {
  auto* it = as<SetIter>(self);
  if (it->set.is_null()) return Value();
  Set* s = as<Set>(it->set);
  if (s->used != it->used) {
    it->used = -1;
    raise(I, I.exc.RuntimeError, "Set changed size during iteration");
  }
  while (it->pos < static_cast<int64_t>(s->table.size())) {
    const SetEntry& e = s->table[it->pos++];
    if (!e.key.is_null()) return e.key;
  }
  it->set = Value();
  return Value();
}

// ---- callable_iterator: iter(f, sentinel) -----------------------------------------------------------------

struct CallIter : Object {
  Value fn, sentinel;
};
Value new_callable_iterator(Interp& I, const Value& fn, const Value& sentinel) {
  auto it = I.make<CallIter>(I.t.callable_iterator);
  it->fn = fn;
  it->sentinel = sentinel;
  return it.take_value();
}
static Value call_iter_next(Interp& I, const Value& self) {
  auto* it = as<CallIter>(self);
  if (it->fn.is_null()) return Value();
  Value v;
  try {
    v = call(I, it->fn);
  } catch (PyException& e) {
    if (isinstance(I, e.exc, I.exc.StopIteration)) {
      it->fn = Value();
      return Value();
    }
    throw;
  }
  if (eq(I, v, it->sentinel)) {
    it->fn = Value();
    return Value();
  }
  return v;
}

// ---- mappingproxy ---------------------------------------------------------------------------------------

struct MappingProxy : Object {
  Value mapping;
};
Value new_mappingproxy(Interp& I, const Value& d) {
  auto p = I.make<MappingProxy>(I.t.mappingproxy);
  p->mapping = d;
  return p.take_value();
}
static Value mp_new(Interp& I, Type* cls, const Args& a) {
  check_nargs(I, a, "mappingproxy", 1, 1);
  if (!I.type_of(a[0])->slots.getitem || is_list(a[0]) || is_tuple(a[0]))
    raisef(I, I.exc.TypeError, "mappingproxy() argument must be a mapping, not {}", type_name(I, a[0]));
  return new_mappingproxy(I, a[0]);
}
static Value mp_getitem(Interp& I, const Value& self, const Value& k) { return getitem(I, as<MappingProxy>(self)->mapping, k); }
static int64_t mp_len(Interp& I, const Value& self) { return len(I, as<MappingProxy>(self)->mapping); }
static bool mp_contains(Interp& I, const Value& self, const Value& k) { return contains(I, as<MappingProxy>(self)->mapping, k); }
static Value mp_iter(Interp& I, const Value& self) { return iter(I, as<MappingProxy>(self)->mapping); }
static Value mp_repr(Interp& I, const Value& self) {
  return I.str(fmt::format("mappingproxy({})", repr_string(I, as<MappingProxy>(self)->mapping)));
}
static Value mp_eq(Interp& I, const Value& self, const Value& o) {
  return rich_compare(I, CmpOp::Eq, as<MappingProxy>(self)->mapping, o);
}
static Value mp_forward(Interp& I, const Value& self, const Args& a, const char* name) {
  return call_method(I, as<MappingProxy>(self)->mapping, I.intern(name), a);
}
static Value mp_keys(Interp& I, const Value& self, const Args& a) { return mp_forward(I, self, a, "keys"); }
static Value mp_values(Interp& I, const Value& self, const Args& a) { return mp_forward(I, self, a, "values"); }
static Value mp_items(Interp& I, const Value& self, const Args& a) { return mp_forward(I, self, a, "items"); }
static Value mp_get(Interp& I, const Value& self, const Args& a) { return mp_forward(I, self, a, "get"); }
static Value mp_copy(Interp& I, const Value& self, const Args& a) { return mp_forward(I, self, a, "copy"); }

void init_range_slice_types(Interp& I) {
  {
    TypeSpec s;
    s.name = "range";
    s.layout = Layout::Range;
    s.flags = 0;
    s.slots.new_ = &range_new;
    s.slots.repr = &range_repr;
    s.slots.len = &range_len;
    s.slots.bool_ = &range_bool;
    s.slots.getitem = &range_getitem;
    s.slots.contains = &range_contains;
    s.slots.iter = &range_iter;
    s.slots.eq = &range_eq;
    s.slots.ne = &range_ne;
    s.slots.hash = &range_hash;
    s.methods = {{"__reversed__", &range_reversed}, {"count", &range_count}, {"index", &range_index}};
    s.getsets = {{"start", &range_start}, {"stop", &range_stop}, {"step", &range_step}};
    init_native_type(I, I.t.range, s);
  }
  {
    TypeSpec s;
    s.name = "slice";
    s.layout = Layout::Slice;
    s.flags = 0;
    s.slots.new_ = &slice_new;
    s.slots.repr = &slice_repr;
    s.slots.eq = &slice_eq;
    s.slots.ne = &slice_ne;
    s.methods = {{"indices", &slice_indices_m}};
    s.getsets = {{"start", &slice_start}, {"stop", &slice_stop}, {"step", &slice_step}};
    init_native_type(I, I.t.slice, s);
  }
  {
    TypeSpec s;
    s.name = "mappingproxy";
    s.flags = 0;
    s.slots.new_ = &mp_new;
    s.slots.getitem = &mp_getitem;
    s.slots.len = &mp_len;
    s.slots.contains = &mp_contains;
    s.slots.iter = &mp_iter;
    s.slots.repr = &mp_repr;
    s.slots.eq = &mp_eq;
    s.methods = {{"keys", &mp_keys}, {"values", &mp_values}, {"items", &mp_items}, {"get", &mp_get}, {"copy", &mp_copy}};
    init_native_type(I, I.t.mappingproxy, s);
  }
}

void init_iterator_types(Interp& I) {
  auto iter_type = [&](Type* t, const char* name, NextFn next, std::vector<MethodDef> methods = {}) {
    TypeSpec s;
    s.name = name;
    s.flags = 0;
    s.slots.iter = &iter_self;
    s.slots.next = next;
    s.methods = std::move(methods);
    init_native_type(I, t, s);
  };
  iter_type(I.t.list_iterator, "list_iterator", &list_iter_next, {{"__length_hint__", &seq_length_hint}});
  iter_type(I.t.tuple_iterator, "tuple_iterator", &tuple_iter_next, {{"__length_hint__", &seq_length_hint}});
  iter_type(I.t.str_iterator, "str_ascii_iterator", &str_iter_next);
  iter_type(I.t.seq_iterator, "iterator", &seq_iter_next);
  iter_type(I.t.list_reverseiterator, "list_reverseiterator", &rev_iter_next);
  iter_type(I.t.range_iterator, "range_iterator", &range_iter_next);
  iter_type(I.t.dict_keyiterator, "dict_keyiterator", &dict_keyiter_next);
  iter_type(I.t.dict_reversekeyiterator, "dict_reversekeyiterator", &dict_keyiter_next);
  iter_type(I.t.dict_valueiterator, "dict_valueiterator", &dict_valueiter_next);
  iter_type(I.t.dict_itemiterator, "dict_itemiterator", &dict_itemiter_next);
  iter_type(I.t.set_iterator, "set_iterator", &set_iter_next);
  iter_type(I.t.callable_iterator, "callable_iterator", &call_iter_next);

  auto view_type = [&](Type* t, const char* name, UnaryFn it, ContainsFn contains_fn, bool setlike) {
    TypeSpec s;
    s.name = name;
    s.flags = 0;
    s.slots.len = &view_len;
    s.slots.iter = it;
    s.slots.contains = contains_fn;
    s.slots.repr = &view_repr;
    if (setlike) {
      s.slots.and_ = &view_and;
      s.slots.rand = &view_and;
      s.slots.or_ = &view_or;
      s.slots.ror = &view_or;
      s.slots.sub = &view_sub;
      s.slots.rsub = &view_rsub;
      s.slots.xor_ = &view_xor;
      s.slots.rxor = &view_xor;
      s.slots.eq = &view_eq;
      s.slots.ne = &view_ne;
      s.methods = {{"isdisjoint", &view_isdisjoint}};
    }
    s.methods.push_back({"__reversed__", &view_reversed});
    s.getsets = {{"mapping", &view_mapping}};
    init_native_type(I, t, s);
  };
  view_type(I.t.dict_keys, "dict_keys", &keys_iter, &keys_contains, true);
  view_type(I.t.dict_values, "dict_values", &values_iter, nullptr, false);
  view_type(I.t.dict_items, "dict_items", &items_iter, &items_contains, true);
}

}  // namespace onnxify::eval
