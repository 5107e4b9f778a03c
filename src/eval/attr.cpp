// Attribute access: the descriptor protocol, object.__getattribute__/__setattr__, getattr with the
// __getattr__ fallback, and calling a class attribute as a method.
#include "eval/internal.h"
#include "eval/loader.h"

namespace onnxify::eval {

bool is_data_descriptor(Interp& I, const Value& d) {
  Type* t = I.type_of(d);
  return t->slots.set != nullptr || t->slots.delete_ != nullptr;
}

Value bind_descriptor(Interp& I, const Value& attr, const Value& obj, Type* owner) {
  DescrGetFn g = I.type_of(attr)->slots.get;
  if (!g) return attr;
  return g(I, attr, obj, Value::borrow(owner));
}

Value generic_getattr(Interp& I, const Value& o, Str* name) {
  Type* t = I.type_of(o);
  Value descr = type_lookup(t, name);
  DescrGetFn get = nullptr;
  if (descr) {
    Type* dt = I.type_of(descr);
    get = dt->slots.get;
    if (get && (dt->slots.set || dt->slots.delete_)) return get(I, descr, o, Value::borrow(t));
  }
  if (o.is_obj() && o.obj()->dict) {
    Value v = dict_get_str(o.obj()->dict, name);
    if (v) return v;
  }
  if (get) return get(I, descr, o, Value::borrow(t));
  return descr;
}

void generic_setattr(Interp& I, const Value& o, Str* name, const Value& v) {
  Type* t = I.type_of(o);
  Value descr = type_lookup(t, name);
  if (descr) {
    DescrSetFn set = I.type_of(descr)->slots.set;
    if (set) {
      set(I, descr, o, v);
      return;
    }
  }
  if (o.is_obj() && o.obj()->dict) {
    dict_set_str(I, o.obj()->dict, name, v);
    return;
  }
  if (descr) raisef(I, I.exc.AttributeError, "'{}' object attribute '{}' is read-only", t->name_view(), name->s);
  raisef(I, I.exc.AttributeError, "'{}' object has no attribute '{}'", t->name_view(), name->s);
}

void generic_delattr(Interp& I, const Value& o, Str* name) {
  Type* t = I.type_of(o);
  Value descr = type_lookup(t, name);
  if (descr) {
    DescrDeleteFn del = I.type_of(descr)->slots.delete_;
    if (del) {
      del(I, descr, o);
      return;
    }
  }
  if (o.is_obj() && o.obj()->dict) {
    if (dict_del(I, o.obj()->dict, Value::borrow(name))) return;
    raisef(I, I.exc.AttributeError, "'{}' object has no attribute '{}'", t->name_view(), name->s);
  }
  if (descr) raisef(I, I.exc.AttributeError, "'{}' object attribute '{}' is read-only", t->name_view(), name->s);
  raisef(I, I.exc.AttributeError, "'{}' object has no attribute '{}'", t->name_view(), name->s);
}

void raise_no_attribute(Interp& I, const Value& o, Str* name) {
  if (is_type(o))
    raisef(I, I.exc.AttributeError, "type object '{}' has no attribute '{}'", as_type(o)->name_view(), name->s);
  if (has_layout(o, Layout::Module)) {
    Value mn = o.obj()->dict ? dict_get_str(o.obj()->dict, I.names.__name__) : Value();
    if (mn && is_str(mn)) {
      const std::string& m = as_str(mn)->s;
      // CPython's hints for circular imports.
      if (I.loader().initializing(m + "." + name->s))
        raisef(I, I.exc.AttributeError,
               "cannot access submodule '{}' of module '{}' (most likely due to a circular import)", name->s, m);
      if (I.loader().initializing(m))
        raisef(I, I.exc.AttributeError,
               "partially initialized module '{}' has no attribute '{}' (most likely due to a circular import)", m,
               name->s);
      raisef(I, I.exc.AttributeError, "module '{}' has no attribute '{}'", m, name->s);
    }
    raisef(I, I.exc.AttributeError, "module has no attribute '{}'", name->s);
  }
  raisef(I, I.exc.AttributeError, "'{}' object has no attribute '{}'", type_name(I, o), name->s);
}

Value getattr(Interp& I, const Value& o, Str* name) {
  Type* t = I.type_of(o);
  Value r = t->slots.getattribute(I, o, name);
  if (r) return r;
  if (t->flags & kTypeHasGetattr) {
    Value f = type_lookup(t, I.names.__getattr__);
    if (f) return call_unbound(I, f, o, Value::borrow(name));
  }
  raise_no_attribute(I, o, name);
}

Value call_function_with_self(Interp& I, Function* f, const Value& self, const Args& a);
Value call_function_with_self(Interp& I, Function* f, const Value& self, const Args& a, Value* raised);

Value getattr_opt(Interp& I, const Value& o, Str* name) {
  Type* t = I.type_of(o);
  // (A module's getattribute may call its Python-level __getattr__: not a fast path.)
  if (!t->is_heap() && !(t->flags & kTypeHasGetattr) && !is_type(o) && t->layout != Layout::Module) {
    // Native types without Python code in the path report absence without raising.
    return t->slots.getattribute(I, o, name);
  }
  try {
    Value r = t->slots.getattribute(I, o, name);
    if (r) return r;
    if (t->flags & kTypeHasGetattr) {
      Value f = type_lookup(t, I.names.__getattr__);
      if (f && f.is_obj() && f.obj()->type == I.t.function) {
        // A __getattr__ written in Python usually ends in `raise AttributeError(...)`: take that
        // exception back as a value (what call_unbound would do, without a C++ exception).
        Value arg = Value::borrow(name);
        Value raised;
        Value r = call_function_with_self(I, as<Function>(f), o, Args(&arg, 1), &raised);
        if (!raised) return r;
        if (isinstance(I, raised, I.exc.AttributeError)) return Value();
        throw PyException{raised};
      }
      if (f) return call_unbound(I, f, o, Value::borrow(name));
    }
  } catch (PyException& e) {
    if (!isinstance(I, e.exc, I.exc.AttributeError)) throw;
  }
  return Value();
}

void setattr(Interp& I, const Value& o, Str* name, const Value& v) {
  Type* t = I.type_of(o);
  if (!t->slots.setattr) raisef(I, I.exc.AttributeError, "'{}' object has no attribute '{}'", t->name_view(), name->s);
  t->slots.setattr(I, o, name, v);
}

void delattr(Interp& I, const Value& o, Str* name) {
  Type* t = I.type_of(o);
  if (!t->slots.delattr) raisef(I, I.exc.AttributeError, "'{}' object has no attribute '{}'", t->name_view(), name->s);
  t->slots.delattr(I, o, name);
}

// ---- calling class attributes as methods -------------------------------------------------------------



Value call_unbound(Interp& I, const Value& f, const Value& self, const Args& a) {
  if (f.is_obj()) {
    Type* ft = f.obj()->type;
    if (ft == I.t.function) return call_function_with_self(I, as<Function>(f), self, a);
    if (ft == I.t.method_descriptor) {
      auto* nf = as<NativeFunc>(f);
      if (nf->flags & kNativeMethod) return nf->fn(I, self, a);
    }
    if (ft == I.t.slot_wrapper) {
      auto* w = as<SlotWrapper>(f);
      if (w->self.is_null()) {
        const char* nm = slot_table()[static_cast<size_t>(w->slot)].dunder;
        return call_slot(I, w->owner, w->slot, self, a, nm);
      }
    }
  }
  Value bound = bind_descriptor(I, f, self, I.type_of(self));
  return call(I, bound, a);
}

Value call_unbound(Interp& I, const Value& f, const Value& self) { return call_unbound(I, f, self, Args()); }
Value call_unbound(Interp& I, const Value& f, const Value& self, const Value& a0) {
  return call_unbound(I, f, self, Args(&a0, 1));
}
Value call_unbound(Interp& I, const Value& f, const Value& self, const Value& a0, const Value& a1) {
  Value v[2] = {a0, a1};
  return call_unbound(I, f, self, Args(v, 2));
}

Value call_method(Interp& I, const Value& o, Str* name, const Args& a) {
  Type* t = I.type_of(o);
  if (t->slots.getattribute == I.t.object->slots.getattribute) {
    Value descr = type_lookup(t, name);
    if (descr && descr.is_obj()) {
      Type* dt = descr.obj()->type;
      bool plain = dt == I.t.function || (dt == I.t.method_descriptor && (as<NativeFunc>(descr)->flags & kNativeMethod));
      if (plain && !(o.is_obj() && o.obj()->dict && dict_find_str(o.obj()->dict, name) >= 0))
        return call_unbound(I, descr, o, a);
    }
  }
  Value m = getattr(I, o, name);
  return call(I, m, a);
}

Value call_method(Interp& I, const Value& o, Str* name) { return call_method(I, o, name, Args()); }
Value call_method(Interp& I, const Value& o, Str* name, const Value& a0) {
  return call_method(I, o, name, Args(&a0, 1));
}
Value call_method(Interp& I, const Value& o, Str* name, const Value& a0, const Value& a1) {
  Value v[2] = {a0, a1};
  return call_method(I, o, name, Args(v, 2));
}

Value call_special(Interp& I, const Value& o, Str* name, const Args& a) {
  Value f = type_lookup(I.type_of(o), name);
  if (!f) return Value();
  return call_unbound(I, f, o, a);
}

}  // namespace onnxify::eval
