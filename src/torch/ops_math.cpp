// Math functions beyond the arithmetic core (ops_pointwise.cpp): trigonometry and hyperbolics,
// logarithm/exponential variants, rounding (trunc, frac, round(decimals)), and the fused forms
// (atan2, hypot, fmod, lerp, addcmul, addcdiv). Each follows PyTorch 1.13's dtype rules: the
// transcendental ones compute integer inputs in the default float dtype; the ones PyTorch only
// implements for floats raise its "not implemented for 'Long'" error.
#include <fmt/core.h>

#include <cmath>

#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

// A float-valued expression being built over one shape and dtype.
struct Expr {
  OpCall& c;
  DType dt;
  std::vector<DimExpr> shape;

  ir::Type type() const { return ir::Type::tensor(elem(dt), shape); }
  ir::Value* op(std::string_view o, std::vector<ir::Value*> in, Attrs a = {}) { return c.rec.emit(o, in, type(), a); }
  ir::Value* k(double v) { return c.rec.const_scalar(elem(dt), v); }
  Value done(ir::Value* v) { return c.out(v, dt, shape); }
};

DType floatify(OpCall& c, DType dt) { return is_floating(dt) || is_complex(dt) ? dt : c.T.default_dtype; }

// Argument 0 as a float (integers computed in the default float dtype, as torch.log(int) is float).
Expr float_arg(OpCall& c, ir::Value** x) {
  TensorObj* t = c.t(0);
  Expr e{c, floatify(c, t->dtype), t->shape};
  *x = cast_to(c.T, c.v(t), t->dtype, e.dt, t->shape);
  return e;
}

template <typename F>
Value unary_math(OpCall& c, F build) {
  ir::Value* x;
  Expr e = float_arg(c, &x);
  return e.done(build(e, x));
}

// Only PyTorch's floating kernels exist ("frac_cpu" not implemented for 'Long').
void require_float(OpCall& c, DType dt, std::string_view kernel) {
  if (!is_floating(dt))
    c.runtime_error(fmt::format("\"{}\" not implemented for '{}'", kernel, info(dt).name == "int64" ? "Long" : info(dt).name));
}

ir::Value* trunc_value(Expr& e, ir::Value* x) {
  // trunc(x) = sign(x) * floor(|x|) (ONNX has no Trunc).
  return e.op("Mul", {e.op("Sign", {x}), e.op("Floor", {e.op("Abs", {x})})});
}

Operand operand_of(OpCall& c, size_t i) { return operand(c.I, c.a.raw(i)); }

// Two operands promoted like PyTorch, as values of one Expr over the broadcast shape.
Expr promoted(OpCall& c, const Operand& a, const Operand& b, ir::Value** va, ir::Value** vb, bool to_float) {
  DType dt = result_dtype(c.T, {a, b});
  if (to_float) dt = floatify(c, dt);
  std::vector<DimExpr> sa = a.t ? a.t->shape : std::vector<DimExpr>{};
  std::vector<DimExpr> sb = b.t ? b.t->shape : std::vector<DimExpr>{};
  Expr e{c, dt, broadcast_shapes(c.I, sa, sb)};
  *va = operand_value(c.T, a, dt);
  *vb = operand_value(c.T, b, dt);
  return e;
}

// Ops on one operand before the broadcast keep that operand's own shape (a declared type must
// be the value's real type: onnx's shape inference and backends check it).
ir::Value* own_shape(OpCall& c, std::string_view op, std::vector<ir::Value*> in, ir::Value* like,
                     ir::ElementType elem) {
  return c.rec.emit(std::string(op), std::move(in), ir::Type::tensor(elem, like->type().dims()));
}

Value atan2(OpCall& c) {
  ir::Value *y, *x;
  Expr e = promoted(c, operand_of(c, 0), operand_of(c, 1), &y, &x, true);
  // atan(y/x) corrected by quadrant; x == 0 gives ±pi/2 (0 when y == 0 too), as C's atan2.
  ir::Value* zero = e.k(0);
  ir::ElementType fe = y->type().elem();
  ir::Value* a = e.op("Atan", {e.op("Div", {y, x})});
  ir::Value* pi = e.k(M_PI);
  ir::Value* x_neg = own_shape(c, "Less", {x, zero}, x, ir::ElementType::Bool);
  ir::Value* x_pos = own_shape(c, "Greater", {x, zero}, x, ir::ElementType::Bool);
  ir::Value* y_nonneg = own_shape(c, "GreaterOrEqual", {y, zero}, y, ir::ElementType::Bool);
  ir::Value* neg = e.op("Where", {y_nonneg, e.op("Add", {a, pi}), e.op("Sub", {a, pi})});
  ir::Value* on_axis = own_shape(c, "Mul", {own_shape(c, "Sign", {y}, y, fe), e.k(M_PI / 2)}, y, fe);
  ir::Value* r = e.op("Where", {x_pos, a, e.op("Where", {x_neg, neg, on_axis})});
  return e.done(r);
}

Value hypot(OpCall& c) {
  ir::Value *a, *b;
  Expr e = promoted(c, operand_of(c, 0), operand_of(c, 1), &a, &b, false);
  require_float(c, e.dt, "hypot_cpu");
  ir::ElementType fe = a->type().elem();
  ir::Value* sum = e.op("Add", {own_shape(c, "Mul", {a, a}, a, fe), own_shape(c, "Mul", {b, b}, b, fe)});
  return e.done(e.op("Sqrt", {sum}));
}

Value fmod(OpCall& c) {
  ir::Value *a, *b;
  Expr e = promoted(c, operand_of(c, 0), operand_of(c, 1), &a, &b, false);
  // C's fmod: the remainder takes the dividend's sign (ONNX Mod with fmod=1, for ints too).
  if (e.dt == DType::Bool) c.runtime_error("\"fmod_cpu\" not implemented for 'Bool'");
  return e.done(e.op("Mod", {a, b}, {{"fmod", int64_t{1}}}));
}

Value lerp(OpCall& c) {
  TensorObj* start = c.t(0);
  TensorObj* end = c.t(1);
  if (end->dtype != start->dtype)
    c.runtime_error(fmt::format("expected dtype {} for `end` but got dtype {}", info(start->dtype).name,
                                info(end->dtype).name));
  require_float(c, start->dtype, "lerp_kernel_scalar");
  Operand w = operand_of(c, 2);
  std::vector<DimExpr> shape = broadcast_shapes(c.I, start->shape, end->shape);
  if (w.t) shape = broadcast_shapes(c.I, shape, w.t->shape);
  Expr e{c, start->dtype, shape};
  ir::Value* vw = operand_value(c.T, w, start->dtype);
  ir::Value* vs = c.v(start);
  // start + weight * (end - start)
  return e.done(e.op("Add", {vs, e.op("Mul", {vw, e.op("Sub", {c.v(end), vs})})}));
}

// self + value * (t1 OP t2), OP = Mul (addcmul) or Div (addcdiv).
Value addc(OpCall& c, std::string_view op) {
  TensorObj* self = c.t(0);
  TensorObj* t1 = c.t(1);
  TensorObj* t2 = c.t(2);
  Scalar value = c.a.scalar(3);
  DType dt = result_dtype(c.T, {operand(c.I, c.a.raw(0)), operand(c.I, c.a.raw(1)), operand(c.I, c.a.raw(2))});
  if (op == "Div" && is_integral(t1->dtype, true) && is_integral(t2->dtype, true))
    c.runtime_error(
        "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true "
        "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * "
        "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) "
        "for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / "
        "tensor2), for all dtypes.");
  if (value.is_floating() && !is_floating(dt))
    c.runtime_error("For integral input tensors, argument value must not be a floating point number.");
  std::vector<DimExpr> shape = broadcast_shapes(c.I, self->shape, broadcast_shapes(c.I, t1->shape, t2->shape));
  Expr e{c, dt, shape};
  ir::Value* p = e.op(op, {cast_to(c.T, c.v(t1), t1->dtype, dt, t1->shape), cast_to(c.T, c.v(t2), t2->dtype, dt, t2->shape)});
  if (value.as_double() != 1.0) p = e.op("Mul", {p, e.k(value.as_double())});
  return e.done(e.op("Add", {cast_to(c.T, c.v(self), self->dtype, dt, self->shape), p}));
}

Value round_decimals(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t d = c.a.int_(1);
  if (!is_floating(x->dtype)) {
    if (d != 0) c.runtime_error(fmt::format("round_cpu not implemented for '{}' with decimals", info(x->dtype).name));
    return Value::borrow(x);
  }
  Expr e{c, x->dtype, x->shape};
  // PyTorch: nearbyint(x * 10^d) / 10^d, or nearbyint(x / 10^-d) * 10^-d for negative d.
  ir::Value* p = e.k(std::pow(10.0, static_cast<double>(std::abs(d))));
  ir::Value* v = c.v(x);
  if (d >= 0) return e.done(e.op("Div", {e.op("Round", {e.op("Mul", {v, p})}), p}));
  return e.done(e.op("Mul", {e.op("Round", {e.op("Div", {v, p})}), p}));
}

Value square(OpCall& c) {
  TensorObj* x = c.t(0);
  DType dt = x->dtype == DType::Bool ? DType::Int64 : x->dtype;  // pow(bool, 2) is int64
  Expr e{c, dt, x->shape};
  ir::Value* v = cast_to(c.T, c.v(x), x->dtype, dt, x->shape);
  return e.done(e.op("Mul", {v, v}));
}

// trunc/fix: integers are returned unchanged, as PyTorch does.
Value trunc(OpCall& c) {
  TensorObj* x = c.t(0);
  if (!is_floating(x->dtype)) return c.node("Identity", {c.v(x)}, x->dtype, x->shape);
  Expr e{c, x->dtype, x->shape};
  return e.done(trunc_value(e, c.v(x)));
}

#define MATH_UNARY(NAME, ONNX) \
  {#NAME "(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, [](OpCall& c) { return c.unary_float(ONNX); }}

}  // namespace

const std::vector<OpDef>& math_ops() {
  static const std::vector<OpDef> ops = {
      MATH_UNARY(tan, "Tan"),
      MATH_UNARY(asin, "Asin"),
      MATH_UNARY(acos, "Acos"),
      MATH_UNARY(atan, "Atan"),
      MATH_UNARY(sinh, "Sinh"),
      MATH_UNARY(cosh, "Cosh"),
      MATH_UNARY(asinh, "Asinh"),
      MATH_UNARY(acosh, "Acosh"),
      MATH_UNARY(atanh, "Atanh"),
      MATH_UNARY(arcsin, "Asin"),
      MATH_UNARY(arccos, "Acos"),
      MATH_UNARY(arctan, "Atan"),
      {"log2(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace,
       [](OpCall& c) { return unary_math(c, [](Expr& e, ir::Value* x) { return e.op("Div", {e.op("Log", {x}), e.k(M_LN2)}); }); }},
      {"log10(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace,
       [](OpCall& c) { return unary_math(c, [](Expr& e, ir::Value* x) { return e.op("Div", {e.op("Log", {x}), e.k(M_LN10)}); }); }},
      {"log1p(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace,
       [](OpCall& c) { return unary_math(c, [](Expr& e, ir::Value* x) { return e.op("Log", {e.op("Add", {x, e.k(1)})}); }); }},
      {"expm1(Tensor self) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return unary_math(c, [](Expr& e, ir::Value* x) { return e.op("Sub", {e.op("Exp", {x}), e.k(1)}); }); }},
      {"exp2(Tensor self) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return unary_math(c, [](Expr& e, ir::Value* x) { return e.op("Pow", {e.k(2), x}); }); }},
      {"erfc(Tensor self) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return unary_math(c, [](Expr& e, ir::Value* x) { return e.op("Sub", {e.k(1), e.op("Erf", {x})}); }); }},
      {"trunc(Tensor self) -> Tensor", kFn | kMethod | kInplace, trunc},
      {"fix(Tensor self) -> Tensor", kFn | kMethod | kInplace, trunc},
      {"frac(Tensor self) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) {
         TensorObj* t = c.t(0);
         require_float(c, t->dtype, "frac_cpu");
         Expr e{c, t->dtype, t->shape};
         ir::Value* x = c.v(t);
         return e.done(e.op("Sub", {x, trunc_value(e, x)}));
       }},
      {"square(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, square},
      {"round.decimals(Tensor self, *, int decimals) -> Tensor", kFn | kMethod | kInplace, round_decimals},
      {"atan2(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace, atan2},
      {"arctan2(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace, atan2},
      {"hypot(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace, hypot},
      {"fmod.Tensor(Tensor self, Tensor other) -> Tensor", kFn | kMethod | kInplace, fmod},
      {"fmod.Scalar(Tensor self, Scalar other) -> Tensor", kFn | kMethod | kInplace, fmod},
      {"lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor", kFn | kMethod | kInplace, lerp},
      {"lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor", kFn | kMethod | kInplace, lerp},
      {"addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return addc(c, "Mul"); }},
      {"addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) { return addc(c, "Div"); }},
  };
  return ops;
}

}  // namespace onnxify::torch
