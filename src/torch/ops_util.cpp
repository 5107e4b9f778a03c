// Helpers shared by the op families: dims, broadcasting, casts, promotion of mixed tensor/scalar
// operands, and OpCall's recording shortcuts.
#include <fmt/core.h>

#include "torch/ops.h"

namespace onnxify::torch {

using eval::Interp;
using eval::Value;
using ir::DimExpr;

Value OpCall::node(std::string_view op, const std::vector<ir::Value*>& in, DType dtype, std::vector<DimExpr> shape,
                   Attrs attrs, std::string_view domain) {
  ir::Value* v = rec.emit(op, in, ir::Type::tensor(elem(dtype), shape), std::move(attrs), domain);
  return out(v, dtype, std::move(shape));
}

Value OpCall::unary(std::string_view op, Attrs attrs) {
  TensorObj* x = t(0);
  return node(op, {v(x)}, x->dtype, x->shape, std::move(attrs));
}

Value OpCall::unary_float(std::string_view op) {
  TensorObj* x = t(0);
  DType dt = is_floating(x->dtype) || is_complex(x->dtype) ? x->dtype : T.default_dtype;
  return node(op, {cast_to(T, v(x), x->dtype, dt, x->shape)}, dt, x->shape);
}

void OpCall::fail(eval::Type* exc, const std::string& msg) const { eval::raise(I, exc, msg); }

Value OpCall::unsupported(const std::string& why) const { return torch::unsupported(T, "torch." + name(), why); }

int64_t norm_dim(Interp& I, int64_t d, int64_t rank) {
  int64_t r = rank == 0 ? 1 : rank;  // PyTorch lets a 0-d tensor use dim 0 / -1
  if (d < -r || d >= r)
    eval::raisef(I, I.exc.IndexError, "Dimension out of range (expected to be in range of [{}, {}], but got {})", -r,
                 r - 1, d);
  return d < 0 ? d + r : d;
}

std::vector<DimExpr> broadcast_shapes(Interp& I, const std::vector<DimExpr>& a, const std::vector<DimExpr>& b) {
  size_t n = std::max(a.size(), b.size());
  std::vector<DimExpr> out(n);
  for (size_t i = 0; i < n; ++i) {
    bool ha = i < a.size(), hb = i < b.size();
    DimExpr da = ha ? a[a.size() - 1 - i] : DimExpr(1);
    DimExpr db = hb ? b[b.size() - 1 - i] : DimExpr(1);
    DimExpr r;
    if (da == db) r = da;
    else if (da.is_const() && da.value() == 1) r = db;
    else if (db.is_const() && db.value() == 1) r = da;
    else if (da.is_const() && db.is_const())
      eval::raisef(I, I.exc.RuntimeError,
                   "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
                   da.value(), db.value(), n - 1 - i);
    else
      // Two different symbolic sizes: broadcasting is only valid when they are equal (or one is 1) at
      // run time; the larger is the result either way when one of them is 1.
      r = ir::max(da, db);
    out[n - 1 - i] = r;
  }
  return out;
}

ir::Value* cast_to(Torch& T, ir::Value* v, DType from, DType to, const std::vector<DimExpr>& shape) {
  if (from == to) return v;
  return T.rec.emit("Cast", {v}, ir::Type::tensor(elem(to), shape), {{"to", int64_t{ir::info(elem(to)).onnx}}});
}

ir::Value* select_value(Torch& T, ir::Value* cond, ir::Value* a, ir::Value* b, DType dt,
                        const std::vector<DimExpr>& shape) {
  ir::Type out = ir::Type::tensor(elem(dt), shape);
  if (dt == DType::Bool) {
    // (cond and a) or (not cond and b)
    auto logic = [&](const char* op, ir::Value* x, ir::Value* y) {
      std::vector<DimExpr> s = broadcast_shapes(T.I, x->type().dims(), y->type().dims());
      return T.rec.emit(op, {x, y}, ir::Type::tensor(ir::ElementType::Bool, std::move(s)));
    };
    ir::Value* not_cond = T.rec.emit("Not", {cond}, cond->type());
    return logic("Or", logic("And", cond, a), logic("And", not_cond, b));
  }
  if (dt == DType::Int8 || dt == DType::Int16) {
    auto widen = [&](ir::Value* v) {
      std::vector<DimExpr> dims = v->type().has_rank() ? v->type().dims() : shape;
      return cast_to(T, v, dt, DType::Int32, dims);
    };
    ir::Value* r = T.rec.emit("Where", {cond, widen(a), widen(b)}, ir::Type::tensor(elem(DType::Int32), shape));
    return cast_to(T, r, DType::Int32, dt, shape);
  }
  return T.rec.emit("Where", {cond, a, b}, out);
}

Operand operand(Interp& I, const Value& v) {
  Operand o;
  if (is_tensor(v)) {
    o.t = as_tensor(v);
    return o;
  }
  double d;
  if (v.is_bool()) {
    o.s.kind = Scalar::Kind::Bool;
    o.s.i = v.b();
  } else if (eval::int_value(v, &o.s.i)) {
    o.s.kind = Scalar::Kind::Int;
  } else if (eval::float_value(v, &d)) {
    o.s.kind = Scalar::Kind::Float;
    o.s.f = d;
  } else if (is_symint(v)) {
    o.s.kind = Scalar::Kind::SymInt;
    o.s.sym = eval::as<SymIntObj>(v)->expr;
  } else {
    eval::raisef(I, I.exc.TypeError, "unsupported operand type for a tensor operation: '{}'", eval::type_name(I, v));
  }
  return o;
}

DType result_dtype(Torch& T, const std::vector<Operand>& ops) {
  ResultType r;
  for (const Operand& o : ops) {
    if (o.t) {
      r.add(o.t->rank() == 0 ? ResultType::Kind::ZeroDimTensor : ResultType::Kind::DimTensor, o.t->dtype);
    } else if (o.s.kind == Scalar::Kind::Bool) {
      r.add_bool_scalar();
    } else if (o.s.kind == Scalar::Kind::Float) {
      r.add_float_scalar(T.default_dtype);
    } else {
      r.add_int_scalar();
    }
  }
  return r.result();
}

ir::Value* operand_value(Torch& T, const Operand& o, DType dt) {
  if (o.t) return cast_to(T, value_of(T, o.t), o.t->dtype, dt, o.t->shape);
  if (o.s.kind == Scalar::Kind::SymInt) {
    ir::Value* v = T.rec.dim_scalar(o.s.sym);
    return cast_to(T, v, DType::Int64, dt, {});
  }
  if (o.s.kind == Scalar::Kind::Int && is_integral(dt, false)) {
    // exactly: a Python int past 2^53 (or INT64_MAX) does not survive a double
    ir::Value* v = T.rec.const_i64_scalar(o.s.i);
    return dt == DType::Int64 ? v : cast_to(T, v, DType::Int64, dt, {});
  }
  return T.rec.const_scalar(elem(dt), o.s.as_double());
}

Value binary_op(Torch& T, std::string_view onnx_op, const Operand& a, const Operand& b, std::optional<DType> compute,
                std::optional<DType> result) {
  DType ct = compute ? *compute : result_dtype(T, {a, b});
  DType rt = result ? *result : ct;
  std::vector<DimExpr> sa = a.t ? a.t->shape : std::vector<DimExpr>{};
  std::vector<DimExpr> sb = b.t ? b.t->shape : std::vector<DimExpr>{};
  std::vector<DimExpr> shape = broadcast_shapes(T.I, sa, sb);
  bool arithmetic = onnx_op == "Add" || onnx_op == "Sub" || onnx_op == "Mul" || onnx_op == "Div" || onnx_op == "Pow" ||
                    onnx_op == "Max" || onnx_op == "Min" || onnx_op == "Mod";
  if (ct == DType::Bool && !arithmetic && onnx_op != "And" && onnx_op != "Or" && onnx_op != "Xor" &&
      onnx_op != "Equal")
    ct = DType::Int32;  // ordering comparisons of bools: ONNX's Less & co. take no bool
  if (ct == DType::Bool && arithmetic) {
    // ONNX arithmetic has no bool: PyTorch's bool + bool (or), bool * bool (and), max/min computed
    // on int32 and cast back; subtraction of bools is an error in PyTorch too.
    if (onnx_op == "Sub")
      eval::raise(T.I, T.I.exc.RuntimeError,
                  "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                  "`logical_xor()` operator instead.");
    ir::Value* va = operand_value(T, a, DType::Int32);
    ir::Value* vb = operand_value(T, b, DType::Int32);
    ir::Value* v = T.rec.emit(onnx_op, {va, vb}, ir::Type::tensor(ir::ElementType::Int32, shape));
    v = cast_to(T, v, DType::Int32, rt == DType::Bool ? DType::Bool : rt, shape);
    return new_tensor(T, v, rt, std::move(shape));
  }
  ir::Value* va = operand_value(T, a, ct);
  ir::Value* vb = operand_value(T, b, ct);
  ir::Value* v = T.rec.emit(onnx_op, {va, vb}, ir::Type::tensor(elem(rt), shape));
  return new_tensor(T, v, rt, std::move(shape));
}

DimExpr product(const std::vector<DimExpr>& dims, size_t from, size_t to) {
  DimExpr p(1);
  for (size_t i = from; i < dims.size() && i < to; ++i) p = p * dims[i];
  return p;
}

bool one_element(const TensorObj* t) {
  DimExpr n = product(t->shape);
  return n.is_const() && n.value() == 1;
}

}  // namespace onnxify::torch
