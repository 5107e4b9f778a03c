// The callable and descriptor types: function, bound method, builtin functions and method
// descriptors, slot wrappers, getset descriptors, property, staticmethod, classmethod, super; plus
// cell, module, and the typing helpers list[int] (GenericAlias) and int | None (UnionType).
#include "eval/internal.h"
#include "eval/poison.h"

namespace onnxify::eval {

extern Value call_function(Interp& I, Function* f, const Args& a);
extern Value call_function_with_self(Interp& I, Function* f, const Value& self, const Args& a);

static std::string module_of(Interp& I, const Value& v) {
  Value m = getattr_opt(I, v, I.names.__module__);
  return m && is_str(m) ? as_str(m)->s : "";
}

// ---- function -------------------------------------------------------------------------------------------

static Value function_call(Interp& I, const Value& self, const Args& a) { return call_function(I, as<Function>(self), a); }

static Value function_get(Interp& I, const Value& self, const Value& obj, const Value& owner) {
  if (obj.is_null()) return self;
  auto m = I.make<Method>(I.t.method);
  m->func = self;
  m->self = obj;
  return m.take_value();
}

static Value function_repr(Interp& I, const Value& self) {
  auto* f = as<Function>(self);
  return I.str(fmt::format("<function {} at {}>", str_string(I, f->qualname), static_cast<const void*>(f)));
}

static void function_setattr(Interp& I, const Value& self, Str* name, const Value& v) {
  if (!self.obj()->dict) self.obj()->dict = new_dict_ref(I).release();
  generic_setattr(I, self, name, v);
}

#define FN_GETSET(field)                                                             \
  static Value fn_get_##field(Interp& I, const Value& self) { return as<Function>(self)->field; } \
  static void fn_set_##field(Interp& I, const Value& self, const Value& v) {         \
    as<Function>(self)->field = v.is_null() ? Value::none() : v;                       \
  }
FN_GETSET(name)
FN_GETSET(qualname)
FN_GETSET(doc)
FN_GETSET(module)

static Value fn_get_annotations(Interp& I, const Value& self) {
  auto* f = as<Function>(self);
  if (f->annotations.is_null() || f->annotations.is_none()) f->annotations = new_dict(I);
  return f->annotations;
}
static void fn_set_annotations(Interp& I, const Value& self, const Value& v) { as<Function>(self)->annotations = v; }

static Value fn_get_defaults(Interp& I, const Value& self) {
  auto* f = as<Function>(self);
  if (f->defaults.empty()) return Value::none();
  return new_tuple(I, f->defaults);
}
static void fn_set_defaults(Interp& I, const Value& self, const Value& v) {
  auto* f = as<Function>(self);
  if (v.is_null() || v.is_none()) {
    f->defaults.clear();
    return;
  }
  if (!is_tuple(v)) raise(I, I.exc.TypeError, "__defaults__ must be set to a tuple object");
  f->defaults = as_tuple(v)->items;
}
static Value fn_get_kwdefaults(Interp& I, const Value& self) {
  auto* f = as<Function>(self);
  if (!f->kwdefaults || f->kwdefaults->used == 0) return Value::none();
  return f->kwdefaults.value();
}
static void fn_set_kwdefaults(Interp& I, const Value& self, const Value& v) {
  auto* f = as<Function>(self);
  if (v.is_null() || v.is_none()) {
    f->kwdefaults = nullptr;
    return;
  }
  if (!is_dict(v)) raise(I, I.exc.TypeError, "__kwdefaults__ must be set to a dict object");
  f->kwdefaults = Ref<Dict>(as_dict(v));
}
static Value fn_get_globals(Interp& I, const Value& self) { return as<Function>(self)->globals.value(); }
static Value fn_get_closure(Interp& I, const Value& self) {
  auto* f = as<Function>(self);
  if (f->closure.empty()) return Value::none();
  std::vector<Value> cells;
  for (auto& c : f->closure) cells.push_back(c.value());
  return new_tuple(I, std::move(cells));
}
extern Value function_code_object(Interp& I, Function* f);
static Value fn_get_code(Interp& I, const Value& self) { return function_code_object(I, as<Function>(self)); }
static Value fn_get_builtins(Interp& I, const Value& self) { return as<Function>(self)->builtins; }
static Value fn_get_dict(Interp& I, const Value& self) {
  I.give_instance_dict(self.obj());
  return Value::borrow(self.obj()->dict);
}
static void fn_set_dict(Interp& I, const Value& self, const Value& v) {
  if (!is_dict(v)) raise(I, I.exc.TypeError, "__dict__ must be set to a dictionary");
  Dict* old = self.obj()->dict;
  self.obj()->dict = as_dict(v);
  incref(self.obj()->dict);
  if (old) decref(old);
}

// ---- bound method ------------------------------------------------------------------------------------------

static Value method_call(Interp& I, const Value& self, const Args& a) {
  auto* m = as<Method>(self);
  if (has_layout(m->func, Layout::Function) && m->func.obj()->type == I.t.function)
    return call_function_with_self(I, as<Function>(m->func), m->self, a);
  uint32_t n = a.npos + 1;
  Value small[8];
  std::vector<Value> big;
  Value* buf = small;
  if (n > 8) {
    big.resize(n);
    buf = big.data();
  }
  buf[0] = m->self;
  for (uint32_t k = 0; k < a.npos; ++k) buf[k + 1] = a.pos[k];
  Args b = a;
  b.pos = buf;
  b.npos = n;
  return call(I, m->func, b);
}

static Value method_getattribute(Interp& I, const Value& self, Str* name) {
  auto* m = as<Method>(self);
  if (name == I.names.func_dunder) return m->func;
  if (name == I.names.__self__) return m->self;
  Value r = generic_getattr(I, self, name);
  if (r) return r;
  return getattr_opt(I, m->func, name);
}

static Value method_repr(Interp& I, const Value& self) {
  auto* m = as<Method>(self);
  Value qn = getattr_opt(I, m->func, I.names.__qualname__);
  if (!qn) qn = getattr_opt(I, m->func, I.names.__name__);
  return I.str(fmt::format("<bound method {} of {}>", qn ? str_string(I, qn) : "?", repr_string(I, m->self)));
}

static Value method_eq_impl(Interp& I, const Value& self, const Value& other, bool ne) {
  if (!has_layout(other, Layout::Method)) return I.notimplemented;
  auto* a = as<Method>(self);
  auto* b = as<Method>(other);
  bool same = a->self.is(b->self) && eq(I, a->func, b->func);
  return Value::boolean(ne ? !same : same);
}
static Value method_eq(Interp& I, const Value& s, const Value& o) { return method_eq_impl(I, s, o, false); }
static Value method_ne(Interp& I, const Value& s, const Value& o) { return method_eq_impl(I, s, o, true); }
static int64_t method_hash(Interp& I, const Value& self) {
  auto* m = as<Method>(self);
  return hash(I, m->func) ^ static_cast<int64_t>(reinterpret_cast<uintptr_t>(m->self.is_obj() ? m->self.obj() : nullptr) >> 4);
}
static Value method_get(Interp& I, const Value& self, const Value& obj, const Value& owner) { return self; }

// ---- builtin functions and method descriptors -------------------------------------------------------------

static Value builtin_call(Interp& I, const Value& self, const Args& a) {
  auto* nf = as<NativeFunc>(self);
  if (nf->flags & kNativePoisonTransparent)
    if (const Value* p = first_poison_arg(a)) return transparent_call_result(I, *p, nf->name);
  return nf->fn(I, nf->self, a);
}

static Value builtin_repr(Interp& I, const Value& self) {
  auto* nf = as<NativeFunc>(self);
  if (nf->self.is_null() || has_layout(nf->self, Layout::Module))
    return I.str(fmt::format("<built-in function {}>", nf->name));
  if (is_type(nf->self))
    return I.str(fmt::format("<built-in method {} of type object at {}>", nf->name, static_cast<const void*>(nf->self.obj())));
  return I.str(fmt::format("<built-in method {} of {} object at {}>", nf->name, type_name(I, nf->self),
                           static_cast<const void*>(nf->self.is_obj() ? nf->self.obj() : nullptr)));
}

static Value native_name(Interp& I, const Value& self) { return I.str(as<NativeFunc>(self)->name); }
static Value native_qualname(Interp& I, const Value& self) {
  auto* nf = as<NativeFunc>(self);
  if (nf->owner) return I.str(fmt::format("{}.{}", nf->owner->name_view(), nf->name));
  return I.str(nf->name);
}
static Value native_self(Interp& I, const Value& self) {
  auto* nf = as<NativeFunc>(self);
  if (nf->self.is_null()) return Value::none();
  return nf->self;
}
static Value native_doc(Interp& I, const Value& self) {
  auto* nf = as<NativeFunc>(self);
  return nf->doc ? I.str(nf->doc) : Value::none();
}
static Value native_module(Interp& I, const Value& self) {
  auto* nf = as<NativeFunc>(self);
  if (nf->data && is_str(nf->data)) return nf->data;
  if (nf->self.is_null()) return I.str("builtins");
  return Value::none();
}
static Value native_objclass(Interp& I, const Value& self) {
  auto* nf = as<NativeFunc>(self);
  return nf->owner ? Value::borrow(nf->owner) : Value::none();
}

static Value method_descr_get(Interp& I, const Value& self, const Value& obj, const Value& owner) {
  auto* nf = as<NativeFunc>(self);
  if (nf->flags & kNativeStatic) {
    return new_native(I, nf->name, nf->fn, Value(), nf->data, 0, nf->doc);
  }
  if (nf->flags & kNativeClass) {
    Value cls = owner ? owner : Value::borrow(I.type_of(obj));
    Value f = new_native(I, nf->name, nf->fn, cls, nf->data, 0, nf->doc);
    as<NativeFunc>(f)->owner = nf->owner;
    return f;
  }
  if (obj.is_null()) return self;
  Value f = new_native(I, nf->name, nf->fn, obj, nf->data, 0, nf->doc);
  as<NativeFunc>(f)->owner = nf->owner;
  return f;
}

static Value method_descr_call(Interp& I, const Value& self, const Args& a) {
  auto* nf = as<NativeFunc>(self);
  if (nf->flags & kNativeStatic) return nf->fn(I, Value(), a);
  if (nf->flags & kNativeClass) {
    if (a.npos < 1) raisef(I, I.exc.TypeError, "descriptor '{}' of '{}' object needs an argument", nf->name, nf->owner ? nf->owner->name_view() : "?");
    return nf->fn(I, a[0], a.shifted());
  }
  if (a.npos < 1)
    raisef(I, I.exc.TypeError, "unbound method {}.{}() needs an argument", nf->owner ? nf->owner->name_view() : "?", nf->name);
  if (nf->owner && !isinstance(I, a[0], nf->owner))
    raisef(I, I.exc.TypeError, "descriptor '{}' for '{}' objects doesn't apply to a '{}' object", nf->name,
           nf->owner->name_view(), type_name(I, a[0]));
  return nf->fn(I, a[0], a.shifted());
}

static Value method_descr_repr(Interp& I, const Value& self) {
  auto* nf = as<NativeFunc>(self);
  if (nf->flags & kNativeClass)
    return I.str(fmt::format("<method '{}' of '{}' objects>", nf->name, nf->owner ? nf->owner->name_view() : "?"));
  return I.str(fmt::format("<method '{}' of '{}' objects>", nf->name, nf->owner ? nf->owner->name_view() : "?"));
}

// ---- slot wrappers ----------------------------------------------------------------------------------------

static Value slot_wrapper_call(Interp& I, const Value& self, const Args& a) {
  auto* w = as<SlotWrapper>(self);
  const char* name = slot_table()[static_cast<size_t>(w->slot)].dunder;
  if (w->self) return call_slot(I, w->owner, w->slot, w->self, a, name);
  if (a.npos < 1)
    raisef(I, I.exc.TypeError, "descriptor '{}' of '{}' object needs an argument", name, w->owner->name_view());
  if (w->slot != SlotId::new_ && !isinstance(I, a[0], w->owner))
    raisef(I, I.exc.TypeError, "descriptor '{}' requires a '{}' object but received a '{}'", name,
           w->owner->name_view(), type_name(I, a[0]));
  return call_slot(I, w->owner, w->slot, a[0], a.shifted(), name);
}

static Value slot_wrapper_get(Interp& I, const Value& self, const Value& obj, const Value& owner) {
  auto* w = as<SlotWrapper>(self);
  if (obj.is_null() || w->slot == SlotId::new_ || w->self) return self;
  auto b = I.make<SlotWrapper>(I.t.method_wrapper);
  b->slot = w->slot;
  b->owner = w->owner;
  b->self = obj;
  return b.take_value();
}

static Value slot_wrapper_repr(Interp& I, const Value& self) {
  auto* w = as<SlotWrapper>(self);
  const char* name = slot_table()[static_cast<size_t>(w->slot)].dunder;
  if (w->self)
    return I.str(fmt::format("<method-wrapper '{}' of {} object at {}>", name, type_name(I, w->self),
                             static_cast<const void*>(w->self.is_obj() ? w->self.obj() : nullptr)));
  if (w->slot == SlotId::new_) return I.str(fmt::format("<built-in method __new__ of type object at {}>", static_cast<const void*>(w->owner)));
  return I.str(fmt::format("<slot wrapper '{}' of '{}' objects>", name, w->owner->name_view()));
}
static Value slot_wrapper_name(Interp& I, const Value& self) {
  return I.str(slot_table()[static_cast<size_t>(as<SlotWrapper>(self)->slot)].dunder);
}
static Value slot_wrapper_objclass(Interp& I, const Value& self) { return Value::borrow(as<SlotWrapper>(self)->owner); }
static Value slot_wrapper_self(Interp& I, const Value& self) {
  auto* w = as<SlotWrapper>(self);
  return w->self ? w->self : Value::none();
}
static Value slot_wrapper_qualname(Interp& I, const Value& self) {
  auto* w = as<SlotWrapper>(self);
  return I.str(fmt::format("{}.{}", w->owner->name_view(), slot_table()[static_cast<size_t>(w->slot)].dunder));
}
static Value slot_wrapper_eq(Interp& I, const Value& self, const Value& other) {
  if (!other.is_obj() || (other.obj()->type != I.t.slot_wrapper && other.obj()->type != I.t.method_wrapper))
    return I.notimplemented;
  auto* a = as<SlotWrapper>(self);
  auto* b = as<SlotWrapper>(other);
  return Value::boolean(a->slot == b->slot && a->owner == b->owner && a->self.is(b->self));
}
static int64_t slot_wrapper_hash(Interp& I, const Value& self) {
  auto* w = as<SlotWrapper>(self);
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(w->owner) >> 4) ^ static_cast<int64_t>(w->slot);
}

// ---- getset descriptors ---------------------------------------------------------------------------------

static Value getset_get(Interp& I, const Value& self, const Value& obj, const Value& owner) {
  auto* g = as<GetSet>(self);
  if (obj.is_null()) return self;
  if (g->owner && !isinstance(I, obj, g->owner))
    raisef(I, I.exc.TypeError, "descriptor '{}' for '{}' objects doesn't apply to a '{}' object", g->name,
           g->owner->name_view(), type_name(I, obj));
  return g->get(I, obj);
}
static void getset_set(Interp& I, const Value& self, const Value& obj, const Value& v) {
  auto* g = as<GetSet>(self);
  if (!g->set)
    raisef(I, I.exc.AttributeError, "attribute '{}' of '{}' objects is not writable", g->name,
           g->owner ? g->owner->name_view() : type_name(I, obj));
  g->set(I, obj, v);
}
static void getset_delete(Interp& I, const Value& self, const Value& obj) { getset_set(I, self, obj, Value()); }
static Value getset_repr(Interp& I, const Value& self) {
  auto* g = as<GetSet>(self);
  return I.str(fmt::format("<attribute '{}' of '{}' objects>", g->name, g->owner ? g->owner->name_view() : "?"));
}
static Value getset_name(Interp& I, const Value& self) { return I.str(as<GetSet>(self)->name); }
static Value getset_objclass(Interp& I, const Value& self) {
  auto* g = as<GetSet>(self);
  return g->owner ? Value::borrow(g->owner) : Value::none();
}

// ---- property ----------------------------------------------------------------------------------------------

static Value property_alloc(Interp& I, Type* cls) { return I.make<Property>(cls).take_value(); }
static Value property_new(Interp& I, Type* cls, const Args& a) {
  Value p = alloc_instance(I, cls);
  auto* pr = as<Property>(p);
  pr->fget = pr->fset = pr->fdel = pr->doc = Value::none();
  return p;
}
static void property_init(Interp& I, const Value& self, const Args& a) {
  static const Signature sig("property", "fget=, fset=, fdel=, doc=");
  Value v[4];
  sig.bind(I, a, v);
  auto* p = as<Property>(self);
  p->fget = v[0] ? v[0] : Value::none();
  p->fset = v[1] ? v[1] : Value::none();
  p->fdel = v[2] ? v[2] : Value::none();
  p->doc = v[3] ? v[3] : Value::none();
  if (p->doc.is_none() && !p->fget.is_none()) {
    Value d = getattr_opt(I, p->fget, I.names.__doc__);
    if (d) p->doc = d;
  }
  if (self.obj()->type != I.t.property && !p->doc.is_none()) {
    // Subclasses keep the doc in the instance dict, as CPython does.
    if (self.obj()->dict) dict_set_str(I, self.obj()->dict, I.names.__doc__, p->doc);
  }
}
static std::string property_name_for(Interp& I, Property* p) {
  if (p->name && is_str(p->name)) return as_str(p->name)->s;
  if (!p->fget.is_none()) {
    Value n = getattr_opt(I, p->fget, I.names.__name__);
    if (n && is_str(n)) return as_str(n)->s;
  }
  return "";
}
static Value property_get(Interp& I, const Value& self, const Value& obj, const Value& owner) {
  auto* p = as<Property>(self);
  if (obj.is_null()) return self;
  if (p->fget.is_none())
    raisef(I, I.exc.AttributeError, "property '{}' of '{}' object has no getter", property_name_for(I, p), type_name(I, obj));
  return call(I, p->fget, obj);
}
static void property_set(Interp& I, const Value& self, const Value& obj, const Value& v) {
  auto* p = as<Property>(self);
  if (p->fset.is_none())
    raisef(I, I.exc.AttributeError, "property '{}' of '{}' object has no setter", property_name_for(I, p), type_name(I, obj));
  call(I, p->fset, obj, v);
}
static void property_delete(Interp& I, const Value& self, const Value& obj) {
  auto* p = as<Property>(self);
  if (p->fdel.is_none())
    raisef(I, I.exc.AttributeError, "property '{}' of '{}' object has no deleter", property_name_for(I, p), type_name(I, obj));
  call(I, p->fdel, obj);
}
static Value property_copy(Interp& I, const Value& self, int which, const Value& f) {
  auto* p = as<Property>(self);
  Value args[4] = {p->fget, p->fset, p->fdel, p->doc};
  args[which] = f;
  if (which == 0 && !p->doc.is_none()) {
    Value fd = getattr_opt(I, p->fget, I.names.__doc__);
    if (fd && p->doc.is(fd)) args[3] = Value::none();
  }
  Value np = call(I, Value::borrow(I.type_of(self)), Args(args, 4));
  if (has_layout(np, I.type_of(self)->layout) && p->name) as<Property>(np)->name = p->name;
  return np;
}
static Value property_getter(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "getter", 1, 1);
  return property_copy(I, self, 0, a[0]);
}
static Value property_setter(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "setter", 1, 1);
  return property_copy(I, self, 1, a[0]);
}
static Value property_deleter(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "deleter", 1, 1);
  return property_copy(I, self, 2, a[0]);
}
static Value property_set_name(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "__set_name__", 2, 2);
  as<Property>(self)->name = a[1];
  return Value::none();
}
static Value property_fget(Interp& I, const Value& self) { return as<Property>(self)->fget; }
static Value property_fset(Interp& I, const Value& self) { return as<Property>(self)->fset; }
static Value property_fdel(Interp& I, const Value& self) { return as<Property>(self)->fdel; }
static Value property_doc(Interp& I, const Value& self) { return as<Property>(self)->doc; }
static void property_doc_set(Interp& I, const Value& self, const Value& v) { as<Property>(self)->doc = v; }
static Value property_isabstract(Interp& I, const Value& self) {
  auto* p = as<Property>(self);
  for (const Value* f : {&p->fget, &p->fset, &p->fdel}) {
    if (f->is_none()) continue;
    Value v = getattr_opt(I, *f, I.names.__isabstractmethod__);
    if (v && is_true(I, v)) return Value::boolean(true);
  }
  return Value::boolean(false);
}

// ---- staticmethod / classmethod -------------------------------------------------------------------------------

static Value sm_alloc(Interp& I, Type* cls) { return I.make<StaticMethod>(cls).take_value(); }
static Value cm_alloc(Interp& I, Type* cls) { return I.make<ClassMethod>(cls).take_value(); }
static Value sm_new(Interp& I, Type* cls, const Args& a) { return alloc_instance(I, cls); }
static void sm_init(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "staticmethod", 1, 1);
  as<StaticMethod>(self)->func = a[0];
}
static void cm_init(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "classmethod", 1, 1);
  as<ClassMethod>(self)->func = a[0];
}
static Value sm_get(Interp& I, const Value& self, const Value& obj, const Value& owner) {
  return as<StaticMethod>(self)->func;
}
static Value sm_call(Interp& I, const Value& self, const Args& a) { return call(I, as<StaticMethod>(self)->func, a); }
static Value cm_get(Interp& I, const Value& self, const Value& obj, const Value& owner) {
  Value cls = owner ? owner : Value::borrow(I.type_of(obj));
  Value f = as<ClassMethod>(self)->func;
  auto m = I.make<Method>(I.t.method);
  m->func = f;
  m->self = cls;
  return m.take_value();
}
static Value sm_func(Interp& I, const Value& self) { return as<StaticMethod>(self)->func; }
static Value cm_func(Interp& I, const Value& self) { return as<ClassMethod>(self)->func; }
static Value sm_repr(Interp& I, const Value& self) {
  return I.str(fmt::format("<staticmethod({})>", repr_string(I, as<StaticMethod>(self)->func)));
}
static Value cm_repr(Interp& I, const Value& self) {
  return I.str(fmt::format("<classmethod({})>", repr_string(I, as<ClassMethod>(self)->func)));
}
static Value wrapped_isabstract(Interp& I, const Value& func) {
  Value v = getattr_opt(I, func, I.names.__isabstractmethod__);
  return Value::boolean(v && is_true(I, v));
}
static Value sm_isabstract(Interp& I, const Value& self) { return wrapped_isabstract(I, as<StaticMethod>(self)->func); }
static Value cm_isabstract(Interp& I, const Value& self) { return wrapped_isabstract(I, as<ClassMethod>(self)->func); }
// functools.wraps-style attributes pass through to the wrapped function.
static Value sm_getattribute(Interp& I, const Value& self, Str* name) {
  Value r = generic_getattr(I, self, name);
  if (r) return r;
  if (name == I.names.__name__ || name == I.names.__qualname__ || name == I.names.__doc__ || name == I.names.__wrapped__) {
    Value f = has_layout(self, Layout::Other) && I.type_of(self)->is_subtype_of(I.t.classmethod) ? as<ClassMethod>(self)->func
                                                                                                 : as<StaticMethod>(self)->func;
    if (name == I.names.__wrapped__) return f;
    return getattr_opt(I, f, name);
  }
  return Value();
}

// ---- super ---------------------------------------------------------------------------------------------------

struct SuperObj : Object {
  Value thisclass;  // the class after which the search starts
  Value obj;       // the instance (or class)
  Value obj_type;  // the class whose MRO is searched
};

extern bool frame_super_args(Interp& I, Value* type, Value* obj);

static Value super_alloc(Interp& I, Type* cls) { return I.make<SuperObj>(cls).take_value(); }
// super(C, obj) of an unknown class or object (a class of an opaque module: truststore's
// super(ssl.SSLContext, ssl.SSLContext)) is unknown too, not a TypeError.
static Value super_new(Interp& I, Type* cls, const Args& a) {
  for (uint32_t k = 0; k < a.npos && k < 2; ++k)
    if (is_poison(a[k])) return derive_poison(I, a[k], "super(" + poison_operand(I, a[k]) + ", ...)");
  return alloc_instance(I, cls);
}

static Type* super_check(Interp& I, Type* type, const Value& obj) {
  if (is_type(obj) && as_type(obj)->is_subtype_of(type)) return as_type(obj);
  Type* t = I.type_of(obj);
  if (t->is_subtype_of(type)) return t;
  Value cls = getattr_opt(I, obj, I.names.__class__);
  if (cls && is_type(cls) && as_type(cls)->is_subtype_of(type)) return as_type(cls);
  raise(I, I.exc.TypeError, "super(type, obj): obj must be an instance or subtype of type");
}

static void super_init(Interp& I, const Value& self, const Args& a) {
  if (a.nkw) raise(I, I.exc.TypeError, "super() takes no keyword arguments");
  Value type, obj;
  if (a.npos == 0) {
    if (!frame_super_args(I, &type, &obj)) raise(I, I.exc.RuntimeError, "super(): no arguments");
  } else {
    type = a[0];
    if (a.npos > 1) obj = a[1];
    if (a.npos > 2) raisef(I, I.exc.TypeError, "super() takes at most 2 arguments ({} given)", a.npos);
  }
  if (!is_type(type)) raisef(I, I.exc.TypeError, "super() argument 1 must be a type, not {}", type_name(I, type));
  auto* s = as<SuperObj>(self);
  s->thisclass = type;
  if (obj && !obj.is_none()) {
    Type* ot = super_check(I, as_type(type), obj);
    s->obj = obj;
    s->obj_type = Value::borrow(ot);
  }
}

static Value super_getattribute(Interp& I, const Value& self, Str* name) {
  auto* s = as<SuperObj>(self);
  if (s->obj_type && name != I.names.__class__) {
    Type* start = as_type(s->obj_type);
    Type* after = as_type(s->thisclass);
    const auto& mro = start->mro;
    size_t i = 0;
    while (i < mro.size() && mro[i] != after) ++i;
    for (++i; i < mro.size(); ++i) {
      Type* m = mro[i];
      if (!m->dict) continue;
      Value attr = dict_get_str(m->dict, name);
      if (!attr) continue;
      DescrGetFn g = I.type_of(attr)->slots.get;
      if (!g) return attr;
      Value inst = s->obj.is_obj() && s->obj.obj() == start ? Value() : s->obj;
      return g(I, attr, inst, Value::borrow(start));
    }
  }
  return generic_getattr(I, self, name);
}

static Value super_get(Interp& I, const Value& self, const Value& obj, const Value& owner) {
  auto* s = as<SuperObj>(self);
  if (obj.is_null() || s->obj) return self;
  Value ns = alloc_instance(I, I.t.super_);
  Value args[2] = {s->thisclass, obj};
  super_init(I, ns, Args(args, 2));
  return ns;
}

static Value super_repr(Interp& I, const Value& self) {
  auto* s = as<SuperObj>(self);
  std::string t = s->thisclass ? repr_string(I, s->thisclass) : "NULL";
  if (s->obj_type) return I.str(fmt::format("<super: {}, <{} object>>", t, as_type(s->obj_type)->name_view()));
  return I.str(fmt::format("<super: {}, NULL>", t));
}
static Value super_thisclass(Interp& I, const Value& self) { return as<SuperObj>(self)->thisclass; }
static Value super_self(Interp& I, const Value& self) {
  auto* s = as<SuperObj>(self);
  return s->obj ? s->obj : Value::none();
}
static Value super_self_class(Interp& I, const Value& self) {
  auto* s = as<SuperObj>(self);
  return s->obj_type ? s->obj_type : Value::none();
}

// ---- cell and module ------------------------------------------------------------------------------------------

static Value cell_contents(Interp& I, const Value& self) {
  auto* c = as<Cell>(self);
  if (!c->v) raise(I, I.exc.ValueError, "Cell is empty");
  return c->v;
}
static void cell_contents_set(Interp& I, const Value& self, const Value& v) { as<Cell>(self)->v = v; }

static Value module_getattribute(Interp& I, const Value& self, Str* name) {
  Value r = generic_getattr(I, self, name);
  if (r) return r;
  // PEP 562: a module-level __getattr__ function.
  if (self.obj()->dict) {
    Value ga = dict_get_str(self.obj()->dict, I.names.__getattr__);
    if (ga) return call(I, ga, Value::borrow(name));
  }
  return Value();
}
static Value module_repr(Interp& I, const Value& self) {
  Dict* d = self.obj()->dict;
  Value name = d ? dict_get_str(d, I.names.__name__) : Value();
  Value file = d ? dict_get_str(d, I.names.__file__) : Value();
  std::string n = name && is_str(name) ? as_str(name)->s : "?";
  if (file && is_str(file)) return I.str(fmt::format("<module '{}' from '{}'>", n, as_str(file)->s));
  return I.str(fmt::format("<module '{}'>", n));
}
static Value module_alloc(Interp& I, Type* cls) {
  auto m = I.make<Module>(cls);
  I.give_instance_dict(m.get());
  return m.take_value();
}
static Value module_new(Interp& I, Type* cls, const Args& a) { return alloc_instance(I, cls); }
static void module_init(Interp& I, const Value& self, const Args& a) {
  static const Signature sig("module", "name, doc=");
  Value v[2];
  sig.bind(I, a, v);
  auto* m = as<Module>(self);
  m->name = v[0];
  dict_set_str(I, m->dict, I.names.__name__, v[0]);
  dict_set_str(I, m->dict, I.names.__doc__, v[1] ? v[1] : Value::none());
  dict_set_str(I, m->dict, I.names.__package__, Value::none());
  dict_set_str(I, m->dict, I.names.__loader__, Value::none());
  dict_set_str(I, m->dict, I.names.__spec__, Value::none());
}
// dir(module): the module's own __dir__ function when it defines one (PEP 562), else its names.
static Value module_dir(Interp& I, const Value& self, const Args& a) {
  Value d = Value::borrow(self.obj()->dict);
  Value f = dict_get_str(self.obj()->dict, I.names.__dir__);
  if (f) return call(I, f, Args());
  return new_list(I, to_vector(I, d));
}
static Value module_dict_get(Interp& I, const Value& self) { return Value::borrow(self.obj()->dict); }

// ---- GenericAlias (list[int]) and UnionType (int | None) -------------------------------------------------------

struct Alias : Object {
  Value origin;
  Value args;  // tuple
};

static std::string type_repr_for_alias(Interp& I, const Value& v) {
  if (v.is(I.ellipsis)) return "...";
  if (is_type(v)) {
    Type* t = as_type(v);
    std::string mod = module_of(I, v);
    if (mod == "builtins" || mod.empty()) return t->qualname;
    return mod + "." + t->qualname;
  }
  return repr_string(I, v);
}


Value generic_alias(Interp& I, const Value& origin, const Value& args) {
  auto a = I.make<Alias>(I.t.generic_alias);
  a->origin = origin;
  a->args = is_tuple(args) ? args : new_tuple(I, {args});
  return a.take_value();
}

static Value alias_new(Interp& I, Type* cls, const Args& a) {
  check_nargs(I, a, "GenericAlias", 2, 2);
  return generic_alias(I, a[0], a[1]);
}
static Value alias_repr(Interp& I, const Value& self) {
  auto* a = as<Alias>(self);
  std::string out = type_repr_for_alias(I, a->origin) + "[";
  const auto& items = as_tuple(a->args)->items;
  if (items.empty()) out += "()";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += type_repr_for_alias(I, items[i]);
  }
  return I.str(out + "]");
}
static Value alias_call(Interp& I, const Value& self, const Args& a) { return call(I, as<Alias>(self)->origin, a); }
static Value alias_getattribute(Interp& I, const Value& self, Str* name) {
  auto* a = as<Alias>(self);
  if (name == I.names.__origin__) return a->origin;
  if (name == I.names.__args__) return a->args;
  if (name == I.names.__parameters__) return Value::borrow(I.empty_tuple.get());
  if (name == I.names.__class__) return Value::borrow(I.type_of(self));
  Value r = generic_getattr(I, self, name);
  if (r) return r;
  return getattr_opt(I, a->origin, name);
}
static Value alias_eq(Interp& I, const Value& self, const Value& other) {
  if (!other.is_obj() || other.obj()->type != I.t.generic_alias) return I.notimplemented;
  auto* a = as<Alias>(self);
  auto* b = as<Alias>(other);
  return Value::boolean(eq(I, a->origin, b->origin) && eq(I, a->args, b->args));
}
static int64_t alias_hash(Interp& I, const Value& self) {
  auto* a = as<Alias>(self);
  return hash(I, a->origin) ^ hash(I, a->args);
}
static Value alias_getitem(Interp& I, const Value& self, const Value& key) {
  return generic_alias(I, as<Alias>(self)->origin, key);
}
static Value alias_mro_entries(Interp& I, const Value& self, const Args& a) {
  return new_tuple(I, {as<Alias>(self)->origin});
}

Value make_union(Interp& I, const Value& a, const Value& b) {
  auto ok = [&](const Value& v) {
    return v.is_none() || is_type(v) || (v.is_obj() && (v.obj()->type == I.t.generic_alias || v.obj()->type == I.t.union_type));
  };
  if (!ok(a) || !ok(b)) return I.notimplemented;
  std::vector<Value> args;
  auto add = [&](const Value& v) {
    if (v.is_obj() && v.obj()->type == I.t.union_type) {
      for (const Value& x : as_tuple(as<Alias>(v)->args)->items) {
        bool dup = false;
        for (const Value& y : args)
          if (y.is(x)) dup = true;
        if (!dup) args.push_back(x);
      }
      return;
    }
    Value x = v.is_none() ? Value::borrow(I.t.none) : v;
    for (const Value& y : args)
      if (y.is(x)) return;
    args.push_back(x);
  };
  add(a);
  add(b);
  if (args.size() == 1) return args[0];
  auto u = I.make<Alias>(I.t.union_type);
  u->args = new_tuple(I, std::move(args));
  return u.take_value();
}
static Value union_or(Interp& I, const Value& self, const Value& other) { return make_union(I, self, other); }
static Value union_ror(Interp& I, const Value& self, const Value& other) { return make_union(I, other, self); }
static Value union_repr(Interp& I, const Value& self) {
  std::string out;
  for (const Value& x : as_tuple(as<Alias>(self)->args)->items) {
    if (!out.empty()) out += " | ";
    out += x.is_obj() && x.obj() == I.t.none ? "None" : type_repr_for_alias(I, x);
  }
  return I.str(out);
}
static Value union_args(Interp& I, const Value& self) { return as<Alias>(self)->args; }
static Value union_eq(Interp& I, const Value& self, const Value& other) {
  if (!other.is_obj() || other.obj()->type != I.t.union_type) return I.notimplemented;
  Value a = new_frozenset(I, as<Alias>(self)->args), b = new_frozenset(I, as<Alias>(other)->args);
  return Value::boolean(eq(I, a, b));
}
static int64_t union_hash(Interp& I, const Value& self) { return hash(I, new_frozenset(I, as<Alias>(self)->args)); }
static Value union_instancecheck(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "__instancecheck__", 1, 1);
  for (const Value& x : as_tuple(as<Alias>(self)->args)->items)
    if (isinstance_full(I, a[0], x)) return Value::boolean(true);
  return Value::boolean(false);
}
static Value union_subclasscheck(Interp& I, const Value& self, const Args& a) {
  check_nargs(I, a, "__subclasscheck__", 1, 1);
  for (const Value& x : as_tuple(as<Alias>(self)->args)->items)
    if (issubclass_full(I, a[0], x)) return Value::boolean(true);
  return Value::boolean(false);
}


static Value code_alloc(Interp& I, Type* cls) { return I.make<Object>(cls).take_value(); }
static Value code_repr(Interp& I, const Value& self) {
  Value n = self.obj()->dict ? dict_get(I, self.obj()->dict, "co_name") : Value();
  return I.str(fmt::format("<code object {} at {}>", n ? str_string(I, n) : "?", static_cast<const void*>(self.obj())));
}

// types.FunctionType(code, globals, name=None, argdefs=None, closure=None): a new function of an
// existing function's code (the code object remembers its function; code built at run time does not
// exist here).
static Value function_new(Interp& I, Type* cls, const Args& a) {
  static const Signature sig("function", "code, globals, name=None, argdefs=None, closure=None");
  Value v[5];
  sig.bind(I, a, v);
  Value src = v[0].is_obj() && v[0].obj()->dict ? dict_get(I, v[0].obj()->dict, "__onnxify_function__") : Value();
  if (!src || !has_layout(src, Layout::Function))
    raisef(I, I.exc.TypeError, "function() argument 'code' must be code, not {}", type_name(I, v[0]));
  if (!is_dict(v[1])) raisef(I, I.exc.TypeError, "function() argument 'globals' must be dict, not {}", type_name(I, v[1]));
  Function* from = as<Function>(src);
  auto f = I.make<Function>(I.t.function);
  f->code = from->code;
  f->globals = Ref<Dict>(as_dict(v[1]));
  f->builtins = from->builtins;
  f->name = v[2] && !v[2].is_none() ? v[2] : from->name;
  f->qualname = from->qualname;
  f->doc = from->doc;
  f->module = from->module;
  f->annotations = Value::none();
  if (v[3] && !v[3].is_none()) f->defaults = to_vector(I, v[3]);
  if (v[4] && !v[4].is_none()) {
    for (const Value& c : to_vector(I, v[4])) {
      if (!c.is_obj() || c.obj()->type != I.t.cell) raise(I, I.exc.TypeError, "arg 5 (closure) expected cell");
      f->closure.push_back(Ref<Cell>(as<Cell>(c)));
    }
  }
  if ((!v[4] || v[4].is_none()) && !from->closure.empty()) raise(I, I.exc.TypeError, "arg 5 (closure) must be tuple");
  if (f->closure.size() != from->closure.size())
    raisef(I, I.exc.ValueError, "{} requires closure of length {}, not {}", str_string(I, f->name),
           from->closure.size(), f->closure.size());
  return f.take_value();
}

void init_function_types(Interp& I) {
  {
    TypeSpec s;
    s.name = "code";
    s.flags = kTypeInstanceDict;
    s.alloc = &code_alloc;
    s.slots.repr = &code_repr;
    init_native_type(I, I.t.code, s);
  }
  {
    TypeSpec s;
    s.name = "function";
    s.layout = Layout::Function;
    s.flags = 0;
    s.slots.call = &function_call;
    s.slots.get = &function_get;
    s.slots.repr = &function_repr;
    s.slots.setattr = &function_setattr;
    s.slots.new_ = &function_new;
    s.getsets = {
        {"__name__", &fn_get_name, &fn_set_name},
        {"__qualname__", &fn_get_qualname, &fn_set_qualname},
        {"__doc__", &fn_get_doc, &fn_set_doc},
        {"__module__", &fn_get_module, &fn_set_module},
        {"__annotations__", &fn_get_annotations, &fn_set_annotations},
        {"__defaults__", &fn_get_defaults, &fn_set_defaults},
        {"__kwdefaults__", &fn_get_kwdefaults, &fn_set_kwdefaults},
        {"__globals__", &fn_get_globals},
        {"__closure__", &fn_get_closure},
        {"__code__", &fn_get_code},
        {"__builtins__", &fn_get_builtins},
        {"__dict__", &fn_get_dict, &fn_set_dict},
    };
    init_native_type(I, I.t.function, s);
    // Functions carry a __dict__ (created on first attribute assignment).
    I.t.function->flags |= 0;
  }
  {
    TypeSpec s;
    s.name = "method";
    s.layout = Layout::Method;
    s.flags = 0;
    s.slots.call = &method_call;
    s.slots.getattribute = &method_getattribute;
    s.slots.repr = &method_repr;
    s.slots.eq = &method_eq;
    s.slots.ne = &method_ne;
    s.slots.hash = &method_hash;
    s.slots.get = &method_get;
    init_native_type(I, I.t.method, s);
  }
  for (Type* t : {I.t.builtin_function, I.t.native_closure}) {
    TypeSpec s;
    s.name = "builtin_function_or_method";
    s.layout = Layout::Native;
    s.flags = 0;
    s.slots.call = &builtin_call;
    s.slots.repr = &builtin_repr;
    s.getsets = {{"__name__", &native_name},     {"__qualname__", &native_qualname}, {"__self__", &native_self},
                 {"__doc__", &native_doc},       {"__module__", &native_module}};
    init_native_type(I, t, s);
  }
  {
    TypeSpec s;
    s.name = "method_descriptor";
    s.layout = Layout::Native;
    s.flags = 0;
    s.slots.call = &method_descr_call;
    s.slots.get = &method_descr_get;
    s.slots.repr = &method_descr_repr;
    s.getsets = {{"__name__", &native_name}, {"__qualname__", &native_qualname}, {"__doc__", &native_doc},
                 {"__objclass__", &native_objclass}};
    init_native_type(I, I.t.method_descriptor, s);
  }
  for (Type* t : {I.t.slot_wrapper, I.t.method_wrapper}) {
    TypeSpec s;
    s.name = t == I.t.slot_wrapper ? "wrapper_descriptor" : "method-wrapper";
    s.flags = 0;
    s.slots.call = &slot_wrapper_call;
    s.slots.get = &slot_wrapper_get;
    s.slots.repr = &slot_wrapper_repr;
    s.slots.eq = &slot_wrapper_eq;
    s.slots.hash = &slot_wrapper_hash;
    s.getsets = {{"__name__", &slot_wrapper_name}, {"__objclass__", &slot_wrapper_objclass},
                 {"__self__", &slot_wrapper_self}, {"__qualname__", &slot_wrapper_qualname}};
    init_native_type(I, t, s);
  }
  {
    TypeSpec s;
    s.name = "getset_descriptor";
    s.flags = 0;
    s.slots.get = &getset_get;
    s.slots.set = &getset_set;
    s.slots.delete_ = &getset_delete;
    s.slots.repr = &getset_repr;
    s.getsets = {{"__name__", &getset_name}, {"__objclass__", &getset_objclass}};
    init_native_type(I, I.t.getset, s);
  }
  {
    TypeSpec s;
    s.name = "property";
    s.alloc = &property_alloc;
    s.slots.new_ = &property_new;
    s.slots.init = &property_init;
    s.slots.get = &property_get;
    s.slots.set = &property_set;
    s.slots.delete_ = &property_delete;
    s.methods = {{"getter", &property_getter}, {"setter", &property_setter}, {"deleter", &property_deleter},
                 {"__set_name__", &property_set_name}};
    s.getsets = {{"fget", &property_fget}, {"fset", &property_fset}, {"fdel", &property_fdel},
                 {"__doc__", &property_doc, &property_doc_set}, {"__isabstractmethod__", &property_isabstract}};
    init_native_type(I, I.t.property, s);
  }
  {
    TypeSpec s;
    s.name = "staticmethod";
    s.alloc = &sm_alloc;
    s.slots.new_ = &sm_new;
    s.slots.init = &sm_init;
    s.slots.get = &sm_get;
    s.slots.call = &sm_call;
    s.slots.repr = &sm_repr;
    s.slots.getattribute = &sm_getattribute;
    s.getsets = {{"__func__", &sm_func}, {"__isabstractmethod__", &sm_isabstract}};
    init_native_type(I, I.t.staticmethod, s);
  }
  {
    TypeSpec s;
    s.name = "classmethod";
    s.alloc = &cm_alloc;
    s.slots.new_ = &sm_new;
    s.slots.init = &cm_init;
    s.slots.get = &cm_get;
    s.slots.repr = &cm_repr;
    s.slots.getattribute = &sm_getattribute;
    s.getsets = {{"__func__", &cm_func}, {"__isabstractmethod__", &cm_isabstract}};
    init_native_type(I, I.t.classmethod, s);
  }
  {
    TypeSpec s;
    s.name = "super";
    s.alloc = &super_alloc;
    s.slots.new_ = &super_new;
    s.slots.init = &super_init;
    s.slots.getattribute = &super_getattribute;
    s.slots.get = &super_get;
    s.slots.repr = &super_repr;
    s.getsets = {{"__thisclass__", &super_thisclass}, {"__self__", &super_self}, {"__self_class__", &super_self_class}};
    init_native_type(I, I.t.super_, s);
  }
  {
    TypeSpec s;
    s.name = "cell";
    s.layout = Layout::Cell;
    s.flags = 0;
    s.getsets = {{"cell_contents", &cell_contents, &cell_contents_set}};
    init_native_type(I, I.t.cell, s);
  }
  {
    TypeSpec s;
    s.name = "module";
    s.layout = Layout::Module;
    s.alloc = &module_alloc;
    s.slots.getattribute = &module_getattribute;
    s.slots.repr = &module_repr;
    s.slots.new_ = &module_new;
    s.slots.init = &module_init;
    s.methods = {{"__dir__", &module_dir}};
    s.getsets = {{"__dict__", &module_dict_get}};
    init_native_type(I, I.t.module, s);
    I.t.module->flags |= kTypeInstanceDict;
  }
  {
    TypeSpec s;
    s.name = "GenericAlias";
    s.module = "types";
    s.flags = 0;
    s.slots.new_ = &alias_new;
    s.slots.repr = &alias_repr;
    s.slots.call = &alias_call;
    s.slots.getattribute = &alias_getattribute;
    s.slots.eq = &alias_eq;
    s.slots.hash = &alias_hash;
    s.slots.getitem = &alias_getitem;
    s.slots.or_ = &union_or;
    s.slots.ror = &union_ror;
    s.methods = {{"__mro_entries__", &alias_mro_entries}};
    init_native_type(I, I.t.generic_alias, s);
  }
  {
    TypeSpec s;
    s.name = "UnionType";
    s.module = "types";
    s.flags = 0;
    s.slots.repr = &union_repr;
    s.slots.or_ = &union_or;
    s.slots.ror = &union_ror;
    s.slots.eq = &union_eq;
    s.slots.hash = &union_hash;
    s.methods = {{"__instancecheck__", &union_instancecheck}, {"__subclasscheck__", &union_subclasscheck}};
    s.getsets = {{"__args__", &union_args}};
    init_native_type(I, I.t.union_type, s);
  }
}

}  // namespace onnxify::eval
