// set and frozenset with CPython's table: linear probing in runs of 9 then perturbed jumps, the
// same resize policy and the same algorithms for union/intersection/difference, so iteration order
// (what print() shows for a set of ints) matches CPython.
#include "eval/internal.h"

namespace onnxify::eval {

namespace {

constexpr int64_t kLinearProbes = 9;
constexpr int kPerturbShift = 5;
constexpr int64_t kMinSize = 8;

inline bool entry_unused(const SetEntry& e) { return e.key.is_null() && e.hash == 0; }
inline bool entry_dummy(const SetEntry& e) { return e.key.is_null() && e.hash == -1; }
inline bool entry_active(const SetEntry& e) { return !e.key.is_null(); }

void ensure_table(Set* s) {
  if (s->table.empty()) {
    s->table.resize(kMinSize);
    s->mask = kMinSize - 1;
  }
}

void insert_clean(std::vector<SetEntry>& table, int64_t mask, const Value& key, int64_t hash) {
  uint64_t perturb = static_cast<uint64_t>(hash);
  uint64_t i = static_cast<uint64_t>(hash) & mask;
  for (;;) {
    SetEntry* e = &table[i];
    if (e->key.is_null()) goto found;
    if (static_cast<int64_t>(i) + kLinearProbes <= mask) {
      for (int j = 0; j < kLinearProbes; ++j) {
        ++e;
        if (e->key.is_null()) goto found;
      }
    }
    perturb >>= kPerturbShift;
    i = (i * 5 + 1 + perturb) & mask;
    continue;
  found:
    e->key = key;
    e->hash = hash;
    return;
  }
}

void table_resize(Interp& I, Set* s, int64_t minused) {
  int64_t newsize = kMinSize;
  while (newsize <= minused) newsize <<= 1;
  std::vector<SetEntry> old;
  old.swap(s->table);
  int64_t old_cap = static_cast<int64_t>(old.size());
  s->table.assign(newsize, SetEntry());
  s->mask = newsize - 1;
  s->fill = s->used;
  for (auto& e : old)
    if (entry_active(e)) insert_clean(s->table, s->mask, e.key, e.hash);
  I.heap.adjust(s, (newsize - old_cap) * static_cast<int64_t>(sizeof(SetEntry)));
}

// Returns the active entry holding key, or nullptr. Restarts if a comparison changed the table.
SetEntry* lookkey(Interp& I, Set* s, const Value& key, int64_t hash) {
  ensure_table(s);
restart:
  std::vector<SetEntry>* table = &s->table;
  int64_t mask = s->mask;
  uint64_t perturb = static_cast<uint64_t>(hash);
  uint64_t i = static_cast<uint64_t>(hash) & mask;
  for (;;) {
    SetEntry* e = &(*table)[i];
    int64_t probes = (static_cast<int64_t>(i) + kLinearProbes <= mask) ? kLinearProbes : 0;
    do {
      if (entry_unused(*e)) return nullptr;
      if (e->hash == hash && entry_active(*e)) {
        if (e->key.is(key)) return e;
        if (key.is_int() && e->key.is_int()) {
          if (key.i() == e->key.i()) return e;
        } else {
          Value k = e->key;
          int64_t version_mask = s->mask;
          SetEntry* before = s->table.data();
          bool same = eq(I, k, key);
          if (s->table.data() != before || s->mask != version_mask) goto restart;
          if (same && entry_active(*e)) return e;
        }
      }
      ++e;
    } while (probes--);
    perturb >>= kPerturbShift;
    i = (i * 5 + 1 + perturb) & mask;
  }
}

// CPython's set_add_entry: reuses the first dummy seen on the probe path.
bool add_entry(Interp& I, Set* s, const Value& key, int64_t hash) {
  ensure_table(s);
restart:
  int64_t mask = s->mask;
  uint64_t perturb = static_cast<uint64_t>(hash);
  uint64_t i = static_cast<uint64_t>(hash) & mask;
  SetEntry* freeslot = nullptr;
  SetEntry* e = nullptr;
  for (;;) {
    e = &s->table[i];
    int64_t probes = (static_cast<int64_t>(i) + kLinearProbes <= mask) ? kLinearProbes : 0;
    do {
      if (entry_unused(*e)) goto found_unused_or_dummy;
      if (e->hash == hash && entry_active(*e)) {
        if (e->key.is(key)) return false;
        if (key.is_int() && e->key.is_int()) {
          if (key.i() == e->key.i()) return false;
        } else {
          Value k = e->key;
          SetEntry* before = s->table.data();
          bool same = eq(I, k, key);
          if (s->table.data() != before || s->mask != mask) goto restart;
          if (same) return false;
        }
      } else if (entry_dummy(*e) && freeslot == nullptr) {
        freeslot = e;
      }
      ++e;
    } while (probes--);
    perturb >>= kPerturbShift;
    i = (i * 5 + 1 + perturb) & mask;
  }
found_unused_or_dummy:
  if (freeslot) {
    ++s->used;
    freeslot->key = key;
    freeslot->hash = hash;
    return true;
  }
  ++s->fill;
  ++s->used;
  e->key = key;
  e->hash = hash;
  if (s->fill * 5 < mask * 3) return true;
  table_resize(I, s, s->used > 50000 ? s->used * 2 : s->used * 4);
  return true;
}

bool discard_entry(Interp& I, Set* s, const Value& key, int64_t hash) {
  SetEntry* e = lookkey(I, s, key, hash);
  if (!e) return false;
  Value gone = std::move(e->key);
  e->key = Value();
  e->hash = -1;
  --s->used;
  return true;
}

void set_merge(Interp& I, Set* so, Set* other) {
  if (so == other || other->used == 0) return;
  ensure_table(so);
  if ((so->fill + other->used) * 5 >= so->mask * 3) table_resize(I, so, (so->used + other->used) * 2);
  if (so->fill == 0 && so->mask == other->mask && other->fill == other->used) {
    for (int64_t i = 0; i <= other->mask; ++i)
      if (entry_active(other->table[i])) so->table[i] = other->table[i];
    so->fill = other->fill;
    so->used = other->used;
    return;
  }
  if (so->fill == 0) {
    so->fill = other->used;
    so->used = other->used;
    for (int64_t i = 0; i <= other->mask; ++i) {
      const SetEntry& e = other->table[i];
      if (entry_active(e)) insert_clean(so->table, so->mask, e.key, e.hash);
    }
    return;
  }
  std::vector<SetEntry> snapshot = other->table;
  for (auto& e : snapshot)
    if (entry_active(e)) add_entry(I, so, e.key, e.hash);
}

bool is_anyset(Interp& I, const Value& v) { return has_layout(v, Layout::Set); }

Ref<Set> make_set(Interp& I, Type* type) {
  auto s = I.make<Set>(type, kMinSize * sizeof(SetEntry));
  s->table.resize(kMinSize);
  s->mask = kMinSize - 1;
  return s;
}

void update_internal(Interp& I, Set* so, const Value& other) {
  if (is_anyset(I, other)) {
    set_merge(I, so, as<Set>(other));
    return;
  }
  if (is_dict(other) && I.type_of(other) == I.t.dict) {
    Dict* d = as_dict(other);
    ensure_table(so);
    if ((so->fill + d->used) * 5 >= so->mask * 3) table_resize(I, so, (so->used + d->used) * 2);
    std::vector<DictEntry> snapshot;
    for (auto& e : d->entries)
      if (!e.key.is_null()) snapshot.push_back(e);
    for (auto& e : snapshot) add_entry(I, so, e.key, e.hash);
    return;
  }
  for_each(I, other, [&](const Value& k) { add_entry(I, so, k, hash(I, k)); });
}

}  // namespace

bool set_add(Interp& I, Set* s, const Value& key) { return add_entry(I, s, key, hash(I, key)); }
bool set_contains(Interp& I, Set* s, const Value& key) { return lookkey(I, s, key, hash(I, key)) != nullptr; }
bool set_discard(Interp& I, Set* s, const Value& key) { return discard_entry(I, s, key, hash(I, key)); }
void set_update(Interp& I, Set* s, const Value& iterable) { update_internal(I, s, iterable); }

Ref<Set> set_copy(Interp& I, Set* s, Type* type) {
  Ref<Set> r = make_set(I, type);
  set_merge(I, r.get(), s);
  return r;
}

void set_clear(Interp& I, Set* s) {
  std::vector<SetEntry> old;
  old.swap(s->table);
  s->table.resize(kMinSize);
  I.heap.adjust(s, (kMinSize - static_cast<int64_t>(old.size())) * static_cast<int64_t>(sizeof(SetEntry)));
  s->mask = kMinSize - 1;
  s->fill = s->used = 0;
}

Value new_set(Interp& I, Type* type) { return make_set(I, type ? type : I.t.set).take_value(); }

Value new_frozenset(Interp& I, const Value& iterable) {
  Ref<Set> s = make_set(I, I.t.frozenset);
  if (iterable) update_internal(I, s.get(), iterable);
  return s.take_value();
}

// ---- the set and frozenset types ----------------------------------------------------------------------

static Set* self_set(const Value& v) { return as<Set>(v); }

// The result type of a binary set operation: the base type of the left operand.
static Type* base_type(Interp& I, const Value& v) {
  return I.type_of(v)->is_subtype_of(I.t.frozenset) ? I.t.frozenset : I.t.set;
}

static Value set_repr(Interp& I, const Value& self) {
  static thread_local std::vector<Object*> active;
  Type* t = I.type_of(self);
  for (Object* o : active)
    if (o == self.obj()) return I.str(fmt::format("{}(...)", t->name_view()));
  Set* s = self_set(self);
  if (s->used == 0) return I.str(fmt::format("{}()", t->name_view()));
  active.push_back(self.obj());
  std::string body = "{";
  try {
    bool first = true;
    std::vector<SetEntry> snapshot = s->table;
    for (auto& e : snapshot) {
      if (!entry_active(e)) continue;
      if (!first) body += ", ";
      first = false;
      body += repr_string(I, e.key);
    }
  } catch (...) {
    active.pop_back();
    throw;
  }
  active.pop_back();
  body += "}";
  if (t == I.t.set) return I.str(std::move(body));
  return I.str(fmt::format("{}({})", t->name_view(), body));
}

static int64_t set_len(Interp& I, const Value& self) { return self_set(self)->used; }

static bool set_contains_slot(Interp& I, const Value& self, const Value& key) {
  if (has_layout(key, Layout::Set) && I.type_of(key)->is_subtype_of(I.t.set)) {
    Value fz = new_frozenset(I, key);
    return set_contains(I, self_set(self), fz);
  }
  return set_contains(I, self_set(self), key);
}

static int64_t frozenset_hash(Interp& I, const Value& self) {
  Set* s = self_set(self);
  if (s->hash != -1) return s->hash;
  auto shuffle = [](uint64_t h) { return ((h ^ 89869747ull) ^ (h << 16)) * 3644798167ull; };
  uint64_t h = 0;
  for (auto& e : s->table) h ^= shuffle(static_cast<uint64_t>(e.hash));
  if ((s->mask + 1 - s->fill) & 1) h ^= shuffle(0);
  if ((s->fill - s->used) & 1) h ^= shuffle(static_cast<uint64_t>(-1));
  h ^= (static_cast<uint64_t>(s->used) + 1) * 1927868237ull;
  h ^= (h >> 11) ^ (h >> 25);
  h = h * 69069u + 907133923ull;
  if (h == static_cast<uint64_t>(-1)) h = 590923713ull;
  s->hash = static_cast<int64_t>(h);
  return s->hash;
}

static bool issubset(Interp& I, Set* a, Set* b) {
  if (a->used > b->used) return false;
  std::vector<SetEntry> snapshot = a->table;
  for (auto& e : snapshot)
    if (entry_active(e) && !lookkey(I, b, e.key, e.hash)) return false;
  return true;
}

static Value set_richcmp(Interp& I, CmpOp op, const Value& self, const Value& other) {
  if (!is_anyset(I, other)) return I.notimplemented;
  Set* a = self_set(self);
  Set* b = as<Set>(other);
  switch (op) {
    case CmpOp::Eq:
      if (a->used != b->used) return Value::boolean(false);
      if (a->hash != -1 && b->hash != -1 && a->hash != b->hash) return Value::boolean(false);
      return Value::boolean(issubset(I, a, b));
    case CmpOp::Ne:
      if (a->used != b->used) return Value::boolean(true);
      return Value::boolean(!issubset(I, a, b));
    case CmpOp::Le: return Value::boolean(issubset(I, a, b));
    case CmpOp::Ge: return Value::boolean(issubset(I, b, a));
    case CmpOp::Lt: return Value::boolean(a->used < b->used && issubset(I, a, b));
    case CmpOp::Gt: return Value::boolean(a->used > b->used && issubset(I, b, a));
    default: return I.notimplemented;
  }
}
static Value set_eq(Interp& I, const Value& s, const Value& o) { return set_richcmp(I, CmpOp::Eq, s, o); }
static Value set_ne(Interp& I, const Value& s, const Value& o) { return set_richcmp(I, CmpOp::Ne, s, o); }
static Value set_lt(Interp& I, const Value& s, const Value& o) { return set_richcmp(I, CmpOp::Lt, s, o); }
static Value set_le(Interp& I, const Value& s, const Value& o) { return set_richcmp(I, CmpOp::Le, s, o); }
static Value set_gt(Interp& I, const Value& s, const Value& o) { return set_richcmp(I, CmpOp::Gt, s, o); }
static Value set_ge(Interp& I, const Value& s, const Value& o) { return set_richcmp(I, CmpOp::Ge, s, o); }

static Ref<Set> copy_as(Interp& I, const Value& v, Type* t) { return set_copy(I, as<Set>(v), t); }

static Value intersection_impl(Interp& I, const Value& self, const Value& other) {
  Type* t = base_type(I, self);
  if (other.is_obj() && other.obj() == self.obj()) return copy_as(I, self, t).take_value();
  Ref<Set> result = make_set(I, t);
  Set* so = self_set(self);
  if (is_anyset(I, other)) {
    Set* a = so;
    Set* b = as<Set>(other);
    if (b->used > a->used) std::swap(a, b);
    std::vector<SetEntry> snapshot = b->table;
    for (auto& e : snapshot)
      if (entry_active(e) && lookkey(I, a, e.key, e.hash)) add_entry(I, result.get(), e.key, e.hash);
    return result.take_value();
  }
  for_each(I, other, [&](const Value& k) {
    int64_t h = hash(I, k);
    if (lookkey(I, so, k, h)) add_entry(I, result.get(), k, h);
  });
  return result.take_value();
}

static void difference_update_internal(Interp& I, Set* so, const Value& other) {
  if (other.is_obj() && other.obj() == so) {
    set_clear(I, so);
    return;
  }
  if (is_anyset(I, other)) {
    std::vector<SetEntry> snapshot = as<Set>(other)->table;
    for (auto& e : snapshot)
      if (entry_active(e)) discard_entry(I, so, e.key, e.hash);
    return;
  }
  for_each(I, other, [&](const Value& k) { discard_entry(I, so, k, hash(I, k)); });
}

static Value difference_impl(Interp& I, const Value& self, const Value& other) {
  Type* t = base_type(I, self);
  Set* so = self_set(self);
  int64_t other_size;
  if (is_anyset(I, other))
    other_size = as<Set>(other)->used;
  else if (is_dict(other) && I.type_of(other) == I.t.dict)
    other_size = as_dict(other)->used;
  else {
    Ref<Set> r = copy_as(I, self, t);
    difference_update_internal(I, r.get(), other);
    return r.take_value();
  }
  if ((so->used >> 2) > other_size) {
    Ref<Set> r = copy_as(I, self, t);
    difference_update_internal(I, r.get(), other);
    return r.take_value();
  }
  Ref<Set> result = make_set(I, t);
  std::vector<SetEntry> snapshot = so->table;
  for (auto& e : snapshot) {
    if (!entry_active(e)) continue;
    bool in_other = is_anyset(I, other) ? lookkey(I, as<Set>(other), e.key, e.hash) != nullptr
                                        : dict_find(I, as_dict(other), e.key, e.hash) >= 0;
    if (!in_other) add_entry(I, result.get(), e.key, e.hash);
  }
  return result.take_value();
}

static void symmetric_update_internal(Interp& I, Set* so, const Value& other) {
  if (other.is_obj() && other.obj() == so) {
    set_clear(I, so);
    return;
  }
  Ref<Set> otherset;
  if (is_anyset(I, other)) {
    otherset = Ref<Set>(as<Set>(other));
  } else {
    otherset = make_set(I, I.t.set);
    update_internal(I, otherset.get(), other);
  }
  std::vector<SetEntry> snapshot = otherset->table;
  for (auto& e : snapshot) {
    if (!entry_active(e)) continue;
    if (!discard_entry(I, so, e.key, e.hash)) add_entry(I, so, e.key, e.hash);
  }
}

static Value symmetric_impl(Interp& I, const Value& self, const Value& other) {
  Ref<Set> otherset = make_set(I, base_type(I, self));
  update_internal(I, otherset.get(), other);
  symmetric_update_internal(I, otherset.get(), self);
  return otherset.take_value();
}

static Value union_impl(Interp& I, const Value& self, const Value& other) {
  Ref<Set> r = copy_as(I, self, base_type(I, self));
  update_internal(I, r.get(), other);
  return r.take_value();
}

static Value set_or(Interp& I, const Value& self, const Value& other) {
  if (!is_anyset(I, self) || !is_anyset(I, other)) return I.notimplemented;
  return union_impl(I, self, other);
}
static Value set_and(Interp& I, const Value& self, const Value& other) {
  if (!is_anyset(I, self) || !is_anyset(I, other)) return I.notimplemented;
  return intersection_impl(I, self, other);
}
static Value set_sub(Interp& I, const Value& self, const Value& other) {
  if (!is_anyset(I, self) || !is_anyset(I, other)) return I.notimplemented;
  return difference_impl(I, self, other);
}
static Value set_xor(Interp& I, const Value& self, const Value& other) {
  if (!is_anyset(I, self) || !is_anyset(I, other)) return I.notimplemented;
  return symmetric_impl(I, self, other);
}
static Value set_ror(Interp& I, const Value& s, const Value& o) { return set_or(I, o, s); }
static Value set_rand(Interp& I, const Value& s, const Value& o) { return set_and(I, o, s); }
static Value set_rsub(Interp& I, const Value& s, const Value& o) { return set_sub(I, o, s); }
static Value set_rxor(Interp& I, const Value& s, const Value& o) { return set_xor(I, o, s); }

static Value set_ior(Interp& I, const Value& self, const Value& other) {
  if (!is_anyset(I, other)) return I.notimplemented;
  update_internal(I, self_set(self), other);
  return self;
}
static Value set_iand(Interp& I, const Value& self, const Value& other) {
  if (!is_anyset(I, other)) return I.notimplemented;
  Value r = intersection_impl(I, self, other);
  Set* s = self_set(self);
  Set* rs = as<Set>(r);
  s->table.swap(rs->table);
  std::swap(s->mask, rs->mask);
  std::swap(s->fill, rs->fill);
  std::swap(s->used, rs->used);
  return self;
}
static Value set_isub(Interp& I, const Value& self, const Value& other) {
  if (!is_anyset(I, other)) return I.notimplemented;
  difference_update_internal(I, self_set(self), other);
  return self;
}
static Value set_ixor(Interp& I, const Value& self, const Value& other) {
  if (!is_anyset(I, other)) return I.notimplemented;
  symmetric_update_internal(I, self_set(self), other);
  return self;
}

extern Value new_set_iterator(Interp& I, const Value& set);
static Value set_iter(Interp& I, const Value& self) { return new_set_iterator(I, self); }

static Value set_alloc(Interp& I, Type* cls) { return make_set(I, cls).take_value(); }
static Value set_new(Interp& I, Type* cls, const Args& a) { return alloc_instance(I, cls); }
static void set_init(Interp& I, const Value& self, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "set() takes no keyword arguments");
  if (a.npos > 1) raisef(I, I.exc.TypeError, "set expected at most 1 argument, got {}", a.npos);
  Set* s = self_set(self);
  if (s->used) set_clear(I, s);
  if (a.npos) update_internal(I, s, a[0]);
}
static Value frozenset_new(Interp& I, Type* cls, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "frozenset() takes no keyword arguments");
  if (a.npos > 1) raisef(I, I.exc.TypeError, "frozenset expected at most 1 argument, got {}", a.npos);
  if (a.npos && cls == I.t.frozenset && I.type_of(a[0]) == I.t.frozenset) return a[0];
  Value r = alloc_instance(I, cls);
  if (a.npos) update_internal(I, as<Set>(r), a[0]);
  return r;
}

#define SET_METHOD(name) static Value setm_##name(Interp& I, const Value& self, const Args& a)

SET_METHOD(add) {
  check_nargs(I, a, "set.add", 1, 1);
  set_add(I, self_set(self), a[0]);
  return Value::none();
}
SET_METHOD(remove) {
  check_nargs(I, a, "set.remove", 1, 1);
  if (!set_discard(I, self_set(self), a[0])) raise_key_error(I, a[0]);
  return Value::none();
}
SET_METHOD(discard) {
  check_nargs(I, a, "set.discard", 1, 1);
  set_discard(I, self_set(self), a[0]);
  return Value::none();
}
SET_METHOD(pop) {
  check_nargs(I, a, "set.pop", 0, 0);
  Set* s = self_set(self);
  if (s->used == 0) raise(I, I.exc.KeyError, "pop from an empty set");
  int64_t i = s->finger & s->mask;
  while (!entry_active(s->table[i])) {
    ++i;
    if (i > s->mask) i = 0;
  }
  Value key = std::move(s->table[i].key);
  s->table[i].key = Value();
  s->table[i].hash = -1;
  --s->used;
  s->finger = i + 1;
  return key;
}
SET_METHOD(clear) {
  set_clear(I, self_set(self));
  return Value::none();
}
SET_METHOD(copy) { return copy_as(I, self, I.type_of(self) == I.t.frozenset ? I.t.frozenset : base_type(I, self)).take_value(); }
SET_METHOD(update) {
  for (uint32_t k = 0; k < a.npos; ++k) update_internal(I, self_set(self), a[k]);
  return Value::none();
}
SET_METHOD(union) {
  Ref<Set> r = copy_as(I, self, base_type(I, self));
  for (uint32_t k = 0; k < a.npos; ++k) update_internal(I, r.get(), a[k]);
  return r.take_value();
}
SET_METHOD(intersection) {
  if (a.npos == 0) return copy_as(I, self, base_type(I, self)).take_value();
  Value r = self;
  for (uint32_t k = 0; k < a.npos; ++k) r = intersection_impl(I, r, a[k]);
  return r;
}
SET_METHOD(intersection_update) {
  Value r = setm_intersection(I, self, a);
  Set* s = self_set(self);
  Set* rs = as<Set>(r);
  if (rs != s) {
    s->table.swap(rs->table);
    std::swap(s->mask, rs->mask);
    std::swap(s->fill, rs->fill);
    std::swap(s->used, rs->used);
  }
  return Value::none();
}
SET_METHOD(difference) {
  if (a.npos == 0) return copy_as(I, self, base_type(I, self)).take_value();
  Value r = difference_impl(I, self, a[0]);
  for (uint32_t k = 1; k < a.npos; ++k) difference_update_internal(I, as<Set>(r), a[k]);
  return r;
}
SET_METHOD(difference_update) {
  for (uint32_t k = 0; k < a.npos; ++k) difference_update_internal(I, self_set(self), a[k]);
  return Value::none();
}
SET_METHOD(symmetric_difference) {
  check_nargs(I, a, "symmetric_difference", 1, 1);
  return symmetric_impl(I, self, a[0]);
}
SET_METHOD(symmetric_difference_update) {
  check_nargs(I, a, "symmetric_difference_update", 1, 1);
  symmetric_update_internal(I, self_set(self), a[0]);
  return Value::none();
}
static Ref<Set> as_set_arg(Interp& I, const Value& v) {
  if (is_anyset(I, v)) return Ref<Set>(as<Set>(v));
  Ref<Set> s = make_set(I, I.t.set);
  update_internal(I, s.get(), v);
  return s;
}
SET_METHOD(issubset) {
  check_nargs(I, a, "issubset", 1, 1);
  return Value::boolean(issubset(I, self_set(self), as_set_arg(I, a[0]).get()));
}
SET_METHOD(issuperset) {
  check_nargs(I, a, "issuperset", 1, 1);
  return Value::boolean(issubset(I, as_set_arg(I, a[0]).get(), self_set(self)));
}
SET_METHOD(isdisjoint) {
  check_nargs(I, a, "isdisjoint", 1, 1);
  Set* s = self_set(self);
  bool disjoint = true;
  for_each(I, a[0], [&](const Value& k) {
    if (set_contains(I, s, k)) {
      disjoint = false;
      return false;
    }
    return true;
  });
  return Value::boolean(disjoint);
}

extern Value generic_alias(Interp& I, const Value& origin, const Value& args);
static Value set_class_getitem(Interp& I, const Value& cls, const Args& a) {
  check_nargs(I, a, "__class_getitem__", 1, 1);
  return generic_alias(I, cls, a[0]);
}

void init_set_types(Interp& I) {
  auto common = [&](TypeSpec& s) {
    s.layout = Layout::Set;
    s.alloc = &set_alloc;
    s.slots.repr = &set_repr;
    s.slots.len = &set_len;
    s.slots.contains = &set_contains_slot;
    s.slots.eq = &set_eq;
    s.slots.ne = &set_ne;
    s.slots.lt = &set_lt;
    s.slots.le = &set_le;
    s.slots.gt = &set_gt;
    s.slots.ge = &set_ge;
    s.slots.or_ = &set_or;
    s.slots.and_ = &set_and;
    s.slots.sub = &set_sub;
    s.slots.xor_ = &set_xor;
    s.slots.ror = &set_ror;
    s.slots.rand = &set_rand;
    s.slots.rsub = &set_rsub;
    s.slots.rxor = &set_rxor;
    s.slots.iter = &set_iter;
    s.methods = {
        {"copy", &setm_copy},
        {"union", &setm_union},
        {"intersection", &setm_intersection},
        {"difference", &setm_difference},
        {"symmetric_difference", &setm_symmetric_difference},
        {"issubset", &setm_issubset},
        {"issuperset", &setm_issuperset},
        {"isdisjoint", &setm_isdisjoint},
        {"__class_getitem__", &set_class_getitem, kNativeClass},
    };
  };
  {
    TypeSpec s;
    s.name = "set";
    common(s);
    s.slots.ior = &set_ior;
    s.slots.iand = &set_iand;
    s.slots.isub = &set_isub;
    s.slots.ixor = &set_ixor;
    s.slots.new_ = &set_new;
    s.slots.init = &set_init;
    std::vector<MethodDef> more = {
        {"add", &setm_add},
        {"remove", &setm_remove},
        {"discard", &setm_discard},
        {"pop", &setm_pop},
        {"clear", &setm_clear},
        {"update", &setm_update},
        {"intersection_update", &setm_intersection_update},
        {"difference_update", &setm_difference_update},
        {"symmetric_difference_update", &setm_symmetric_difference_update},
    };
    s.methods.insert(s.methods.end(), more.begin(), more.end());
    init_native_type(I, I.t.set, s);
  }
  {
    TypeSpec s;
    s.name = "frozenset";
    common(s);
    s.slots.hash = &frozenset_hash;
    s.slots.new_ = &frozenset_new;
    init_native_type(I, I.t.frozenset, s);
  }
}

}  // namespace onnxify::eval
