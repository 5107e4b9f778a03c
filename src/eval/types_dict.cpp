// dict: an insertion-ordered hash map (CPython's compact layout), its views and iterators.
#include <algorithm>

#include "eval/internal.h"
#include "eval/recursion.h"

namespace onnxify::eval {

namespace {

constexpr size_t kSmall = 8;  // at most this many entries: no index, linear scan

inline bool key_is_str(const Value& k) { return k.is_obj() && k.obj()->type->layout == Layout::Str; }

void rebuild_index(Dict* d) {
  // Compact away deleted entries, then size the index for 2/3 load.
  if (static_cast<int64_t>(d->entries.size()) != d->used) {
    std::vector<DictEntry> live;
    live.reserve(d->used);
    for (auto& e : d->entries)
      if (!e.key.is_null()) live.push_back(std::move(e));
    d->entries.swap(live);
    ++d->keys_version;
  }
  if (d->entries.size() <= kSmall) {
    d->index.clear();
    return;
  }
  size_t size = 16;
  while (size * 2 < d->entries.size() * 3 + 3) size <<= 1;
  d->index.assign(size, -1);
  size_t mask = size - 1;
  for (size_t ix = 0; ix < d->entries.size(); ++ix) {
    uint64_t h = static_cast<uint64_t>(d->entries[ix].hash);
    size_t i = h & mask;
    uint64_t perturb = h;
    while (d->index[i] != -1) {
      perturb >>= 5;
      i = (i * 5 + perturb + 1) & mask;
    }
    d->index[i] = static_cast<int32_t>(ix);
  }
}

void index_insert(Dict* d, int64_t hash, int32_t ix) {
  size_t mask = d->index.size() - 1;
  uint64_t h = static_cast<uint64_t>(hash);
  size_t i = h & mask;
  uint64_t perturb = h;
  while (d->index[i] != -1) {
    perturb >>= 5;
    i = (i * 5 + perturb + 1) & mask;
  }
  d->index[i] = ix;
}

void track(Interp& I, Dict* d, size_t old_cap, size_t old_index) {
  int64_t delta = (static_cast<int64_t>(d->entries.capacity()) - static_cast<int64_t>(old_cap)) *
                      static_cast<int64_t>(sizeof(DictEntry)) +
                  (static_cast<int64_t>(d->index.size()) - static_cast<int64_t>(old_index)) * 4;
  if (delta) I.heap.adjust(d, delta);
}

}  // namespace

Ref<Dict> new_dict_ref(Interp& I) { return I.make<Dict>(I.t.dict); }

void Interp::give_instance_dict(Object* o) {
  if (!o->dict) o->dict = new_dict_ref(*this).release();
}

int64_t dict_find_str(Dict* d, Str* key) {
  int64_t h = str_hash(key);
  if (d->index.empty()) {
    for (size_t i = 0; i < d->entries.size(); ++i) {
      const DictEntry& e = d->entries[i];
      if (e.key.is_obj() && (e.key.obj() == key ||
                             (e.hash == h && key_is_str(e.key) && as_str(e.key)->s == key->s)))
        return static_cast<int64_t>(i);
    }
    return -1;
  }
  size_t mask = d->index.size() - 1;
  uint64_t uh = static_cast<uint64_t>(h);
  size_t i = uh & mask;
  uint64_t perturb = uh;
  for (;;) {
    int32_t ix = d->index[i];
    if (ix < 0) return -1;
    const DictEntry& e = d->entries[ix];
    if (e.key.is_obj() && (e.key.obj() == key || (e.hash == h && key_is_str(e.key) && as_str(e.key)->s == key->s)))
      return ix;
    perturb >>= 5;
    i = (i * 5 + perturb + 1) & mask;
  }
}

Value dict_get_str(Dict* d, Str* key) {
  int64_t ix = dict_find_str(d, key);
  return ix < 0 ? Value() : d->entries[ix].value;
}

int64_t dict_find(Interp& I, Dict* d, const Value& key, int64_t h) {
  if (key_is_str(key) && key.obj()->type == I.t.str) {
    int64_t ix = dict_find_str(d, as_str(key));
    if (ix >= 0) return ix;
    // A str subclass or an object equal to a str could still match: fall through only if the
    // dict has non-str keys.
    bool all_str = true;
    for (auto& e : d->entries)
      if (!e.key.is_null() && !(e.key.is_obj() && e.key.obj()->type == I.t.str)) {
        all_str = false;
        break;
      }
    if (all_str) return -1;
  }
restart:
  uint32_t version = d->keys_version;
  auto matches = [&](const DictEntry& e) -> int {
    if (e.key.is_null() || e.hash != h) return 0;
    if (e.key.is(key)) return 1;
    if (key.is_int() && e.key.is_int()) return e.key.i() == key.i() ? 1 : 0;
    Value k = e.key;
    bool r = eq(I, k, key);
    if (d->keys_version != version) return -1;
    return r ? 1 : 0;
  };
  if (d->index.empty()) {
    for (size_t i = 0; i < d->entries.size(); ++i) {
      int m = matches(d->entries[i]);
      if (m < 0) goto restart;
      if (m > 0) return static_cast<int64_t>(i);
    }
    return -1;
  }
  size_t mask = d->index.size() - 1;
  uint64_t uh = static_cast<uint64_t>(h);
  size_t i = uh & mask;
  uint64_t perturb = uh;
  for (;;) {
    int32_t ix = d->index[i];
    if (ix < 0) return -1;
    int m = matches(d->entries[ix]);
    if (m < 0) goto restart;
    if (m > 0) return ix;
    perturb >>= 5;
    i = (i * 5 + perturb + 1) & mask;
  }
}

Value dict_get(Interp& I, Dict* d, const Value& key) {
  if (key_is_str(key) && key.obj()->type == I.t.str) {
    int64_t ix = dict_find_str(d, as_str(key));
    if (ix >= 0) return d->entries[ix].value;
  }
  int64_t h = hash(I, key);
  int64_t ix = dict_find(I, d, key, h);
  return ix < 0 ? Value() : d->entries[ix].value;
}

static void dict_insert_new(Interp& I, Dict* d, int64_t h, const Value& key, Value v) {
  size_t cap = d->entries.capacity(), isz = d->index.size();
  d->entries.push_back(DictEntry{h, key, std::move(v)});
  ++d->used;
  ++d->keys_version;
  size_t n = d->entries.size();
  if (n > kSmall) {
    if (d->index.empty() || n * 3 >= d->index.size() * 2)
      rebuild_index(d);
    else
      index_insert(d, h, static_cast<int32_t>(n - 1));
  }
  track(I, d, cap, isz);
}

void dict_set(Interp& I, Dict* d, const Value& key, Value v) {
  int64_t h = hash(I, key);
  int64_t ix = dict_find(I, d, key, h);
  if (ix >= 0) {
    d->entries[ix].value = std::move(v);
    return;
  }
  dict_insert_new(I, d, h, key, std::move(v));
}

void dict_set_str(Interp& I, Dict* d, Str* key, Value v) {
  int64_t ix = dict_find_str(d, key);
  if (ix >= 0) {
    d->entries[ix].value = std::move(v);
    return;
  }
  dict_insert_new(I, d, str_hash(key), Value::borrow(key), std::move(v));
}

Value dict_pop(Interp& I, Dict* d, const Value& key) {
  int64_t h = hash(I, key);
  int64_t ix = dict_find(I, d, key, h);
  if (ix < 0) return Value();
  Value v = std::move(d->entries[ix].value);
  Value k = std::move(d->entries[ix].key);
  d->entries[ix].key = Value();
  --d->used;
  ++d->keys_version;
  // Trailing deleted entries can go at once; others wait for the next rebuild.
  while (!d->entries.empty() && d->entries.back().key.is_null() && d->index.empty()) d->entries.pop_back();
  if (d->index.empty() && static_cast<int64_t>(d->entries.size()) != d->used) {
    std::vector<DictEntry> live;
    for (auto& e : d->entries)
      if (!e.key.is_null()) live.push_back(std::move(e));
    d->entries.swap(live);
  } else if (!d->index.empty() && d->used * 2 < static_cast<int64_t>(d->entries.size())) {
    rebuild_index(d);
  }
  return v;
}

bool dict_del(Interp& I, Dict* d, const Value& key) { return !dict_pop(I, d, key).is_null(); }

void dict_clear(Interp& I, Dict* d) {
  std::vector<DictEntry> old;
  old.swap(d->entries);
  d->index.clear();
  d->used = 0;
  ++d->keys_version;
}

Ref<Dict> dict_copy(Interp& I, Dict* d, Type* type) {
  Ref<Dict> r = I.make<Dict>(type ? type : I.t.dict);
  for (auto& e : d->entries)
    if (!e.key.is_null()) r->entries.push_back(e);
  r->used = static_cast<int64_t>(r->entries.size());
  rebuild_index(r.get());
  I.heap.adjust(r.get(), static_cast<int64_t>(r->entries.capacity() * sizeof(DictEntry) + r->index.size() * 4));
  return r;
}

void dict_update(Interp& I, Dict* d, const Value& other) {
  if (is_dict(other)) {
    Dict* o = as_dict(other);
    if (I.type_of(other)->slots.iter == I.t.dict->slots.iter) {
      std::vector<DictEntry> snapshot;
      for (auto& e : o->entries)
        if (!e.key.is_null()) snapshot.push_back(e);
      for (auto& e : snapshot) dict_set(I, d, e.key, e.value);
      return;
    }
  }
  Value keys = getattr_opt(I, other, I.names.keys);
  if (keys) {
    std::vector<Value> ks = to_vector(I, call(I, keys));
    for (const Value& k : ks) dict_set(I, d, k, getitem(I, other, k));
    return;
  }
  int64_t n = 0;
  for_each(I, other, [&](const Value& item) {
    Type* t = I.type_of(item);
    if (!t->slots.iter && !t->slots.getitem)
      raisef(I, I.exc.TypeError, "cannot convert dictionary update sequence element #{} to a sequence", n);
    std::vector<Value> kv = to_vector(I, item);
    if (kv.size() != 2)
      raisef(I, I.exc.ValueError, "dictionary update sequence element #{} has length {}; 2 is required", n, kv.size());
    dict_set(I, d, kv[0], kv[1]);
    ++n;
  });
}

// ---- the dict type ------------------------------------------------------------------------------------

static Dict* self_dict(const Value& v) { return as_dict(v); }

static Value dict_repr(Interp& I, const Value& self) {
  static thread_local std::vector<Object*> active;
  for (Object* o : active)
    if (o == self.obj()) return I.str("{...}");
  active.push_back(self.obj());
  std::string out = "{";
  try {
    Dict* d = self_dict(self);
    bool first = true;
    for (size_t i = 0; i < d->entries.size(); ++i) {
      if (d->entries[i].key.is_null()) continue;
      Value k = d->entries[i].key, v = d->entries[i].value;
      if (!first) out += ", ";
      first = false;
      out += repr_string(I, k);
      out += ": ";
      out += repr_string(I, v);
    }
  } catch (...) {
    active.pop_back();
    throw;
  }
  active.pop_back();
  out += "}";
  return I.str(std::move(out));
}

static int64_t dict_len(Interp& I, const Value& self) { return self_dict(self)->used; }

static Value dict_getitem(Interp& I, const Value& self, const Value& key) {
  Dict* d = self_dict(self);
  Value v = dict_get(I, d, key);
  if (v) return v;
  if (self.obj()->type != I.t.dict) {
    Value missing = type_lookup(self.obj()->type, I.names.__missing__);
    if (missing) return call_unbound(I, missing, self, key);
  }
  raise_key_error(I, key);
}

static void dict_setitem(Interp& I, const Value& self, const Value& key, const Value& v) {
  dict_set(I, self_dict(self), key, v);
}

static void dict_delitem(Interp& I, const Value& self, const Value& key) {
  if (!dict_del(I, self_dict(self), key)) raise_key_error(I, key);
}

static bool dict_contains(Interp& I, const Value& self, const Value& key) {
  Dict* d = self_dict(self);
  return dict_find(I, d, key, hash(I, key)) >= 0;
}

static Value dict_eq_impl(Interp& I, const Value& self, const Value& other, bool ne) {
  if (!is_dict(other)) return I.notimplemented;
  Dict* a = self_dict(self);
  Dict* b = as_dict(other);
  if (a->used != b->used) return Value::boolean(ne);
  for (size_t i = 0; i < a->entries.size(); ++i) {
    if (a->entries[i].key.is_null()) continue;
    Value k = a->entries[i].key, v = a->entries[i].value;
    int64_t ix = dict_find(I, b, k, a->entries[i].hash);
    if (ix < 0) return Value::boolean(ne);
    Value w = b->entries[ix].value;
    if (!eq(I, v, w)) return Value::boolean(ne);
  }
  return Value::boolean(!ne);
}
static Value dict_eq(Interp& I, const Value& s, const Value& o) { return dict_eq_impl(I, s, o, false); }
static Value dict_ne(Interp& I, const Value& s, const Value& o) { return dict_eq_impl(I, s, o, true); }

static Value dict_or(Interp& I, const Value& self, const Value& other) {
  if (!is_dict(self) || !is_dict(other)) return I.notimplemented;
  Ref<Dict> r = dict_copy(I, self_dict(self), self.obj()->type == I.t.dict ? nullptr : nullptr);
  dict_update(I, r.get(), other);
  return r.take_value();
}
static Value dict_ror(Interp& I, const Value& self, const Value& other) {
  if (!is_dict(self) || !is_dict(other)) return I.notimplemented;
  Ref<Dict> r = dict_copy(I, as_dict(other));
  dict_update(I, r.get(), self);
  return r.take_value();
}
static Value dict_ior(Interp& I, const Value& self, const Value& other) {
  dict_update(I, self_dict(self), other);
  return self;
}

extern Value new_dict_iter(Interp& I, Type* t, const Value& dict, bool reverse);
static Value dict_iter(Interp& I, const Value& self) { return new_dict_iter(I, I.t.dict_keyiterator, self, false); }

static Value dict_alloc(Interp& I, Type* cls) { return I.make<Dict>(cls).take_value(); }
static Value dict_new(Interp& I, Type* cls, const Args& a) { return alloc_instance(I, cls); }

static void dict_init(Interp& I, const Value& self, const Args& a) {
  if (a.npos > 1) raisef(I, I.exc.TypeError, "dict expected at most 1 argument, got {}", a.npos);
  Dict* d = self_dict(self);
  if (a.npos == 1) dict_update(I, d, a[0]);
  for (uint32_t k = 0; k < a.nkw; ++k) dict_set_str(I, d, a.kwnames[k], a.kwvals[k]);
}

#define DICT_METHOD(name) static Value dictm_##name(Interp& I, const Value& self, const Args& a)

extern Value new_dict_view(Interp& I, Type* t, const Value& dict);
DICT_METHOD(keys) {
  check_nargs(I, a, "dict.keys", 0, 0);
  return new_dict_view(I, I.t.dict_keys, self);
}
DICT_METHOD(values) {
  check_nargs(I, a, "dict.values", 0, 0);
  return new_dict_view(I, I.t.dict_values, self);
}
DICT_METHOD(items) {
  check_nargs(I, a, "dict.items", 0, 0);
  return new_dict_view(I, I.t.dict_items, self);
}
DICT_METHOD(get) {
  check_nargs(I, a, "get", 1, 2);
  Value v = dict_get(I, self_dict(self), a[0]);
  if (v) return v;
  return a.npos > 1 ? a[1] : Value::none();
}
DICT_METHOD(pop) {
  check_nargs(I, a, "pop", 1, 2);
  Value v = dict_pop(I, self_dict(self), a[0]);
  if (v) return v;
  if (a.npos > 1) return a[1];
  raise_key_error(I, a[0]);
}
DICT_METHOD(popitem) {
  check_nargs(I, a, "popitem", 0, 0);
  Dict* d = self_dict(self);
  for (size_t i = d->entries.size(); i-- > 0;) {
    if (d->entries[i].key.is_null()) continue;
    Value k = d->entries[i].key;
    Value v = dict_pop(I, d, k);
    return tuple_pair(I, k, v);
  }
  raise(I, I.exc.KeyError, "popitem(): dictionary is empty");
}
DICT_METHOD(setdefault) {
  check_nargs(I, a, "setdefault", 1, 2);
  Dict* d = self_dict(self);
  Value v = dict_get(I, d, a[0]);
  if (v) return v;
  Value dflt = a.npos > 1 ? a[1] : Value::none();
  dict_set(I, d, a[0], dflt);
  return dflt;
}
DICT_METHOD(update) {
  if (a.npos > 1) raisef(I, I.exc.TypeError, "update expected at most 1 argument, got {}", a.npos);
  Dict* d = self_dict(self);
  if (a.npos == 1) dict_update(I, d, a[0]);
  for (uint32_t k = 0; k < a.nkw; ++k) dict_set_str(I, d, a.kwnames[k], a.kwvals[k]);
  return Value::none();
}
DICT_METHOD(clear) {
  check_nargs(I, a, "dict.clear", 0, 0);
  dict_clear(I, self_dict(self));
  return Value::none();
}
DICT_METHOD(copy) {
  check_nargs(I, a, "dict.copy", 0, 0);
  return dict_copy(I, self_dict(self)).take_value();
}
static Value dictm_fromkeys(Interp& I, const Value& cls, const Args& a) {
  check_nargs(I, a, "fromkeys", 1, 2);
  Value v = a.npos > 1 ? a[1] : Value::none();
  Value d = call(I, cls);
  if (is_dict(d)) {
    for_each(I, a[0], [&](const Value& k) { dict_set(I, as_dict(d), k, v); });
  } else {
    for_each(I, a[0], [&](const Value& k) { setitem(I, d, k, v); });
  }
  return d;
}
DICT_METHOD(reversed) { return new_dict_iter(I, I.t.dict_reversekeyiterator, self, true); }

extern Value generic_alias(Interp& I, const Value& origin, const Value& args);
static Value dict_class_getitem(Interp& I, const Value& cls, const Args& a) {
  check_nargs(I, a, "__class_getitem__", 1, 1);
  return generic_alias(I, cls, a[0]);
}

void init_dict_types(Interp& I) {
  TypeSpec s;
  s.name = "dict";
  s.layout = Layout::Dict;
  s.alloc = &dict_alloc;
  Slots& sl = s.slots;
  sl.repr = &dict_repr;
  sl.eq = &dict_eq;
  sl.ne = &dict_ne;
  sl.len = &dict_len;
  sl.getitem = &dict_getitem;
  sl.setitem = &dict_setitem;
  sl.delitem = &dict_delitem;
  sl.contains = &dict_contains;
  sl.iter = &dict_iter;
  sl.or_ = &dict_or;
  sl.ror = &dict_ror;
  sl.ior = &dict_ior;
  sl.new_ = &dict_new;
  sl.init = &dict_init;
  s.methods = {
      {"keys", &dictm_keys},
      {"values", &dictm_values},
      {"items", &dictm_items},
      {"get", &dictm_get},
      {"pop", &dictm_pop},
      {"popitem", &dictm_popitem},
      {"setdefault", &dictm_setdefault},
      {"update", &dictm_update},
      {"clear", &dictm_clear},
      {"copy", &dictm_copy},
      {"fromkeys", &dictm_fromkeys, kNativeClass},
      {"__reversed__", &dictm_reversed},
      {"__class_getitem__", &dict_class_getitem, kNativeClass},
  };
  init_native_type(I, I.t.dict, s);
}

}  // namespace onnxify::eval
