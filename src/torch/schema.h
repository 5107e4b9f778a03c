// Op schemas in PyTorch's native_functions.yaml syntax, and the one argument binder.
//
//   schema  := NAME ('.' OVERLOAD)? '(' (param (',' param)*)? ')' '->' returns
//   param   := '*' | type NAME ('=' default)?        ('*' starts the keyword-only parameters)
//   type    := BASE ('(' alias ')')? ('[' INT? ']')? '?'?     e.g. int[2], int[]?, Tensor?, Tensor[]
//   BASE    := Tensor | int | SymInt | float | bool | str | Scalar | ScalarType | Device | Layout
//            | MemoryFormat | Generator | Any
//   default := None | True | False | INT | FLOAT | STRING | '[' (INT (',' INT)*)? ']' | NAME
//   returns := type NAME? | '(' type NAME? (',' type NAME?)* ')'
//
// Binding follows PyTorch's Python argument parser: positional then keyword arguments, defaults,
// `int[2]` accepts one int and repeats it, int lists accept torch.Size and tuples, `SymInt` and
// `int` accept symbolic sizes (an `int` that must be concrete says so when read), Scalar accepts
// bool/int/float and symbolic ints, ScalarType a torch.dtype (or a Python type: float, int, bool). Overloads are tried in order; the first that
// binds wins (PyTorch's rule), and the TypeError for a failed call lists them all.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eval/eval.h"
#include "ir/dim.h"
#include "torch/dtype.h"

namespace onnxify::torch {

struct TensorObj;

enum class BaseType : uint8_t {
  Tensor, Int, SymInt, Float, Bool, Str, Scalar, ScalarType, Device, Layout, MemoryFormat, Generator, Any
};

struct Default {
  enum class Kind : uint8_t { None, Bool, Int, Float, Str, Ints } kind = Kind::None;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<int64_t> ints;
};

struct Param {
  std::string name;
  BaseType base = BaseType::Any;
  bool optional = false;   // T?
  bool is_list = false;    // T[] / T[N]
  int list_size = 0;       // N of T[N] (0: any length)
  bool kwonly = false;
  bool has_default = false;
  Default dflt;
  std::string type_text;   // as written, for messages ("int[2]")
};

struct Schema {
  std::string name;      // "add"
  std::string overload;  // "Tensor" ("" for the default overload)
  std::vector<Param> params;
  std::vector<std::string> returns;  // return types as written
  std::string text;
  // "add(Tensor self, Tensor other, *, Scalar alpha=1)" (without the overload name), for messages.
  std::string signature() const;
};

// Parses one schema; throws std::invalid_argument with the position on malformed text.
Schema parse_schema(const std::string& text);

// A Python scalar read from an argument.
[[noreturn]] void symbolic_scalar_error(const ir::DimExpr& size);

struct Scalar {
  enum class Kind : uint8_t { Bool, Int, Float, SymInt } kind = Kind::Int;
  int64_t i = 0;
  double f = 0;
  ir::DimExpr sym;  // SymInt: the expression
  // The number itself; a size only known at run time has none at conversion time (a clear error
  // that names it: ops that take one read `sym` first).
  double as_double() const {
    if (kind == Kind::SymInt) symbolic_scalar_error(sym);
    return kind == Kind::Float ? f : static_cast<double>(i);
  }
  bool is_floating() const { return kind == Kind::Float; }
};

// The arguments of one call, bound to a schema. Accessors convert on demand; `name` is for messages.
class Bound {
 public:
  Bound(eval::Interp& I, const Schema& s) : I(I), schema(&s), vals(s.params.size()) {}

  eval::Interp& I;
  const Schema* schema;
  std::vector<eval::Value> vals;  // Null: not passed (the default applies)

  size_t index(std::string_view name) const;
  bool given(size_t i) const { return !vals[i].is_null(); }
  // True when the value is absent or None.
  bool is_none(size_t i) const;

  TensorObj* tensor(size_t i) const;
  TensorObj* opt_tensor(size_t i) const;  // null for None
  std::vector<TensorObj*> tensors(size_t i) const;
  int64_t int_(size_t i) const;           // must be concrete
  std::optional<int64_t> opt_int(size_t i) const;
  ir::DimExpr dim(size_t i) const;        // symbolic allowed
  std::vector<int64_t> ints(size_t i) const;
  std::optional<std::vector<int64_t>> opt_ints(size_t i) const;
  std::vector<ir::DimExpr> dims(size_t i) const;  // symbolic allowed
  double real(size_t i) const;
  std::optional<double> opt_real(size_t i) const;
  std::vector<double> reals(size_t i) const;      // float[]: a number or a sequence of numbers
  bool boolean(size_t i) const;
  std::optional<bool> opt_bool(size_t i) const;
  Scalar scalar(size_t i) const;
  std::optional<Scalar> opt_scalar(size_t i) const;
  std::optional<DType> dtype(size_t i) const;
  std::string str(size_t i) const;
  std::optional<std::string> opt_str(size_t i) const;
  const eval::Value& raw(size_t i) const { return vals[i]; }

  [[noreturn]] void error(size_t i, std::string_view what) const;

 private:
  eval::Value get(size_t i) const;  // the value or the default as a Python value
};

// Binds `a` to `s`. Returns false (and the reason in *why) when the arguments do not fit, so the
// next overload can be tried; `self` (may be Null) is the first positional argument of a method.
// With `tensors_as_tensors`, a tensor binds only to a Tensor (or untyped) parameter: PyTorch prefers
// the overload that takes a tensor as a tensor (`torch.min(a, b)` is min.other, not min.dim with a
// 0-d tensor read as the dim); the dispatcher tries that first.
bool bind(eval::Interp& I, const Schema& s, const eval::Value& self, const eval::Args& a, Bound& out,
          std::string* why, bool tensors_as_tensors = false);

// Converters shared with the rest of the torch stage.
bool is_int_like(eval::Interp& I, const eval::Value& v);   // int, bool, SymInt
bool to_dim(eval::Interp& I, const eval::Value& v, ir::DimExpr* out);  // int / SymInt / 0-d int constant
// Also a one-element integer tensor computed at run time: a size read from its value then.
bool to_run_time_dim(eval::Interp& I, const eval::Value& v, ir::DimExpr* out);
std::optional<DType> to_dtype(eval::Interp& I, const eval::Value& v);  // torch.dtype or a Python type

}  // namespace onnxify::torch
