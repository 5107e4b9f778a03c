// Type: native type setup, the C3 MRO, slot inheritance, the attribute lookup cache, and the
// two root types `object` and `type` (instantiation, class creation).
#include <algorithm>
#include <cstring>

#include "eval/internal.h"
#include "eval/poison.h"

namespace onnxify::eval {

Type::Type() = default;

Type::~Type() {
  if (heap_prev == nullptr && heap_next == nullptr) return;  // never linked
  Heap* h = tl_heap;
  bool tearing = h == nullptr || h->tearing_down;
  if (!tearing) {
    for (Type* b : bases) {
      auto& subs = b->subclasses;
      subs.erase(std::remove(subs.begin(), subs.end(), this), subs.end());
    }
  }
  if (name) decref(name);
  for (Type* b : bases) decref(b);
  for (size_t i = 1; i < mro.size(); ++i) decref(mro[i]);
}

std::string_view Type::name_view() const { return name ? std::string_view(name->s) : std::string_view("?"); }

// ---- slot table -----------------------------------------------------------------------------------

const SlotInfo* slot_table() {
  static const SlotInfo table[] = {
#define SLOT(member, dunder, kind) {SlotId::member, dunder, SlotKind::kind},
#include "eval/slots.def"
#undef SLOT
  };
  return table;
}

VoidFn slot_get(const Slots& s, SlotId id) {
  switch (id) {
#define SLOT(member, dunder, kind) \
  case SlotId::member:             \
    return reinterpret_cast<VoidFn>(s.member);
#include "eval/slots.def"
#undef SLOT
    default: return nullptr;
  }
}

void slot_set(Slots& s, SlotId id, VoidFn fn) {
  switch (id) {
#define SLOT(member, dunder, kind)                          \
  case SlotId::member:                                      \
    s.member = reinterpret_cast<decltype(s.member)>(fn);    \
    return;
#include "eval/slots.def"
#undef SLOT
    default: return;
  }
}

Str* slot_name(Interp& I, SlotId id) { return I.slot_names[static_cast<size_t>(id)]; }

// ---- attribute lookup cache -------------------------------------------------------------------------
// A direct-mapped cache of MRO lookups keyed by (type version, interned name), CPython's method
// cache. Versions are never reused, so a stale entry can only miss. Entries do not own their
// values: a value can only be freed after the class dict changed, which changes the version.

namespace {
struct CacheEntry {
  uint32_t version = 0;
  Str* name = nullptr;
  Tag tag = Tag::Null;
  uint64_t bits = 0;
};
constexpr size_t kCacheSize = 4096;
thread_local CacheEntry g_cache[kCacheSize];

inline size_t cache_slot(uint32_t version, Str* name) {
  uint64_t h = (static_cast<uint64_t>(version) * 2654435761u) ^ (reinterpret_cast<uintptr_t>(name) >> 4);
  return (h ^ (h >> 13)) & (kCacheSize - 1);
}
}  // namespace

void clear_type_cache() {
  for (auto& e : g_cache) e = CacheEntry();
}

Value type_lookup(Type* t, Str* name) {
  bool cacheable = name->interned && t->version != 0;
  CacheEntry* e = nullptr;
  if (cacheable) {
    e = &g_cache[cache_slot(t->version, name)];
    if (e->version == t->version && e->name == name) return Value::from_raw_borrow(e->tag, e->bits);
  }
  Value found;
  for (Type* m : t->mro) {
    if (m->dict) {
      found = dict_get_str(m->dict, name);
      if (found) break;
    }
  }
  if (e) {
    e->version = t->version;
    e->name = name;
    e->tag = found.tag();
    e->bits = found.raw_bits();
  }
  return found;
}

void type_modified(Interp& I, Type* t) {
  t->version = I.next_type_version++;
  if (I.next_type_version == 0) I.next_type_version = 1;
  for (Type* s : t->subclasses) type_modified(I, s);
}

// ---- MRO --------------------------------------------------------------------------------------------

std::vector<Type*> compute_mro(Interp& I, Type* t) {
  // C3: mro(C) = [C] + merge(mro(B1), ..., mro(Bn), [B1, ..., Bn])
  std::vector<std::vector<Type*>> seqs;
  for (Type* b : t->bases) seqs.push_back(b->mro);
  seqs.push_back(t->bases);
  std::vector<Type*> out{t};
  for (;;) {
    bool any = false;
    for (auto& s : seqs)
      if (!s.empty()) any = true;
    if (!any) return out;
    Type* pick = nullptr;
    for (auto& s : seqs) {
      if (s.empty()) continue;
      Type* cand = s.front();
      bool in_tail = false;
      for (auto& o : seqs) {
        if (std::find(o.begin() + (o.empty() ? 0 : 1), o.end(), cand) != o.end()) {
          in_tail = true;
          break;
        }
      }
      if (!in_tail) {
        pick = cand;
        break;
      }
    }
    if (!pick) {
      // Like CPython: the distinct heads of the sequences still to merge.
      std::string names;
      std::vector<Type*> heads;
      for (auto& sq : seqs) {
        if (sq.empty() || std::find(heads.begin(), heads.end(), sq.front()) != heads.end()) continue;
        heads.push_back(sq.front());
        if (!names.empty()) names += ", ";
        names += sq.front()->name_view();
      }
      raisef(I, I.exc.TypeError, "Cannot create a consistent method resolution\norder (MRO) for bases {}",
             names);
    }
    out.push_back(pick);
    for (auto& s : seqs)
      if (!s.empty() && s.front() == pick) s.erase(s.begin());
  }
}

// ---- slots of classes written in Python ---------------------------------------------------------------

static Value unhashable_hash_wrapper(Interp& I, const Value& self) { return Value(); }

static int64_t hash_not_implemented(Interp& I, const Value& self) {
  raisef(I, I.exc.TypeError, "unhashable type: '{}'", type_name(I, self));
}

void update_slots(Interp& I, Type* t) {
  (void)unhashable_hash_wrapper;
  const SlotInfo* table = slot_table();
  for (size_t s = 0; s < kSlotCount; ++s) {
    SlotId id = table[s].id;
    Str* name = I.slot_names[s];
    VoidFn fn = nullptr;
    for (Type* m : t->mro) {
      if (!m->dict) continue;
      Value v = dict_get_str(m->dict, name);
      if (!v) continue;
      if (v.is_obj() && v.obj()->type == I.t.slot_wrapper) {
        auto* w = static_cast<SlotWrapper*>(v.obj());
        if (w->slot == id && w->self.is_null()) {
          fn = slot_get(w->owner->slots, id);
          break;
        }
      }
      if (id == SlotId::hash && v.is_none()) {
        fn = reinterpret_cast<VoidFn>(&hash_not_implemented);
        break;
      }
      if (!m->is_heap() && id == SlotId::new_) {
        // A native type's __new__ is a static builtin in its dict: inherit its slot.
        fn = slot_get(m->slots, id);
        break;
      }
      fn = slot_trampoline(id);
      break;
    }
    if (!fn && t->solid) fn = slot_get(t->solid->slots, id);
    slot_set(t->slots, id, fn);
  }
  bool has_getattr = !type_lookup(t, I.names.__getattr__).is_null();
  if (has_getattr)
    t->flags |= kTypeHasGetattr;
  else
    t->flags &= ~kTypeHasGetattr;
}

// ---- native types --------------------------------------------------------------------------------------

Value new_native(Interp& I, const char* name, NativeFn fn, Value self, Value data, uint32_t flags,
                 const char* doc) {
  Type* t = (flags & (kNativeMethod | kNativeClass | kNativeStatic)) && self.is_null() ? I.t.method_descriptor
                                                                                     : I.t.builtin_function;
  auto f = I.make<NativeFunc>(t);
  f->fn = fn;
  f->name = name;
  f->flags = flags;
  f->self = std::move(self);
  f->data = std::move(data);
  f->doc = doc;
  return f.take_value();
}

void init_native_type(Interp& I, Type* t, const TypeSpec& spec) {
  if (!t->name) t->name = I.intern(spec.name), incref(t->name);
  t->qualname = spec.name;
  Type* base = spec.base ? spec.base : (t == I.t.object ? nullptr : I.t.object);
  for (Type* b : t->bases) decref(b);
  t->bases.clear();
  for (size_t i = 1; i < t->mro.size(); ++i) decref(t->mro[i]);
  t->mro.assign(1, t);
  if (base) {
    incref(base);
    t->bases.push_back(base);
    for (Type* m : base->mro) {
      incref(m);
      t->mro.push_back(m);
    }
    base->subclasses.push_back(t);
  }
  t->layout = spec.layout;
  t->flags = spec.flags | kTypeReady;
  t->solid = t;
  t->alloc = spec.alloc ? spec.alloc : (base ? base->alloc : nullptr);
  if (!t->dict) t->dict = new_dict_ref(I).release();
  // Slots: inherited from the base, overridden by the spec; each slot the spec defines also
  // appears in the dict as a slot wrapper.
  if (base) t->slots = base->slots;
  const SlotInfo* table = slot_table();
  for (size_t s = 0; s < kSlotCount; ++s) {
    VoidFn fn = slot_get(spec.slots, table[s].id);
    if (!fn) continue;
    slot_set(t->slots, table[s].id, fn);
    auto w = I.make<SlotWrapper>(I.t.slot_wrapper);
    w->slot = table[s].id;
    w->owner = t;
    if (table[s].id == SlotId::new_) {
      // __new__ is a static method taking the class first.
      dict_set_str(I, t->dict, I.slot_names[s], w.take_value());
    } else {
      dict_set_str(I, t->dict, I.slot_names[s], w.take_value());
    }
  }
  // A native type that defines __eq__ but inherits __hash__ from object is unhashable, as in CPython.
  if (spec.slots.eq && !spec.slots.hash && base == I.t.object && t != I.t.object) {
    t->slots.hash = &hash_not_implemented;
    dict_set_str(I, t->dict, I.names.__hash__, Value::none());
  }
  for (const MethodDef& m : spec.methods) {
    Value f = new_native(I, m.name, m.fn, Value(), Value(), m.flags, m.doc);
    as<NativeFunc>(f)->owner = t;
    dict_set(I, t->dict, m.name, std::move(f));
  }
  for (const GetSetDef& g : spec.getsets) {
    auto gs = I.make<GetSet>(I.t.getset);
    gs->name = g.name;
    gs->get = g.get;
    gs->set = g.set;
    gs->owner = t;
    dict_set(I, t->dict, g.name, gs.take_value());
  }
  if (!dict_get_str(t->dict, I.names.__doc__)) dict_set_str(I, t->dict, I.names.__doc__, Value::none());
  if (std::strcmp(spec.module, "builtins") != 0)
    dict_set_str(I, t->dict, I.names.__module__, I.str(spec.module));
  type_modified(I, t);
}

Type* new_native_type(Interp& I, const TypeSpec& spec) {
  Type* t = new Type();
  t->type = I.t.type;
  incref(I.t.type);
  I.heap.link(t, sizeof(Type));
  // The interpreter keeps native types alive for its whole life (teardown frees them).
  init_native_type(I, t, spec);
  return t;
}

// ---- object -------------------------------------------------------------------------------------------

static Value object_alloc(Interp& I, Type* cls) {
  auto o = I.make<Object>(cls);
  return o.take_value();
}

Value alloc_instance(Interp& I, Type* cls) {
  if (!cls->alloc) raisef(I, I.exc.TypeError, "cannot create '{}' instances", cls->name_view());
  Value v = cls->alloc(I, cls);
  if ((cls->flags & kTypeInstanceDict) && v.is_obj() && !v.obj()->dict)
    v.obj()->dict = new_dict_ref(I).release();
  return v;
}

static bool excess_args(const Args& a) { return a.npos > 0 || a.nkw > 0; }

static void object_init(Interp& I, const Value& self, const Args& a);

static Value object_new(Interp& I, Type* cls, const Args& a) {
  if (excess_args(a)) {
    if (cls->slots.new_ != &object_new)
      raise(I, I.exc.TypeError, "object.__new__() takes exactly one argument (the type to instantiate)");
    if (cls->slots.init == &object_init)
      raisef(I, I.exc.TypeError, "{}() takes no arguments", cls->name_view());
  }
  if (cls->flags & kTypeAbstract) {
    Value am = type_lookup(cls, I.names.__abstractmethods__);
    std::vector<std::string> names;
    if (am) for_each(I, am, [&](const Value& n) { names.push_back(str_string(I, n)); });
    std::sort(names.begin(), names.end());
    std::string joined;
    for (auto& n : names) joined += (joined.empty() ? "" : ", ") + n;
    raisef(I, I.exc.TypeError, "Can't instantiate abstract class {} with abstract method{} {}",
           cls->name_view(), names.size() == 1 ? "" : "s", joined);
  }
  return alloc_instance(I, cls);
}

static void object_init(Interp& I, const Value& self, const Args& a) {
  Type* t = I.type_of(self);
  if (excess_args(a)) {
    if (t->slots.init != &object_init)
      raise(I, I.exc.TypeError, "object.__init__() takes exactly one argument (the instance to initialize)");
    if (t->slots.new_ == &object_new) raisef(I, I.exc.TypeError, "{}() takes no arguments", t->name_view());
  }
}

static std::string type_module_name(Interp& I, Type* t) {
  Value m = dict_get_str(t->dict, I.names.__module__);
  if (m && is_str(m)) return as_str(m)->s;
  return "builtins";
}

static Value object_repr(Interp& I, const Value& self) {
  Type* t = I.type_of(self);
  std::string mod = type_module_name(I, t);
  const void* addr = self.is_obj() ? static_cast<const void*>(self.obj()) : nullptr;
  if (mod == "builtins")
    return I.str(fmt::format("<{} object at {}>", t->qualname, addr));
  return I.str(fmt::format("<{}.{} object at {}>", mod, t->qualname, addr));
}

static Value object_str(Interp& I, const Value& self) {
  UnaryFn r = I.type_of(self)->slots.repr;
  return r ? r(I, self) : object_repr(I, self);
}

static int64_t object_hash(Interp& I, const Value& self) {
  if (!self.is_obj()) return static_cast<int64_t>(self.raw_bits());
  uintptr_t p = reinterpret_cast<uintptr_t>(self.obj());
  int64_t h = static_cast<int64_t>((p >> 4) | (p << (8 * sizeof(p) - 4)));
  return h == -1 ? -2 : h;
}

static Value object_eq(Interp& I, const Value& self, const Value& other) {
  return self.is(other) ? Value::boolean(true) : I.notimplemented;
}

static Value object_ne(Interp& I, const Value& self, const Value& other) {
  // object.__ne__ delegates to __eq__ and inverts it (unless NotImplemented).
  BinaryFn eqf = I.type_of(self)->slots.eq;
  if (!eqf) return I.notimplemented;
  Value r = eqf(I, self, other);
  if (r.is(I.notimplemented)) return r;
  return Value::boolean(!is_true(I, r));
}

static Value object_richcmp_ni(Interp& I, const Value&, const Value&) { return I.notimplemented; }

static Value object_format(Interp& I, const Value& self, const Value& spec) {
  if (is_str(spec) && !as_str(spec)->s.empty())
    raisef(I, I.exc.TypeError, "unsupported format string passed to {}.__format__", type_name(I, self));
  return to_str(I, self);
}

static Value object_getattribute(Interp& I, const Value& self, Str* name) {
  return generic_getattr(I, self, name);
}
static void object_setattr(Interp& I, const Value& self, Str* name, const Value& v) {
  generic_setattr(I, self, name, v);
}
static void object_delattr(Interp& I, const Value& self, Str* name) { generic_delattr(I, self, name); }

static Value object_class_get(Interp& I, const Value& self) { return Value::borrow(I.type_of(self)); }
static void object_class_set(Interp& I, const Value& self, const Value& v) {
  if (!is_type(v)) raisef(I, I.exc.TypeError, "__class__ must be set to a class, not '{}' object", type_name(I, v));
  Type* nt = as_type(v);
  Type* ot = I.type_of(self);
  // CPython also lets a module become an instance of a ModuleType subclass (lazy modules:
  // `sys.modules[__name__].__class__ = _LazyModule`).
  bool module_subclass = ot->is_subtype_of(I.t.module) && nt->is_subtype_of(I.t.module);
  if (!self.is_obj() || !nt->is_heap() || (!ot->is_heap() && !module_subclass) || nt->layout != ot->layout)
    raisef(I, I.exc.TypeError, "__class__ assignment only supported for mutable types or ModuleType subclasses");
  incref(nt);
  Object* o = self.obj();
  Type* old = o->type;
  o->type = nt;
  decref(old);
}

static Value object_dict_get(Interp& I, const Value& self) {
  if (!self.is_obj() || !self.obj()->dict)
    raisef(I, I.exc.AttributeError, "'{}' object has no attribute '__dict__'", type_name(I, self));
  return Value::borrow(self.obj()->dict);
}
static void object_dict_set(Interp& I, const Value& self, const Value& v) {
  if (!self.is_obj() || !self.obj()->dict)
    raisef(I, I.exc.AttributeError, "'{}' object has no attribute '__dict__'", type_name(I, self));
  if (!is_dict(v)) raisef(I, I.exc.TypeError, "__dict__ must be set to a dictionary, not a '{}'", type_name(I, v));
  Object* o = self.obj();
  Dict* old = o->dict;
  o->dict = as_dict(v);
  incref(o->dict);
  decref(old);
}

static Value object_init_subclass(Interp& I, const Value& cls, const Args& a) {
  if (a.npos || a.nkw)
    raisef(I, I.exc.TypeError, "{}.__init_subclass__() takes no keyword arguments",
           is_type(cls) ? as_type(cls)->name_view() : "object");
  return Value::none();
}

static Value object_subclasshook(Interp& I, const Value&, const Args&) { return I.notimplemented; }

static Value object_dir(Interp& I, const Value& self, const Args& a) {
  Ref<Set> names = Ref<Set>::adopt(static_cast<Set*>(new_set(I).release_obj()));
  if (self.is_obj() && self.obj()->dict) set_update(I, names.get(), Value::borrow(self.obj()->dict));
  for (Type* m : I.type_of(self)->mro)
    if (m->dict) set_update(I, names.get(), Value::borrow(m->dict));
  return names.take_value();
}

static Value object_reduce_ex(Interp& I, const Value& self, const Args& a) {
  raisef(I, I.exc.TypeError, "cannot pickle '{}' object", type_name(I, self));
}

static Value object_sizeof(Interp& I, const Value& self, const Args& a) {
  return Value::integer(self.is_obj() ? self.obj()->heap_bytes : 24);
}

// ---- type -----------------------------------------------------------------------------------------------

static Value type_call(Interp& I, const Value& self, const Args& a) {
  Type* t = as_type(self);
  if (t == I.t.type && a.npos == 1 && a.nkw == 0) return Value::borrow(I.type_of(a[0]));
  if (!t->slots.new_) raisef(I, I.exc.TypeError, "cannot create '{}' instances", t->name_view());
  Value obj = t->slots.new_(I, t, a);
  Type* ot = I.type_of(obj);
  if (!ot->is_subtype_of(t)) return obj;
  if (ot->slots.init) ot->slots.init(I, obj, a);
  return obj;
}

static Value type_repr(Interp& I, const Value& self) {
  Type* t = as_type(self);
  std::string mod = type_module_name(I, t);
  if (mod == "builtins") return I.str(fmt::format("<class '{}'>", t->qualname));
  return I.str(fmt::format("<class '{}.{}'>", mod, t->qualname));
}

static Value type_getattribute(Interp& I, const Value& self, Str* name) {
  Type* cls = as_type(self);
  Type* meta = I.type_of(self);
  Value meta_attr = type_lookup(meta, name);
  DescrGetFn meta_get = nullptr;
  if (meta_attr) {
    Type* mt = I.type_of(meta_attr);
    meta_get = mt->slots.get;
    if (meta_get && (mt->slots.set || mt->slots.delete_)) return meta_get(I, meta_attr, self, Value::borrow(meta));
  }
  Value attr = type_lookup(cls, name);
  if (attr) {
    DescrGetFn g = I.type_of(attr)->slots.get;
    if (g) return g(I, attr, Value(), self);
    return attr;
  }
  if (meta_get) return meta_get(I, meta_attr, self, Value::borrow(meta));
  return meta_attr;
}

static void set_abstract_flag(Interp& I, Type* t, const Value& v) {
  bool abstract = false;
  if (v) {
    Truth tr = truth(I, v);
    abstract = tr == kTrue;
  }
  if (abstract)
    t->flags |= kTypeAbstract;
  else
    t->flags &= ~kTypeAbstract;
}

void extend_native_type(Interp& I, Type* t, Str* name, const Value& v) {
  dict_set_str(I, t->dict, name, v);
  type_modified(I, t);
}

static void type_setattr(Interp& I, const Value& self, Str* name, const Value& v) {
  Type* t = as_type(self);
  // Data descriptors of the metatype (__name__, __doc__, ...) first.
  Value meta_attr = type_lookup(I.type_of(self), name);
  if (meta_attr) {
    Type* mt = I.type_of(meta_attr);
    if (mt->slots.set) {
      mt->slots.set(I, meta_attr, self, v);
      return;
    }
  }
  if (!t->is_heap())
    raisef(I, I.exc.TypeError, "cannot set '{}' attribute of immutable type '{}'", name->s, t->name_view());
  dict_set_str(I, t->dict, name, v);
  type_modified(I, t);
  if (name == I.names.__abstractmethods__) set_abstract_flag(I, t, v);
  if (name->s.size() > 4 && name->s.compare(0, 2, "__") == 0) {
    std::vector<Type*> todo{t};
    while (!todo.empty()) {
      Type* x = todo.back();
      todo.pop_back();
      update_slots(I, x);
      for (Type* s : x->subclasses) todo.push_back(s);
    }
  }
}

static void type_delattr(Interp& I, const Value& self, Str* name) {
  Type* t = as_type(self);
  if (name->s == "__bases__")  // CPython's wording, for heap types too
    raisef(I, I.exc.TypeError, "cannot delete '__bases__' attribute of immutable type '{}'", t->name_view());
  if (!t->is_heap())
    raisef(I, I.exc.TypeError, "cannot set '{}' attribute of immutable type '{}'", name->s, t->name_view());
  if (!dict_del(I, t->dict, Value::borrow(name)))
    raisef(I, I.exc.AttributeError, "type object '{}' has no attribute '{}'", t->name_view(), name->s);
  type_modified(I, t);
  if (name == I.names.__abstractmethods__) set_abstract_flag(I, t, Value());
  if (name->s.size() > 4 && name->s.compare(0, 2, "__") == 0) {
    std::vector<Type*> todo{t};
    while (!todo.empty()) {
      Type* x = todo.back();
      todo.pop_back();
      update_slots(I, x);
      for (Type* s : x->subclasses) todo.push_back(s);
    }
  }
}

// The __dict__ and __weakref__ attributes a class statement adds to the first class of a hierarchy.
static Value instance_dict_getset(Interp& I) {
  auto gs = I.make<GetSet>(I.t.getset);
  gs->name = "__dict__";
  gs->get = &object_dict_get;
  gs->set = &object_dict_set;
  gs->owner = I.t.object;
  return gs.take_value();
}
static Value weakref_get(Interp& I, const Value& self) { return Value::none(); }
static Value instance_weakref_getset(Interp& I) {
  auto gs = I.make<GetSet>(I.t.getset);
  gs->name = "__weakref__";
  gs->get = &weakref_get;
  gs->owner = I.t.object;
  return gs.take_value();
}

Type* calculate_metaclass(Interp& I, Type* meta, const std::vector<Value>& bases) {
  Type* winner = meta;
  for (const Value& b : bases) {
    Type* bt = I.type_of(b);
    if (winner->is_subtype_of(bt)) continue;
    if (bt->is_subtype_of(winner)) {
      winner = bt;
      continue;
    }
    raise(I, I.exc.TypeError,
          "metaclass conflict: the metaclass of a derived class must be a (non-strict) subclass of the "
          "metaclasses of all its bases");
  }
  return winner;
}

Value type_new_impl(Interp& I, Type* meta, Str* name, const std::vector<Value>& bases_in, Dict* ns,
                    const Args& kwargs) {
  std::vector<Type*> bases;
  for (const Value& b : bases_in) {
    if (!is_type(b)) raisef(I, I.exc.TypeError, "bases must be types");
    Type* bt = as_type(b);
    if (!(bt->flags & kTypeBase))
      raisef(I, I.exc.TypeError, "type '{}' is not an acceptable base type", bt->name_view());
    if (std::find(bases.begin(), bases.end(), bt) != bases.end())
      raisef(I, I.exc.TypeError, "duplicate base class {}", bt->name_view());
    bases.push_back(bt);
  }
  if (bases.empty()) bases.push_back(I.t.object);
  // The solid base decides the instance layout; two different native layouts cannot mix. Native
  // types that add nothing to their base's layout (OSError and ValueError over BaseException)
  // share it, as in CPython.
  auto layout_root = [](Type* t) {
    while (!t->bases.empty() && t->bases[0]->layout == t->layout && t->bases[0]->alloc == t->alloc) t = t->bases[0];
    return t;
  };
  Type* solid = I.t.object;
  for (Type* b : bases) {
    Type* s = b->solid ? b->solid : I.t.object;
    if (s->layout == Layout::Object) continue;
    if (solid->layout == Layout::Object || s->is_subtype_of(solid)) {
      solid = s;
    } else if (!solid->is_subtype_of(s) && layout_root(solid) != layout_root(s)) {
      raise(I, I.exc.TypeError, "multiple bases have instance lay-out conflict");
    }
  }

  Type* t = new Type();
  t->type = meta;
  incref(meta);
  I.heap.link(t, sizeof(Type));
  Value result = Value::adopt_raw(t);
  t->name = name;
  incref(name);
  t->qualname = name->s;
  for (Type* b : bases) {
    incref(b);
    t->bases.push_back(b);
  }
  t->solid = solid;
  t->layout = solid->layout;
  t->alloc = solid->alloc;
  t->flags = kTypeHeap | kTypeBase | kTypeInstanceDict | kTypeReady;
  std::vector<Type*> mro = compute_mro(I, t);
  t->mro.clear();
  for (size_t i = 0; i < mro.size(); ++i) {
    if (i) incref(mro[i]);
    t->mro.push_back(mro[i]);
  }
  for (Type* b : bases) b->subclasses.push_back(t);

  Ref<Dict> d = dict_copy(I, ns);
  t->dict = d.release();
  Value qn = dict_get_str(t->dict, I.names.__qualname__);
  if (qn) {
    if (!is_str(qn)) raisef(I, I.exc.TypeError, "type __qualname__ must be a str, not {}", type_name(I, qn));
    t->qualname = as_str(qn)->s;
    dict_del(I, t->dict, Value::borrow(I.names.__qualname__));
  }
  if (!dict_get_str(t->dict, I.names.__module__)) {
    Value modname;
    if (I.frame) {
      extern Value frame_global_name(Interp & I);
      modname = frame_global_name(I);
    }
    if (modname) dict_set_str(I, t->dict, I.names.__module__, modname);
  }
  // The first class statement in a hierarchy gets __dict__ and __weakref__ (a subclass of dict or
  // list too, as in CPython), unless a native base already gives them (functions, modules).
  bool base_has_dict = false;
  for (size_t i = 1; i < t->mro.size(); ++i)
    if (t->mro[i]->is_heap() || (t->mro[i]->dict && dict_get_str(t->mro[i]->dict, I.names.__dict__)))
      base_has_dict = true;
  if (!base_has_dict) {
    if (!dict_get_str(t->dict, I.names.__dict__)) dict_set_str(I, t->dict, I.names.__dict__, instance_dict_getset(I));
    if (!dict_get_str(t->dict, I.names.__weakref__))
      dict_set_str(I, t->dict, I.names.__weakref__, instance_weakref_getset(I));
  }
  if (!dict_get_str(t->dict, I.names.__doc__)) dict_set_str(I, t->dict, I.names.__doc__, Value::none());
  // __new__ is implicitly a staticmethod; __init_subclass__ and __class_getitem__ classmethods.
  Value nf = dict_get_str(t->dict, I.names.__new__);
  if (nf && has_layout(nf, Layout::Function)) {
    auto sm = I.make<StaticMethod>(I.t.staticmethod);
    sm->func = nf;
    dict_set_str(I, t->dict, I.names.__new__, sm.take_value());
  }
  for (Str* cm : {I.names.__init_subclass__, I.names.__class_getitem__}) {
    Value f = dict_get_str(t->dict, cm);
    if (f && has_layout(f, Layout::Function)) {
      auto c = I.make<ClassMethod>(I.t.classmethod);
      c->func = f;
      dict_set_str(I, t->dict, cm, c.take_value());
    }
  }
  if (dict_get_str(t->dict, I.names.__eq__) && !dict_get_str(t->dict, I.names.__hash__))
    dict_set_str(I, t->dict, I.names.__hash__, Value::none());
  Value cell = dict_get_str(t->dict, I.names.__classcell__);
  if (cell) {
    if (has_layout(cell, Layout::Cell)) as<Cell>(cell)->v = result;
    dict_del(I, t->dict, Value::borrow(I.names.__classcell__));
  }
  Value am = dict_get_str(t->dict, I.names.__abstractmethods__);
  if (am) set_abstract_flag(I, t, am);

  type_modified(I, t);
  update_slots(I, t);

  // __set_name__ on every attribute that has one (a snapshot: the calls may change the dict).
  std::vector<std::pair<Value, Value>> attrs;
  for (auto& e : t->dict->entries)
    if (!e.key.is_null()) attrs.emplace_back(e.key, e.value);
  for (auto& [k, v] : attrs) {
    Value sn = type_lookup(I.type_of(v), I.names.__set_name__);
    if (sn) call_unbound(I, sn, v, result, k);
  }
  // super(t, t).__init_subclass__(**kwargs)
  for (size_t i = 1; i < t->mro.size(); ++i) {
    Type* m = t->mro[i];
    if (!m->dict) continue;
    Value f = dict_get_str(m->dict, I.names.__init_subclass__);
    if (!f) continue;
    Value bound = bind_descriptor(I, f, Value(), t);
    if (f.is_obj() && f.obj()->type == I.t.method_descriptor) bound = f;  // object's: a classmethod
    Args ka = kwargs;
    if (f.is_obj() && f.obj()->type == I.t.method_descriptor) {
      as<NativeFunc>(f)->fn(I, result, ka);
    } else {
      call(I, bound, ka);
    }
    break;
  }
  return result;
}

static Value type_new(Interp& I, Type* meta, const Args& a) {
  if (meta == I.t.type && a.npos == 1 && a.nkw == 0) {
    if (is_poison(a[0])) return derive_poison(I, a[0], "type(" + poison_operand(I, a[0]) + ")");
    return Value::borrow(I.type_of(a[0]));
  }
  if (a.npos != 3) raise(I, I.exc.TypeError, "type() takes 1 or 3 arguments");
  if (!is_str(a[0]))
    raisef(I, I.exc.TypeError, "type.__new__() argument 1 must be str, not {}", type_name(I, a[0]));
  if (!is_tuple(a[1]))
    raisef(I, I.exc.TypeError, "type.__new__() argument 2 must be tuple, not {}", type_name(I, a[1]));
  if (!is_dict(a[2]))
    raisef(I, I.exc.TypeError, "type.__new__() argument 3 must be dict, not {}", type_name(I, a[2]));
  std::vector<Value> bases = as_tuple(a[1])->items;
  Type* winner = calculate_metaclass(I, meta, bases);
  if (winner != meta && winner->slots.new_ != &type_new) return winner->slots.new_(I, winner, a);
  Args kw = a;
  kw.npos = 0;
  kw.pos = nullptr;
  return type_new_impl(I, winner, as_str(a[0]), bases, as_dict(a[2]), kw);
}

static void type_init(Interp& I, const Value& self, const Args& a) {
  if (a.npos != 1 && a.npos != 3) raise(I, I.exc.TypeError, "type.__init__() takes 1 or 3 arguments");
}

static Value type_name_get(Interp& I, const Value& self) { return Value::borrow(as_type(self)->name); }
static void type_name_set(Interp& I, const Value& self, const Value& v) {
  Type* t = as_type(self);
  if (!t->is_heap()) raisef(I, I.exc.TypeError, "cannot set '__name__' attribute of immutable type '{}'", t->name_view());
  if (!is_str(v)) raisef(I, I.exc.TypeError, "can only assign string to {}.__name__, not '{}'", t->name_view(), type_name(I, v));
  Str* old = t->name;
  t->name = as_str(v);
  incref(t->name);
  decref(old);
}
static Value type_qualname_get(Interp& I, const Value& self) { return I.str(as_type(self)->qualname); }
static void type_qualname_set(Interp& I, const Value& self, const Value& v) {
  if (!is_str(v)) raise(I, I.exc.TypeError, "can only assign string to __qualname__");
  as_type(self)->qualname = as_str(v)->s;
}
static Value type_module_get(Interp& I, const Value& self) {
  Type* t = as_type(self);
  Value m = dict_get_str(t->dict, I.names.__module__);
  return m ? m : I.str("builtins");
}
static void type_module_set(Interp& I, const Value& self, const Value& v) {
  Type* t = as_type(self);
  if (!t->is_heap()) raisef(I, I.exc.TypeError, "cannot set '__module__' attribute of immutable type '{}'", t->name_view());
  dict_set_str(I, t->dict, I.names.__module__, v);
  type_modified(I, t);
}
static Value type_bases_get(Interp& I, const Value& self) {
  std::vector<Value> v;
  for (Type* b : as_type(self)->bases) v.push_back(Value::borrow(b));
  return new_tuple(I, std::move(v));
}
// `cls.__bases__ = (...)`: code that mixes a base into a class after the fact (fairseq's
// with_incremental_state). Heap types only; the instance layout must stay what it is (CPython checks
// the same); the MRO of the class and of every subclass is recomputed, and their slots with it.
static void replace_mro(Type* t, const std::vector<Type*>& mro) {
  for (size_t i = 1; i < t->mro.size(); ++i) decref(t->mro[i]);
  t->mro.clear();
  for (size_t i = 0; i < mro.size(); ++i) {
    if (i) incref(mro[i]);
    t->mro.push_back(mro[i]);
  }
}

static void type_bases_set(Interp& I, const Value& self, const Value& v) {
  Type* t = as_type(self);
  if (!t->is_heap()) raisef(I, I.exc.TypeError, "cannot set '__bases__' attribute of immutable type '{}'", t->name_view());
  if (!v) raisef(I, I.exc.TypeError, "cannot delete '__bases__' attribute of immutable type '{}'", t->name_view());
  if (!is_tuple(v))
    raisef(I, I.exc.TypeError, "can only assign tuple to {}.__bases__, not {}", t->name_view(), type_name(I, v));
  const std::vector<Value>& items = as_tuple(v)->items;
  if (items.empty()) raisef(I, I.exc.TypeError, "can only assign non-empty tuple to {}.__bases__, not ()", t->name_view());
  std::vector<Type*> bases;
  for (const Value& b : items) {
    if (!is_type(b))
      raisef(I, I.exc.TypeError, "{}.__bases__ must be tuple of classes, not '{}'", t->name_view(), type_name(I, b));
    Type* bt = as_type(b);
    if (bt == t || bt->is_subtype_of(t)) raise(I, I.exc.TypeError, "a __bases__ item causes an inheritance cycle");
    Type* s = bt->solid ? bt->solid : I.t.object;
    if (s->layout != t->layout && s->layout != Layout::Object)
      raisef(I, I.exc.TypeError, "__bases__ assignment: '{}' object layout differs from '{}'", bt->name_view(),
             t->name_view());
    bases.push_back(bt);
  }
  std::vector<Type*> old_bases = t->bases;
  t->bases = bases;
  std::vector<Type*> mro;
  try {
    mro = compute_mro(I, t);
  } catch (...) {
    t->bases = old_bases;
    throw;
  }
  for (Type* b : bases) incref(b);
  for (Type* b : old_bases) {
    auto& subs = b->subclasses;
    subs.erase(std::remove(subs.begin(), subs.end(), t), subs.end());
    decref(b);
  }
  for (Type* b : bases) b->subclasses.push_back(t);
  replace_mro(t, mro);
  // Subclasses inherit through this class: their MROs and slots change too.
  std::vector<Type*> todo{t};
  while (!todo.empty()) {
    Type* x = todo.back();
    todo.pop_back();
    if (x != t) replace_mro(x, compute_mro(I, x));
    update_slots(I, x);
    for (Type* sub : x->subclasses) todo.push_back(sub);
  }
  type_modified(I, t);
}

static Value type_base_get(Interp& I, const Value& self) {
  Type* t = as_type(self);
  if (t->bases.empty()) return Value::none();
  // CPython's __base__ is the solid base; for the usual single inheritance it is the first base.
  for (Type* b : t->bases)
    if (b->solid == t->solid || t->solid == b) return Value::borrow(b);
  return Value::borrow(t->bases[0]);
}
static Value type_mro_get(Interp& I, const Value& self) {
  std::vector<Value> v;
  for (Type* b : as_type(self)->mro) v.push_back(Value::borrow(b));
  return new_tuple(I, std::move(v));
}
extern Value new_mappingproxy(Interp& I, const Value& d);
static Value type_dict_get(Interp& I, const Value& self) {
  return new_mappingproxy(I, Value::borrow(as_type(self)->dict));
}
static Value type_doc_get(Interp& I, const Value& self) {
  Value d = dict_get_str(as_type(self)->dict, I.names.__doc__);
  if (!d) return Value::none();
  DescrGetFn g = I.type_of(d)->slots.get;
  if (g) return g(I, d, Value(), self);
  return d;
}
static void type_doc_set(Interp& I, const Value& self, const Value& v) {
  Type* t = as_type(self);
  if (!t->is_heap()) raisef(I, I.exc.TypeError, "cannot set '__doc__' attribute of immutable type '{}'", t->name_view());
  dict_set_str(I, t->dict, I.names.__doc__, v);
  type_modified(I, t);
}
static Value type_abstract_get(Interp& I, const Value& self) {
  Type* t = as_type(self);
  Value v = t != I.t.type ? dict_get_str(t->dict, I.names.__abstractmethods__) : Value();
  if (!v) raise(I, I.exc.AttributeError, "__abstractmethods__");
  return v;
}
static void type_abstract_set(Interp& I, const Value& self, const Value& v) {
  Type* t = as_type(self);
  if (v.is_null()) {
    if (!dict_del(I, t->dict, Value::borrow(I.names.__abstractmethods__)))
      raise(I, I.exc.AttributeError, "__abstractmethods__");
  } else {
    dict_set_str(I, t->dict, I.names.__abstractmethods__, v);
  }
  set_abstract_flag(I, t, v);
  type_modified(I, t);
}
static Value type_annotations_get(Interp& I, const Value& self) {
  Type* t = as_type(self);
  Value v = dict_get_str(t->dict, I.names.__annotations__);
  if (v) return v;
  if (!t->is_heap()) raisef(I, I.exc.AttributeError, "type object '{}' has no attribute '__annotations__'", t->name_view());
  Value d = new_dict(I);
  dict_set_str(I, t->dict, I.names.__annotations__, d);
  type_modified(I, t);
  return d;
}
static void type_annotations_set(Interp& I, const Value& self, const Value& v) {
  Type* t = as_type(self);
  if (v.is_null())
    dict_del(I, t->dict, Value::borrow(I.names.__annotations__));
  else
    dict_set_str(I, t->dict, I.names.__annotations__, v);
  type_modified(I, t);
}

static Value type_mro_method(Interp& I, const Value& self, const Args& a) {
  std::vector<Value> v;
  for (Type* b : as_type(self)->mro) v.push_back(Value::borrow(b));
  return new_list(I, std::move(v));
}
static Value type_subclasses(Interp& I, const Value& self, const Args& a) {
  std::vector<Value> v;
  for (Type* s : as_type(self)->subclasses) v.push_back(Value::borrow(s));
  return new_list(I, std::move(v));
}
static Value type_instancecheck(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "__instancecheck__", 1, 1);
  return Value::boolean(isinstance(I, a[0], as_type(self)) ||
                        (I.type_of(a[0]) != nullptr &&
                         [&] {
                           Value c = getattr_opt(I, a[0], I.names.__class__);
                           return c && is_type(c) && as_type(c)->is_subtype_of(as_type(self));
                         }()));
}
static Value type_subclasscheck(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "__subclasscheck__", 1, 1);
  if (!is_type(a[0])) raise(I, I.exc.TypeError, "issubclass() arg 1 must be a class");
  return Value::boolean(as_type(a[0])->is_subtype_of(as_type(self)));
}
static Value type_prepare(Interp& I, const Value& self, const Args& a) { return new_dict(I); }
static Value type_dir(Interp& I, const Value& self, const Args& a) {
  Ref<Set> names = Ref<Set>::adopt(static_cast<Set*>(new_set(I).release_obj()));
  for (Type* m : as_type(self)->mro)
    if (m->dict) set_update(I, names.get(), Value::borrow(m->dict));
  return names.take_value();
}

extern Value make_union(Interp& I, const Value& a, const Value& b);
static Value type_or(Interp& I, const Value& self, const Value& other) { return make_union(I, self, other); }
static Value type_ror(Interp& I, const Value& self, const Value& other) { return make_union(I, other, self); }

static Value type_alloc(Interp& I, Type* cls) {
  raisef(I, I.exc.TypeError, "cannot create '{}' instances directly", cls->name_view());
}

static Value object_alloc_checked(Interp& I, Type* cls) { return object_alloc(I, cls); }

void init_object_types(Interp& I) {
  {
    TypeSpec s;
    s.name = "object";
    s.layout = Layout::Object;
    s.alloc = &object_alloc_checked;
    s.slots.repr = &object_repr;
    s.slots.str = &object_str;
    s.slots.hash = &object_hash;
    s.slots.eq = &object_eq;
    s.slots.ne = &object_ne;
    s.slots.lt = &object_richcmp_ni;
    s.slots.le = &object_richcmp_ni;
    s.slots.gt = &object_richcmp_ni;
    s.slots.ge = &object_richcmp_ni;
    s.slots.getattribute = &object_getattribute;
    s.slots.setattr = &object_setattr;
    s.slots.delattr = &object_delattr;
    s.slots.init = &object_init;
    s.slots.new_ = &object_new;
    s.slots.format = &object_format;
    s.methods = {
        {"__init_subclass__", &object_init_subclass, kNativeClass},
        {"__subclasshook__", &object_subclasshook, kNativeClass},
        {"__dir__", &object_dir},
        {"__reduce_ex__", &object_reduce_ex},
        {"__reduce__", &object_reduce_ex},
        {"__sizeof__", &object_sizeof},
    };
    s.getsets = {{"__class__", &object_class_get, &object_class_set}};
    init_native_type(I, I.t.object, s);
  }
  {
    TypeSpec s;
    s.name = "type";
    s.layout = Layout::Type;
    s.alloc = &type_alloc;
    s.slots.call = &type_call;
    s.slots.repr = &type_repr;
    s.slots.getattribute = &type_getattribute;
    s.slots.setattr = &type_setattr;
    s.slots.delattr = &type_delattr;
    s.slots.new_ = &type_new;
    s.slots.init = &type_init;
    s.slots.or_ = &type_or;
    s.slots.ror = &type_ror;
    s.methods = {
        {"mro", &type_mro_method},
        {"__subclasses__", &type_subclasses},
        {"__instancecheck__", &type_instancecheck},
        {"__subclasscheck__", &type_subclasscheck},
        {"__prepare__", &type_prepare, kNativeClass},
        {"__dir__", &type_dir},
    };
    s.getsets = {
        {"__name__", &type_name_get, &type_name_set},
        {"__qualname__", &type_qualname_get, &type_qualname_set},
        {"__module__", &type_module_get, &type_module_set},
        {"__bases__", &type_bases_get, &type_bases_set},
        {"__base__", &type_base_get},
        {"__mro__", &type_mro_get},
        {"__dict__", &type_dict_get},
        {"__doc__", &type_doc_get, &type_doc_set},
        {"__abstractmethods__", &type_abstract_get, &type_abstract_set},
        {"__annotations__", &type_annotations_get, &type_annotations_set},
    };
    init_native_type(I, I.t.type, s);
    // `type` instances have a namespace dict (the class dict), kept in Object::dict.
  }
}


}  // namespace onnxify::eval
