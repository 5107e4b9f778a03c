// Reductions (sum, mean, amax/amin, max/min, argmax/argmin, prod, all/any) and softmax.
// At opset 17 ReduceSum takes its axes as an input, the other Reduce* ops as an attribute.
#include <fmt/core.h>

#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

// The reduced dims (all when `dims` is empty or absent), normalized and sorted.
std::vector<int64_t> reduce_dims(OpCall& c, TensorObj* x, std::optional<std::vector<int64_t>> dims) {
  std::vector<int64_t> out;
  int64_t r = static_cast<int64_t>(x->rank());
  if (!dims || dims->empty()) {
    for (int64_t i = 0; i < r; ++i) out.push_back(i);
    return out;
  }
  std::vector<bool> seen(std::max<int64_t>(r, 1));
  for (int64_t d : *dims) {
    d = norm_dim(c.I, d, r);
    if (seen[d]) c.runtime_error(fmt::format("dim {} appears multiple times in the list of dims", d));
    seen[d] = true;
  }
  for (int64_t i = 0; i < r; ++i)
    if (seen[i]) out.push_back(i);
  return out;
}

std::vector<DimExpr> reduced_shape(const std::vector<DimExpr>& in, const std::vector<int64_t>& axes, bool keepdim) {
  std::vector<DimExpr> shape;
  size_t k = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    bool red = k < axes.size() && axes[k] == static_cast<int64_t>(i);
    if (red) ++k;
    if (!red) shape.push_back(in[i]);
    else if (keepdim) shape.push_back(DimExpr(1));
  }
  return shape;
}

std::vector<DimExpr> reduced_shape(TensorObj* x, const std::vector<int64_t>& axes, bool keepdim) {
  return reduced_shape(x->shape, axes, keepdim);
}

ir::Value* reduce_mean(OpCall& c, ir::Value* v, DType dt, const std::vector<DimExpr>& shape,
                       const std::vector<int64_t>& axes, bool keepdim) {
  DimExpr n(1);
  for (int64_t a : axes) n = n * shape[static_cast<size_t>(a)];
  ir::Type t = ir::Type::tensor(elem(dt), reduced_shape(shape, axes, keepdim));
  std::optional<int64_t> lo = size_lower_bound(c.T, n);
  if (lo && *lo >= 1) return c.rec.emit("ReduceMean", {v}, t, {{"axes", axes}, {"keepdims", int64_t{keepdim}}});
  ir::Value* s = c.rec.emit("ReduceSum", {v, c.rec.const_i64(axes)}, t, {{"keepdims", int64_t{keepdim}}});
  ir::Value* count = n.is_const() ? c.rec.const_scalar(elem(dt), static_cast<double>(n.value()))
                                  : cast_to(c.T, c.rec.dim_scalar(n), DType::Int64, dt, {});
  return c.rec.emit("Div", {s, count}, t);
}

namespace {

Value reduce(OpCall& c, std::string_view op, TensorObj* x, std::optional<std::vector<int64_t>> dims, bool keepdim,
             DType compute, DType result) {
  if (x->rank() == 0) return c.out(cast_to(c.T, c.v(x), x->dtype, result, x->shape), result, x->shape);
  std::vector<int64_t> axes = reduce_dims(c, x, dims);
  std::vector<DimExpr> shape = reduced_shape(x, axes, keepdim);
  ir::Value* in = cast_to(c.T, c.v(x), x->dtype, compute, x->shape);
  ir::Type ct = ir::Type::tensor(elem(compute), shape);
  ir::Value* v;
  if (op == "ReduceMean")
    v = reduce_mean(c, in, compute, x->shape, axes, keepdim);
  else if (op == "ReduceSum")
    v = c.rec.emit(op, {in, c.rec.const_i64(axes)}, ct, {{"keepdims", int64_t{keepdim}}});
  else
    v = c.rec.emit(op, {in}, ct, {{"axes", axes}, {"keepdims", int64_t{keepdim}}});
  return c.out(cast_to(c.T, v, compute, result, shape), result, shape);
}

DType sum_dtype(TensorObj* x, std::optional<DType> dt) {
  if (dt) return *dt;
  return is_integral(x->dtype, true) ? DType::Int64 : x->dtype;
}

Value sum(OpCall& c, std::optional<std::vector<int64_t>> dims, bool keepdim, std::optional<DType> dt) {
  TensorObj* x = c.t(0);
  DType r = sum_dtype(x, dt);
  return reduce(c, "ReduceSum", x, dims, keepdim, r, r);
}

Value mean(OpCall& c, std::optional<std::vector<int64_t>> dims, bool keepdim, std::optional<DType> dt) {
  TensorObj* x = c.t(0);
  DType r = dt ? *dt : x->dtype;
  if (!is_floating(r) && !is_complex(r))
    c.runtime_error(fmt::format("mean(): could not infer output dtype. Input dtype must be either a floating point or "
                                "complex dtype. Got: {}",
                                info(r).name == "int64" ? "Long" : info(r).name));
  return reduce(c, "ReduceMean", x, dims, keepdim, r, r);
}

// ONNX's ReduceMin/Max and ArgMin/Max take no bool: bool tensors are compared as int32 (false < true).
DType minmax_compute(DType d) { return d == DType::Bool ? DType::Int32 : d; }

// max/min over one dim: (values, indices).
Value max_dim(OpCall& c, bool is_max) {
  TensorObj* x = c.t(0);
  int64_t d = norm_dim(c.I, c.a.int_(1), x->rank());
  bool keepdim = c.a.boolean(2);
  std::vector<DimExpr> shape = reduced_shape(x, {d}, keepdim);
  DType ct = minmax_compute(x->dtype);
  ir::Value* in = cast_to(c.T, c.v(x), x->dtype, ct, x->shape);
  ir::Value* reduced = c.rec.emit(is_max ? "ReduceMax" : "ReduceMin", {in}, ir::Type::tensor(elem(ct), shape),
                                  {{"axes", std::vector<int64_t>{d}}, {"keepdims", int64_t{keepdim}}});
  Value values = c.out(cast_to(c.T, reduced, ct, x->dtype, shape), x->dtype, shape);
  Value indices = c.node(is_max ? "ArgMax" : "ArgMin", {in}, DType::Int64, shape,
                         {{"axis", d}, {"keepdims", int64_t{keepdim}}, {"select_last_index", int64_t{0}}});
  return make_return_type(c.T, is_max ? "max" : "min", {values, indices});
}

Value arg_reduce(OpCall& c, bool is_max) {
  TensorObj* x = c.t(0);
  std::optional<int64_t> dim = c.a.opt_int(1);
  bool keepdim = c.a.boolean(2);
  const char* op = is_max ? "ArgMax" : "ArgMin";
  if (!dim) {
    // Over the flattened tensor.
    DimExpr n = product(x->shape);
    ir::Value* flat =
        c.rec.emit("Reshape", {c.v(x), c.rec.const_i64({-1})}, ir::Type::tensor(elem(x->dtype), {n}));
    std::vector<DimExpr> shape;
    if (keepdim) shape.assign(x->rank(), DimExpr(1));
    ir::Value* v = c.rec.emit(op, {flat}, ir::Type::tensor(ir::ElementType::Int64, {}), {{"axis", int64_t{0}}, {"keepdims", int64_t{0}}});
    if (keepdim) v = reshape_value(c.T, v, shape, ir::ElementType::Int64);
    return c.out(v, DType::Int64, shape);
  }
  int64_t d = norm_dim(c.I, *dim, x->rank());
  if (x->rank() == 0) return c.node("Constant", {}, DType::Int64, {}, {{"value", ir::Tensor::scalar_int64(0)}});
  return c.node(op, {c.v(x)}, DType::Int64, reduced_shape(x, {d}, keepdim), {{"axis", d}, {"keepdims", int64_t{keepdim}}});
}

Value softmax(OpCall& c, std::string_view op) {
  TensorObj* x = c.t(0);
  std::optional<DType> dt = c.a.dtype(2);
  DType r = dt ? *dt : x->dtype;
  if (!is_floating(r)) c.runtime_error(fmt::format("\"{}\" not implemented for '{}'", c.name(), info(r).name));
  int64_t d = norm_dim(c.I, c.a.int_(1), x->rank());
  ir::Value* in = cast_to(c.T, c.v(x), x->dtype, r, x->shape);
  if (x->rank() == 0) return c.node(op == "Softmax" ? "Identity" : "Sub", op == "Softmax" ? std::vector{in} : std::vector{in, in}, r, x->shape);
  return c.node(op, {in}, r, x->shape, {{"axis", d}});
}

Value all_any(OpCall& c, bool is_all, std::optional<std::vector<int64_t>> dims, bool keepdim) {
  // all = min over bools, any = max over bools, computed as int32 (ONNX reductions lack bool). Over
  // an empty extent ONNX gives the type's extremes: all's INT32_MAX casts to true, as torch.all of
  // nothing is; any's INT32_MIN would cast to true too, so any compares with 0 instead.
  TensorObj* x = c.t(0);
  Value nz = x->dtype == DType::Bool ? Value::borrow(x) : call_op(c.T, "ne", {Value::borrow(x), Value::integer(0)});
  TensorObj* b = as_tensor(nz);
  if (is_all) return reduce(c, "ReduceMin", b, dims, keepdim, DType::Int32, DType::Bool);
  if (b->rank() == 0) return reduce(c, "ReduceMax", b, dims, keepdim, DType::Int32, DType::Bool);
  Value m = reduce(c, "ReduceMax", b, dims, keepdim, DType::Int32, DType::Int32);
  return call_op(c.T, "gt", {m, Value::integer(0)});
}

// all/any over a list of dims: None reduces every dim, an empty list none (the bool test alone).
Value all_any_dims(OpCall& c, bool is_all) {
  std::optional<std::vector<int64_t>> dims = c.a.opt_ints(1);
  if (dims && dims->empty()) {
    TensorObj* x = c.t(0);
    return x->dtype == DType::Bool ? call_op(c.T, "clone", {Value::borrow(x)})
                                   : call_op(c.T, "ne", {Value::borrow(x), Value::integer(0)});
  }
  return all_any(c, is_all, dims, c.a.boolean(2));
}

}  // namespace

Value make_return_type(Torch& T, const std::string& name, std::vector<Value> items) {
  auto it = T.return_types.find(name);
  Value tup = eval::new_tuple(T.I, std::move(items));
  if (it == T.return_types.end()) return tup;
  return eval::call(T.I, it->second, tup);
}

const std::vector<OpDef>& reduce_ops() {
  static const std::vector<OpDef> ops = {
      {"sum(Tensor self, *, ScalarType? dtype=None) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return sum(c, std::nullopt, false, c.a.dtype(1)); }},
      {"sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return sum(c, c.a.opt_ints(1), c.a.boolean(2), c.a.dtype(3)); }},
      {"mean(Tensor self, *, ScalarType? dtype=None) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return mean(c, std::nullopt, false, c.a.dtype(1)); }},
      {"mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return mean(c, c.a.opt_ints(1), c.a.boolean(2), c.a.dtype(3)); }},
      {"prod(Tensor self, *, ScalarType? dtype=None) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         DType r = sum_dtype(c.t(0), c.a.dtype(1));
         return reduce(c, "ReduceProd", c.t(0), std::nullopt, false, r, r);
       }},
      {"prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         DType r = sum_dtype(c.t(0), c.a.dtype(3));
         return reduce(c, "ReduceProd", c.t(0), std::vector<int64_t>{c.a.int_(1)}, c.a.boolean(2), r, r);
       }},
      {"amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return reduce(c, "ReduceMax", c.t(0), c.a.ints(1), c.a.boolean(2), minmax_compute(c.t(0)->dtype), c.t(0)->dtype); }},
      {"amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return reduce(c, "ReduceMin", c.t(0), c.a.ints(1), c.a.boolean(2), minmax_compute(c.t(0)->dtype), c.t(0)->dtype); }},
      {"max(Tensor self) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return reduce(c, "ReduceMax", c.t(0), std::nullopt, false, minmax_compute(c.t(0)->dtype), c.t(0)->dtype); }},
      {"max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", kFn | kMethod,
       [](OpCall& c) { return max_dim(c, true); }},
      {"max.other(Tensor self, Tensor other) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return call_op(c.T, "maximum", {c.a.raw(0), c.a.raw(1)}); }},
      {"min(Tensor self) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return reduce(c, "ReduceMin", c.t(0), std::nullopt, false, minmax_compute(c.t(0)->dtype), c.t(0)->dtype); }},
      {"min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", kFn | kMethod,
       [](OpCall& c) { return max_dim(c, false); }},
      {"min.other(Tensor self, Tensor other) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return call_op(c.T, "minimum", {c.a.raw(0), c.a.raw(1)}); }},
      {"argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return arg_reduce(c, true); }},
      {"argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return arg_reduce(c, false); }},
      {"all(Tensor self) -> Tensor", kFn | kMethod, [](OpCall& c) { return all_any(c, true, std::nullopt, false); }},
      {"all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return all_any(c, true, std::vector<int64_t>{c.a.int_(1)}, c.a.boolean(2)); }},
      {"any(Tensor self) -> Tensor", kFn | kMethod, [](OpCall& c) { return all_any(c, false, std::nullopt, false); }},
      {"any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return all_any(c, false, std::vector<int64_t>{c.a.int_(1)}, c.a.boolean(2)); }},
      {"all.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return all_any_dims(c, true); }},
      {"any.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return all_any_dims(c, false); }},
      {"softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return softmax(c, "Softmax"); }},
      {"log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return softmax(c, "LogSoftmax"); }},
  };
  return ops;
}

}  // namespace onnxify::torch
