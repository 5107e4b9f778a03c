// Pointwise ops: arithmetic, comparisons, math functions, activations, dtype conversions.
// Binary ops follow PyTorch's promotion (result_dtype) and broadcasting (binary_op).
#include <fmt/core.h>

#include <cmath>
#include <limits>

#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

Operand arg(OpCall& c, size_t i) { return operand(c.I, c.a.raw(i).is_null() ? Value::integer(0) : c.a.raw(i)); }

Operand scalar_operand(const Scalar& s) {
  Operand o;
  o.s = s;
  return o;
}

Operand tensor_operand(TensorObj* t) {
  Operand o;
  o.t = t;
  return o;
}

// self op other with `alpha` scaling other (add/sub).
Value add_like(OpCall& c, std::string_view op, bool reverse) {
  Operand a = arg(c, 0), b = arg(c, 1);
  size_t ai = c.a.index("alpha");
  if (c.a.given(ai)) {
    Scalar alpha = c.a.scalar(ai);
    if (alpha.as_double() != 1.0) {
      Value scaled = binary_op(c.T, "Mul", b, scalar_operand(alpha));
      // The product's dtype must not change the promotion of the original operands.
      DType dt = result_dtype(c.T, {a, b});
      b = tensor_operand(as_tensor(scaled));
      return reverse ? binary_op(c.T, op, b, a, dt) : binary_op(c.T, op, a, b, dt);
    }
  }
  return reverse ? binary_op(c.T, op, b, a) : binary_op(c.T, op, a, b);
}

DType floatify(OpCall& c, DType dt) { return is_floating(dt) || is_complex(dt) ? dt : c.T.default_dtype; }

// True division: integer operands are divided as the default float dtype.
Value true_div(OpCall& c, const Operand& a, const Operand& b) {
  DType dt = floatify(c, result_dtype(c.T, {a, b}));
  return binary_op(c.T, "Div", a, b, dt);
}

// Python's floor division and modulo (PyTorch's floor_divide and remainder).
Value floor_div(OpCall& c, const Operand& a, const Operand& b) {
  DType dt = result_dtype(c.T, {a, b});
  if (is_floating(dt)) {
    Value q = binary_op(c.T, "Div", a, b, dt);
    TensorObj* qt = as_tensor(q);
    return c.node("Floor", {c.v(qt)}, dt, qt->shape);
  }
  // (a - a mod b) / b: ONNX integer Mod takes the divisor's sign, like Python's %.
  Value m = binary_op(c.T, "Mod", a, b, dt);
  Value d = binary_op(c.T, "Sub", a, tensor_operand(as_tensor(m)), dt);
  return binary_op(c.T, "Div", tensor_operand(as_tensor(d)), b, dt);
}

Value remainder(OpCall& c, const Operand& a, const Operand& b) {
  DType dt = result_dtype(c.T, {a, b});
  if (!is_floating(dt)) return binary_op(c.T, "Mod", a, b, dt);
  // a - floor(a / b) * b (ONNX's float Mod is C's fmod).
  Value q = floor_div(c, a, b);
  Value p = binary_op(c.T, "Mul", tensor_operand(as_tensor(q)), b, dt);
  return binary_op(c.T, "Sub", a, tensor_operand(as_tensor(p)), dt);
}

Value div_mode(OpCall& c) {
  Operand a = arg(c, 0), b = arg(c, 1);
  std::optional<std::string> mode = c.a.opt_str(2);
  if (!mode) return true_div(c, a, b);
  if (*mode == "floor") return floor_div(c, a, b);
  if (*mode != "trunc")
    c.runtime_error(fmt::format("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{}'", *mode));
  DType dt = result_dtype(c.T, {a, b});
  if (!is_floating(dt)) return binary_op(c.T, "Div", a, b, dt);  // ONNX integer Div truncates
  Value q = binary_op(c.T, "Div", a, b, dt);
  TensorObj* qt = as_tensor(q);
  // trunc(x) = sign(x) * floor(|x|)
  ir::Value* fl = c.rec.emit("Floor", {c.rec.emit("Abs", {c.v(qt)}, qt->ir_type())}, qt->ir_type());
  return c.node("Mul", {c.rec.emit("Sign", {c.v(qt)}, qt->ir_type()), fl}, dt, qt->shape);
}

// floor/ceil/round: integer tensors are already whole (PyTorch returns them unchanged; ONNX's ops
// take floats only).
Value rounding(OpCall& c, std::string_view op) {
  TensorObj* x = c.t(0);
  if (!is_floating(x->dtype)) return c.node("Identity", {c.v(x)}, x->dtype, x->shape);
  return c.unary(op);
}

Value compare(OpCall& c, std::string_view op, bool negate = false) {
  Operand a = arg(c, 0), b = arg(c, 1);
  DType dt = result_dtype(c.T, {a, b});
  Value r = binary_op(c.T, op, a, b, dt, DType::Bool);
  if (!negate) return r;
  TensorObj* t = as_tensor(r);
  return c.node("Not", {c.v(t)}, DType::Bool, t->shape);
}

Value logical(OpCall& c, std::string_view op) {
  TensorObj* a = c.t(0);
  TensorObj* b = c.t(1);
  std::vector<DimExpr> shape = broadcast_shapes(c.I, a->shape, b->shape);
  ir::Value* va = cast_to(c.T, c.v(a), a->dtype, DType::Bool, a->shape);
  ir::Value* vb = cast_to(c.T, c.v(b), b->dtype, DType::Bool, b->shape);
  return c.node(op, {va, vb}, DType::Bool, shape);
}

// bitwise_and / _or / _xor. Bool operands are And / Or / Xor. Integers: ONNX's Bitwise ops are
// opset 18 and onnxify records at opset 17, so the bits are computed. In int64 a narrower signed
// value is its sign extension, and the result is the sign extension of the narrow result; so with B
// the dtype's bits, bit k of x (k < B - 1) is q_k mod 2 with q_0 = x and q_{k+1} = (q_k - q_k mod 2)
// / 2 (floor halving, exact), the sign bit is x < 0, and the result is the sum of f(a_k, b_k) * 2^k
// plus f(sign a, sign b) * -2^(B-1) (uint8: eight bits of weight 2^k). A Python int operand's bits
// are known, so only the bits that can be set in the result are built (`x & 1` is one Mod).
Value bitwise(OpCall& c, char kind) {
  Operand a = arg(c, 0), b = arg(c, 1);
  const char* name = kind == '&' ? "and" : kind == '|' ? "or" : "xor";
  const std::vector<DimExpr> shape = broadcast_shapes(c.I, a.t ? a.t->shape : std::vector<DimExpr>{},
                                                      b.t ? b.t->shape : std::vector<DimExpr>{});
  DType dt = result_dtype(c.T, {a, b});
  if (dt == DType::Bool)
    return c.node(kind == '&' ? "And" : kind == '|' ? "Or" : "Xor",
                  {operand_value(c.T, a, DType::Bool), operand_value(c.T, b, DType::Bool)}, DType::Bool, shape);
  if (!is_integral(dt, false))
    c.runtime_error(fmt::format("\"bitwise_{}_cpu\" not implemented for '{}'", name, info(dt).name));
  for (const Operand* o : {&a, &b})
    if (!o->t && o->s.kind != Scalar::Kind::Int && o->s.kind != Scalar::Kind::Bool)
      return c.unsupported(fmt::format("bitwise {} with a size only known at run time", name));
  const int B = info(dt).itemsize * 8;
  const bool is_unsigned = dt == DType::UInt8;
  auto i64 = [](const std::vector<DimExpr>& s) { return ir::Type::tensor(ir::ElementType::Int64, s); };
  auto k64 = [&](int64_t v) { return c.rec.const_i64_scalar(v); };
  // One operand's bits, low to high (k < B - 1, or all eight for uint8), then its sign bit: a value
  // (int64, the operand's shape) or a known 0/1.
  struct Bit {
    ir::Value* v = nullptr;
    int known = 0;
  };
  const int low_bits = is_unsigned ? B : B - 1;
  auto bits_of = [&](const Operand& o) {
    std::vector<Bit> out(low_bits + (is_unsigned ? 0 : 1));
    if (!o.t) {
      const uint64_t u = static_cast<uint64_t>(o.s.i);
      for (int k = 0; k < low_bits; ++k) out[k].known = static_cast<int>((u >> k) & 1);
      if (!is_unsigned) out[low_bits].known = o.s.i < 0 ? 1 : 0;
      return out;
    }
    const std::vector<DimExpr>& s = o.t->shape;
    ir::Value* q = operand_value(c.T, o, DType::Int64);
    for (int k = 0; k < low_bits; ++k) {
      ir::Value* r = c.rec.emit("Mod", {q, k64(2)}, i64(s), {{"fmod", int64_t{0}}});
      out[k].v = r;
      if (k + 1 < low_bits) q = c.rec.emit("Div", {c.rec.emit("Sub", {q, r}, i64(s)), k64(2)}, i64(s));
    }
    if (!is_unsigned) {
      ir::Value* neg = c.rec.emit("Less", {operand_value(c.T, o, DType::Int64), k64(0)},
                                  ir::Type::tensor(ir::ElementType::Bool, s));
      out[low_bits].v = cast_to(c.T, neg, DType::Bool, DType::Int64, s);
    }
    return out;
  };
  std::vector<Bit> x = bits_of(a), y = bits_of(b);
  // f(x_k, y_k) as a value, or a known 0/1 (nullptr with *known set).
  auto combine = [&](const Bit& p, const Bit& q, int* known) -> ir::Value* {
    if (!p.v && !q.v) {
      *known = kind == '&' ? (p.known & q.known) : kind == '|' ? (p.known | q.known) : (p.known ^ q.known);
      return nullptr;
    }
    if (!p.v || !q.v) {
      const Bit& v = p.v ? p : q;
      int k = p.v ? q.known : p.known;
      *known = 0;
      if (kind == '&') return k ? v.v : nullptr;
      if (kind == '|') {
        if (!k) return v.v;
        *known = 1;
        return nullptr;
      }
      if (!k) return v.v;
      return c.rec.emit("Sub", {k64(1), v.v}, i64(shape));
    }
    ir::Value* prod = c.rec.emit("Mul", {p.v, q.v}, i64(shape));
    if (kind == '&') return prod;
    ir::Value* sum = c.rec.emit("Add", {p.v, q.v}, i64(shape));
    if (kind == '|') return c.rec.emit("Sub", {sum, prod}, i64(shape));
    return c.rec.emit("Sub", {sum, c.rec.emit("Mul", {prod, k64(2)}, i64(shape))}, i64(shape));
  };
  ir::Value* acc = nullptr;
  int64_t constant = 0;  // the known bits' part of the result (wrapping as the bits do)
  for (size_t k = 0; k < x.size(); ++k) {
    const bool sign = !is_unsigned && static_cast<int>(k) == low_bits;
    // 2^k, and the sign bit's -2^(B-1) (INT64_MIN for int64: its negation does not fit).
    const int64_t weight = sign ? (B == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (B - 1)))
                                : int64_t{1} << k;
    int known = 0;
    ir::Value* f = combine(x[k], y[k], &known);
    if (!f) {
      if (known) constant = static_cast<int64_t>(static_cast<uint64_t>(constant) + static_cast<uint64_t>(weight));
      continue;
    }
    ir::Value* term = weight == 1 ? f : c.rec.emit("Mul", {f, k64(weight)}, i64(shape));
    acc = acc ? c.rec.emit("Add", {acc, term}, i64(shape)) : term;
  }
  if (!acc) acc = c.rec.emit("Expand", {k64(0), c.rec.shape_value(shape)}, i64(shape));
  if (constant) acc = c.rec.emit("Add", {acc, k64(constant)}, i64(shape));
  return c.out(cast_to(c.T, acc, DType::Int64, dt, shape), dt, shape);
}

// Clip to optional scalar bounds, in the tensor's dtype.
Value clip(OpCall& c, TensorObj* x, std::optional<double> lo, std::optional<double> hi) {
  ir::ElementType e = elem(x->dtype);
  ir::Value* vlo = lo ? c.rec.const_scalar(e, *lo) : nullptr;
  ir::Value* vhi = hi ? c.rec.const_scalar(e, *hi) : nullptr;
  return c.node("Clip", {c.v(x), vlo, vhi}, x->dtype, x->shape);
}

Value clamp_tensor(OpCall& c) {
  TensorObj* x = c.t(0);
  TensorObj* lo = c.a.opt_tensor(1);
  TensorObj* hi = c.a.opt_tensor(2);
  if (!lo && !hi) c.runtime_error("torch.clamp: At least one of 'min' or 'max' must not be None");
  std::vector<Operand> ops{tensor_operand(x)};
  if (lo) ops.push_back(tensor_operand(lo));
  if (hi) ops.push_back(tensor_operand(hi));
  DType dt = result_dtype(c.T, ops);
  Value r = c.out(cast_to(c.T, c.v(x), x->dtype, dt, x->shape), dt, x->shape);
  if (lo) r = binary_op(c.T, "Max", tensor_operand(as_tensor(r)), tensor_operand(lo), dt);
  if (hi) r = binary_op(c.T, "Min", tensor_operand(as_tensor(r)), tensor_operand(hi), dt);
  return r;
}

// clamp with Python-number bounds (absent bounds are None); promotes like PyTorch (an int tensor
// clamped to a float bound becomes float).
Value clamp_numbers(OpCall& c, std::optional<Scalar> lo, std::optional<Scalar> hi) {
  TensorObj* x = c.t(0);
  if (!lo && !hi) c.runtime_error("torch.clamp: At least one of 'min' or 'max' must not be None");
  std::vector<Operand> ops{tensor_operand(x)};
  if (lo) ops.push_back(scalar_operand(*lo));
  if (hi) ops.push_back(scalar_operand(*hi));
  DType dt = result_dtype(c.T, ops);
  Value converted;  // keeps the converted tensor alive while x points to it
  if (dt != x->dtype) {
    converted = c.out(cast_to(c.T, c.v(x), x->dtype, dt, x->shape), dt, x->shape);
    x = as_tensor(converted);
  }
  bool run_time = (lo && lo->kind == Scalar::Kind::SymInt) || (hi && hi->kind == Scalar::Kind::SymInt);
  if (run_time || is_integral(dt, false)) {
    // A bound only known at run time (clamp(x, max=x.size(0))): Max / Min with its value. Integer
    // tensors take the same path: their bounds stay exact past 2^53 (Clip's would pass through a
    // double), and TensorRT's Clip takes only floating-point inputs.
    Value r = converted ? converted : Value::borrow(x);
    if (lo) r = binary_op(c.T, "Max", tensor_operand(as_tensor(r)), scalar_operand(*lo), dt, dt);
    if (hi) r = binary_op(c.T, "Min", tensor_operand(as_tensor(r)), scalar_operand(*hi), dt, dt);
    return r;
  }
  return clip(c, x, lo ? std::optional(lo->as_double()) : std::nullopt, hi ? std::optional(hi->as_double()) : std::nullopt);
}

Value clamp_scalar(OpCall& c) { return clamp_numbers(c, c.a.opt_scalar(1), c.a.opt_scalar(2)); }

Value composite(OpCall& c, std::string_view op, Attrs attrs = {}) {
  TensorObj* x = c.t(0);
  if (!is_floating(x->dtype)) c.runtime_error(fmt::format("{} is not implemented for '{}'", c.name(), info(x->dtype).name));
  return c.node(op, {c.v(x)}, x->dtype, x->shape, std::move(attrs), ir::kOnnxifyDomain);
}

Value where(OpCall& c) {
  TensorObj* cond = c.t(0);
  Operand a = arg(c, 1), b = arg(c, 2);
  DType dt = result_dtype(c.T, {a, b});
  std::vector<DimExpr> shape = broadcast_shapes(c.I, cond->shape, broadcast_shapes(c.I, a.t ? a.t->shape : std::vector<DimExpr>{},
                                                                                     b.t ? b.t->shape : std::vector<DimExpr>{}));
  ir::Value* vc = cast_to(c.T, c.v(cond), cond->dtype, DType::Bool, cond->shape);
  return c.out(select_value(c.T, vc, operand_value(c.T, a, dt), operand_value(c.T, b, dt), dt, shape), dt, shape);
}

Value masked_fill(OpCall& c) {
  TensorObj* x = c.t(0);
  TensorObj* mask = c.t(1);
  Operand fill = arg(c, 2);
  if (fill.t && fill.t->rank() != 0)
    c.runtime_error("masked_fill_ only supports a 0-dimensional value tensor");
  ir::Value* vm = cast_to(c.T, c.v(mask), mask->dtype, DType::Bool, mask->shape);
  std::vector<DimExpr> shape = broadcast_shapes(c.I, x->shape, mask->shape);
  return c.out(select_value(c.T, vm, operand_value(c.T, fill, x->dtype), c.v(x), x->dtype, shape), x->dtype, shape);
}

// Tensor.to(dtype) and friends: a Cast (or the tensor itself when nothing changes, as PyTorch does).
Value convert(OpCall& c, TensorObj* x, std::optional<DType> dt, bool copy = false) {
  if (!dt || *dt == x->dtype) {
    if (!copy) return Value::borrow(x);
    return c.node("Identity", {c.v(x)}, x->dtype, x->shape);
  }
  if (elem(*dt) == ir::ElementType::Undefined)
    return c.unsupported(fmt::format("tensors of dtype torch.{}", info(*dt).name));
  return c.out(cast_to(c.T, c.v(x), x->dtype, *dt, x->shape), *dt, x->shape);
}

Value to_dtype_method(OpCall& c, DType dt) { return convert(c, c.t(0), dt); }

}  // namespace

const std::vector<OpDef>& pointwise_ops() {
  static const std::vector<OpDef> ops = {
      // ---- arithmetic ----
      {"add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return add_like(c, "Add", false); }},
      {"add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return add_like(c, "Add", false); }},
      {"sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return add_like(c, "Sub", false); }},
      {"sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return add_like(c, "Sub", false); }},
      {"subtract.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return add_like(c, "Sub", false); }},
      {"rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kFn,
       [](OpCall& c) { return add_like(c, "Sub", true); }},
      {"rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", kFn,
       [](OpCall& c) { return add_like(c, "Sub", true); }},
      {"mul.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return binary_op(c.T, "Mul", arg(c, 0), arg(c, 1)); }},
      {"mul.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return binary_op(c.T, "Mul", arg(c, 0), arg(c, 1)); }},
      {"multiply.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return binary_op(c.T, "Mul", arg(c, 0), arg(c, 1)); }},
      {"multiply.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return binary_op(c.T, "Mul", arg(c, 0), arg(c, 1)); }},
      {"div.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return true_div(c, arg(c, 0), arg(c, 1)); }},
      {"div.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return true_div(c, arg(c, 0), arg(c, 1)); }},
      {"div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor", kFn | kMethod | kInplace, div_mode},
      {"div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor", kFn | kMethod | kInplace, div_mode},
      {"divide.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return true_div(c, arg(c, 0), arg(c, 1)); }},
      {"divide.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return true_div(c, arg(c, 0), arg(c, 1)); }},
      {"divide.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor", kFn | kMethod | kInplace,
       div_mode},
      {"divide.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor", kFn | kMethod | kInplace,
       div_mode},
      {"true_divide.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return true_div(c, arg(c, 0), arg(c, 1)); }},
      {"true_divide.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return true_div(c, arg(c, 0), arg(c, 1)); }},
      {"floor_divide(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return floor_div(c, arg(c, 0), arg(c, 1)); }},
      {"floor_divide.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return floor_div(c, arg(c, 0), arg(c, 1)); }},
      {"remainder.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return remainder(c, arg(c, 0), arg(c, 1)); }},
      {"remainder.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return remainder(c, arg(c, 0), arg(c, 1)); }},
      {"pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return binary_op(c.T, "Pow", arg(c, 0), arg(c, 1)); }},
      {"pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return binary_op(c.T, "Pow", arg(c, 0), arg(c, 1)); }},
      {"pow.Scalar(Scalar self, Tensor exponent) -> Tensor", kFn,
       [](OpCall& c) { return binary_op(c.T, "Pow", arg(c, 0), arg(c, 1)); }},
      {"maximum(Tensor self, Tensor other) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return binary_op(c.T, "Max", arg(c, 0), arg(c, 1)); }},
      {"minimum(Tensor self, Tensor other) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return binary_op(c.T, "Min", arg(c, 0), arg(c, 1)); }},
      {"neg(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return c.unary("Neg"); }},
      {"negative(Tensor self) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return c.unary("Neg"); }},
      {"abs(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return c.unary("Abs"); }},
      {"sign(Tensor self) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return c.unary("Sign"); }},
      {"floor(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return rounding(c, "Floor"); }},
      {"ceil(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return rounding(c, "Ceil"); }},
      {"round(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return rounding(c, "Round"); }},
      // ---- comparisons ----
      {"eq.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return compare(c, "Equal"); }},
      {"eq.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return compare(c, "Equal"); }},
      {"ne.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return compare(c, "Equal", true); }},
      {"ne.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return compare(c, "Equal", true); }},
      {"lt.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return compare(c, "Less"); }},
      {"lt.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return compare(c, "Less"); }},
      {"le.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return compare(c, "LessOrEqual"); }},
      {"le.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return compare(c, "LessOrEqual"); }},
      {"gt.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return compare(c, "Greater"); }},
      {"gt.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return compare(c, "Greater"); }},
      {"ge.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return compare(c, "GreaterOrEqual"); }},
      {"ge.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return compare(c, "GreaterOrEqual"); }},
      // PyTorch's long names of the comparisons (torch.greater(...) in transformers' MoE routing)
      {"greater.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return compare(c, "Greater"); }},
      {"greater.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return compare(c, "Greater"); }},
      {"greater_equal.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return compare(c, "GreaterOrEqual"); }},
      {"greater_equal.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return compare(c, "GreaterOrEqual"); }},
      {"less.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return compare(c, "Less"); }},
      {"less.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return compare(c, "Less"); }},
      {"less_equal.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return compare(c, "LessOrEqual"); }},
      {"less_equal.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return compare(c, "LessOrEqual"); }},
      {"not_equal.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return compare(c, "Equal", true); }},
      {"not_equal.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return compare(c, "Equal", true); }},
      {"logical_not(Tensor self) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         return c.node("Not", {cast_to(c.T, c.v(x), x->dtype, DType::Bool, x->shape)}, DType::Bool, x->shape);
       }},
      {"logical_and(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return logical(c, "And"); }},
      {"logical_or(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return logical(c, "Or"); }},
      {"logical_xor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace, [](OpCall& c) { return logical(c, "Xor"); }},
      {"bitwise_not(Tensor self) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         if (x->dtype == DType::Bool) return c.unary("Not");
         if (!is_integral(x->dtype, false))
           c.runtime_error(fmt::format("\"bitwise_not_cpu\" not implemented for '{}'", info(x->dtype).name));
         // ONNX BitwiseNot is opset 18: in two's complement ~x is -x - 1 (wrapping as the bits do), and
         // 255 - x for uint8 (computed in int32: TensorRT has no uint8 arithmetic)
         ir::ElementType e = elem(x->dtype);
         if (x->dtype == DType::UInt8) {
           ir::Value* wide = cast_to(c.T, c.v(x), DType::UInt8, DType::Int32, x->shape);
           ir::Value* r = c.rec.emit("Sub", {c.rec.const_scalar(ir::ElementType::Int32, 255), wide},
                                     ir::Type::tensor(ir::ElementType::Int32, x->shape));
           return c.out(cast_to(c.T, r, DType::Int32, DType::UInt8, x->shape), DType::UInt8, x->shape);
         }
         ir::Value* neg = c.rec.emit("Neg", {c.v(x)}, x->ir_type());
         return c.node("Sub", {neg, c.rec.const_scalar(e, 1)}, x->dtype, x->shape);
       }},
      {"bitwise_and.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return bitwise(c, '&'); }},
      {"bitwise_and.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return bitwise(c, '&'); }},
      {"bitwise_or.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return bitwise(c, '|'); }},
      {"bitwise_or.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return bitwise(c, '|'); }},
      {"bitwise_xor.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return bitwise(c, '^'); }},
      {"bitwise_xor.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return bitwise(c, '^'); }},
      {"where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", kFn, where},
      {"where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor", kFn, where},
      {"where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor", kFn, where},
      {"where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor", kFn, where},
      {"masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", kFn | kMethod | kInplace, masked_fill},
      {"masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", kFn | kMethod | kInplace, masked_fill},
      // ---- math ----
      {"exp(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return c.unary_float("Exp"); }},
      {"log(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return c.unary_float("Log"); }},
      {"sqrt(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return c.unary_float("Sqrt"); }},
      {"rsqrt(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace,
       [](OpCall& c) {
         Value s = c.unary_float("Sqrt");
         TensorObj* t = as_tensor(s);
         return c.node("Reciprocal", {c.v(t)}, t->dtype, t->shape);
       }},
      {"reciprocal(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return c.unary_float("Reciprocal"); }},
      {"sin(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return c.unary_float("Sin"); }},
      {"cos(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return c.unary_float("Cos"); }},
      {"erf(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return c.unary_float("Erf"); }},
      {"sigmoid(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace,
       [](OpCall& c) { return c.unary_float("Sigmoid"); }},
      {"tanh(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return c.unary_float("Tanh"); }},
      {"clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", kFn | kMethod | kInplace | kFnInplace,
       clamp_scalar},
      {"clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", kFn | kMethod | kInplace | kFnInplace,
       clamp_tensor},
      {"clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", kFn | kMethod | kInplace, clamp_scalar},
      {"clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", kFn | kMethod | kInplace, clamp_tensor},
      {"clamp_min(Tensor self, Scalar min) -> Tensor", kFn | kMethod | kInplace | kFnInplace,
       [](OpCall& c) { return clamp_numbers(c, c.a.scalar(1), std::nullopt); }},
      {"clamp_max(Tensor self, Scalar max) -> Tensor", kFn | kMethod | kInplace | kFnInplace,
       [](OpCall& c) { return clamp_numbers(c, std::nullopt, c.a.scalar(1)); }},
      // ---- activations ----
      {"relu(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return c.unary("Relu"); }},
      {"hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor", kNN,
       [](OpCall& c) { return clip(c, c.t(0), c.a.real(1), c.a.real(2)); }},
      {"leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor", kNN,
       [](OpCall& c) { return c.unary("LeakyRelu", {{"alpha", static_cast<float>(c.a.real(1))}}); }},
      {"elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor", kNN,
       [](OpCall& c) {
         if (c.a.real(2) != 1.0 || c.a.real(3) != 1.0) return c.unsupported("elu with scale or input_scale != 1");
         return c.unary("Elu", {{"alpha", static_cast<float>(c.a.real(1))}});
       }},
      {"gelu(Tensor self, *, str approximate=\"none\") -> Tensor", kNN,
       [](OpCall& c) {
         std::string a = c.a.str(1);
         if (a != "none" && a != "tanh") c.runtime_error(fmt::format("approximate argument must be either none or tanh."));
         return composite(c, "gelu", {{"approximate", a}});
       }},
      {"silu(Tensor self) -> Tensor", kNN, [](OpCall& c) { return composite(c, "silu"); }},
      {"mish(Tensor self) -> Tensor", kNN, [](OpCall& c) { return composite(c, "mish"); }},
      {"hardswish(Tensor self) -> Tensor", kNN, [](OpCall& c) { return composite(c, "hardswish"); }},
      {"hardsigmoid(Tensor self) -> Tensor", kNN, [](OpCall& c) { return composite(c, "hardsigmoid"); }},
      {"softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", kNN,
       [](OpCall& c) {
         return composite(c, "softplus", {{"beta", static_cast<float>(c.a.real(1))},
                                          {"threshold", static_cast<float>(c.a.real(2))}});
       }},
      // ---- dtype conversions (Tensor.to is in ops_shape.cpp with the device forms) ----
      {"float(Tensor self) -> Tensor", kMethod, [](OpCall& c) { return to_dtype_method(c, DType::Float32); }},
      {"double(Tensor self) -> Tensor", kMethod, [](OpCall& c) { return to_dtype_method(c, DType::Float64); }},
      {"half(Tensor self) -> Tensor", kMethod, [](OpCall& c) { return to_dtype_method(c, DType::Float16); }},
      {"bfloat16(Tensor self) -> Tensor", kMethod, [](OpCall& c) { return to_dtype_method(c, DType::BFloat16); }},
      {"long(Tensor self) -> Tensor", kMethod, [](OpCall& c) { return to_dtype_method(c, DType::Int64); }},
      {"int(Tensor self) -> Tensor", kMethod, [](OpCall& c) { return to_dtype_method(c, DType::Int32); }},
      {"short(Tensor self) -> Tensor", kMethod, [](OpCall& c) { return to_dtype_method(c, DType::Int16); }},
      {"char(Tensor self) -> Tensor", kMethod, [](OpCall& c) { return to_dtype_method(c, DType::Int8); }},
      {"byte(Tensor self) -> Tensor", kMethod, [](OpCall& c) { return to_dtype_method(c, DType::UInt8); }},
      {"bool(Tensor self) -> Tensor", kMethod, [](OpCall& c) { return to_dtype_method(c, DType::Bool); }},
      {"type_as(Tensor self, Tensor other) -> Tensor", kMethod,
       [](OpCall& c) { return convert(c, c.t(0), c.t(1)->dtype); }},
      {"copy_(Tensor self, Tensor src, bool non_blocking=False) -> Tensor", kMethod,
       [](OpCall& c) {
         // self.copy_(src): self's values become src's (broadcast, converted to self's dtype).
         TensorObj* self = c.t(0);
         TensorObj* src = c.t(1);
         std::vector<DimExpr> b = broadcast_shapes(c.I, self->shape, src->shape);
         if (b != self->shape) c.runtime_error("copy_: the source does not broadcast to the destination's shape");
         ir::Value* v = cast_to(c.T, c.v(src), src->dtype, self->dtype, src->shape);
         if (src->shape != self->shape) v = c.rec.emit("Expand", {v, c.rec.shape_value(self->shape)}, self->ir_type());
         assign_inplace(c.T, self, v);
         return Value::borrow(self);
       }},
  };
  return ops;
}

}  // namespace onnxify::torch
