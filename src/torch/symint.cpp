// SymInt (DESIGN.md decision 4): a size only known when the exported model runs, e.g. x.size(0) for
// a batch declared as N. Static sizes are plain Python ints; a SymInt is a DimExpr, and integer
// arithmetic on it (+ - * // % and unary -) stays a DimExpr. It becomes graph values only where an
// op uses it as data (Recorder::dim_value). Comparisons are decided when the difference of the two
// sides is a constant (N + 1 > N) or its sign follows from sizes never being negative (N >= 0,
// N + 1 != 0, -1 < N); otherwise they give a zero-dim bool tensor, i.e. a symbolic condition. True division, float powers and mixing with floats give zero-dim float tensors. int(N)
// is N, min/max/abs/divmod stay sizes, and len(x) of a tensor with a symbolic first dim is that
// size (the builtins' hooks, Interp::SymbolicHooks). Using a SymInt where Python needs a concrete
// int (range() outside a `for` statement, list indexing) is a clear error.
#include <fmt/core.h>

#include <cmath>
#include <map>
#include <optional>
#include <vector>

#include "torch/control_flow.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Interp;
using eval::Value;
using ir::DimExpr;

// The least value `e` can take, when there is one: sizes are never negative, so `N`, `N*C + 1`,
// `floor(N / 2)` and `mod(N, 3)` have lower bounds that the DimExpr algebra (whose symbols range over
// all integers) does not use. Symbols read with int(t) may be negative: no bound.
std::optional<int64_t> size_lower_bound(Torch& T, DimExpr e, int64_t undeclared) {
  using ir::DimOp;
  switch (e.op()) {
    case DimOp::Const: return e.value();
    case DimOp::Symbol:
      if (T.rec.is_input_dim(std::string(e.name()))) {
        if (std::optional<int64_t> lo = declared_min(T, std::string(e.name()))) return *lo;
        if (undeclared > 0) return undeclared;
      }
      if (T.rec.is_size_symbol(std::string(e.name()))) return 0;
      return std::nullopt;
    case DimOp::Sum: {
      int64_t lo = e.sum_constant();
      for (size_t i = 0; i < e.num_operands(); ++i) {
        std::optional<int64_t> t = size_lower_bound(T, e.operand(i), undeclared);
        int64_t k = e.term_coefficient(i);
        if (!t || k < 0 || *t < 0) return std::nullopt;
        // (clamped: a smaller bound is still a bound, and int64 must not overflow)
        lo += std::min<int64_t>(k, int64_t{1} << 20) * std::min<int64_t>(*t, int64_t{1} << 20);
      }
      return lo;
    }
    case DimOp::Product: {
      int64_t lo = 1;
      for (size_t i = 0; i < e.num_operands(); ++i) {
        std::optional<int64_t> t = size_lower_bound(T, e.operand(i), undeclared);
        if (!t || *t < 0) return std::nullopt;
        lo = std::min<int64_t>(lo, int64_t{1} << 20) * std::min<int64_t>(*t, int64_t{1} << 20);
      }
      return lo;
    }
    case DimOp::FloorDiv:
    case DimOp::CeilDiv: {
      std::optional<int64_t> a = size_lower_bound(T, e.operand(0), undeclared);
      DimExpr k = e.operand(1);
      if (!a || !k.is_const() || k.value() <= 0) return std::nullopt;
      return e.op() == DimOp::FloorDiv ? ir::floor_div(*a, k.value()) : -ir::floor_div(-*a, k.value());
    }
    case DimOp::Mod: {
      DimExpr k = e.operand(1);
      if (k.is_const() && k.value() > 0) return 0;
      return std::nullopt;
    }
    case DimOp::Min: {
      int64_t lo = INT64_MAX;
      for (size_t i = 0; i < e.num_operands(); ++i) {
        std::optional<int64_t> t = size_lower_bound(T, e.operand(i), undeclared);
        if (!t) return std::nullopt;
        lo = std::min(lo, *t);
      }
      return lo;
    }
    case DimOp::Max: {
      std::optional<int64_t> lo;
      for (size_t i = 0; i < e.num_operands(); ++i)
        if (std::optional<int64_t> t = size_lower_bound(T, e.operand(i), undeclared)) lo = lo ? std::max(*lo, *t) : *t;
      return lo;
    }
    default: return std::nullopt;
  }
}

// min/max arguments that the bounds of sizes order: `min(0, S)` is 0 and `max(0, S)` is S for a size
// S (the DimExpr algebra, over all integers, keeps both). Every size Python sees and every tensor's
// shape is simplified so (make_size_value, new_tensor): one form for one size, so that sizes cancel
// (`x.shape[2] - min(0, x.shape[2])` is `S`, a view's -1 divides out).
// Answers are kept in T.simplified_sizes (expressions are immutable and the bounds fixed for an export).
DimExpr simplify_sizes(Torch& T, DimExpr e) {
  using ir::DimOp;
  if (e.is_const() || e.is_symbol() || e.is_unknown()) return e;
  if (auto it = T.simplified_sizes.find(e); it != T.simplified_sizes.end()) return it->second;
  std::vector<DimExpr> ops;
  bool changed = false;
  for (size_t i = 0; i < e.num_operands(); ++i) {
    ops.push_back(simplify_sizes(T, e.operand(i)));
    changed |= ops.back() != e.operand(i);
  }
  DimExpr r = e;
  switch (e.op()) {
    case DimOp::Min:
    case DimOp::Max: {
      // Keep the arguments no other one provably beats (for min, b is beaten by a when b - a >= 0;
      // of two that beat each other, being equal, the first is kept).
      const bool is_min = e.op() == DimOp::Min;
      auto beats = [&](size_t a, size_t b) {
        std::optional<int64_t> lo = size_lower_bound(T, is_min ? ops[b] - ops[a] : ops[a] - ops[b]);
        return lo && *lo >= 0;
      };
      std::vector<DimExpr> kept;
      for (size_t i = 0; i < ops.size(); ++i) {
        bool beaten = false;
        for (size_t j = 0; j < ops.size() && !beaten; ++j)
          beaten = i != j && beats(j, i) && !(i < j && beats(i, j));
        if (!beaten) kept.push_back(ops[i]);
      }
      changed |= kept.size() != ops.size();
      if (!changed) break;
      r = kept[0];
      for (size_t i = 1; i < kept.size(); ++i) r = is_min ? ir::min(r, kept[i]) : ir::max(r, kept[i]);
      break;
    }
    case DimOp::Sum:
      if (!changed) break;
      r = DimExpr(e.sum_constant());
      for (size_t i = 0; i < ops.size(); ++i) r = r + DimExpr(e.term_coefficient(i)) * ops[i];
      break;
    case DimOp::Product:
      if (!changed) break;
      r = DimExpr(1);
      for (DimExpr x : ops) r = r * x;
      break;
    case DimOp::FloorDiv: r = changed ? ir::floor_div(ops[0], ops[1]) : e; break;
    case DimOp::CeilDiv: r = changed ? ir::ceil_div(ops[0], ops[1]) : e; break;
    case DimOp::Mod: r = changed ? ir::mod(ops[0], ops[1]) : e; break;
    default: break;
  }
  T.simplified_sizes.emplace(e, r);
  return r;
}

namespace {

// The other operand as a DimExpr (ints, bools and SymInts).
bool as_dim(Interp& I, const Value& v, DimExpr* out) {
  int64_t i;
  if (eval::int_value(v, &i)) {
    *out = DimExpr(i);
    return true;
  }
  if (is_symint(v)) {
    *out = eval::as<SymIntObj>(v)->expr;
    return true;
  }
  return false;
}

DimExpr expr(const Value& v) { return eval::as<SymIntObj>(v)->expr; }

// `d <op> 0` when a lower bound of d or of -d decides it (N < 0, N + 1 > 0, 0 <= N), else nullopt.
std::optional<bool> decided_by_bounds(Torch& T, DimExpr d, eval::CmpOp op) {
  using eval::CmpOp;
  if (std::optional<int64_t> lo = size_lower_bound(T, d)) {  // d >= lo
    if (*lo >= 0 && op == CmpOp::Lt) return false;
    if (*lo >= 0 && op == CmpOp::Ge) return true;
    if (*lo >= 1) {
      if (op == CmpOp::Gt || op == CmpOp::Ne) return true;
      if (op == CmpOp::Le || op == CmpOp::Eq) return false;
    }
  }
  if (std::optional<int64_t> lo = size_lower_bound(T, -d)) {  // d <= -lo
    if (*lo >= 0 && op == CmpOp::Gt) return false;
    if (*lo >= 0 && op == CmpOp::Le) return true;
    if (*lo >= 1) {
      if (op == CmpOp::Lt || op == CmpOp::Ne) return true;
      if (op == CmpOp::Ge || op == CmpOp::Eq) return false;
    }
  }
  return std::nullopt;
}

// The SymInt as a zero-dim int64 tensor (for float arithmetic and undecided comparisons).
Value as_tensor_value(Torch& T, DimExpr e) { return new_tensor(T, T.rec.dim_scalar(e), DType::Int64, {}); }

using DimFn = DimExpr (*)(DimExpr, DimExpr);

Value arith(Interp& I, const Value& a, const Value& b, DimFn f, const char* tensor_op) {
  Torch& T = torch_state();
  DimExpr x, y;
  if (as_dim(I, a, &x) && as_dim(I, b, &y)) {
    if (f == nullptr) return I.notimplemented;
    return make_size_value(T, f(x, y));
  }
  double d;
  if (tensor_op && (eval::float_value(a, &d) || eval::float_value(b, &d))) {
    // int arithmetic with a float is float arithmetic: a zero-dim tensor.
    Value ta = is_symint(a) ? as_tensor_value(T, expr(a)) : a;
    Value tb = is_symint(b) ? as_tensor_value(T, expr(b)) : b;
    return call_op(T, tensor_op, {is_tensor(ta) ? ta : tb, is_tensor(ta) ? tb : ta});
  }
  return I.notimplemented;
}

DimExpr add(DimExpr a, DimExpr b) { return a + b; }
DimExpr sub(DimExpr a, DimExpr b) { return a - b; }
DimExpr mul(DimExpr a, DimExpr b) { return a * b; }
DimExpr fdiv(DimExpr a, DimExpr b) { return ir::floor_div(a, b); }
DimExpr fmod(DimExpr a, DimExpr b) { return ir::mod(a, b); }

void check_divisor(Interp& I, const Value& b) {
  DimExpr y;
  if (as_dim(I, b, &y) && y.is_const() && y.value() == 0)
    eval::raise(I, I.exc.ZeroDivisionError, "integer division or modulo by zero");
}

Value sym_add(Interp& I, const Value& a, const Value& b) { return arith(I, a, b, add, "add"); }
Value sym_radd(Interp& I, const Value& a, const Value& b) { return arith(I, b, a, add, "add"); }
Value sym_sub(Interp& I, const Value& a, const Value& b) { return arith(I, a, b, sub, "sub"); }
Value sym_rsub(Interp& I, const Value& a, const Value& b) { return arith(I, b, a, sub, nullptr); }
Value sym_mul(Interp& I, const Value& a, const Value& b) { return arith(I, a, b, mul, "mul"); }
Value sym_rmul(Interp& I, const Value& a, const Value& b) { return arith(I, b, a, mul, "mul"); }
Value sym_floordiv(Interp& I, const Value& a, const Value& b) {
  check_divisor(I, b);
  return arith(I, a, b, fdiv, nullptr);
}
Value sym_rfloordiv(Interp& I, const Value& a, const Value& b) { return arith(I, b, a, fdiv, nullptr); }
Value sym_mod(Interp& I, const Value& a, const Value& b) {
  check_divisor(I, b);
  return arith(I, a, b, fmod, nullptr);
}
Value sym_rmod(Interp& I, const Value& a, const Value& b) { return arith(I, b, a, fmod, nullptr); }

// a / b: a float; a zero-dim float tensor computed at run time.
Value truediv(Interp& I, const Value& a, const Value& b) {
  Torch& T = torch_state();
  double d;
  int64_t k;
  // Sizes whose quotient is a known number (x.nelement() / (N * C) is H * W): that float, as Python
  // computes it, so code that takes its square root and int() of it keeps a Python number.
  if (DimExpr x, y; (is_symint(a) || is_symint(b)) && as_dim(I, a, &x) && as_dim(I, b, &y)) {
    DimExpr q = ir::floor_div(x, y);
    if (q.is_const() && q * y == x) return Value::real(static_cast<double>(q.value()));
  }
  for (const Value* v : {&a, &b})
    if (!is_symint(*v) && !is_tensor(*v) && !eval::int_value(*v, &k) && !eval::float_value(*v, &d))
      return I.notimplemented;
  return call_op(T, "div", {operand_tensor(T, a), operand_tensor(T, b)});
}
Value sym_truediv(Interp& I, const Value& a, const Value& b) { return truediv(I, a, b); }
Value sym_rtruediv(Interp& I, const Value& a, const Value& b) { return truediv(I, b, a); }

// a ** b: a size for a small non-negative int exponent (N ** 2 = N * N); otherwise Python gives a
// float (N ** 0.5, N ** -1) or an int no size expression holds (2 ** N): a zero-dim tensor.
Value power(Interp& I, const Value& a, const Value& b) {
  Torch& T = torch_state();
  DimExpr x, y;
  bool ints = as_dim(I, a, &x) && as_dim(I, b, &y);
  if (ints && y.is_const() && y.value() >= 0 && y.value() <= 8) {
    DimExpr r(1);
    for (int64_t k = 0; k < y.value(); ++k) r = r * x;
    return make_size_value(T, r);
  }
  double d;
  int64_t k;
  for (const Value* v : {&a, &b})
    if (!is_symint(*v) && !eval::int_value(*v, &k) && !eval::float_value(*v, &d)) return I.notimplemented;
  // A negative int exponent gives a float in Python: computed in the default float dtype.
  Value base = operand_tensor(T, a);
  if (ints && !(y.is_const() && y.value() >= 0)) base = call_op(T, "to", {base, T.dtype_object(T.default_dtype)});
  return call_op(T, "pow", {base, is_symint(b) ? operand_tensor(T, b) : b});
}
Value sym_pow(Interp& I, const Value& a, const Value& b) { return power(I, a, b); }
Value sym_rpow(Interp& I, const Value& a, const Value& b) { return power(I, b, a); }

// divmod(a, b): (a // b, a % b), both sizes.
Value divmod(Interp& I, const Value& a, const Value& b) {
  DimExpr x, y;
  if (!as_dim(I, a, &x) || !as_dim(I, b, &y)) return I.notimplemented;
  check_divisor(I, b);
  Torch& T = torch_state();
  return eval::new_tuple(I, {make_size_value(T, ir::floor_div(x, y)), make_size_value(T, ir::mod(x, y))});
}
Value sym_divmod(Interp& I, const Value& a, const Value& b) { return divmod(I, a, b); }
Value sym_rdivmod(Interp& I, const Value& a, const Value& b) { return divmod(I, b, a); }

Value sym_abs(Interp& I, const Value& a) { return make_size_value(torch_state(), ir::max(expr(a), -expr(a))); }
Value sym_neg(Interp& I, const Value& a) { return make_size_value(torch_state(), -expr(a)); }
Value sym_pos(Interp& I, const Value& a) { return a; }

Value compare(Interp& I, const Value& a, const Value& b, eval::CmpOp op) {
  Torch& T = torch_state();
  DimExpr x, y;
  if (!as_dim(I, a, &x) || !as_dim(I, b, &y)) {
    if (op == eval::CmpOp::Eq) return Value::boolean(false);
    if (op == eval::CmpOp::Ne) return Value::boolean(true);
    return I.notimplemented;
  }
  DimExpr d = x - y;
  if (d.is_const()) {
    int64_t v = d.value();
    switch (op) {
      case eval::CmpOp::Eq: return Value::boolean(v == 0);
      case eval::CmpOp::Ne: return Value::boolean(v != 0);
      case eval::CmpOp::Lt: return Value::boolean(v < 0);
      case eval::CmpOp::Le: return Value::boolean(v <= 0);
      case eval::CmpOp::Gt: return Value::boolean(v > 0);
      case eval::CmpOp::Ge: return Value::boolean(v >= 0);
      default: break;
    }
  }
  if (std::optional<bool> known = decided_by_bounds(T, d, op)) return Value::boolean(*known);
  // Only known at run time: a symbolic condition.
  const char* name = op == eval::CmpOp::Eq ? "eq" : op == eval::CmpOp::Ne ? "ne" : op == eval::CmpOp::Lt ? "lt"
                     : op == eval::CmpOp::Le ? "le" : op == eval::CmpOp::Gt ? "gt" : "ge";
  Value r = call_op(T, name, {as_tensor_value(T, x), as_tensor_value(T, y)});
  // Its truth when every input dim is at least 2 (each symbol s as s + 2, s >= 0): kept for an If
  // that cannot merge its branches (TensorObj::assumed).
  auto at_least = [&](int64_t k) {
    return d.substitute([&](std::string_view s) -> std::optional<DimExpr> {
      if (!T.rec.is_input_dim(std::string(s))) return std::nullopt;
      return DimExpr::symbol(std::string(s)) + DimExpr(k);
    });
  };
  // Not for a dim the user declared may be 0 or 1 (--dim N=1..): both sides are then possible, and
  // an If that cannot hold both is an error, not an assumption (size_assumptions.cpp).
  bool may_assume = true;
  for (const std::string& s : d.symbols())
    if (std::optional<int64_t> lo = T.rec.is_input_dim(s) ? declared_min(T, s) : std::nullopt; lo && *lo < 2)
      may_assume = false;
  DimExpr d2 = at_least(2);
  if (is_tensor(r) && d2 != d && may_assume)
    if (std::optional<bool> known = decided_by_bounds(T, d2, op)) {
      as_tensor(r)->assumed = *known;
      as_tensor(r)->assumed_unless_empty = decided_by_bounds(T, at_least(1), op) == known;
    }
  return r;
}

Value sym_eq(Interp& I, const Value& a, const Value& b) { return compare(I, a, b, eval::CmpOp::Eq); }
Value sym_ne(Interp& I, const Value& a, const Value& b) { return compare(I, a, b, eval::CmpOp::Ne); }
Value sym_lt(Interp& I, const Value& a, const Value& b) { return compare(I, a, b, eval::CmpOp::Lt); }
Value sym_le(Interp& I, const Value& a, const Value& b) { return compare(I, a, b, eval::CmpOp::Le); }
Value sym_gt(Interp& I, const Value& a, const Value& b) { return compare(I, a, b, eval::CmpOp::Gt); }
Value sym_ge(Interp& I, const Value& a, const Value& b) { return compare(I, a, b, eval::CmpOp::Ge); }

Value sym_repr(Interp& I, const Value& a) { return I.str(expr(a).str()); }
int64_t sym_hash(Interp& I, const Value& a) { return static_cast<int64_t>(expr(a).hash() & 0x3fffffffffffffffull); }

// range(N) with N only known at run time, outside a `for` statement: the int64 tensor arange(...) with
// the same bounds, which is what a range becomes where it reaches torch (`torch.LongTensor(range(N))`,
// `torch.tensor(range(N))`, `x[range(N), y]`). Python uses that need the ints themselves stop at
// that tensor with the usual "only known when the exported model runs" errors.
Value hook_range(Interp& I, const eval::Args& a) {
  // A bound is a size, or a zero-dim integer tensor only known at run time (a Loop's counter:
  // `x[range(i, i + 1)]`), which Python's range() takes through its __index__ in eager.
  Torch& T = torch_state();
  bool symbolic = false;
  for (uint32_t i = 0; i < a.npos; ++i) symbolic = symbolic || runtime_int(T, a[i]);
  if (!symbolic) return Value();
  std::vector<Value> args(a.pos, a.pos + a.npos);
  Value r = call_op(T, "arange", std::move(args));
  if (is_tensor(r)) as_tensor(r)->from_range = true;
  return r;
}

// numbers[k] with k only known at run time (a size, a Loop's counter, an item of `x.numpy()`): a
// Gather from the numbers as a constant tensor (torch.tensor's dtype: int64 for ints, the default
// float dtype once a float is among them), read back as a run-time number. Gather takes a negative
// k from the end, as Python does; an index out of range is ONNX Runtime's error where eager raises
// IndexError. Lists of anything else (and of bools alone) go on as usual.
Value hook_item_at(Interp& I, const std::vector<Value>& items, const Value& key) {
  Torch& T = torch_state();
  if (items.empty()) return Value();
  bool any_float = false;
  for (const Value& v : items) {
    if (!(v.is_int() || v.is_float())) return Value();  // (a bool is not is_int here)
    any_float = any_float || v.is_float();
  }
  Value k = key;
  if (!is_symint(k) && !is_tensor(k) && I.type_of(k)->slots.index) {
    k = I.type_of(k)->slots.index(I, k);  // numpy's scalar stand-in: its __index__ gives the size
    if (!is_symint(k)) return Value();
  }
  if (!runtime_int(T, k)) return Value();
  ir::Value* index = index_value(T, k);
  Value table = call_op(T, "tensor", {eval::new_list(I, items)});
  if (!is_tensor(table)) return table;  // poison: reported
  TensorObj* t = as_tensor(table);
  ir::Value* v = T.rec.emit("Gather", {value_of(T, t), index}, ir::Type::tensor(elem(t->dtype), {}),
                            {{"axis", int64_t{0}}});
  Value item = new_tensor(T, v, t->dtype, {});
  return runtime_item(T, as_tensor(item), any_float);
}

// How a message names the SymInt: a size (of a dim, arithmetic of sizes) or, when a symbol of it
// stands for a value read from a tensor (int(t), t.item(), numpy's items), a run-time value.
std::string describe(Torch& T, const ir::DimExpr& e) {
  for (const std::string& s : e.symbols())
    if (T.rec.has_symbol_source(s) && !T.rec.is_size_symbol(s))
      return fmt::format("the value '{}' (read from a tensor computed at run time)", e.str());
  return fmt::format("the size '{}'", e.str());
}
Value sym_index(Interp& I, const Value& a) {
  need_concrete(torch_state(), describe(torch_state(), expr(a)),
                "this use as a Python int (range() outside a `for` statement, a list index or repeat count, ...)");
}
// float() itself is hook_to_float; this is what a C-level float conversion of a size reaches (math.*).
Value sym_float(Interp& I, const Value& a) {
  need_concrete(torch_state(), describe(torch_state(), expr(a)), "this use as a Python float");
}
Value sym_not(Interp& I, const Value& self, const eval::Args&) { return symbolic_not(torch_state(), self); }

eval::Truth sym_bool(Interp& I, const Value& a) {
  (void)I;
  (void)a;
  return eval::kSymbolic;  // nonzero-ness of a symbolic size (a symbolic condition)
}

Value sym_format(Interp& I, const Value& a, const Value& spec) { return I.str(expr(a).str()); }

Value sym_new(Interp& I, eval::Type*, const eval::Args&) {
  eval::raise(I, I.exc.TypeError, "cannot create 'SymInt' instances");
}

Value symint_alloc(Interp& I, eval::Type* cls) { return I.make<SymIntObj>(cls).take_value(); }

// The builtins' hooks (Interp::SymbolicHooks): int(N) is N; min/max of sizes are size expressions
// (decided when the difference is a constant, else computed at run time).
// int(t) of a one-element tensor only known at run time (int(n / 2), int(n ** 0.5), int(t.sum()))
// is a new size read from that value, truncated toward zero as Python's int() truncates.
Value hook_to_int(Interp& I, const Value& v) {
  if (is_symint(v)) return v;
  if (!is_tensor(v)) return Value();
  TensorObj* t = as_tensor(v);
  Torch& T = torch_state();
  // int() as usual (the value known at conversion time, or the error saying why there is none) unless
  // the value is only known at run time.
  if (!runtime_scalar(T, t)) return Value();
  return runtime_item(T, t, false);
}

// math.NAME(...) with a symbolic size or a run-time one-element tensor among its arguments: the torch op
// of the same name on zero-dim float tensors (a run-time Python float); floor/ceil/trunc give a size, as
// they give an int. Null (math's usual error) for anything else.
Value hook_to_float(Interp& I, const Value& v);

Value hook_math(Interp& I, const char* name, const eval::Args& a) {
  Torch& T = torch_state();
  std::string_view fn = name;
  if ((fn == "floor" || fn == "ceil" || fn == "trunc") && a.npos == 1 && is_symint(a[0])) return a[0];  // an int
  if (fn == "round" && a.npos >= 1 && is_symint(a[0]) && (a.npos < 2 || a[1].is_none())) return a[0];
  if (fn == "round") {
    // round(x): Python rounds half to even, as torch.round does; without ndigits the result is an
    // int (a size), with them a float (a zero-dim tensor).
    if (a.npos < 1 || !is_tensor(a[0]) || !runtime_scalar(T, as_tensor(a[0]))) return Value();
    Value x = runtime_item(T, as_tensor(a[0]), true);
    if (a.npos < 2 || a[1].is_none()) return runtime_item(T, as_tensor(call_op(T, "round", {x})), false);
    int64_t nd;
    if (!eval::int_value(a[1], &nd)) return Value();
    return call_op_kw(T, "round", {x}, "decimals", Value::integer(nd));
  }
  static const std::map<std::string, std::string> kSame = {
      {"sqrt", "sqrt"}, {"exp", "exp"}, {"exp2", "exp2"}, {"expm1", "expm1"}, {"sin", "sin"}, {"cos", "cos"},
      {"tan", "tan"},   {"asin", "asin"}, {"acos", "acos"}, {"atan", "atan"}, {"sinh", "sinh"}, {"cosh", "cosh"},
      {"tanh", "tanh"}, {"asinh", "asinh"}, {"acosh", "acosh"}, {"atanh", "atanh"}, {"fabs", "abs"},
      {"erf", "erf"},   {"erfc", "erfc"}, {"log2", "log2"}, {"log10", "log10"}, {"log1p", "log1p"},
      {"floor", "floor"}, {"ceil", "ceil"}, {"trunc", "trunc"}, {"pow", "pow"}, {"log", "log"}};
  auto it = kSame.find(name);
  if (it == kSame.end()) return Value();
  std::vector<Value> args;
  for (uint32_t k = 0; k < a.npos; ++k) {
    const Value& v = a[k];
    if (is_symint(v)) {
      args.push_back(hook_to_float(I, v));
    } else if (is_tensor(v)) {
      if (!runtime_scalar(T, as_tensor(v))) return Value();
      args.push_back(runtime_item(T, as_tensor(v), true));
    } else {
      args.push_back(v);  // a Python number
    }
  }
  std::string n = it->second;
  if (n == "log" && args.size() == 2) {
    // math.log(x, base) = log(x) / log(base)
    Value den = is_tensor(args[1]) ? call_op(T, "log", {args[1]}) : Value::real(std::log(eval::to_double(I, args[1])));
    return call_op(T, "div", {call_op(T, "log", {args[0]}), den});
  }
  if (n == "pow" && !is_tensor(args[0])) return call_op(T, "pow", {call_op(T, "tensor", {args[0]}), args[1]});
  Value r = call_op(T, n, args);
  if (n == "floor" || n == "ceil" || n == "trunc") return runtime_item(T, as_tensor(r), false);
  return r;
}

// float(N) of a symbolic size, float(t) of a run-time one-element tensor: a zero-dim float tensor.
Value hook_to_float(Interp& I, const Value& v) {
  Torch& T = torch_state();
  if (is_symint(v)) return call_op(T, "to", {as_tensor_value(T, expr(v)), T.dtype_object(T.default_dtype)});
  if (!is_tensor(v) || !runtime_scalar(T, as_tensor(v))) return Value();
  return runtime_item(T, as_tensor(v), true);
}

Value hook_min_max(Interp& I, const Value& a, const Value& b, bool is_max) {
  Torch& T = torch_state();
  auto run_time_number = [&](const Value& v) {
    return is_tensor(v) && as_tensor(v)->rank() == 0 && runtime_scalar(T, as_tensor(v));
  };
  if (run_time_number(a) || run_time_number(b)) {
    // max(1, t.sum().item()): Python keeps the first of equals, so max(a, b) = b if b > a else a.
    double d;
    int64_t k;
    for (const Value* v : {&a, &b})
      if (!is_tensor(*v) && !is_symint(*v) && !eval::int_value(*v, &k) && !eval::float_value(*v, &d)) return Value();
    Value ta = operand_tensor(T, a), tb = operand_tensor(T, b);
    return call_op(T, "where", {call_op(T, is_max ? "gt" : "lt", {tb, ta}), tb, ta});
  }
  if (!is_symint(a) && !is_symint(b)) return Value();
  DimExpr x, y;
  if (!as_dim(I, a, &x) || !as_dim(I, b, &y)) return Value();
  DimExpr d = y - x;
  if (d.is_const()) return (is_max ? d.value() > 0 : d.value() < 0) ? b : a;  // Python keeps the first of equals
  return make_size_value(torch_state(), is_max ? ir::max(x, y) : ir::min(x, y));
}

}  // namespace

// An operand of run-time arithmetic as a tensor: a size's value, a tensor itself, a Python number
// as torch.tensor(n) (its Python dtype).
Value operand_tensor(Torch& T, const Value& v) {
  if (is_symint(v)) return as_tensor_value(T, expr(v));
  if (is_tensor(v)) return v;
  return call_op(T, "tensor", {v});
}

bool runtime_int(Torch& T, const Value& v) {
  if (is_symint(v)) return true;
  if (!is_tensor(v)) return false;
  TensorObj* t = as_tensor(v);
  return t->rank() == 0 && is_integral(t->dtype, false) && runtime_scalar(T, t);
}

ir::Value* index_value(Torch& T, const Value& v) {
  if (is_symint(v)) return T.rec.dim_scalar(expr(v));
  if (!is_tensor(v) || as_tensor(v)->rank() != 0 || !is_integral(as_tensor(v)->dtype, false)) return nullptr;
  return cast_to(T, value_of(T, as_tensor(v)), as_tensor(v)->dtype, DType::Int64, {});
}

bool runtime_scalar(Torch& T, TensorObj* t) {
  return !t->random && !t->uninitialized && one_element(t) && !is_complex(t->dtype) &&
         elem(t->dtype) != ir::ElementType::Undefined && !known_values(T, t);
}

Value runtime_item(Torch& T, TensorObj* t, bool as_float) {
  bool holds_sizes = !t->sizes.empty() && t->sizes_version == t->version;
  if (!as_float)
    return make_size_value(T, holds_sizes ? t->sizes[0] : size_from_tensor(T, t));
  // A run-time Python float: the value as a zero-dim tensor of a float dtype (t's own, else the default).
  DType d = is_floating(t->dtype) ? t->dtype : T.default_dtype;
  ir::Value* x = cast_to(T, value_of(T, t), t->dtype, d, t->shape);
  if (!t->shape.empty()) x = T.rec.emit("Reshape", {x, T.rec.const_i64({})}, ir::Type::tensor(elem(d), {}));
  return new_tensor(T, x, d, {});
}

DimExpr size_from_tensor(Torch& T, TensorObj* t) {
  ir::Value* x = cast_to(T, value_of(T, t), t->dtype, DType::Int64, t->shape);
  ir::Value* one = T.rec.emit("Reshape", {x, T.rec.const_i64({1})}, ir::Type::tensor(ir::ElementType::Int64, {1}));
  return T.rec.value_symbol(one);
}

// copy.copy / copy.deepcopy of a size (a list from x.size() deep-copied): a SymInt is immutable, as an int is.
static Value sym_copy(Interp&, const Value& self, const eval::Args&) { return self; }

void init_symint_type(Torch& T) {
  eval::TypeSpec s;
  s.name = "SymInt";
  s.module = "torch";
  s.flags = 0;
  s.alloc = &symint_alloc;
  s.slots.new_ = &sym_new;
  s.slots.repr = &sym_repr;
  s.slots.str = &sym_repr;
  s.slots.hash = &sym_hash;
  s.slots.add = &sym_add;
  s.slots.radd = &sym_radd;
  s.slots.sub = &sym_sub;
  s.slots.rsub = &sym_rsub;
  s.slots.mul = &sym_mul;
  s.slots.rmul = &sym_rmul;
  s.slots.floordiv = &sym_floordiv;
  s.slots.rfloordiv = &sym_rfloordiv;
  s.slots.mod = &sym_mod;
  s.slots.rmod = &sym_rmod;
  s.slots.truediv = &sym_truediv;
  s.slots.rtruediv = &sym_rtruediv;
  s.slots.pow = &sym_pow;
  s.slots.rpow = &sym_rpow;
  s.slots.divmod = &sym_divmod;
  s.slots.rdivmod = &sym_rdivmod;
  s.slots.abs = &sym_abs;
  s.slots.neg = &sym_neg;
  s.slots.pos = &sym_pos;
  s.slots.eq = &sym_eq;
  s.slots.ne = &sym_ne;
  s.slots.lt = &sym_lt;
  s.slots.le = &sym_le;
  s.slots.gt = &sym_gt;
  s.slots.ge = &sym_ge;
  s.slots.index = &sym_index;
  s.slots.int_ = &sym_index;
  s.slots.float_ = &sym_float;
  s.slots.bool_ = &sym_bool;
  s.slots.format = &sym_format;
  s.methods = {{"__onnxify_not__", &sym_not}, {"__copy__", &sym_copy}, {"__deepcopy__", &sym_copy}};
  T.symint_type = eval::new_native_type(T.I, s);
  T.I.symbolic.to_int = &hook_to_int;
  T.I.symbolic.to_float = &hook_to_float;
  T.I.symbolic.math = &hook_math;
  T.I.symbolic.min_max = &hook_min_max;
  T.I.symbolic.range = &hook_range;
  T.I.symbolic.is_int = &is_symint;
  T.I.symbolic.item_at = &hook_item_at;
  T.I.symbolic.assume_at_least = [](Interp& I, const Value& n, int64_t k, const char* what) {
    if (is_symint(n))
      assume_at_least(torch_state(), expr(n), k, what,
                      "PyTorch stops at the shorter length and the exported model reads rows that are not there");
  };
}

}  // namespace onnxify::torch
