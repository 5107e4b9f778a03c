// Poison values (DESIGN.md decision 6): what an unresolvable import, an attribute of something
// unknown, or a forbidden builtin evaluates to. Operations on poison give poison; a use that needs
// a concrete value (a condition, an iteration, printing, an integer) is an error that shows where
// the poison was made and where it mattered.
#include "eval/poison.h"

#include "eval/internal.h"

namespace onnxify::eval {

Value make_poison(Interp& I, std::string what, std::string reason, SourceRange origin) {
  auto p = I.make<Poison>(I.t.poison);
  p->what = std::move(what);
  p->reason = std::move(reason);
  p->origin = origin.known() ? std::move(origin) : I.user_range();
  return p.take_value();
}

Value derive_poison(Interp& I, const Value& from, std::string what) {
  auto* p = as<Poison>(from);
  auto d = I.make<Poison>(I.t.poison);
  d->what = std::move(what);
  d->reason = p->reason;
  // A poison made without a location (an unsafe builtin) is located where it is first used.
  d->origin = p->origin.known() ? p->origin : I.user_range();
  d->reported = p->reported;
  d->may_alias = p->may_alias;
  return d.take_value();
}

void poison_matters(Interp& I, const Value& poison, std::string_view use) {
  auto* p = as<Poison>(poison);
  // An error caused by an earlier error is not a second error: the run stops here, and a note
  // says where, so the one real error stays the one the user reads.
  if (p->reported)
    throw Diagnostic::note(fmt::format("conversion stopped here: '{}' is unknown because of the error above", p->what),
                           I.user_range());
  // Reported where the user's code led to the use; library frames in between add "in f()" notes as
  // the diagnostic passes through them.
  Diagnostic d = Diagnostic::error(
      fmt::format("cannot use an unknown value as {}: '{}' is unknown because {}", use, p->what, p->reason),
      I.user_range());
  if (p->origin.known()) d.with_note(Diagnostic::note("the unknown value comes from here", p->origin));
  throw UnknownValueError(std::move(d));
}

// __new__ of an opaque class (and so of its subclasses): an instance of a class whose behaviour is
// unknown is unknown. (Called as a plain function: self is this NativeFunc, the args follow cls.)
static Value opaque_new(Interp& I, const Value& self, const Args&) {
  const Value& poison = as<NativeFunc>(self)->data;
  return derive_poison(I, poison, as<Poison>(poison)->what + "(...)");
}

Value opaque_class(Interp& I, const Value& poison) {
  auto* p = as<Poison>(poison);
  if (p->opaque_class) return p->opaque_class;
  std::string what = p->what;
  size_t dot = what.rfind('.');
  std::string name = dot == std::string::npos ? what : what.substr(dot + 1);
  if (name.empty() || name.find_first_of("()[] ") != std::string::npos) name = "Unknown";
  Ref<Dict> ns = new_dict_ref(I);
  dict_set(I, ns.get(), "__module__", I.str(dot == std::string::npos ? "<unknown>" : what.substr(0, dot)));
  dict_set(I, ns.get(), "__qualname__", I.str(name));
  Value new_fn = new_native(I, "__new__", &opaque_new, Value(), poison);
  as<NativeFunc>(new_fn)->self = new_fn;  // opaque_new reads its poison from its own data
  dict_set(I, ns.get(), "__new__", call(I, Value::borrow(I.t.staticmethod), new_fn));
  p->opaque_class = type_new_impl(I, I.t.type, I.intern(name), {Value::borrow(I.t.object)}, ns.get(), Args());
  return p->opaque_class;
}

const Value* first_poison_arg(const Args& a) {
  if (const Value* p = first_poison(a.pos, a.npos)) return p;
  return first_poison(a.kwvals, a.nkw);
}

Value transparent_call_result(Interp& I, const Value& poison, std::string_view name) {
  return derive_poison(I, poison, fmt::format("{}(...)", name));
}

static const Value* find_poison_rec(const Value& v, int depth) {
  if (is_poison(v)) return &v;
  if (depth > 20) return nullptr;
  const std::vector<Value>* items = is_tuple(v) ? &as_tuple(v)->items : is_list(v) ? &as_list(v)->items : nullptr;
  if (items)
    for (const Value& x : *items)
      if (const Value* p = find_poison_rec(x, depth + 1)) return p;
  return nullptr;
}
const Value* find_poison(const Value& v) { return find_poison_rec(v, 0); }

// The first poison among values (for operations with several operands).
const Value* first_poison(const Value* vals, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (is_poison(vals[i])) return &vals[i];
  return nullptr;
}

std::string poison_operand(Interp& I, const Value& v) {
  if (is_poison(v)) return as<Poison>(v)->what;
  if (v.is_int() || v.is_float() || v.is_none() || v.is_bool() || is_str(v)) {
    std::string s = repr_string(I, v);
    if (s.size() > 20) s = s.substr(0, 17) + "...";
    return s;
  }
  if (is_type(v)) return std::string(as_type(v)->name_view());
  return std::string("<") + std::string(type_name(I, v)) + ">";
}

static Value poison_getattribute(Interp& I, const Value& self, Str* name) {
  if (name == I.names.__class__) return Value::borrow(I.t.poison);
  if (name == I.names.__dict__) return Value();
  std::string_view n = name->s;
  if (as<Poison>(self)->may_alias && n.size() > 1 && n.back() == '_' && n[n.size() - 2] != '_')
    poison_matters(I, self, fmt::format("the tensor that the in-place method {}() writes", n));
  return derive_poison(I, self, as<Poison>(self)->what + "." + name->s);
}
static void poison_setattr(Interp& I, const Value& self, Str* name, const Value& v) {}
static void poison_delattr(Interp& I, const Value& self, Str* name) {}

static Value poison_call(Interp& I, const Value& self, const Args& a) {
  return derive_poison(I, self, as<Poison>(self)->what + "(...)");
}

#define POISON_BINOP(name, sym)                                                          \
  static Value poison_##name(Interp& I, const Value& self, const Value& other) {        \
    const Value& p = is_poison(self) ? self : other;                                     \
    return derive_poison(I, p, "(" + poison_operand(I, self) + " " sym " " + poison_operand(I, other) + ")"); \
  }                                                                                      \
  static Value poison_r##name(Interp& I, const Value& self, const Value& other) {       \
    return poison_##name(I, other, self);                                                \
  }
POISON_BINOP(add, "+")
POISON_BINOP(sub, "-")
POISON_BINOP(mul, "*")
POISON_BINOP(matmul, "@")
POISON_BINOP(truediv, "/")
POISON_BINOP(floordiv, "//")
POISON_BINOP(mod, "%")
POISON_BINOP(pow, "**")
POISON_BINOP(lshift, "<<")
POISON_BINOP(rshift, ">>")
POISON_BINOP(and, "&")
POISON_BINOP(or, "|")
POISON_BINOP(xor, "^")
POISON_BINOP(divmod, "divmod")
POISON_BINOP(eq, "==")
POISON_BINOP(ne, "!=")
POISON_BINOP(lt, "<")
POISON_BINOP(le, "<=")
POISON_BINOP(gt, ">")
POISON_BINOP(ge, ">=")

static Value poison_unary(Interp& I, const Value& self) { return derive_poison(I, self, "-" + as<Poison>(self)->what); }
static Value poison_getitem(Interp& I, const Value& self, const Value& key) {
  return derive_poison(I, self, as<Poison>(self)->what + "[" + poison_operand(I, key) + "]");
}
static void poison_setitem(Interp& I, const Value& self, const Value& key, const Value& v) {
  if (as<Poison>(self)->may_alias) poison_matters(I, self, "the tensor an item assignment writes");
}
static void poison_delitem(Interp& I, const Value& self, const Value& key) {}

static Truth poison_bool(Interp& I, const Value& self) {
  poison_matters(I, self, "a condition");
  return kFalse;
}
static int64_t poison_len(Interp& I, const Value& self) {
  poison_matters(I, self, "a length");
  return 0;
}
static Value poison_iter(Interp& I, const Value& self) {
  poison_matters(I, self, "an iterable");
  return Value();
}
static Value poison_index(Interp& I, const Value& self) {
  poison_matters(I, self, "an integer");
  return Value();
}
static Value poison_float(Interp& I, const Value& self) {
  poison_matters(I, self, "a number");
  return Value();
}
static Value poison_repr(Interp& I, const Value& self) {
  poison_matters(I, self, "text (repr or str)");
  return Value();
}
static Value poison_format(Interp& I, const Value& self, const Value& spec) {
  poison_matters(I, self, "text (format)");
  return Value();
}
static bool poison_contains(Interp& I, const Value& self, const Value& item) {
  poison_matters(I, self, "a container of 'in'");
  return false;
}
static int64_t poison_hash(Interp& I, const Value& self) {
  uintptr_t p = reinterpret_cast<uintptr_t>(self.obj());
  return static_cast<int64_t>(p >> 4);
}

void init_poison_type(Interp& I) {
  TypeSpec s;
  s.name = "unknown";
  s.layout = Layout::Poison;
  s.flags = 0;
  Slots& sl = s.slots;
  sl.getattribute = &poison_getattribute;
  sl.setattr = &poison_setattr;
  sl.delattr = &poison_delattr;
  sl.call = &poison_call;
  sl.add = &poison_add;
  sl.radd = &poison_radd;
  sl.sub = &poison_sub;
  sl.rsub = &poison_rsub;
  sl.mul = &poison_mul;
  sl.rmul = &poison_rmul;
  sl.matmul = &poison_matmul;
  sl.rmatmul = &poison_rmatmul;
  sl.truediv = &poison_truediv;
  sl.rtruediv = &poison_rtruediv;
  sl.floordiv = &poison_floordiv;
  sl.rfloordiv = &poison_rfloordiv;
  sl.mod = &poison_mod;
  sl.rmod = &poison_rmod;
  sl.pow = &poison_pow;
  sl.rpow = &poison_rpow;
  sl.lshift = &poison_lshift;
  sl.rlshift = &poison_rlshift;
  sl.rshift = &poison_rshift;
  sl.rrshift = &poison_rrshift;
  sl.and_ = &poison_and;
  sl.rand = &poison_rand;
  sl.or_ = &poison_or;
  sl.ror = &poison_ror;
  sl.xor_ = &poison_xor;
  sl.rxor = &poison_rxor;
  sl.divmod = &poison_divmod;
  sl.rdivmod = &poison_rdivmod;
  sl.eq = &poison_eq;
  sl.ne = &poison_ne;
  sl.lt = &poison_lt;
  sl.le = &poison_le;
  sl.gt = &poison_gt;
  sl.ge = &poison_ge;
  sl.neg = &poison_unary;
  sl.pos = &poison_unary;
  sl.invert = &poison_unary;
  sl.abs = &poison_unary;
  sl.getitem = &poison_getitem;
  sl.setitem = &poison_setitem;
  sl.delitem = &poison_delitem;
  sl.bool_ = &poison_bool;
  sl.len = &poison_len;
  sl.iter = &poison_iter;
  sl.index = &poison_index;
  sl.int_ = &poison_index;
  sl.float_ = &poison_float;
  sl.repr = &poison_repr;
  sl.str = &poison_repr;
  sl.format = &poison_format;
  sl.contains = &poison_contains;
  sl.hash = &poison_hash;
  init_native_type(I, I.t.poison, s);
}

}  // namespace onnxify::eval
