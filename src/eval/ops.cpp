// The abstract object protocol (ops.h): calls, truth, repr/str/hash/len, operators, comparisons,
// item access, iteration. Fast paths for tagged ints and floats sit in front of the slot dispatch.
#include "eval/ops.h"

#include <cmath>

#include "eval/internal.h"
#include "eval/poison.h"
#include "eval/recursion.h"

namespace onnxify::eval {

extern Value call_function(Interp& I, Function* f, const Args& a);

// ---- calls ---------------------------------------------------------------------------------------------

Value call(Interp& I, const Value& f, const Args& a) {
  if (f.is_obj()) {
    Type* t = f.obj()->type;
    if (t == I.t.function) return call_function(I, as<Function>(f), a);
    if (t == I.t.builtin_function) {
      auto* nf = as<NativeFunc>(f);
      if (nf->flags & kNativePoisonTransparent)
        if (const Value* p = first_poison_arg(a)) return transparent_call_result(I, *p, nf->name);
      return nf->fn(I, nf->self, a);
    }
    CallFn c = t->slots.call;
    if (c) return c(I, f, a);
  }
  raisef(I, I.exc.TypeError, "'{}' object is not callable", type_name(I, f));
}

Value call(Interp& I, const Value& f, const Value& a0, const Value& a1) {
  Value v[2] = {a0, a1};
  return call(I, f, Args(v, 2));
}
Value call(Interp& I, const Value& f, const Value& a0, const Value& a1, const Value& a2) {
  Value v[3] = {a0, a1, a2};
  return call(I, f, Args(v, 3));
}

bool callable(Interp& I, const Value& v) { return I.type_of(v)->slots.call != nullptr; }

// ---- conversions ---------------------------------------------------------------------------------------

Truth truth(Interp& I, const Value& v) {
  switch (v.tag()) {
    case Tag::None: return kFalse;
    case Tag::Bool:
    case Tag::Int: return v.i() != 0 ? kTrue : kFalse;
    case Tag::Float: return v.f() != 0.0 ? kTrue : kFalse;
    case Tag::Null: return kFalse;
    case Tag::Obj: break;
  }
  Type* t = v.obj()->type;
  if (t->slots.bool_) return t->slots.bool_(I, v);
  if (t->slots.len) return t->slots.len(I, v) != 0 ? kTrue : kFalse;
  return kTrue;
}

bool is_true(Interp& I, const Value& v) {
  Truth t = truth(I, v);
  if (t == kSymbolic && I.assert_depth > 0) throw SymbolicAssertion{};
  if (t == kSymbolic && I.symbolic.settle) t = I.symbolic.settle(I, v);
  if (t == kSymbolic)
    fatal(I, fmt::format("the truth value of a symbolic '{}' is not known at conversion time", type_name(I, v)),
          "this context needs a Python bool; use the value in an if/while condition instead");
  return t == kTrue;
}

Value repr(Interp& I, const Value& v) {
  switch (v.tag()) {
    case Tag::None: return I.str("None");
    case Tag::Bool: return I.str(v.b() ? "True" : "False");
    case Tag::Int: return I.str(int_to_string(v.i(), 10));
    case Tag::Float: return I.str(float_repr(v.f()));
    case Tag::Null: return I.str("<NULL>");
    case Tag::Obj: break;
  }
  RecursionGuard guard(I, " while getting the repr of an object");
  UnaryFn r = v.obj()->type->slots.repr;
  Value s = r(I, v);
  if (!is_str(s)) raisef(I, I.exc.TypeError, "__repr__ returned non-string (type {})", type_name(I, s));
  return s;
}

Value to_str(Interp& I, const Value& v) {
  if (v.is_obj()) {
    if (v.obj()->type == I.t.str) return v;
    RecursionGuard guard(I, " while getting the str of an object");
    Value s = v.obj()->type->slots.str(I, v);
    if (!is_str(s)) raisef(I, I.exc.TypeError, "__str__ returned non-string (type {})", type_name(I, s));
    return s;
  }
  return repr(I, v);
}

std::string repr_string(Interp& I, const Value& v) {
  switch (v.tag()) {
    case Tag::Int: return int_to_string(v.i(), 10);
    case Tag::Float: return float_repr(v.f());
    default: return as_str(repr(I, v))->s;
  }
}

std::string str_string(Interp& I, const Value& v) {
  if (is_str(v)) return as_str(v)->s;
  return as_str(to_str(I, v))->s;
}

int64_t hash(Interp& I, const Value& v) {
  switch (v.tag()) {
    case Tag::None: return 0x5f3759df;
    case Tag::Bool: return v.i();
    case Tag::Int: return hash_int(v.i());
    case Tag::Float: return hash_double(v.f());
    case Tag::Null: return 0;
    case Tag::Obj: break;
  }
  Type* t = v.obj()->type;
  if (t == I.t.str) return str_hash(as_str(v));
  if (!t->slots.hash) raisef(I, I.exc.TypeError, "unhashable type: '{}'", t->name_view());
  return t->slots.hash(I, v);
}

int64_t len(Interp& I, const Value& v) {
  Type* t = I.type_of(v);
  if (!t->slots.len) raisef(I, I.exc.TypeError, "object of type '{}' has no len()", t->name_view());
  return t->slots.len(I, v);
}

int64_t index(Interp& I, const Value& v) {
  int64_t r;
  if (int_value(v, &r)) return r;
  Type* t = I.type_of(v);
  if (t->slots.index) {
    Value x = t->slots.index(I, v);
    if (int_value(x, &r)) return r;
    // np.int64(run-time value).__index__() gives a size only known at run time: its own __index__
    // reports the concrete value this use needs.
    if (I.symbolic.is_int && I.symbolic.is_int(x) && I.type_of(x) != t) return index(I, x);
    raisef(I, I.exc.TypeError, "__index__ returned non-int (type {})", type_name(I, x));
  }
  raisef(I, I.exc.TypeError, "'{}' object cannot be interpreted as an integer", t->name_view());
}

double to_double(Interp& I, const Value& v) {
  double d;
  if (float_value(v, &d)) return d;
  int64_t i;
  if (int_value(v, &i)) return static_cast<double>(i);
  Type* t = I.type_of(v);
  if (t->slots.float_) {
    Value x = t->slots.float_(I, v);
    if (float_value(x, &d)) return d;
    raisef(I, I.exc.TypeError, "{}.__float__ returned non-float (type {})", t->name_view(), type_name(I, x));
  }
  if (t->slots.index) return static_cast<double>(index(I, v));
  raisef(I, I.exc.TypeError, "must be real number, not {}", t->name_view());
}

// ---- operators -----------------------------------------------------------------------------------------

const char* binop_symbol(BinOp op) {
  switch (op) {
#define X(name, sym, slot, rslot, islot) \
  case BinOp::name:                      \
    return sym;
    ONNXIFY_BINOPS(X)
#undef X
  }
  return "?";
}

const char* cmpop_symbol(CmpOp op) {
  switch (op) {
    case CmpOp::Eq: return "==";
    case CmpOp::Ne: return "!=";
    case CmpOp::Lt: return "<";
    case CmpOp::Le: return "<=";
    case CmpOp::Gt: return ">";
    case CmpOp::Ge: return ">=";
    case CmpOp::Is: return "is";
    case CmpOp::IsNot: return "is not";
    case CmpOp::In: return "in";
    case CmpOp::NotIn: return "not in";
  }
  return "?";
}

static BinaryFn binop_slot(const Slots& s, BinOp op) {
  switch (op) {
#define X(name, sym, slot, rslot, islot) \
  case BinOp::name:                      \
    return s.slot;
    ONNXIFY_BINOPS(X)
#undef X
  }
  return nullptr;
}
static BinaryFn binop_rslot(const Slots& s, BinOp op) {
  switch (op) {
#define X(name, sym, slot, rslot, islot) \
  case BinOp::name:                      \
    return s.rslot;
    ONNXIFY_BINOPS(X)
#undef X
  }
  return nullptr;
}
static BinaryFn binop_islot(const Slots& s, BinOp op) {
  switch (op) {
#define X(name, sym, slot, rslot, islot) \
  case BinOp::name:                      \
    return s.islot;
    ONNXIFY_BINOPS(X)
#undef X
  }
  return nullptr;
}

static Str* binop_rname(Interp& I, BinOp op) {
  switch (op) {
#define X(name, sym, slot, rslot, islot) \
  case BinOp::name: {                    \
    return I.intern("__" #rslot "__");   \
  }
    ONNXIFY_BINOPS(X)
#undef X
  }
  return nullptr;
}

// Whether the right operand's type (a subclass of the left's) overrides the reflected method: a
// different native slot, or for classes with Python methods (same trampoline) a different method.
static bool overrides_reflected(Interp& I, BinOp op, Type* ta, Type* tb, BinaryFn fb) {
  if (fb != binop_rslot(ta->slots, op)) return true;
  if (!tb->is_heap()) return false;
  Str* n = binop_rname(I, op);
  return !type_lookup(tb, n).is(type_lookup(ta, n));
}

// Python's binary_op1: the left operand's method, the right operand's reflected method (first when
// the right type is a subclass that overrides it), NotImplemented meaning "try the other side".
static Value binary_op1(Interp& I, BinOp op, const Value& a, const Value& b) {
  Type* ta = I.type_of(a);
  Type* tb = I.type_of(b);
  BinaryFn fa = binop_slot(ta->slots, op);
  BinaryFn fb = ta != tb ? binop_rslot(tb->slots, op) : nullptr;
  if (fb && fb == binop_rslot(ta->slots, op) && !tb->is_heap()) {
    // Same native implementation on both sides (e.g. int and bool): the left one decides.
    fb = nullptr;
  }
  if (fa) {
    if (fb && tb->is_subtype_of(ta) && overrides_reflected(I, op, ta, tb, fb)) {
      Value r = fb(I, b, a);
      if (!r.is(I.notimplemented)) return r;
      fb = nullptr;
    }
    Value r = fa(I, a, b);
    if (!r.is(I.notimplemented)) return r;
  }
  if (fb) {
    Value r = fb(I, b, a);
    if (!r.is(I.notimplemented)) return r;
  }
  return Value();
}

[[noreturn]] static void binop_type_error(Interp& I, BinOp op, const Value& a, const Value& b, bool inplace) {
  if (op == BinOp::Pow)
    raisef(I, I.exc.TypeError, "unsupported operand type(s) for {}: '{}' and '{}'", inplace ? "**=" : "** or pow()",
           type_name(I, a), type_name(I, b));
  raisef(I, I.exc.TypeError, "unsupported operand type(s) for {}{}: '{}' and '{}'", binop_symbol(op),
         inplace ? "=" : "", type_name(I, a), type_name(I, b));
}

Value binary_op(Interp& I, BinOp op, const Value& a, const Value& b) {
  Value r = binary_op1(I, op, a, b);
  if (r) return r;
  if (op == BinOp::Add && is_str(a) && !is_str(b))
    raisef(I, I.exc.TypeError, "can only concatenate str (not \"{}\") to str", type_name(I, b));
  if (op == BinOp::Add && is_list(a) && !is_list(b))
    raisef(I, I.exc.TypeError, "can only concatenate list (not \"{}\") to list", type_name(I, b));
  if (op == BinOp::Add && is_tuple(a) && !is_tuple(b))
    raisef(I, I.exc.TypeError, "can only concatenate tuple (not \"{}\") to tuple", type_name(I, b));
  if (op == BinOp::Mul) {
    bool seq_a = is_str(a) || is_list(a) || is_tuple(a);
    bool seq_b = is_str(b) || is_list(b) || is_tuple(b);
    if (seq_a && !I.type_of(b)->slots.index)
      raisef(I, I.exc.TypeError, "can't multiply sequence by non-int of type '{}'", type_name(I, b));
    if (seq_b && !I.type_of(a)->slots.index)
      raisef(I, I.exc.TypeError, "can't multiply sequence by non-int of type '{}'", type_name(I, a));
  }
  binop_type_error(I, op, a, b, false);
}

Value inplace_op(Interp& I, BinOp op, const Value& a, const Value& b) {
  BinaryFn fi = binop_islot(I.type_of(a)->slots, op);
  if (fi) {
    Value r = fi(I, a, b);
    if (!r.is(I.notimplemented)) return r;
  }
  Value r = binary_op1(I, op, a, b);
  if (r) return r;
  if (op == BinOp::Add && is_str(a) && !is_str(b))
    raisef(I, I.exc.TypeError, "can only concatenate str (not \"{}\") to str", type_name(I, b));
  if (op == BinOp::Add && is_list(a))
    raisef(I, I.exc.TypeError, "'{}' object is not iterable", type_name(I, b));
  if (op == BinOp::Mul) {
    bool seq_a = is_str(a) || is_list(a) || is_tuple(a);
    if (seq_a && !I.type_of(b)->slots.index)
      raisef(I, I.exc.TypeError, "can't multiply sequence by non-int of type '{}'", type_name(I, b));
  }
  binop_type_error(I, op, a, b, true);
}

Value unary_op(Interp& I, UnaryOp op, const Value& v) {
  if (op == UnaryOp::Not) {
    Truth t = truth(I, v);
    if (t == kSymbolic) {
      Value r = call_special(I, v, I.intern("__onnxify_not__"), Args());
      if (r) return r;
      is_true(I, v);
    }
    return Value::boolean(t == kFalse);
  }
  Type* t = I.type_of(v);
  UnaryFn f = op == UnaryOp::Neg ? t->slots.neg : op == UnaryOp::Pos ? t->slots.pos : t->slots.invert;
  if (f) {
    Value r = f(I, v);
    if (!r.is(I.notimplemented)) return r;
  }
  const char* sym = op == UnaryOp::Neg ? "unary -" : op == UnaryOp::Pos ? "unary +" : "unary ~";
  raisef(I, I.exc.TypeError, "bad operand type for {}: '{}'", sym, t->name_view());
}

static BinaryFn cmp_slot(const Slots& s, CmpOp op) {
  switch (op) {
    case CmpOp::Eq: return s.eq;
    case CmpOp::Ne: return s.ne;
    case CmpOp::Lt: return s.lt;
    case CmpOp::Le: return s.le;
    case CmpOp::Gt: return s.gt;
    case CmpOp::Ge: return s.ge;
    default: return nullptr;
  }
}
static CmpOp cmp_swapped(CmpOp op) {
  switch (op) {
    case CmpOp::Lt: return CmpOp::Gt;
    case CmpOp::Le: return CmpOp::Ge;
    case CmpOp::Gt: return CmpOp::Lt;
    case CmpOp::Ge: return CmpOp::Le;
    default: return op;
  }
}

Value rich_compare(Interp& I, CmpOp op, const Value& a, const Value& b) {
  Type* ta = I.type_of(a);
  Type* tb = I.type_of(b);
  CmpOp rop = cmp_swapped(op);
  bool checked_reverse = false;
  if (ta != tb && tb->is_subtype_of(ta)) {
    BinaryFn fr = cmp_slot(tb->slots, rop);
    if (fr && fr != cmp_slot(ta->slots, rop)) {
      checked_reverse = true;
      Value r = fr(I, b, a);
      if (!r.is(I.notimplemented)) return r;
    }
  }
  BinaryFn f = cmp_slot(ta->slots, op);
  if (f) {
    Value r = f(I, a, b);
    if (!r.is(I.notimplemented)) return r;
  }
  if (!checked_reverse) {
    BinaryFn fr = cmp_slot(tb->slots, rop);
    if (fr) {
      Value r = fr(I, b, a);
      if (!r.is(I.notimplemented)) return r;
    }
  }
  if (op == CmpOp::Eq) return Value::boolean(a.is(b));
  if (op == CmpOp::Ne) return Value::boolean(!a.is(b));
  raisef(I, I.exc.TypeError, "'{}' not supported between instances of '{}' and '{}'", cmpop_symbol(op),
         ta->name_view(), tb->name_view());
}

bool eq(Interp& I, const Value& a, const Value& b) {
  // Identity implies equality for containers (CPython's PyObject_RichCompareBool), NaN included.
  if (a.is(b)) return true;
  if (a.is_int() && b.is_int()) return a.i() == b.i();
  if (a.is_obj() && b.is_obj() && a.obj()->type == I.t.str && b.obj()->type == I.t.str)
    return str_eq(as_str(a), as_str(b));
  RecursionGuard guard(I, " in comparison");
  return is_true(I, rich_compare(I, CmpOp::Eq, a, b));
}

bool lt(Interp& I, const Value& a, const Value& b) {
  if (a.is_int() && b.is_int()) return a.i() < b.i();
  if (a.is_float() && b.is_float()) return a.f() < b.f();
  if (a.is_obj() && b.is_obj() && a.obj()->type == I.t.str && b.obj()->type == I.t.str)
    return as_str(a)->s < as_str(b)->s;
  RecursionGuard guard(I, " in comparison");
  return is_true(I, rich_compare(I, CmpOp::Lt, a, b));
}

Value is_none_at_run_time(Interp& I, const Value& a, const Value& b) {
  if (!I.symbolic.is_none || a.is_none() == b.is_none()) return Value();
  const Value& other = a.is_none() ? b : a;
  return other.is_obj() ? I.symbolic.is_none(I, other) : Value();
}

Value compare(Interp& I, CmpOp op, const Value& a, const Value& b) {
  switch (op) {
    case CmpOp::Is:
    case CmpOp::IsNot:
      // Identity with an unknown value is unknown (`x is None` for an unknown x), except for itself.
      if (!a.is(b) && (is_poison(a) || is_poison(b)))
        return derive_poison(I, is_poison(a) ? a : b,
                             fmt::format("({} {} {})", poison_operand(I, a), op == CmpOp::Is ? "is" : "is not",
                                         poison_operand(I, b)));
      if (Value r = is_none_at_run_time(I, a, b)) return op == CmpOp::Is ? r : unary_op(I, UnaryOp::Not, r);
      return Value::boolean(a.is(b) == (op == CmpOp::Is));
    case CmpOp::In:
    case CmpOp::NotIn:
      if ((is_list(b) || is_tuple(b)) && I.symbolic.reduce) {
        // `0 in x.shape` with symbolic sizes: the items' equality may be known only at run time;
        // then the result is the run-time Or of those (the reduce hook's any), as `in` is a bool.
        std::vector<Value> runtime;
        for (const Value& x : to_vector(I, b)) {
          if (x.is(a)) return Value::boolean(op == CmpOp::In);
          Value r = rich_compare(I, CmpOp::Eq, x, a);
          Truth t = is_poison(r) ? (is_true(I, r) ? kTrue : kFalse) : truth(I, r);
          if (t == kTrue) return Value::boolean(op == CmpOp::In);
          if (t == kSymbolic) runtime.push_back(r);
        }
        if (runtime.empty()) return Value::boolean(op == CmpOp::NotIn);
        Value any = I.symbolic.reduce(I, "any", new_list(I, std::move(runtime)), Value());
        if (any) return op == CmpOp::In ? any : unary_op(I, UnaryOp::Not, any);
        fatal(I, "the truth value of `in` over sizes only known at run time is not known at conversion time",
              "compare the sizes in an if condition instead");
      }
      return Value::boolean(op == CmpOp::In ? contains(I, b, a) : !contains(I, b, a));
    default: break;
  }
  RecursionGuard guard(I, " in comparison");
  return rich_compare(I, op, a, b);
}

Value power(Interp& I, const Value& a, const Value& b, const Value& mod) {
  if (mod.is_null() || mod.is_none()) return binary_op(I, BinOp::Pow, a, b);
  int64_t x, y, m;
  if (int_value(a, &x) && int_value(b, &y) && int_value(mod, &m)) {
    if (m == 0) raise(I, I.exc.ValueError, "pow() 3rd argument cannot be 0");
    if (y < 0) {
      // Modular inverse (Python 3.8+).
      int64_t mm = m < 0 ? -m : m;
      __int128 g0 = mm, g1 = ((x % mm) + mm) % mm, s0 = 0, s1 = 1;
      while (g1 != 0) {
        __int128 q = g0 / g1;
        __int128 t = g0 - q * g1;
        g0 = g1;
        g1 = t;
        t = s0 - q * s1;
        s0 = s1;
        s1 = t;
      }
      if (g0 != 1) raise(I, I.exc.ValueError, "base is not invertible for the given modulus");
      x = static_cast<int64_t>(((s0 % mm) + mm) % mm);
      y = -y;
    }
    __int128 result = 1, base = x % m;
    if (base < 0) base += m < 0 ? -m : m;
    int64_t e = y;
    while (e > 0) {
      if (e & 1) result = (result * base) % m;
      base = (base * base) % m;
      e >>= 1;
    }
    int64_t r = static_cast<int64_t>(result % m);
    if (r != 0 && ((r < 0) != (m < 0))) r += m;
    return Value::integer(r);
  }
  Value f = type_lookup(I.type_of(a), I.names.__pow__);
  if (f) {
    Value args[2] = {b, mod};
    Value r = call_unbound(I, f, a, Args(args, 2));
    if (!r.is(I.notimplemented)) return r;
  }
  raisef(I, I.exc.TypeError, "unsupported operand type(s) for ** or pow(): '{}', '{}', '{}'", type_name(I, a),
         type_name(I, b), type_name(I, mod));
}

// ---- containers ---------------------------------------------------------------------------------------

extern Value generic_alias(Interp& I, const Value& origin, const Value& args);

Value getitem(Interp& I, const Value& o, const Value& key) {
  Type* t = I.type_of(o);
  if (t->slots.getitem) return t->slots.getitem(I, o, key);
  if (is_type(o)) {
    // type[C] is a GenericAlias although type has no __class_getitem__ (CPython special-cases it,
    // so that int[...] is not inherited from the metaclass).
    if (as_type(o) == I.t.type) return generic_alias(I, o, key);
    Value cg = getattr_opt(I, o, I.names.__class_getitem__);
    if (cg) return call(I, cg, key);
    raisef(I, I.exc.TypeError, "type '{}' is not subscriptable", as_type(o)->name_view());
  }
  raisef(I, I.exc.TypeError, "'{}' object is not subscriptable", t->name_view());
}

void setitem(Interp& I, const Value& o, const Value& key, const Value& v) {
  Type* t = I.type_of(o);
  if (!t->slots.setitem) raisef(I, I.exc.TypeError, "'{}' object does not support item assignment", t->name_view());
  t->slots.setitem(I, o, key, v);
}

void delitem(Interp& I, const Value& o, const Value& key) {
  Type* t = I.type_of(o);
  if (!t->slots.delitem) raisef(I, I.exc.TypeError, "'{}' object doesn't support item deletion", t->name_view());
  t->slots.delitem(I, o, key);
}

bool contains(Interp& I, const Value& container, const Value& item) {
  Type* t = I.type_of(container);
  if (t->slots.contains) return t->slots.contains(I, container, item);
  if (!t->slots.iter && !t->slots.getitem)
    raisef(I, I.exc.TypeError, "argument of type '{}' is not iterable", t->name_view());
  bool found = false;
  for_each(I, container, [&](const Value& x) {
    if (eq(I, x, item)) {
      found = true;
      return false;
    }
    return true;
  });
  return found;
}

extern Value new_seq_iterator(Interp& I, const Value& seq);

Value iter(Interp& I, const Value& v) {
  Type* t = I.type_of(v);
  if (t->slots.iter) {
    Value it = t->slots.iter(I, v);
    if (!I.type_of(it)->slots.next)
      raisef(I, I.exc.TypeError, "iter() returned non-iterator of type '{}'", type_name(I, it));
    return it;
  }
  if (t->slots.getitem && t->layout != Layout::Dict) return new_seq_iterator(I, v);
  raisef(I, I.exc.TypeError, "'{}' object is not iterable", t->name_view());
}

Value next(Interp& I, const Value& it) {
  NextFn n = I.type_of(it)->slots.next;
  if (!n) raisef(I, I.exc.TypeError, "'{}' object is not an iterator", type_name(I, it));
  return n(I, it);
}

std::vector<Value> to_vector(Interp& I, const Value& iterable) {
  if (iterable.is_obj()) {
    Type* t = iterable.obj()->type;
    if (t == I.t.list) return as_list(iterable)->items;
    if (t == I.t.tuple) return as_tuple(iterable)->items;
  }
  std::vector<Value> out;
  for_each(I, iterable, [&](Value& x) { out.push_back(std::move(x)); });
  return out;
}

// ---- construction ----------------------------------------------------------------------------------------

Value new_tuple(Interp& I, std::vector<Value> items) { return new_tuple_ref(I, std::move(items)).take_value(); }
Value new_list(Interp& I, std::vector<Value> items) { return new_list_ref(I, std::move(items)).take_value(); }
Value new_dict(Interp& I) { return new_dict_ref(I).take_value(); }
Value new_float(double d) { return Value::real(d); }
Value new_bool(bool b) { return Value::boolean(b); }

Ref<Module> new_module(Interp& I, std::string_view name) {
  auto m = I.make<Module>(I.t.module);
  m->name = I.str(name);
  I.give_instance_dict(m.get());
  dict_set_str(I, m->dict, I.names.__name__, m->name);
  dict_set_str(I, m->dict, I.names.__doc__, Value::none());
  dict_set_str(I, m->dict, I.names.__package__, Value::none());
  dict_set_str(I, m->dict, I.names.__loader__, Value::none());
  dict_set_str(I, m->dict, I.names.__spec__, Value::none());
  return m;
}

void add_function(Interp& I, Module* m, const char* name, NativeFn fn, const char* doc) {
  Value f = new_native(I, name, fn, Value(), Value(), 0, doc);
  Value mv = Value::borrow(m);
  as<NativeFunc>(f)->data = m->name;
  dict_set(I, m->dict, name, std::move(f));
}

void module_set(Interp& I, Module* m, std::string_view name, const Value& v) { dict_set(I, m->dict, name, v); }
Value module_get(Interp& I, Module* m, std::string_view name) { return dict_get(I, m->dict, name); }

// ---- argument parsing -------------------------------------------------------------------------------------

Signature::Signature(const char* fname, const char* params) : fname_(fname) {
  std::string_view s(params);
  bool kwonly = false;
  size_t i = 0;
  std::vector<Param> ps;
  while (i < s.size()) {
    size_t j = s.find(',', i);
    if (j == std::string_view::npos) j = s.size();
    std::string_view tok = s.substr(i, j - i);
    while (!tok.empty() && tok.front() == ' ') tok.remove_prefix(1);
    while (!tok.empty() && tok.back() == ' ') tok.remove_suffix(1);
    i = j + 1;
    if (tok.empty()) continue;
    if (tok == "/") {
      for (auto& p : ps) p.posonly = true;
      continue;
    }
    if (tok == "*") {
      kwonly = true;
      continue;
    }
    Param p;
    if (tok.substr(0, 2) == "**") {
      p.starstar = true;
      tok.remove_prefix(2);
    } else if (tok.substr(0, 1) == "*") {
      p.star = true;
      kwonly = true;
      tok.remove_prefix(1);
    }
    size_t eqp = tok.find('=');
    if (eqp != std::string_view::npos) {
      p.optional = true;
      tok = tok.substr(0, eqp);
    }
    p.name = std::string(tok);
    p.kwonly = kwonly && !p.star;
    ps.push_back(p);
  }
  params_ = std::move(ps);
  for (size_t k = 0; k < params_.size(); ++k) {
    if (params_[k].star) star_ = static_cast<int>(k);
    else if (params_[k].starstar) starstar_ = static_cast<int>(k);
    else if (!params_[k].kwonly) ++npositional_;
  }
}

void Signature::bind(Interp& I, const Args& a, Value* out) const {
  size_t n = params_.size();
  for (size_t k = 0; k < n; ++k) out[k] = Value();
  // Positional arguments fill the positional parameters in order (they come first in params_).
  size_t npos = a.npos;
  size_t take = std::min<size_t>(npos, npositional_);
  for (size_t k = 0; k < take; ++k) out[k] = a.pos[k];
  if (npos > npositional_) {
    if (star_ < 0) {
      size_t required = 0;
      for (size_t k = 0; k < npositional_; ++k)
        if (!params_[k].optional) ++required;
      if (required == npositional_)
        raisef(I, I.exc.TypeError, "{}() takes {} positional argument{} but {} {} given", fname_, npositional_,
               npositional_ == 1 ? "" : "s", npos, npos == 1 ? "was" : "were");
      raisef(I, I.exc.TypeError, "{}() takes from {} to {} positional arguments but {} {} given", fname_, required,
             npositional_, npos, npos == 1 ? "was" : "were");
    }
    std::vector<Value> rest(a.pos + npositional_, a.pos + npos);
    out[star_] = new_tuple(I, std::move(rest));
  } else if (star_ >= 0) {
    out[star_] = Value::borrow(I.empty_tuple.get());
  }
  Ref<Dict> extra;
  if (starstar_ >= 0) extra = new_dict_ref(I);
  for (uint32_t k = 0; k < a.nkw; ++k) {
    Str* kn = a.kwnames[k];
    bool matched = false;
    for (size_t p = 0; p < n; ++p) {
      const Param& pr = params_[p];
      if (pr.star || pr.starstar || pr.posonly) continue;
      if (pr.name == kn->s) {
        if (out[p]) raisef(I, I.exc.TypeError, "{}() got multiple values for argument '{}'", fname_, kn->s);
        out[p] = a.kwvals[k];
        matched = true;
        break;
      }
    }
    if (matched) continue;
    if (extra) {
      dict_set_str(I, extra.get(), kn, a.kwvals[k]);
      continue;
    }
    raisef(I, I.exc.TypeError, "{}() got an unexpected keyword argument '{}'", fname_, kn->s);
  }
  if (starstar_ >= 0) out[starstar_] = extra.take_value();
  std::vector<std::string> missing;
  bool missing_kwonly = false;
  for (size_t p = 0; p < n; ++p) {
    const Param& pr = params_[p];
    if (pr.star || pr.starstar || pr.optional || out[p]) continue;
    missing.push_back(pr.name);
    missing_kwonly = pr.kwonly;
  }
  if (!missing.empty()) {
    std::string names;
    for (size_t k = 0; k < missing.size(); ++k) {
      if (k) names += (k + 1 == missing.size()) ? (missing.size() > 2 ? ", and " : " and ") : ", ";
      names += "'" + missing[k] + "'";
    }
    raisef(I, I.exc.TypeError, "{}() missing {} required {} argument{}: {}", fname_, missing.size(),
           missing_kwonly ? "keyword-only" : "positional", missing.size() == 1 ? "" : "s", names);
  }
}

void check_nargs(Interp& I, const Args& a, const char* fname, uint32_t min, uint32_t max) {
  if (a.nkw) raisef(I, I.exc.TypeError, "{}() takes no keyword arguments", fname);
  if (a.npos >= min && a.npos <= max) return;
  if (min == max) {
    if (min == 0) raisef(I, I.exc.TypeError, "{}() takes no arguments ({} given)", fname, a.npos);
    if (min == 1) raisef(I, I.exc.TypeError, "{}() takes exactly one argument ({} given)", fname, a.npos);
    raisef(I, I.exc.TypeError, "{} expected {} arguments, got {}", fname, min, a.npos);
  }
  if (a.npos < min) raisef(I, I.exc.TypeError, "{} expected at least {} argument{}, got {}", fname, min, min == 1 ? "" : "s", a.npos);
  raisef(I, I.exc.TypeError, "{} expected at most {} argument{}, got {}", fname, max, max == 1 ? "" : "s", a.npos);
}

void raise_type_error_obj(Interp& I, const char* before, const Value& v, const char* after) {
  raisef(I, I.exc.TypeError, "{}'{}'{}", before, type_name(I, v), after);
}

}  // namespace onnxify::eval
