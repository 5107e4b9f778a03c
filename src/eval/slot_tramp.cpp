// Both directions between slots and dunders:
//  - trampolines: the slot functions of classes written in Python, which call the dunder found
//    along the MRO (CPython's slot_tp_* / slot_nb_* functions), with CPython's result checks;
//  - call_slot: what a slot wrapper (`object.__init__`, `int.__add__`) does when Python calls it.
#include "eval/internal.h"

namespace onnxify::eval {

// exec_call.cpp: calls in catching mode (a top-level `raise` comes back in *raised).
Value call_function_with_self(Interp& I, Function* f, const Value& self, const Args& a, Value* raised);

namespace {

inline Value lookup_dunder(Interp& I, const Value& self, SlotId id) {
  return type_lookup(I.type_of(self), I.slot_names[static_cast<size_t>(id)]);
}

template <SlotId S>
Value tramp_unary(Interp& I, const Value& self) {
  Value f = lookup_dunder(I, self, S);
  if (!f) return I.notimplemented;
  Value r = call_unbound(I, f, self);
  if constexpr (S == SlotId::repr || S == SlotId::str) {
    if (!is_str(r))
      raisef(I, I.exc.TypeError, "{} returned non-string (type {})", S == SlotId::repr ? "__repr__" : "__str__",
             type_name(I, r));
  } else if constexpr (S == SlotId::index) {
    int64_t v;
    // (A size only known at run time is an int too, as PyTorch's SymInt: its own __index__ then
    // says why it needs a concrete value.)
    if (!int_value(r, &v) && !(I.symbolic.is_int && I.symbolic.is_int(r)))
      raisef(I, I.exc.TypeError, "__index__ returned non-int (type {})", type_name(I, r));
  } else if constexpr (S == SlotId::int_) {
    int64_t v;
    if (!int_value(r, &v)) raisef(I, I.exc.TypeError, "__int__ returned non-int (type {})", type_name(I, r));
  } else if constexpr (S == SlotId::float_) {
    double d;
    // (A value only known at run time that float() makes a run-time float passes: float() converts it.)
    if (!float_value(r, &d) && !(I.symbolic.to_float && I.symbolic.to_float(I, r)))
      raisef(I, I.exc.TypeError, "{}.__float__ returned non-float (type {})", type_name(I, self), type_name(I, r));
  } else if constexpr (S == SlotId::iter) {
    if (!I.type_of(r)->slots.next)
      raisef(I, I.exc.TypeError, "iter() returned non-iterator of type '{}'", type_name(I, r));
  }
  return r;
}

template <SlotId S>
Value tramp_binary(Interp& I, const Value& self, const Value& other) {
  Value f = lookup_dunder(I, self, S);
  if (!f || f.is_none()) return I.notimplemented;
  Value r = call_unbound(I, f, self, other);
  if constexpr (S == SlotId::format) {
    if (!is_str(r)) raisef(I, I.exc.TypeError, "__format__ must return a str, not {}", type_name(I, r));
  }
  return r;
}

int64_t tramp_hash(Interp& I, const Value& self) {
  Value f = lookup_dunder(I, self, SlotId::hash);
  if (!f || f.is_none()) raisef(I, I.exc.TypeError, "unhashable type: '{}'", type_name(I, self));
  Value r = call_unbound(I, f, self);
  int64_t v;
  if (!int_value(r, &v)) raise(I, I.exc.TypeError, "__hash__ method should return an integer");
  // CPython keeps an int that fits the hash type as it is (hash(obj) == hash(obj.data) for a
  // __hash__ returning hash(self.data)); only -1, the C-level error value, becomes -2.
  return v == -1 ? -2 : v;
}

int64_t tramp_len(Interp& I, const Value& self) {
  Value f = lookup_dunder(I, self, SlotId::len);
  Value r = call_unbound(I, f, self);
  int64_t v;
  if (!int_value(r, &v))
    raisef(I, I.exc.TypeError, "'{}' object cannot be interpreted as an integer", type_name(I, r));
  if (v < 0) raise(I, I.exc.ValueError, "__len__() should return >= 0");
  return v;
}

Truth tramp_bool(Interp& I, const Value& self) {
  Value f = lookup_dunder(I, self, SlotId::bool_);
  Value r = call_unbound(I, f, self);
  if (r.is_bool()) return r.b() ? kTrue : kFalse;
  // A symbolic value (a tensor comparison) passes through as symbolic.
  Truth t = truth(I, r);
  if (t == kSymbolic) return t;
  raisef(I, I.exc.TypeError, "__bool__ should return bool, returned {}", type_name(I, r));
}

Value tramp_next(Interp& I, const Value& self) {
  Value f = lookup_dunder(I, self, SlotId::next);
  try {
    if (f && f.is_obj() && f.obj()->type == I.t.function) {
      // A __next__ written in Python ends with a top-level `raise StopIteration`: take it back as
      // a value (catching mode, exec_call.cpp) rather than as a C++ exception.
      Value raised;
      Value r = call_function_with_self(I, as<Function>(f), self, Args(), &raised);
      if (!raised) return r;
      if (isinstance(I, raised, I.exc.StopIteration)) return Value();
      throw PyException{raised};
    }
    return call_unbound(I, f, self);
  } catch (PyException& e) {
    if (isinstance(I, e.exc, I.exc.StopIteration)) return Value();
    throw;
  }
}

Value tramp_call(Interp& I, const Value& self, const Args& a) {
  Value f = lookup_dunder(I, self, SlotId::call);
  if (!f) raisef(I, I.exc.TypeError, "'{}' object is not callable", type_name(I, self));
  return call_unbound(I, f, self, a);
}

Value tramp_getattribute(Interp& I, const Value& self, Str* name) {
  Value f = lookup_dunder(I, self, SlotId::getattribute);
  if (!(I.type_of(self)->flags & kTypeHasGetattr)) return call_unbound(I, f, self, Value::borrow(name));
  try {
    return call_unbound(I, f, self, Value::borrow(name));
  } catch (PyException& e) {
    if (isinstance(I, e.exc, I.exc.AttributeError)) return Value();
    throw;
  }
}

void tramp_setattr(Interp& I, const Value& self, Str* name, const Value& v) {
  Value f = lookup_dunder(I, self, SlotId::setattr);
  call_unbound(I, f, self, Value::borrow(name), v);
}

void tramp_delattr(Interp& I, const Value& self, Str* name) {
  Value f = lookup_dunder(I, self, SlotId::delattr);
  call_unbound(I, f, self, Value::borrow(name));
}

Value tramp_get(Interp& I, const Value& self, const Value& obj, const Value& owner) {
  Value f = lookup_dunder(I, self, SlotId::get);
  Value o = obj ? obj : Value::none();
  Value ow = owner ? owner : Value::none();
  return call_unbound(I, f, self, o, ow);
}

void tramp_set(Interp& I, const Value& self, const Value& obj, const Value& v) {
  Value f = lookup_dunder(I, self, SlotId::set);
  call_unbound(I, f, self, obj, v);
}

void tramp_delete(Interp& I, const Value& self, const Value& obj) {
  Value f = lookup_dunder(I, self, SlotId::delete_);
  call_unbound(I, f, self, obj);
}

void tramp_init(Interp& I, const Value& self, const Args& a) {
  Value f = lookup_dunder(I, self, SlotId::init);
  Value r = call_unbound(I, f, self, a);
  if (!r.is_none()) raisef(I, I.exc.TypeError, "__init__() should return None, not '{}'", type_name(I, r));
}

Value tramp_new(Interp& I, Type* cls, const Args& a) {
  Value f = type_lookup(cls, I.names.__new__);
  if (f && f.obj()->type == I.t.staticmethod) f = as<StaticMethod>(f)->func;
  Value c = Value::borrow(cls);
  return call_unbound(I, f, c, a);
}

void tramp_setitem(Interp& I, const Value& self, const Value& key, const Value& v) {
  Value f = lookup_dunder(I, self, SlotId::setitem);
  call_unbound(I, f, self, key, v);
}

void tramp_delitem(Interp& I, const Value& self, const Value& key) {
  Value f = lookup_dunder(I, self, SlotId::delitem);
  call_unbound(I, f, self, key);
}

bool tramp_contains(Interp& I, const Value& self, const Value& item) {
  Value f = lookup_dunder(I, self, SlotId::contains);
  return is_true(I, call_unbound(I, f, self, item));
}

}  // namespace

VoidFn slot_trampoline(SlotId id) {
  switch (id) {
#define ONNXIFY_TRAMP_Unary(member) reinterpret_cast<VoidFn>(&tramp_unary<SlotId::member>)
#define ONNXIFY_TRAMP_Binary(member) reinterpret_cast<VoidFn>(&tramp_binary<SlotId::member>)
#define ONNXIFY_TRAMP_Hash(member) reinterpret_cast<VoidFn>(&tramp_hash)
#define ONNXIFY_TRAMP_Len(member) reinterpret_cast<VoidFn>(&tramp_len)
#define ONNXIFY_TRAMP_Bool(member) reinterpret_cast<VoidFn>(&tramp_bool)
#define ONNXIFY_TRAMP_Next(member) reinterpret_cast<VoidFn>(&tramp_next)
#define ONNXIFY_TRAMP_Call(member) reinterpret_cast<VoidFn>(&tramp_call)
#define ONNXIFY_TRAMP_GetAttr(member) reinterpret_cast<VoidFn>(&tramp_getattribute)
#define ONNXIFY_TRAMP_SetAttr(member) reinterpret_cast<VoidFn>(&tramp_setattr)
#define ONNXIFY_TRAMP_DelAttr(member) reinterpret_cast<VoidFn>(&tramp_delattr)
#define ONNXIFY_TRAMP_DescrGet(member) reinterpret_cast<VoidFn>(&tramp_get)
#define ONNXIFY_TRAMP_DescrSet(member) reinterpret_cast<VoidFn>(&tramp_set)
#define ONNXIFY_TRAMP_DescrDelete(member) reinterpret_cast<VoidFn>(&tramp_delete)
#define ONNXIFY_TRAMP_Init(member) reinterpret_cast<VoidFn>(&tramp_init)
#define ONNXIFY_TRAMP_New(member) reinterpret_cast<VoidFn>(&tramp_new)
#define ONNXIFY_TRAMP_SetItem(member) reinterpret_cast<VoidFn>(&tramp_setitem)
#define ONNXIFY_TRAMP_DelItem(member) reinterpret_cast<VoidFn>(&tramp_delitem)
#define ONNXIFY_TRAMP_Contains(member) reinterpret_cast<VoidFn>(&tramp_contains)
#define SLOT(member, dunder, kind) \
  case SlotId::member:             \
    return ONNXIFY_TRAMP_##kind(member);
#include "eval/slots.def"
#undef SLOT
    default: return nullptr;
  }
}

// ---- slot wrappers: Python calling a native slot ---------------------------------------------------

Value call_slot(Interp& I, Type* owner, SlotId id, const Value& self, const Args& a, const char* name) {
  const SlotInfo& info = slot_table()[static_cast<size_t>(id)];
  VoidFn raw = slot_get(owner->slots, id);
  auto want = [&](uint32_t lo, uint32_t hi) {
    if (a.nkw) raisef(I, I.exc.TypeError, "{}() takes no keyword arguments", name);
    if (a.npos < lo || a.npos > hi) {
      if (lo == hi)
        raisef(I, I.exc.TypeError, "expected {} argument{}, got {}", lo, lo == 1 ? "" : "s", a.npos);
      raisef(I, I.exc.TypeError, "expected at most {} arguments, got {}", hi, a.npos);
    }
  };
  switch (info.kind) {
    case SlotKind::Unary:
      want(0, 0);
      return reinterpret_cast<UnaryFn>(raw)(I, self);
    case SlotKind::Binary:
      want(1, 1);
      return reinterpret_cast<BinaryFn>(raw)(I, self, a[0]);
    case SlotKind::Hash:
      want(0, 0);
      return Value::integer(reinterpret_cast<HashFn>(raw)(I, self));
    case SlotKind::Len:
      want(0, 0);
      return Value::integer(reinterpret_cast<LenFn>(raw)(I, self));
    case SlotKind::Bool: {
      want(0, 0);
      Truth t = reinterpret_cast<BoolFn>(raw)(I, self);
      if (t == kSymbolic) return self;
      return Value::boolean(t == kTrue);
    }
    case SlotKind::Next: {
      want(0, 0);
      Value r = reinterpret_cast<NextFn>(raw)(I, self);
      if (!r) raise_value(I, Value::borrow(I.exc.StopIteration));
      return r;
    }
    case SlotKind::Call:
      return reinterpret_cast<CallFn>(raw)(I, self, a);
    case SlotKind::GetAttr: {
      want(1, 1);
      if (!is_str(a[0]))
        raisef(I, I.exc.TypeError, "attribute name must be string, not '{}'", type_name(I, a[0]));
      Str* n = as_str(a[0]);
      Value r = reinterpret_cast<GetAttrFn>(raw)(I, self, n->interned ? n : I.intern(n->s));
      if (!r) raise_no_attribute(I, self, n);
      return r;
    }
    case SlotKind::SetAttr: {
      want(2, 2);
      if (!is_str(a[0]))
        raisef(I, I.exc.TypeError, "attribute name must be string, not '{}'", type_name(I, a[0]));
      reinterpret_cast<SetAttrFn>(raw)(I, self, I.intern(as_str(a[0])->s), a[1]);
      return Value::none();
    }
    case SlotKind::DelAttr: {
      want(1, 1);
      if (!is_str(a[0]))
        raisef(I, I.exc.TypeError, "attribute name must be string, not '{}'", type_name(I, a[0]));
      reinterpret_cast<DelAttrFn>(raw)(I, self, I.intern(as_str(a[0])->s));
      return Value::none();
    }
    case SlotKind::DescrGet: {
      want(1, 2);
      Value obj = a[0].is_none() ? Value() : a[0];
      Value owner_v = a.npos > 1 ? a[1] : Value();
      if (obj.is_null() && (owner_v.is_null() || owner_v.is_none()))
        raise(I, I.exc.TypeError, "__get__(None, None) is invalid");
      return reinterpret_cast<DescrGetFn>(raw)(I, self, obj, owner_v.is_none() ? Value() : owner_v);
    }
    case SlotKind::DescrSet:
      want(2, 2);
      reinterpret_cast<DescrSetFn>(raw)(I, self, a[0], a[1]);
      return Value::none();
    case SlotKind::DescrDelete:
      want(1, 1);
      reinterpret_cast<DescrDeleteFn>(raw)(I, self, a[0]);
      return Value::none();
    case SlotKind::Init:
      reinterpret_cast<InitFn>(raw)(I, self, a);
      return Value::none();
    case SlotKind::New: {
      // self is the class (new is static): T.__new__(cls, *args)
      if (!is_type(self))
        raisef(I, I.exc.TypeError, "{}.__new__(X): X is not a type object ({})", owner->name_view(),
               type_name(I, self));
      Type* cls = as_type(self);
      if (!cls->is_subtype_of(owner))
        raisef(I, I.exc.TypeError, "{}.__new__({}): {} is not a subtype of {}", owner->name_view(),
               cls->name_view(), cls->name_view(), owner->name_view());
      return reinterpret_cast<NewFn>(raw)(I, cls, a);
    }
    case SlotKind::SetItem:
      want(2, 2);
      reinterpret_cast<SetItemFn>(raw)(I, self, a[0], a[1]);
      return Value::none();
    case SlotKind::DelItem:
      want(1, 1);
      reinterpret_cast<DelItemFn>(raw)(I, self, a[0]);
      return Value::none();
    case SlotKind::Contains:
      want(1, 1);
      return Value::boolean(reinterpret_cast<ContainsFn>(raw)(I, self, a[0]));
  }
  return Value::none();
}

}  // namespace onnxify::eval
