// The abstract object protocol: what the evaluator, the builtins and other stages do with values
// (CPython's abstract.h). Every operation dispatches through the type's slots, so native types
// (the torch stage's Tensor) and classes written in Python behave the same way.
#pragma once

#include <fmt/core.h>

#include <string>
#include <string_view>
#include <vector>

#include "eval/interp.h"

namespace onnxify::eval {

// ---- exceptions -----------------------------------------------------------------------------------
Value make_exception(Interp& I, Type* type, std::string_view msg);
Value make_exception_args(Interp& I, Type* type, std::vector<Value> args);
[[noreturn]] void raise(Interp& I, Type* type, std::string_view msg);
[[noreturn]] void raise_value(Interp& I, Value exc);  // an exception instance or class
template <class... A>
[[noreturn]] void raisef(Interp& I, Type* type, fmt::format_string<A...> f, A&&... a) {
  raise(I, type, fmt::format(f, std::forward<A>(a)...));
}
// KeyError(key), with the key as its single argument.
[[noreturn]] void raise_key_error(Interp& I, const Value& key);
// Whether an exception (instance) matches an except clause's type or tuple of types.
bool exception_matches(Interp& I, const Value& exc, const Value& type_or_tuple);
// A Diagnostic (not a Python exception) at the innermost running location.
[[noreturn]] void fatal(Interp& I, std::string message, std::string help = {});
// Thrown by is_true() for a value only known at run time inside an assert statement's test
// (Interp::assert_depth); the assert statement catches it and passes. Not a Python exception:
// `except` clauses in the test's code do not see it.
struct SymbolicAssertion {};

// ---- types ------------------------------------------------------------------------------------------
inline std::string_view type_name(Interp& I, const Value& v) { return I.type_of(v)->name_view(); }
inline bool isinstance(Interp& I, const Value& v, Type* t) { return I.type_of(v)->is_subtype_of(t); }
// isinstance() with tuples and __instancecheck__.
bool isinstance_full(Interp& I, const Value& v, const Value& cls);
bool issubclass_full(Interp& I, const Value& sub, const Value& cls);

// ---- attributes -------------------------------------------------------------------------------------
// Looks `name` up along the MRO's class dicts; Null when absent.
Value type_lookup(Type* t, Str* name);
Value getattr(Interp& I, const Value& o, Str* name);      // raises AttributeError
Value getattr_opt(Interp& I, const Value& o, Str* name);  // Null when missing
inline Value getattr(Interp& I, const Value& o, std::string_view name) { return getattr(I, o, I.intern(name)); }
inline Value getattr_opt(Interp& I, const Value& o, std::string_view name) {
  return getattr_opt(I, o, I.intern(name));
}
void setattr(Interp& I, const Value& o, Str* name, const Value& v);
void delattr(Interp& I, const Value& o, Str* name);
[[noreturn]] void raise_no_attribute(Interp& I, const Value& o, Str* name);
// object.__getattribute__ / object.__setattr__ (what `super().__setattr__` reaches).
Value generic_getattr(Interp& I, const Value& o, Str* name);
void generic_setattr(Interp& I, const Value& o, Str* name, const Value& v);
void generic_delattr(Interp& I, const Value& o, Str* name);
// Calls a descriptor's __get__ if it has one.
Value bind_descriptor(Interp& I, const Value& attr, const Value& obj, Type* owner);

// ---- calls ------------------------------------------------------------------------------------------
Value call(Interp& I, const Value& f, const Args& a);
inline Value call(Interp& I, const Value& f) { return call(I, f, Args()); }
inline Value call(Interp& I, const Value& f, const Value& a0) { return call(I, f, Args(&a0, 1)); }
Value call(Interp& I, const Value& f, const Value& a0, const Value& a1);
Value call(Interp& I, const Value& f, const Value& a0, const Value& a1, const Value& a2);
// o.name(*args): looks the method up without making a bound method when it can.
Value call_method(Interp& I, const Value& o, Str* name, const Args& a);
Value call_method(Interp& I, const Value& o, Str* name);
Value call_method(Interp& I, const Value& o, Str* name, const Value& a0);
Value call_method(Interp& I, const Value& o, Str* name, const Value& a0, const Value& a1);
// Looks up a special method on the type (not the instance) and calls it; Null when absent.
Value call_special(Interp& I, const Value& o, Str* name, const Args& a);
bool callable(Interp& I, const Value& v);

// ---- conversions ------------------------------------------------------------------------------------
Truth truth(Interp& I, const Value& v);
// truth() for contexts that need a Python bool (symbolic is an error there).
bool is_true(Interp& I, const Value& v);
Value repr(Interp& I, const Value& v);      // a str
Value to_str(Interp& I, const Value& v);    // str(v)
std::string repr_string(Interp& I, const Value& v);
std::string str_string(Interp& I, const Value& v);
int64_t hash(Interp& I, const Value& v);
int64_t len(Interp& I, const Value& v);
// operator.index(v): ints, bools and objects with __index__.
int64_t index(Interp& I, const Value& v);
// v as a C double (float(v) for ints and floats, __float__ otherwise).
double to_double(Interp& I, const Value& v);
// The int inside an int, a bool or an instance of an int subclass.
inline bool int_value(const Value& v, int64_t* out) {
  if (v.is_intlike()) {
    *out = v.i();
    return true;
  }
  if (has_layout(v, Layout::Int)) {
    *out = static_cast<BoxedInt*>(v.obj())->v;
    return true;
  }
  return false;
}
inline bool float_value(const Value& v, double* out) {
  if (v.is_float()) {
    *out = v.f();
    return true;
  }
  if (has_layout(v, Layout::Float)) {
    *out = static_cast<BoxedFloat*>(v.obj())->v;
    return true;
  }
  return false;
}

// ---- operators --------------------------------------------------------------------------------------
#define ONNXIFY_BINOPS(X)                    \
  X(Add, "+", add, radd, iadd)                \
  X(Sub, "-", sub, rsub, isub)                \
  X(Mul, "*", mul, rmul, imul)                \
  X(MatMul, "@", matmul, rmatmul, imatmul)    \
  X(TrueDiv, "/", truediv, rtruediv, itruediv) \
  X(FloorDiv, "//", floordiv, rfloordiv, ifloordiv) \
  X(Mod, "%", mod, rmod, imod)                \
  X(Pow, "**", pow, rpow, ipow)               \
  X(LShift, "<<", lshift, rlshift, ilshift)   \
  X(RShift, ">>", rshift, rrshift, irshift)   \
  X(BitAnd, "&", and_, rand, iand)            \
  X(BitOr, "|", or_, ror, ior)                \
  X(BitXor, "^", xor_, rxor, ixor)

enum class BinOp : uint8_t {
#define X(name, sym, slot, rslot, islot) name,
  ONNXIFY_BINOPS(X)
#undef X
};
const char* binop_symbol(BinOp op);

enum class UnaryOp : uint8_t { Neg, Pos, Invert, Not };
enum class CmpOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Is, IsNot, In, NotIn };
const char* cmpop_symbol(CmpOp op);

Value binary_op(Interp& I, BinOp op, const Value& a, const Value& b);
Value inplace_op(Interp& I, BinOp op, const Value& a, const Value& b);
Value unary_op(Interp& I, UnaryOp op, const Value& v);
// Rich comparison (Eq..Ge); returns whatever __eq__ etc. return.
Value rich_compare(Interp& I, CmpOp op, const Value& a, const Value& b);
// Comparisons as C++ bools (identity first for equality, as containers compare).
bool eq(Interp& I, const Value& a, const Value& b);
bool lt(Interp& I, const Value& a, const Value& b);
Value compare(Interp& I, CmpOp op, const Value& a, const Value& b);
// `a is b` where one of them is None and the other may be None only on some runs
// (Interp::symbolic.is_none): that run-time bool, else Null.
Value is_none_at_run_time(Interp& I, const Value& a, const Value& b);
Value power(Interp& I, const Value& a, const Value& b, const Value& mod);

// ---- containers -------------------------------------------------------------------------------------
Value getitem(Interp& I, const Value& o, const Value& key);
void setitem(Interp& I, const Value& o, const Value& key, const Value& v);
void delitem(Interp& I, const Value& o, const Value& key);
bool contains(Interp& I, const Value& container, const Value& item);
Value iter(Interp& I, const Value& v);
Value next(Interp& I, const Value& it);  // Null when exhausted
// Calls f(item) for each item; f returns false to stop early. Lists and tuples skip the iterator.
template <class F>
void for_each(Interp& I, const Value& iterable, F&& f);
std::vector<Value> to_vector(Interp& I, const Value& iterable);

// ---- construction helpers ---------------------------------------------------------------------------
Value new_tuple(Interp& I, std::vector<Value> items);
Value new_list(Interp& I, std::vector<Value> items = {});
Value new_dict(Interp& I);
Value new_set(Interp& I, Type* type = nullptr);
Value new_float(double d);
Value new_bool(bool b);
Ref<Module> new_module(Interp& I, std::string_view name);

// Native functions and types (the extension API the torch stage uses).
Value new_native(Interp& I, const char* name, NativeFn fn, Value self = {}, Value data = {},
                 uint32_t flags = 0, const char* doc = nullptr);
void add_function(Interp& I, Module* m, const char* name, NativeFn fn, const char* doc = nullptr);
void module_set(Interp& I, Module* m, std::string_view name, const Value& v);
Value module_get(Interp& I, Module* m, std::string_view name);  // Null when absent

struct MethodDef {
  const char* name;
  NativeFn fn;
  uint32_t flags = kNativeMethod;  // or kNativeStatic / kNativeClass
  const char* doc = nullptr;
};
struct GetSetDef {
  const char* name;
  GetterFn get;
  SetterFn set = nullptr;
};
struct TypeSpec {
  const char* name = "";
  const char* module = "builtins";
  Type* base = nullptr;  // default: object
  Layout layout = Layout::Other;
  AllocFn alloc = nullptr;
  uint32_t flags = kTypeBase;  // kTypeBase: may be subclassed
  Slots slots;
  std::vector<MethodDef> methods;
  std::vector<GetSetDef> getsets;
};
// Creates a native type. Slots not given are inherited from the base.
Type* new_native_type(Interp& I, const TypeSpec& spec);
// Sets an attribute of a native type, which Python code cannot (its types are immutable): for a
// prelude module that gives onnxify's own types another framework's methods (tensorflow's
// TensorShape.as_list on torch.Size), installed only when that framework's module is imported.
void extend_native_type(Interp& I, Type* t, Str* name, const Value& v);
// Allocates a bare instance of `cls` (a native type or a Python subclass of one: its native layout,
// and a __dict__ when it has one). A native type's __new__ slot starts with this.
Value alloc_instance(Interp& I, Type* cls);
// Fills an already allocated Type (the builtin types are allocated before str exists).
void init_native_type(Interp& I, Type* t, const TypeSpec& spec);

// ---- argument parsing for native functions ----------------------------------------------------------
// A Python signature for a native function, parsed once from text like
//   "iterable, /, *, key=None, reverse=False"   or   "*args, sep=' ', end='\n'"
// "=..." marks a parameter optional (the bound value is Null when not passed: the caller applies
// the default). Errors are CPython's TypeErrors ("f() missing 1 required positional argument: 'x'").
class Signature {
 public:
  Signature(const char* fname, const char* params);
  // Binds `a` into out[0..size()). A *args parameter receives a tuple, **kwargs a dict.
  void bind(Interp& I, const Args& a, Value* out) const;
  size_t size() const { return params_.size(); }

 private:
  struct Param {
    std::string name;
    bool optional = false;
    bool kwonly = false;
    bool posonly = false;
    bool star = false;
    bool starstar = false;
  };
  std::string fname_;
  std::vector<Param> params_;
  size_t npositional_ = 0;  // parameters that can be passed positionally
  int star_ = -1, starstar_ = -1;
};

// Checks a simple positional-only call: f(a, b[, c]) with no keywords.
void check_nargs(Interp& I, const Args& a, const char* fname, uint32_t min, uint32_t max);

}  // namespace onnxify::eval

#include "eval/ops_inl.h"
