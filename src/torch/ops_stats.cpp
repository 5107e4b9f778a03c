// Statistics, norms, scans and ordering: var/std (+ _mean), norm, logsumexp, cumsum, cummax/cummin, topk, sort,
// argsort, unique and isin. The simple reductions (sum, mean, amax, ...) are in ops_reduce.cpp.
#include <fmt/core.h>

#include <cmath>

#include "passes/kernels/array.h"
#include "passes/kernels/kernels.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

std::string long_name(DType dt) { return info(dt).name == "int64" ? "Long" : std::string(info(dt).name); }

// Sum of `v` over `axes` (ReduceSum takes its axes as an input at opset 13+).
ir::Value* reduce_sum(OpCall& c, ir::Value* v, const std::vector<int64_t>& axes, bool keepdim, ir::Type t) {
  return c.rec.emit("ReduceSum", {v, c.rec.const_i64(axes)}, t, {{"keepdims", int64_t{keepdim}}});
}

// var/std over `dims` with Bessel's `correction`: sum((x - mean)^2) / max(0, N - correction).
Value var_std(OpCall& c, bool is_std, bool with_mean, std::optional<std::vector<int64_t>> dims, int64_t correction,
              bool keepdim) {
  TensorObj* x = c.t(0);
  if (!is_floating(x->dtype)) c.runtime_error("std and var only support floating point and complex dtypes");
  std::vector<int64_t> axes = reduce_dims(c, x, dims);
  std::vector<DimExpr> kept = reduced_shape(x, axes, true);
  std::vector<DimExpr> shape = reduced_shape(x, axes, keepdim);
  ir::ElementType e = elem(x->dtype);
  ir::Type full = x->ir_type(), rt = ir::Type::tensor(e, shape);
  ir::Value* v = c.v(x);
  ir::Value* mean = reduce_mean(c, v, x->dtype, x->shape, axes, true);
  ir::Value* d = c.rec.emit("Sub", {v, mean}, full);
  ir::Value* s = reduce_sum(c, c.rec.emit("Mul", {d, d}, full), axes, keepdim, rt);
  DimExpr n(1);
  for (int64_t a : axes) n = n * x->shape[a];
  ir::Value* denom;
  DimExpr dn = n - DimExpr(correction);
  if (dn.is_const()) {
    denom = c.rec.const_scalar(e, static_cast<double>(std::max<int64_t>(0, dn.value())));
  } else {
    ir::Value* nv = cast_to(c.T, c.rec.dim_scalar(dn), DType::Int64, x->dtype, {});
    denom = c.rec.emit("Max", {nv, c.rec.const_scalar(e, 0)}, ir::Type::tensor(e, {}));
  }
  ir::Value* r = c.rec.emit("Div", {s, denom}, rt);
  if (is_std) r = c.rec.emit("Sqrt", {r}, rt);
  Value out = c.out(r, x->dtype, shape);
  if (!with_mean) return out;
  // (the mean kept its reduced dims for the Sub above; without keepdim they are squeezed away)
  Value m = keepdim ? c.out(mean, x->dtype, kept)
                    : c.out(c.rec.emit("Squeeze", {mean, c.rec.const_i64(axes)}, rt), x->dtype, shape);
  return eval::new_tuple(c.I, {out, m});
}

// The overloads share one entry: (dim, unbiased, keepdim) or (dim, *, correction, keepdim). A bool
// where the dims go is PyTorch's var(Tensor self, bool unbiased) overload.
Value var_std_dim(OpCall& c, bool is_std, bool with_mean) {
  const Value& d = c.a.raw(1);
  if (d.is_bool()) return var_std(c, is_std, with_mean, std::nullopt, d.b() ? 1 : 0, false);
  bool unbiased = c.a.boolean(2);
  return var_std(c, is_std, with_mean, c.a.opt_ints(1), unbiased ? 1 : 0, c.a.boolean(3));
}

Value var_std_correction(OpCall& c, bool is_std, bool with_mean) {
  std::optional<int64_t> corr = c.a.opt_int(2);
  return var_std(c, is_std, with_mean, c.a.opt_ints(1), corr ? *corr : 1, c.a.boolean(3));
}

// torch.norm(input, p='fro', dim=None, keepdim=False, dtype=None) (PyTorch's Python wrapper and
// Tensor.norm): vector norms over `dim` (all dims when None).
Value norm(OpCall& c) {
  TensorObj* x = c.t(0);
  const Value& pv = c.a.raw(1);
  std::optional<std::vector<int64_t>> dims = c.a.opt_ints(2);
  bool keepdim = c.a.boolean(3);
  std::optional<DType> dt = c.a.dtype(4);
  DType r = dt ? *dt : x->dtype;
  if (!is_floating(r))
    c.runtime_error(fmt::format("linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}",
                                long_name(r)));
  double p = 2;
  if (pv && !pv.is_none()) {
    if (eval::is_str(pv)) {
      std::string s(eval::as_str(pv)->view());
      if (s == "nuc") return c.unsupported("the nuclear norm (p='nuc')");
      if (s != "fro") c.runtime_error(fmt::format("norm(): unknown norm type '{}'", s));
      if (dt) c.value_error("dtype argument is not supported in frobenius norm");
      if (dims && dims->size() > 2) c.runtime_error("Expected at most 2 dimensions, but got more");
    } else {
      Scalar ps = c.a.scalar(1);
      p = ps.as_double();
    }
  }
  std::vector<int64_t> axes = reduce_dims(c, x, dims);
  std::vector<DimExpr> shape = reduced_shape(x, axes, keepdim);
  ir::ElementType e = elem(r);
  ir::Type full = ir::Type::tensor(e, x->shape), rt = ir::Type::tensor(e, shape);
  ir::Value* v = cast_to(c.T, c.v(x), x->dtype, r, x->shape);
  Attrs ra{{"axes", axes}, {"keepdims", int64_t{keepdim}}};
  ir::Value* out;
  if (x->rank() == 0) {
    out = p == 0 ? cast_to(c.T, c.rec.emit("Not", {c.rec.emit("Equal", {v, c.rec.const_scalar(e, 0)}, ir::Type::tensor(ir::ElementType::Bool, {}))},
                                           ir::Type::tensor(ir::ElementType::Bool, {})), DType::Bool, r, {})
                 : c.rec.emit("Abs", {v}, full);
  } else if (p == 2) {
    out = c.rec.emit("ReduceL2", {v}, rt, ra);
  } else if (p == 1) {
    out = c.rec.emit("ReduceL1", {v}, rt, ra);
  } else if (std::isinf(p)) {
    out = c.rec.emit(p > 0 ? "ReduceMax" : "ReduceMin", {c.rec.emit("Abs", {v}, full)}, rt, ra);
  } else if (p == 0) {
    ir::Value* nz = c.rec.emit("Not", {c.rec.emit("Equal", {v, c.rec.const_scalar(e, 0)}, ir::Type::tensor(ir::ElementType::Bool, x->shape))},
                               ir::Type::tensor(ir::ElementType::Bool, x->shape));
    out = reduce_sum(c, cast_to(c.T, nz, DType::Bool, r, x->shape), axes, keepdim, rt);
  } else {
    // (sum |x|^p)^(1/p)
    ir::Value* pw = c.rec.emit("Pow", {c.rec.emit("Abs", {v}, full), c.rec.const_scalar(e, p)}, full);
    out = c.rec.emit("Pow", {reduce_sum(c, pw, axes, keepdim, rt), c.rec.const_scalar(e, 1.0 / p)}, rt);
  }
  return c.out(out, r, shape);
}

Value logsumexp(OpCall& c) {
  TensorObj* x = c.t(0);
  DType r = is_floating(x->dtype) ? x->dtype : c.T.default_dtype;
  std::vector<int64_t> axes = reduce_dims(c, x, c.a.ints(1));
  bool keepdim = c.a.boolean(2);
  std::vector<DimExpr> shape = reduced_shape(x, axes, keepdim);
  ir::Value* v = cast_to(c.T, c.v(x), x->dtype, r, x->shape);
  if (x->rank() == 0) return c.out(v, r, x->shape);
  return c.node("ReduceLogSumExp", {v}, r, shape, {{"axes", axes}, {"keepdims", int64_t{keepdim}}});
}

Value cumsum(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t d = norm_dim(c.I, c.a.int_(1), x->rank());
  std::optional<DType> dt = c.a.dtype(2);
  DType r = dt ? *dt : (is_integral(x->dtype, true) ? DType::Int64 : x->dtype);
  ir::Value* v = cast_to(c.T, c.v(x), x->dtype, r, x->shape);
  if (x->rank() == 0) return c.out(v, r, x->shape);
  return c.node("CumSum", {v, c.rec.const_i64_scalar(d)}, r, x->shape);
}

// cummax / cummin(x, dim) -> (values, indices): for each position i the max / min over j <= i and
// the last j that reaches it (ATen's scan takes a new element on `>=` / `<=`); a NaN wins from where
// it appears, with the last NaN's index. No ONNX op scans with a max, so it is a reduction over the
// pairs j <= i ([.., n, n]: n^2 elements a row), which holds for run-time lengths too. Integer and
// bool inputs are compared as int64.
Value cum_extreme(OpCall& c, bool is_max) {
  Torch& T = c.T;
  TensorObj* x = c.t(0);
  const char* name = is_max ? "cummax" : "cummin";
  int64_t d = norm_dim(c.I, c.a.int_(1), x->rank());
  auto I = [](int64_t v) { return Value::integer(v); };
  auto as = [&](const Value& v, DType dt) { return call_op(T, "to", {v, T.dtype_object(dt)}); };
  if (x->rank() == 0) {
    Value zero = c.node("Constant", {}, DType::Int64, {}, {{"value", ir::Tensor::scalar_int64(0)}});
    return make_return_type(T, name, {call_op(T, "clone", {Value::borrow(x)}), zero});
  }
  bool floating = is_floating(x->dtype);
  if (!floating && !is_integral(x->dtype, true))
    return c.unsupported(fmt::format("{} of a {} tensor", name, info(x->dtype).name));
  Value xt = call_op(T, "movedim", {Value::borrow(x), I(d), I(-1)});  // [..., n]
  if (!floating) xt = as(xt, DType::Int64);
  DimExpr n = x->shape[d];
  Value j = call_op(T, "arange", {make_size_value(T, n)});  // [n]
  Value mask = call_op(T, "le", {call_op(T, "unsqueeze", {j, I(0)}), call_op(T, "unsqueeze", {j, I(1)})});  // [i, j]
  Value a = call_op(T, "unsqueeze", {xt, I(-2)});  // [..., 1, n]
  // Pairs j > i hold x_i, which is in the prefix anyway (no fill value to get wrong for a dtype).
  Value fill = call_op(T, "unsqueeze", {xt, I(-1)});  // [..., n, 1]
  Value last = I(-1);
  Value vals = call_op(T, is_max ? "amax" : "amin",
                       {call_op(T, "where", {mask, a, fill}), eval::new_list(c.I, {I(-1)})});  // [..., n]
  Value hit = call_op(T, "logical_and", {mask, call_op(T, "eq", {a, call_op(T, "unsqueeze", {vals, I(-1)})})});
  Value idx = call_op(T, "amax", {call_op(T, "where", {hit, j, last}), eval::new_list(c.I, {I(-1)})});
  if (floating) {
    Value nan_at = call_op(T, "logical_and", {mask, call_op(T, "isnan", {a})});
    Value nan_idx = call_op(T, "amax", {call_op(T, "where", {nan_at, j, last}), eval::new_list(c.I, {I(-1)})});
    Value seen = call_op(T, "ge", {nan_idx, I(0)});
    vals = call_op(T, "where", {seen, Value::real(NAN), vals});
    idx = call_op(T, "where", {seen, nan_idx, idx});
  } else {
    vals = as(vals, x->dtype);
  }
  return make_return_type(T, name, {call_op(T, "movedim", {vals, I(-1), I(d)}), call_op(T, "movedim", {idx, I(-1), I(d)})});
}

// TopK over dim `d` with k (symbolic allowed): (values, indices). ONNX TopK puts equal elements in
// index order, which is what a stable sort gives.
Value topk_values(OpCall& c, TensorObj* x, DimExpr k, int64_t d, bool largest, const char* name, bool indices_only) {
  std::vector<DimExpr> shape = x->shape;
  if (x->rank() == 0) {
    Value zero = c.node("Constant", {}, DType::Int64, {}, {{"value", ir::Tensor::scalar_int64(0)}});
    if (indices_only) return zero;
    return make_return_type(c.T, name, {Value::borrow(x), zero});
  }
  shape[d] = k;
  if (x->dtype == DType::Bool) return c.unsupported("sorting bool tensors (convert to an integer dtype first)");
  ir::Node* n = c.rec.node("TopK", {c.v(x), c.rec.dim_vec(k)}, 2);
  n->set_attr("axis", d);
  n->set_attr("largest", int64_t{largest});
  n->set_attr("sorted", int64_t{1});
  n->output(0)->set_type(ir::Type::tensor(elem(x->dtype), shape));
  n->output(1)->set_type(ir::Type::tensor(ir::ElementType::Int64, shape));
  Value idx = c.out(n->output(1), DType::Int64, shape);
  if (indices_only) return idx;
  return make_return_type(c.T, name, {c.out(n->output(0), x->dtype, shape), idx});
}

Value topk(OpCall& c) {
  TensorObj* x = c.t(0);
  DimExpr k = c.a.dim(1);
  int64_t d = norm_dim(c.I, c.a.int_(2), x->rank());
  if (x->rank() && k.is_const() && x->shape[d].is_const() && (k.value() < 0 || k.value() > x->shape[d].value()))
    c.runtime_error("selected index k out of range");
  // sorted=False leaves the order unspecified in PyTorch; sorted order is one valid answer.
  return topk_values(c, x, k, d, c.a.boolean(3), "topk", false);
}

Value sort(OpCall& c, size_t dim_i, size_t desc_i, bool indices_only) {
  TensorObj* x = c.t(0);
  int64_t d = norm_dim(c.I, c.a.int_(dim_i), x->rank());
  DimExpr k = x->rank() ? x->shape[d] : DimExpr(1);
  return topk_values(c, x, k, d, c.a.boolean(desc_i), "sort", indices_only);
}

// torch.unique (sorted; dim=None flattens) as ONNX Unique. Its kernel in ONNX Runtime takes float32,
// float64, int64 and int8: other dtypes are computed in float32 / int64 and cast back. The number of
// unique values is only known at run time (a new size). sorted=False gives the sorted order, one of
// the orders PyTorch may give.
Value unique(OpCall& c) {
  TensorObj* x = c.t(0);
  bool want_inverse = c.a.boolean(2), want_counts = c.a.boolean(3);
  std::optional<int64_t> dim = c.a.opt_int(4);
  DType work = x->dtype;
  switch (x->dtype) {
    case DType::Float32: case DType::Float64: case DType::Int64: case DType::Int8: break;
    case DType::Float16: case DType::BFloat16: work = DType::Float32; break;
    default:
      if (!is_integral(x->dtype, true)) return c.unsupported(fmt::format("torch.unique of a {} tensor", info(x->dtype).name));
      work = DType::Int64;
  }
  if (dim && x->rank() == 0) c.fail(c.I.exc.IndexError, "Dimension out of range");
  // A conversion-time constant (timm's regnet: len(torch.unique(widths)) of widths computed in
  // __init__): its values, so the number of unique values is a static size, as in eager.
  if (auto known = known_values(c.T, x)) {
    if (auto outs = passes::kernels::unique_values(*known, dim, true)) {
      Value y = new_constant(c.T, (*outs)[0], x->dtype);
      if (!want_inverse && !want_counts) return y;
      std::vector<Value> items{y};
      if (want_inverse)
        items.push_back(new_constant(c.T, dim ? (*outs)[2] : passes::kernels::reshaped((*outs)[2], known->shape()),
                                     DType::Int64));
      if (want_counts) items.push_back(new_constant(c.T, (*outs)[3], DType::Int64));
      return eval::new_tuple(c.I, std::move(items));
    }
  }
  ir::Value* v = cast_to(c.T, c.v(x), x->dtype, work, x->shape);
  std::vector<DimExpr> in_shape = x->shape;
  if (!dim) {
    DimExpr n(int64_t{1});
    for (const DimExpr& d : x->shape) n = n * d;
    in_shape = {n};
    v = c.rec.emit("Reshape", {v, c.rec.const_i64({-1})}, ir::Type::tensor(elem(work), in_shape));
  }
  int64_t axis = dim ? norm_dim(c.I, *dim, static_cast<int64_t>(x->rank())) : 0;
  ir::Node* n = c.rec.node("Unique", {v}, 4);
  n->set_attr("sorted", int64_t{1});
  if (dim) n->set_attr("axis", axis);
  n->output(0)->set_type(ir::Type::tensor(elem(work), in_shape));
  DimExpr u = c.rec.fresh_symbol(n->output(0), axis);
  std::vector<DimExpr> y_shape = in_shape;
  y_shape[axis] = u;
  n->output(0)->set_type(ir::Type::tensor(elem(work), y_shape));
  n->output(1)->set_type(ir::Type::tensor(ir::ElementType::Int64, {u}));
  n->output(2)->set_type(ir::Type::tensor(ir::ElementType::Int64, {in_shape[axis]}));
  n->output(3)->set_type(ir::Type::tensor(ir::ElementType::Int64, {u}));
  Value y = c.out(cast_to(c.T, n->output(0), work, x->dtype, y_shape), x->dtype, y_shape);
  if (!want_inverse && !want_counts) return y;
  std::vector<Value> items{y};
  if (want_inverse) {
    std::vector<DimExpr> inv_shape = dim ? std::vector<DimExpr>{x->shape[axis]} : x->shape;
    ir::Value* inv = n->output(2);
    if (!dim) inv = reshape_value(c.T, inv, x->shape, ir::ElementType::Int64);
    items.push_back(c.out(inv, DType::Int64, inv_shape));
  }
  if (want_counts) items.push_back(c.out(n->output(3), DType::Int64, {u}));
  return eval::new_tuple(c.I, std::move(items));
}

// torch.unique_consecutive (dim=None) from other rows: a value starts a run where it differs from
// the one before; the runs' first values, the run index of each element (cumsum of the starts - 1)
// and the distances between starts.
Value unique_consecutive(OpCall& c) {
  Torch& T = c.T;
  if (c.a.opt_int(3)) return c.unsupported("torch.unique_consecutive with dim (flatten the tensor first)");
  TensorObj* x = c.t(0);
  auto I = [](int64_t v) { return Value::integer(v); };
  Value flat = call_op(T, "reshape", {c.a.raw(0), eval::new_list(c.I, {I(-1)})});
  DimExpr n = as_tensor(flat)->shape[0];
  Value rest = make_size_value(T, n - DimExpr(int64_t{1}));
  Value differs = call_op(T, "ne", {call_op(T, "narrow", {flat, I(0), I(1), rest}), call_op(T, "narrow", {flat, I(0), I(0), rest})});
  Value first = call_op(T, "ones", {eval::new_list(c.I, {I(1)})});
  first = call_op(T, "to", {first, T.dtype_object(DType::Bool)});
  Value starts = call_op(T, "cat", {eval::new_list(c.I, {first, differs}), I(0)});
  Value y = call_op(T, "masked_select", {flat, starts});
  bool want_inverse = c.a.boolean(1), want_counts = c.a.boolean(2);
  if (!want_inverse && !want_counts) return y;
  std::vector<Value> items{y};
  if (want_inverse) {
    Value run = call_op(T, "sub", {call_op(T, "cumsum", {call_op(T, "to", {starts, T.dtype_object(DType::Int64)}), I(0)}), I(1)});
    items.push_back(call_op(T, "reshape", {run, make_size_tuple(T, x->shape)}));
  }
  if (want_counts) {
    Value pos = call_op(T, "masked_select", {call_op(T, "arange", {make_size_value(T, n)}), starts});
    DimExpr k = as_tensor(pos)->shape[0];
    Value end = call_op(T, "narrow", {call_op(T, "arange", {make_size_value(T, n + DimExpr(int64_t{1}))}), I(0),
                                      make_size_value(T, n), I(1)});  // [n]
    Value ends = call_op(T, "cat", {eval::new_list(c.I, {call_op(T, "narrow", {pos, I(0), I(1), make_size_value(T, k - DimExpr(int64_t{1}))}), end}), I(0)});
    items.push_back(call_op(T, "sub", {ends, pos}));
  }
  return eval::new_tuple(c.I, std::move(items));
}

// torch.isin(elements, test_elements, *, assume_unique, invert): each element compared with every
// test element (Equal of [..., 1] against the flattened [M], any over M; the promoted dtype is
// eq's), the shape of `elements`. A scalar on either side is one value; assume_unique changes
// only PyTorch's algorithm.
Value isin(OpCall& c) {
  Torch& T = c.T;
  const Value& elements = c.a.raw(0);
  const Value& test = c.a.raw(1);
  Value hit;
  if (!is_tensor(test)) {
    hit = call_op(T, "eq", {elements, test});
  } else if (!is_tensor(elements)) {
    hit = call_op(T, "any", {call_op(T, "eq", {test, elements})});
  } else {
    Value flat = call_op(T, "reshape", {test, eval::new_tuple(c.I, {Value::integer(-1)})});
    hit = call_op(T, "any", {call_op(T, "eq", {call_op(T, "unsqueeze", {elements, Value::integer(-1)}), flat}),
                             Value::integer(-1)});
  }
  return c.a.boolean(3) ? call_op(T, "logical_not", {hit}) : hit;
}

}  // namespace

const std::vector<OpDef>& stats_ops() {
  static const std::vector<OpDef> ops = {
      {"unique(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False, int? dim=None) -> Tensor",
       kFn | kMethod, unique},
      {"isin.Tensor_Tensor(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor",
       kFn, isin},
      {"isin.Tensor_Scalar(Tensor elements, Scalar test_element, *, bool assume_unique=False, bool invert=False) -> Tensor",
       kFn, isin},
      {"isin.Scalar_Tensor(Scalar element, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor",
       kFn, isin},
      {"unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) -> Tensor",
       kFn | kMethod, unique_consecutive},
      {"var.dim(Tensor self, int[1]? dim=None, bool unbiased=True, bool keepdim=False) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return var_std_dim(c, false, false); }},
      {"var.correction(Tensor self, int[1]? dim=None, *, int? correction=None, bool keepdim=False) -> Tensor",
       kFn | kMethod, [](OpCall& c) { return var_std_correction(c, false, false); }},
      {"std.dim(Tensor self, int[1]? dim=None, bool unbiased=True, bool keepdim=False) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return var_std_dim(c, true, false); }},
      {"std.correction(Tensor self, int[1]? dim=None, *, int? correction=None, bool keepdim=False) -> Tensor",
       kFn | kMethod, [](OpCall& c) { return var_std_correction(c, true, false); }},
      {"var_mean.dim(Tensor self, int[1]? dim=None, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)", kFn,
       [](OpCall& c) { return var_std_dim(c, false, true); }},
      {"var_mean.correction(Tensor self, int[1]? dim=None, *, int? correction=None, bool keepdim=False) -> (Tensor, Tensor)",
       kFn, [](OpCall& c) { return var_std_correction(c, false, true); }},
      {"std_mean.dim(Tensor self, int[1]? dim=None, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)", kFn,
       [](OpCall& c) { return var_std_dim(c, true, true); }},
      {"std_mean.correction(Tensor self, int[1]? dim=None, *, int? correction=None, bool keepdim=False) -> (Tensor, Tensor)",
       kFn, [](OpCall& c) { return var_std_correction(c, true, true); }},
      {"norm(Tensor self, Any p=\"fro\", int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
       kFn | kMethod, norm},
      {"logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", kFn | kMethod, logsumexp},
      {"cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", kFn | kMethod | kInplace, cumsum},
      {"cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)", kFn | kMethod,
       [](OpCall& c) { return cum_extreme(c, true); }},
      {"cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)", kFn | kMethod,
       [](OpCall& c) { return cum_extreme(c, false); }},
      {"topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)",
       kFn | kMethod, topk},
      {"sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)", kFn | kMethod,
       [](OpCall& c) { return sort(c, 1, 2, false); }},
      {"sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)",
       kFn | kMethod, [](OpCall& c) { return sort(c, 2, 3, false); }},
      {"argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return sort(c, 1, 2, true); }},
      {"argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return sort(c, 2, 3, true); }},
  };
  return ops;
}

}  // namespace onnxify::torch
