// Ops PyTorch users call that are compositions of other rows of the op table (found missing by
// bench/parity on real model code): float predicates (isnan, isinf, isfinite, isclose, equal,
// nan_to_num, logit), diagonals and small products (diag, diagonal, diag_embed, trace, dot, mv,
// cross, cdist, pdist, dist), rearrangements (movedim, rot90, fliplr/flipud, repeat_interleave,
// take_along_dim), selections (masked_select, argwhere, count_nonzero, bincount) and the index_* writes
// (index_fill, index_copy, index_add as scatters), cumprod, i0 and sinc; and torch.grid_sampler, recorded as
// the onnxify composite grid_sample that the lowering maps to ONNX GridSample (F.grid_sample and
// F.affine_grid are Python, nn/functional.py); the in-place view changes squeeze_/unsqueeze_/
// transpose_/t_ and Tensor.unfold (sliding windows). Each follows PyTorch's definition; the sizes may be
// symbolic (they are passed on as SymInts).
#include <fmt/core.h>

#include <cmath>
#include <limits>

#include "torch/index.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

Value op(OpCall& c, std::string_view name, std::vector<Value> args) {
  return call_op(c.T, name, std::move(args));
}
Value tv(TensorObj* t) { return Value::borrow(t); }
Value ints(OpCall& c, const std::vector<int64_t>& v) {
  std::vector<Value> items;
  for (int64_t i : v) items.push_back(Value::integer(i));
  return eval::new_list(c.I, std::move(items));
}
Value sizes(OpCall& c, const std::vector<DimExpr>& dims) {
  std::vector<Value> items;
  for (const DimExpr& d : dims) items.push_back(make_size_value(c.T, d));
  return eval::new_list(c.I, std::move(items));
}
// A tensor result of a composed op (poison passes through: it was reported where it was made).
TensorObj* tensor_of(const Value& v) { return is_tensor(v) ? as_tensor(v) : nullptr; }
Value size_tensor(OpCall& c, DimExpr d) { return c.out(c.rec.dim_scalar(d), DType::Int64, {}); }

// ---- predicates --------------------------------------------------------------------------------------

Value isnan(OpCall& c) { return op(c, "ne", {tv(c.t(0)), tv(c.t(0))}); }
Value isposinf(OpCall& c) { return op(c, "eq", {tv(c.t(0)), Value::real(INFINITY)}); }
Value isneginf(OpCall& c) { return op(c, "eq", {tv(c.t(0)), Value::real(-INFINITY)}); }
Value isinf(OpCall& c) { return op(c, "logical_or", {isposinf(c), isneginf(c)}); }
Value isfinite(OpCall& c) {
  return op(c, "logical_not", {op(c, "logical_or", {isnan(c), isinf(c)})});
}

// PyTorch's isclose: equal, or finite |a - b| <= atol + |rtol * b|; equal_nan: NaN matches NaN.
Value isclose_value(OpCall& c, TensorObj* a, TensorObj* b, double rtol, double atol, bool equal_nan) {
  if (a->dtype != b->dtype)
    c.runtime_error(fmt::format("{}(): expected both inputs to have same dtype, but got {} and {}", c.name(),
                                info(a->dtype).name, info(b->dtype).name));
  Value eq = op(c, "eq", {tv(a), tv(b)});
  if (a->dtype == DType::Bool) return eq;
  Value fa = tv(a), fb = tv(b);
  if (!is_floating(a->dtype)) {  // integers: the error in the default float dtype
    fa = op(c, "to", {fa, c.T.dtype_object(c.T.default_dtype)});
    fb = op(c, "to", {fb, c.T.dtype_object(c.T.default_dtype)});
  }
  Value err = op(c, "abs", {op(c, "sub", {fa, fb})});
  Value allowed = op(c, "add", {op(c, "abs", {op(c, "mul", {fb, Value::real(rtol)})}), Value::real(atol)});
  Value finite = op(c, "logical_not", {op(c, "logical_or", {op(c, "ne", {err, err}),
                                                             op(c, "eq", {err, Value::real(INFINITY)})})});
  Value close = op(c, "logical_or", {eq, op(c, "logical_and", {finite, op(c, "le", {err, allowed})})});
  if (equal_nan)
    close = op(c, "logical_or",
               {close, op(c, "logical_and", {op(c, "ne", {tv(a), tv(a)}), op(c, "ne", {tv(b), tv(b)})})});
  return close;
}

Value isclose(OpCall& c) {
  return isclose_value(c, c.t(0), c.t(1), c.a.real(2), c.a.real(3), c.a.boolean(4));
}
Value allclose(OpCall& c) {
  return op(c, "all", {isclose_value(c, c.t(0), c.t(1), c.a.real(2), c.a.real(3), c.a.boolean(4))});
}
// torch.equal: same size and elements. Sizes that differ statically give False at once; otherwise
// the answer is a bool computed by the model (a condition `if` can branch on).
Value equal(OpCall& c) {
  TensorObj *a = c.t(0), *b = c.t(1);
  if (a->rank() != b->rank()) return Value::boolean(false);
  for (size_t i = 0; i < a->rank(); ++i)
    if (a->shape[i].is_const() && b->shape[i].is_const() && a->shape[i].value() != b->shape[i].value())
      return Value::boolean(false);
  if (a->shape != b->shape) return c.unsupported("torch.equal of tensors whose sizes are only known at run time");
  return op(c, "all", {op(c, "eq", {tv(a), tv(b)})});
}

double largest(DType dt) {
  switch (dt) {
    case DType::Float16: return 65504.0;
    case DType::BFloat16: return 3.3895313892515355e+38;
    case DType::Float64: return std::numeric_limits<double>::max();
    default: return std::numeric_limits<float>::max();
  }
}

Value nan_to_num(OpCall& c) {
  TensorObj* x = c.t(0);
  if (!is_floating(x->dtype)) return op(c, "clone", {tv(x)});
  double big = largest(x->dtype);
  double nan = c.a.opt_real(1).value_or(0.0);
  double pos = c.a.opt_real(2).value_or(big), neg = c.a.opt_real(3).value_or(-big);
  ir::ElementType et = elem(x->dtype);
  Recorder& R = c.rec;
  ir::Value* v = c.v(x);
  ir::Type bt = ir::Type::tensor(ir::ElementType::Bool, x->shape);
  ir::Value* r = select_value(c.T, R.emit("IsNaN", {v}, bt), R.const_scalar(et, nan), v, x->dtype, x->shape);
  r = select_value(c.T, R.emit("IsInf", {v}, bt, {{"detect_negative", int64_t{0}}}), R.const_scalar(et, pos), r,
                   x->dtype, x->shape);
  r = select_value(c.T, R.emit("IsInf", {v}, bt, {{"detect_positive", int64_t{0}}}), R.const_scalar(et, neg), r,
                   x->dtype, x->shape);
  return c.out(r, x->dtype, x->shape);
}

Value logit(OpCall& c) {
  Value x = tv(c.t(0));
  if (!is_floating(c.t(0)->dtype)) x = op(c, "to", {x, c.T.dtype_object(c.T.default_dtype)});
  if (std::optional<double> eps = c.a.opt_real(1))
    x = op(c, "clamp", {x, Value::real(*eps), Value::real(1.0 - *eps)});
  return op(c, "log", {op(c, "div", {x, op(c, "rsub", {x, Value::integer(1)})})});
}

// ---- diagonals and products --------------------------------------------------------------------------

// The diagonal `offset` of the plane (dim1, dim2), as the last dim, and a view as in PyTorch (writes
// to it reach x: `torch.diagonal(c).add_(-1)`): the plane is moved last (a permute view), then the
// elements (i + max(-offset, 0), i + max(offset, 0)) are taken by an advanced index on its last two
// dims, kept as an Index view whose writes go back by ScatterND.
Value diagonal_of(OpCall& c, TensorObj* x, int64_t offset, int64_t dim1, int64_t dim2) {
  int64_t rank = x->rank();
  int64_t d1 = norm_dim(c.I, dim1, rank), d2 = norm_dim(c.I, dim2, rank);
  if (d1 == d2) c.runtime_error(fmt::format("diagonal dimensions cannot be identical {}, {}", dim1, dim2));
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < rank; ++i)
    if (i != d1 && i != d2) perm.push_back(i);
  perm.push_back(d1);
  perm.push_back(d2);
  DimExpr A = x->shape[d1], B = x->shape[d2];
  DimExpr len = offset >= 0 ? ir::max(ir::min(A, B - offset), DimExpr(0))
                            : ir::max(ir::min(A + offset, B), DimExpr(0));
  bool identity = true;
  for (int64_t i = 0; i < rank; ++i) identity &= perm[i] == i;
  Value moved = identity ? Value::borrow(x) : op(c, "permute", {tv(x), ints(c, perm)});
  Value steps = op(c, "arange", {make_size_value(c.T, len)});
  Value rows = offset < 0 ? op(c, "add", {steps, Value::integer(-offset)}) : steps;
  Value cols = offset > 0 ? op(c, "add", {steps, Value::integer(offset)}) : steps;
  Value key = eval::new_tuple(c.I, {c.I.ellipsis, rows, cols});
  TensorObj* base = as_tensor(moved);
  Value r = index_get(c.T, base, key, /*as_view=*/false);
  make_view(as_tensor(r), base, ViewSpec{ViewSpec::Kind::Index, key});
  return r;
}

Value diagonal(OpCall& c) { return diagonal_of(c, c.t(0), c.a.int_(1), c.a.int_(2), c.a.int_(3)); }

// Vectors `x` (last dim n) on the diagonal `offset` of (m x m) planes, m = n + |offset|.
Value embed_diagonal(OpCall& c, TensorObj* x, int64_t offset) {
  Recorder& R = c.rec;
  int64_t k = offset < 0 ? -offset : offset;
  int64_t rank = x->rank();
  DimExpr m = x->shape[rank - 1] + k;
  std::vector<DimExpr> padded = x->shape;
  padded.back() = m;
  std::vector<int64_t> pads(2 * rank, 0);
  pads[2 * rank - 1] = k;
  ir::Value* xp = R.emit("Pad", {c.v(x), R.const_i64(pads)}, ir::Type::tensor(elem(x->dtype), padded));
  Value vp = c.out(xp, x->dtype, padded);
  // Row i holds x[i] at column i + offset (offset >= 0); column j holds x[j] at row j - offset.
  Value vals = op(c, "unsqueeze", {vp, Value::integer(offset >= 0 ? rank : rank - 1)});
  Value r = op(c, "arange", {make_size_value(c.T, m)});
  Value diff =
      op(c, "sub", {op(c, "unsqueeze", {r, Value::integer(0)}), op(c, "unsqueeze", {r, Value::integer(1)})});
  Value mask = op(c, "eq", {diff, Value::integer(offset)});
  std::vector<DimExpr> shape(x->shape.begin(), x->shape.end() - 1);
  shape.push_back(m);
  shape.push_back(m);
  TensorObj* vt = tensor_of(vals);
  TensorObj* mt = tensor_of(mask);
  if (!vt || !mt) return vals;
  ir::Value* full = R.emit("Expand", {c.v(vt), R.shape_value(shape)}, ir::Type::tensor(elem(x->dtype), shape));
  ir::Value* cond =
      R.emit("Expand", {c.v(mt), R.shape_value(shape)}, ir::Type::tensor(ir::ElementType::Bool, shape));
  ir::Value* out = select_value(c.T, cond, full, R.const_scalar(elem(x->dtype), 0), x->dtype, shape);
  return c.out(out, x->dtype, shape);
}

Value diag(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t k = c.a.int_(1);
  if (x->rank() == 1) return embed_diagonal(c, x, k);
  if (x->rank() == 2) return diagonal_of(c, x, k, 0, 1);
  c.runtime_error("diag(): Supports 1D or 2D tensors. Got " + std::to_string(x->rank()) + "D");
}

Value diag_embed(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t rank = x->rank() + 1;
  int64_t d1 = norm_dim(c.I, c.a.int_(2), rank), d2 = norm_dim(c.I, c.a.int_(3), rank);
  if (d1 != rank - 2 || d2 != rank - 1) return c.unsupported("diag_embed into dims other than the last two");
  if (x->rank() == 0) c.runtime_error("diag_embed(): input must be at least 1-dimensional");
  return embed_diagonal(c, x, c.a.int_(1));
}

Value trace(OpCall& c) {
  TensorObj* x = c.t(0);
  if (x->rank() != 2)
    c.runtime_error("trace: expected a matrix, but got tensor with dim " + std::to_string(x->rank()));
  return op(c, "sum", {diagonal_of(c, x, 0, 0, 1)});
}

Value dot(OpCall& c) {
  TensorObj *a = c.t(0), *b = c.t(1);
  if (a->rank() != 1 || b->rank() != 1)
    c.runtime_error(fmt::format("1D tensors expected, but got {}D and {}D tensors", a->rank(), b->rank()));
  if (a->dtype != b->dtype)
    c.runtime_error(fmt::format("dot : expected both vectors to have same dtype, but found {} and {}",
                                info(a->dtype).name, info(b->dtype).name));
  return op(c, "sum", {op(c, "mul", {tv(a), tv(b)})});
}

Value mv(OpCall& c) {
  if (c.t(0)->rank() != 2 || c.t(1)->rank() != 1)
    c.runtime_error(fmt::format("vector + matrix @ vector expected, got 1, {}, {}", c.t(0)->rank(), c.t(1)->rank()));
  return op(c, "matmul", {tv(c.t(0)), tv(c.t(1))});
}

// a x b along `dim` (torch.cross without dim: the first dim of size 3; linalg.cross: -1).
Value cross(OpCall& c, std::optional<int64_t> dim) {
  TensorObj *a = c.t(0), *b = c.t(1);
  std::vector<DimExpr> shape = broadcast_shapes(c.I, a->shape, b->shape);
  int64_t rank = static_cast<int64_t>(shape.size());
  int64_t d = -1;
  if (dim) {
    d = norm_dim(c.I, *dim, rank);
  } else {
    for (int64_t i = 0; i < rank && d < 0; ++i) {
      if (!shape[i].is_const())  // the first size-3 dim could be this one: only known at run time
        return c.unsupported(fmt::format("torch.cross without dim when dim {} has the run-time size {} (pass dim=)", i,
                                         shape[i].str()));
      if (shape[i].value() == 3) d = i;
    }
    if (d < 0) c.runtime_error("no dimension of size 3 in input");
  }
  if (!shape[d].is_const() || shape[d].value() != 3)
    c.runtime_error(fmt::format("linalg.cross: inputs dimension {} must have length 3. Got {} and {}", d,
                                a->shape.size() > size_t(d) ? a->shape[d].str() : "?",
                                b->shape.size() > size_t(d) ? b->shape[d].str() : "?"));
  Value ea = op(c, "expand", {tv(a), sizes(c, shape)}), eb = op(c, "expand", {tv(b), sizes(c, shape)});
  auto pick = [&](const Value& t, std::vector<int64_t> order) {
    return op(c, "index_select", {t, Value::integer(d), c.out(c.rec.const_i64(order), DType::Int64, {DimExpr(3)})});
  };
  Value l = op(c, "mul", {pick(ea, {1, 2, 0}), pick(eb, {2, 0, 1})});
  Value r = op(c, "mul", {pick(ea, {2, 0, 1}), pick(eb, {1, 2, 0})});
  return op(c, "sub", {l, r});
}

// The p-norm of the last dim of d (p = 0: the count of nonzeros; inf: the largest magnitude).
Value pnorm_last(OpCall& c, const Value& d, double p) {
  Value a = op(c, "abs", {d});
  if (p == 0) {
    Value nonzero = op(c, "to", {op(c, "ne", {a, Value::integer(0)}), c.T.dtype_object(as_tensor(d)->dtype)});
    return op(c, "sum", {nonzero, ints(c, {-1})});
  }
  if (std::isinf(p)) {
    // The largest magnitude of no values is 0 in PyTorch's norms (ONNX's ReduceMax of nothing is
    // -inf): clamped wherever the extent can be 0 at run time.
    Value m = op(c, "amax", {a, ints(c, {-1})});
    TensorObj* ta = tensor_of(a);
    if (!ta || ta->rank() == 0 || (ta->shape.back().is_const() && ta->shape.back().value() > 0)) return m;
    return op(c, "clamp_min", {m, Value::real(0)});
  }
  if (p == 1) return op(c, "sum", {a, ints(c, {-1})});
  if (p == 2) return op(c, "sqrt", {op(c, "sum", {op(c, "mul", {a, a}), ints(c, {-1})})});
  return op(c, "pow", {op(c, "sum", {op(c, "pow", {a, Value::real(p)}), ints(c, {-1})}), Value::real(1.0 / p)});
}

// torch.cdist: the p-norm distance of every row pair, computed directly from the differences.
Value cdist(OpCall& c) {
  TensorObj *x1 = c.t(0), *x2 = c.t(1);
  double p = c.a.real(2);
  if (x1->rank() < 2 || x2->rank() < 2)
    c.runtime_error(fmt::format("cdist only supports at least 2D tensors, X1 got: {}D", x1->rank()));
  if (p < 0) c.runtime_error("cdist only supports non-negative p values");
  if (!is_floating(x1->dtype))
    c.runtime_error(fmt::format("cdist only supports floating-point dtypes, X1 got: {}", info(x1->dtype).name));
  Value d = op(c, "sub",
               {op(c, "unsqueeze", {tv(x1), Value::integer(-2)}), op(c, "unsqueeze", {tv(x2), Value::integer(-3)})});
  if (!tensor_of(d)) return d;
  return pnorm_last(c, d, p);
}

Value dist(OpCall& c) {
  Value d = op(c, "sub", {tv(c.t(0)), tv(c.t(1))});
  if (!tensor_of(d)) return d;
  Value flat = op(c, "reshape", {d, ints(c, {-1})});
  return pnorm_last(c, flat, c.a.scalar(2).as_double());
}

// torch.pdist: the p-norm distance of every pair of rows i < j, in row-major order of (i, j) (the
// condensed form). The full [n, n] matrix, then Compress with the mask j > i: n*(n-1)/2 values
// (rows known at conversion time: a Gather of constant indices).
Value pdist(OpCall& c) {
  TensorObj* x = c.t(0);
  double p = c.a.real(1);
  if (x->rank() != 2) c.runtime_error(fmt::format("pdist only supports 2D tensors, got: {}D", x->rank()));
  if (!is_floating(x->dtype))
    c.runtime_error(fmt::format("pdist only supports floating-point dtypes, X got: {}", info(x->dtype).name));
  if (p < 0) c.runtime_error("pdist only supports non-negative p values");
  Value d = op(c, "sub", {op(c, "unsqueeze", {tv(x), Value::integer(1)}), op(c, "unsqueeze", {tv(x), Value::integer(0)})});
  if (!tensor_of(d)) return d;
  Value full = pnorm_last(c, d, p);
  DimExpr n = x->shape[0];
  if (n.is_const()) {  // static rows: a Gather of the pairs' flat indices (TensorRT has no Compress)
    std::vector<int64_t> flat_idx;
    for (int64_t r = 0; r < n.value(); ++r)
      for (int64_t q = r + 1; q < n.value(); ++q) flat_idx.push_back(r * n.value() + q);
    Value flat = op(c, "reshape", {full, ints(c, {-1})});
    TensorObj* tf = tensor_of(flat);
    if (!tf) return flat;
    return c.node("Gather", {c.v(tf), c.rec.const_i64(flat_idx)}, x->dtype,
                  {DimExpr(static_cast<int64_t>(flat_idx.size()))}, {{"axis", int64_t{0}}});
  }
  Value i = op(c, "arange", {make_size_value(c.T, n)});
  Value upper = op(c, "lt", {op(c, "unsqueeze", {i, Value::integer(1)}), op(c, "unsqueeze", {i, Value::integer(0)})});
  Value flat = op(c, "reshape", {full, ints(c, {-1})}), mask = op(c, "reshape", {upper, ints(c, {-1})});
  TensorObj *tf = tensor_of(flat), *tm = tensor_of(mask);
  if (!tf || !tm) return full;
  DimExpr m = ir::floor_div(n * (n - 1), DimExpr(2));
  return c.node("Compress", {c.v(tf), c.v(tm)}, x->dtype, {m}, {{"axis", int64_t{0}}});
}

// ---- rearrangements ------------------------------------------------------------------------------------

Value movedim_dims(OpCall& c, std::vector<int64_t> src, std::vector<int64_t> dst) {
  TensorObj* x = c.t(0);
  int64_t rank = x->rank();
  if (src.size() != dst.size())
    c.runtime_error(fmt::format("movedim: Invalid source or destination dims: source ({} dims) should contain the "
                                "same number of dims as destination ({} dims)", src.size(), dst.size()));
  std::vector<int64_t> perm(rank, -1);
  std::vector<bool> used(rank, false);
  for (size_t i = 0; i < src.size(); ++i) {
    int64_t s = norm_dim(c.I, src[i], rank), d = norm_dim(c.I, dst[i], rank);
    if (perm[d] != -1 || used[s]) c.runtime_error("movedim: repeated dim in `source` or `destination`");
    perm[d] = s;
    used[s] = true;
  }
  int64_t next = 0;
  for (int64_t& p : perm) {
    if (p != -1) continue;
    while (used[next]) ++next;
    p = next++;
  }
  return op(c, "permute", {tv(x), ints(c, perm)});
}

Value movedim(OpCall& c) { return movedim_dims(c, c.a.ints(1), c.a.ints(2)); }
Value movedim_int(OpCall& c) { return movedim_dims(c, {c.a.int_(1)}, {c.a.int_(2)}); }

Value rot90(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t k = c.a.int_(1);
  std::vector<int64_t> dims = c.a.ints(2);
  if (dims.size() != 2)
    c.runtime_error(fmt::format("expected total rotation dims == 2, but got dims = {}", dims.size()));
  if (x->rank() < 2) c.runtime_error(fmt::format("expected total dims >= 2, but got total dims = {}", x->rank()));
  int64_t d0 = norm_dim(c.I, dims[0], x->rank()), d1 = norm_dim(c.I, dims[1], x->rank());
  if (d0 == d1)
    c.runtime_error(fmt::format("expected rotation dims to be different, but got dim0 = {} and dim1 = {}", d0, d1));
  k = ((k % 4) + 4) % 4;
  auto turned = [&](int64_t flip_dim) {
    return op(c, "transpose", {op(c, "flip", {tv(x), ints(c, {flip_dim})}), Value::integer(d0), Value::integer(d1)});
  };
  if (k == 1) return turned(d1);
  if (k == 2) return op(c, "flip", {tv(x), ints(c, {d0, d1})});
  if (k == 3) return turned(d0);
  return op(c, "clone", {tv(x)});
}

Value flip_side(OpCall& c, int64_t dim, int64_t min_rank) {
  if (static_cast<int64_t>(c.t(0)->rank()) < min_rank)
    c.runtime_error(fmt::format("Input must be >= {}-d.", min_rank));
  return op(c, "flip", {tv(c.t(0)), ints(c, {dim})});
}

// repeat_interleave's input: the flattened tensor without dim (*d = 0), else x with dim normalized.
Value repeat_source(OpCall& c, TensorObj* x, int64_t* d) {
  *d = 0;
  if (c.a.is_none(2)) return op(c, "reshape", {tv(x), ints(c, {-1})});
  *d = norm_dim(c.I, c.a.int_(2), x->rank());
  return tv(x);
}

// Each element of src repeated k times along dim d, as unsqueeze + expand + reshape.
Value repeat_each(OpCall& c, const Value& src, int64_t d, DimExpr k) {
  TensorObj* s = tensor_of(src);
  std::vector<DimExpr> big = s->shape;
  big.insert(big.begin() + d + 1, k);
  std::vector<DimExpr> out = s->shape;
  out[static_cast<size_t>(d)] = out[static_cast<size_t>(d)] * k;
  Value e = op(c, "expand", {op(c, "unsqueeze", {src, Value::integer(d + 1)}), sizes(c, big)});
  return op(c, "reshape", {e, sizes(c, out)});
}

// repeat_interleave with an int count: each element repeated along dim (the flattened input
// without dim).
Value repeat_interleave_int(OpCall& c) {
  int64_t d;
  Value src = repeat_source(c, c.t(0), &d);
  if (!tensor_of(src)) return src;
  return repeat_each(c, src, d, c.a.dim(1));
}

// repeat_interleave with a tensor of counts: output position j takes element i where i is the
// number of cumulative counts <= j (a run-time length: the counts' sum). The counts are assumed
// non-negative, as PyTorch requires (it raises on a negative count at run time).
Value repeat_interleave_tensor(OpCall& c) {
  TensorObj* x = c.t(0);
  TensorObj* reps = c.t(1);
  int64_t d;
  Value src = repeat_source(c, x, &d);
  TensorObj* s = tensor_of(src);
  if (reps->rank() == 0 || (reps->rank() == 1 && reps->shape[0].is_const() && reps->shape[0].value() == 1)) {
    // One count for every element: the int form with the count read at run time.
    Value n = op(c, "reshape", {tv(reps), ints(c, {})});
    DimExpr k;
    if (!s || !to_dim(c.I, n, &k)) return c.unsupported("repeat_interleave with a count that is not a size");
    return repeat_each(c, src, d, k);
  }
  // One count per element along dim (a length regulator: phoneme durations to frames): the output's
  // length is the counts' sum, known at run time (or the output_size given).
  if (!s) return src;
  if (reps->rank() != 1) c.runtime_error("repeats must be 0-dim or 1-dim tensor");
  if (is_floating(reps->dtype) || reps->dtype == DType::Bool)
    c.runtime_error("repeat_interleave: repeats has to be Long or Int tensor");
  if (reps->shape[0].is_const() && s->shape[d].is_const() && reps->shape[0].value() != s->shape[d].value())
    c.runtime_error("repeats must have the same size as input along dim");
  Recorder& R = c.rec;
  const ir::ElementType i64 = ir::ElementType::Int64;
  const DimExpr L = s->shape[d];
  // Broadcast to the dim's length, as PyTorch does (one count that is only known to be one count at
  // run time repeats every element alike).
  ir::Value* given = cast_to(c.T, c.v(reps), reps->dtype, DType::Int64, reps->shape);
  ir::Value* counts = R.emit("Expand", {given, R.shape_value({L})}, ir::Type::tensor(i64, {L}));
  ir::Value* total = R.emit("ReduceSum", {counts, R.const_i64({0})}, ir::Type::tensor(i64, {}), {{"keepdims", int64_t{0}}});
  ir::Value* j = R.emit("Range", {R.const_i64_scalar(0), total, R.const_i64_scalar(1)},
                        ir::Type::tensor(i64, {DimExpr::unknown()}));
  DimExpr T = c.a.is_none(3) ? R.fresh_symbol(j, 0) : c.a.dim(3);
  j->set_type(ir::Type::tensor(i64, {T}));
  ir::Value* ends = R.emit("CumSum", {counts, R.const_i64_scalar(0)}, ir::Type::tensor(i64, {L}));
  // Output position j takes element i = the number of elements whose counts end at or before j.
  ir::Value* jj = R.emit("Unsqueeze", {j, R.const_i64({1})}, ir::Type::tensor(i64, {T, DimExpr(1)}));
  ir::Value* done = R.emit("GreaterOrEqual", {jj, R.emit("Unsqueeze", {ends, R.const_i64({0})},
                                                                   ir::Type::tensor(i64, {DimExpr(1), L}))},
                           ir::Type::tensor(ir::ElementType::Bool, {T, L}));
  ir::Value* done_count = R.emit("Cast", {done}, ir::Type::tensor(i64, {T, L}), {{"to", int64_t{ir::info(i64).onnx}}});
  ir::Value* idx = R.emit("ReduceSum", {done_count, R.const_i64({1})}, ir::Type::tensor(i64, {T}),
                          {{"keepdims", int64_t{0}}});
  std::vector<DimExpr> out = s->shape;
  out[static_cast<size_t>(d)] = T;
  return c.node("Gather", {c.v(s), idx}, s->dtype, out, {{"axis", d}});
}

Value take_along_dim(OpCall& c) {
  TensorObj *x = c.t(0), *idx = c.t(1);
  if (c.a.is_none(2))
    return op(c, "gather", {op(c, "reshape", {tv(x), ints(c, {-1})}), Value::integer(0),
                            op(c, "reshape", {tv(idx), ints(c, {-1})})});
  if (x->rank() != idx->rank())
    c.runtime_error(fmt::format("torch.take_along_dim(): input and indices should have the same number of dimensions, "
                                "but got {} dimensions for input, and {} dimensions for indices",
                                x->rank(), idx->rank()));
  int64_t d = norm_dim(c.I, c.a.int_(2), x->rank());
  std::vector<DimExpr> xs = x->shape, is = idx->shape;
  xs[d] = DimExpr(1);
  is[d] = DimExpr(1);
  std::vector<DimExpr> b = broadcast_shapes(c.I, xs, is);
  std::vector<DimExpr> bx = b, bi = b;
  bx[d] = x->shape[d];
  bi[d] = idx->shape[d];
  Value ex = op(c, "expand", {tv(x), sizes(c, bx)}), ei = op(c, "expand", {tv(idx), sizes(c, bi)});
  return op(c, "gather", {ex, Value::integer(d), ei});
}

// ---- selections ----------------------------------------------------------------------------------------

Value masked_select(OpCall& c) {
  TensorObj *x = c.t(0), *mask = c.t(1);
  if (mask->dtype != DType::Bool) c.runtime_error("masked_select: expected BoolTensor for mask");
  std::vector<DimExpr> shape = broadcast_shapes(c.I, x->shape, mask->shape);
  Value fx = op(c, "reshape", {op(c, "expand", {tv(x), sizes(c, shape)}), ints(c, {-1})});
  Value fm = op(c, "reshape", {op(c, "expand", {tv(mask), sizes(c, shape)}), ints(c, {-1})});
  TensorObj *tx = tensor_of(fx), *tm = tensor_of(fm);
  if (!tx || !tm) return fx;
  ir::Value* v = c.rec.emit("Compress", {c.v(tx), c.v(tm)}, ir::Type::tensor(elem(x->dtype), {DimExpr::unknown()}),
                            {{"axis", int64_t{0}}});
  DimExpr n = c.rec.fresh_symbol(v, 0);
  v->set_type(ir::Type::tensor(elem(x->dtype), {n}));
  return c.out(v, x->dtype, {n});
}

// torch.bincount: counts (or summed weights) per value of a 1-d non-negative integer tensor; the
// length max(max(input) + 1, minlength) is a size only known at run time (a new symbol). ScatterElements
// with reduction add into zeros. Negative values (PyTorch raises) index from the end in ONNX Runtime.
Value bincount(OpCall& c) {
  TensorObj* x = c.t(0);
  TensorObj* w = c.a.opt_tensor(1);
  DimExpr minlength = c.a.dim(2);
  if (x->rank() != 1 || !is_integral(x->dtype, false))
    c.runtime_error("bincount only supports 1-d non-negative integral inputs.");
  if (minlength.is_const() && minlength.value() < 0) c.runtime_error("minlength should be >= 0");
  if (w && (w->rank() != 1 || (w->shape[0].is_const() && x->shape[0].is_const() &&
                               w->shape[0].value() != x->shape[0].value())))
    c.runtime_error("weights should be 1-d and have the same length as input");
  // PyTorch: float32 weights sum in float32, any other weights in float64.
  DType dt = !w ? DType::Int64 : w->dtype == DType::Float32 ? DType::Float32 : DType::Float64;
  if (w)  // (its early return for an empty input ignores the weights)
    assume_at_least(c.T, x->shape[0], 1, fmt::format("bincount() with weights of an input of length {}", x->shape[0].str()),
                    fmt::format("PyTorch returns int64 zeros and the exported file {} zeros", info(dt).name));
  const ir::ElementType i64 = ir::ElementType::Int64;
  ir::Value* idx = cast_to(c.T, c.v(x), x->dtype, DType::Int64, x->shape);
  // max(input) + 1 (an empty input: 0, from the -1 put in front), at least minlength
  ir::Value* withm1 = c.rec.emit("Concat", {c.rec.const_i64({-1}), idx}, ir::Type::tensor(i64, {x->shape[0] + 1}),
                                 {{"axis", int64_t{0}}});
  ir::Value* top = c.rec.emit("ReduceMax", {withm1}, ir::Type::tensor(i64, {1}), {{"keepdims", int64_t{1}}});
  ir::Value* len = c.rec.emit("Add", {top, c.rec.const_i64({1})}, ir::Type::tensor(i64, {1}));
  len = c.rec.emit("Max", {len, c.rec.dim_vec(minlength)}, ir::Type::tensor(i64, {1}));
  DimExpr n = c.rec.value_symbol(len);
  ir::Value* zeros = c.rec.emit("Expand", {c.rec.const_scalar(elem(dt), 0), len}, ir::Type::tensor(elem(dt), {n}));
  ir::Value* upd = w ? cast_to(c.T, c.v(w), w->dtype, dt, w->shape)
                     : c.rec.emit("Expand", {c.rec.const_scalar(elem(dt), 1), c.rec.shape_value(x->shape)},
                                  ir::Type::tensor(elem(dt), x->shape));
  return c.node("ScatterElements", {zeros, idx, upd}, dt, {n}, {{"axis", int64_t{0}}, {"reduction", "add"}});
}

Value count_nonzero(OpCall& c) {
  TensorObj* x = c.t(0);
  Value nz = op(c, "ne", {tv(x), Value::integer(0)});
  std::optional<std::vector<int64_t>> dims = c.a.opt_ints(1);
  if (!dims) return op(c, "sum", {nz});
  return op(c, "sum", {nz, ints(c, *dims)});
}

// ---- index_* writes as scatters -----------------------------------------------------------------------

// The 1-d `index` laid along `dim` and expanded to `shape` (shape[dim] = the index's length).
Value index_along(OpCall& c, TensorObj* index, int64_t dim, int64_t rank, std::vector<DimExpr> shape) {
  if (index->rank() > 1) c.runtime_error(fmt::format("{}_(): Index is supposed to be a vector", c.name()));
  if (!(index->dtype == DType::Int64 || index->dtype == DType::Int32))
    c.runtime_error(fmt::format("{}_(): Expected dtype int32/int64 for index", c.name()));
  std::vector<int64_t> view(rank, 1);
  view[dim] = -1;
  Value idx = op(c, "reshape", {op(c, "to", {tv(index), c.T.dtype_object(DType::Int64)}), ints(c, view)});
  TensorObj* it = tensor_of(idx);
  if (!it) return idx;
  shape[dim] = it->shape[dim];
  return op(c, "expand", {idx, sizes(c, shape)});
}

Value index_fill(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t rank = std::max<int64_t>(x->rank(), 1);
  int64_t d = norm_dim(c.I, c.a.int_(1), rank);
  Value self = x->rank() == 0 ? op(c, "reshape", {tv(x), ints(c, {1})}) : tv(x);
  Value idx = index_along(c, c.t(2), d, rank, tensor_of(self) ? tensor_of(self)->shape : x->shape);
  Value fill = c.a.raw(3);
  Value r;
  if (is_tensor(fill)) {
    TensorObj* f = as_tensor(fill);
    if (f->rank() != 0)
      c.runtime_error(fmt::format("index_fill_ only supports a 0-dimensional value tensor, but got tensor with {} "
                                  "dimension(s).", f->rank()));
    Value src = op(c, "expand", {op(c, "to", {fill, c.T.dtype_object(x->dtype)}),
                                 sizes(c, tensor_of(idx) ? tensor_of(idx)->shape : x->shape)});
    r = op(c, "scatter", {self, Value::integer(d), idx, src});
  } else {
    r = op(c, "scatter", {self, Value::integer(d), idx, fill});
  }
  return x->rank() == 0 ? op(c, "reshape", {r, ints(c, {})}) : r;
}

Value index_copy(OpCall& c) {
  TensorObj *x = c.t(0), *src = c.t(3);
  int64_t d = norm_dim(c.I, c.a.int_(1), std::max<int64_t>(x->rank(), 1));
  if (src->dtype != x->dtype)
    c.runtime_error(fmt::format("index_copy_(): self and source expected to have the same dtype, but got (self) {} "
                                "and (source) {}", info(x->dtype).name, info(src->dtype).name));
  Value idx = index_along(c, c.t(2), d, x->rank(), src->shape);
  return op(c, "scatter", {tv(x), Value::integer(d), idx, tv(src)});
}

Value index_add(OpCall& c) {
  TensorObj *x = c.t(0), *src = c.t(3);
  int64_t d = norm_dim(c.I, c.a.int_(1), std::max<int64_t>(x->rank(), 1));
  Value idx = index_along(c, c.t(2), d, x->rank(), src->shape);
  Value s = tv(src);
  Scalar alpha = c.a.scalar(4);
  if (alpha.as_double() != 1.0)
    s = op(c, "mul", {s, alpha.is_floating() ? Value::real(alpha.f) : Value::integer(alpha.i)});
  return op(c, "scatter_add", {tv(x), Value::integer(d), idx, s});
}

// ---- cumprod -------------------------------------------------------------------------------------------

// No ONNX CumProd: along a dim of static length (up to 256) the running product is unrolled
// (exact, any dtype); otherwise floats as sign * exp(cumsum(log|x|)), zero once a zero was seen.
Value cumprod(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t d = norm_dim(c.I, c.a.int_(1), std::max<int64_t>(x->rank(), 1));
  Value src = tv(x);
  if (std::optional<DType> dt = c.a.dtype(2)) src = op(c, "to", {src, c.T.dtype_object(*dt)});
  else if (is_integral(x->dtype, true)) src = op(c, "to", {src, c.T.dtype_object(DType::Int64)});
  if (x->rank() == 0) return op(c, "clone", {src});
  DimExpr n = x->shape[d];
  if (n.is_const() && n.value() <= 256) {
    if (n.value() == 0) return src;
    std::vector<Value> parts;
    Value run = op(c, "narrow", {src, Value::integer(d), Value::integer(0), Value::integer(1)});
    parts.push_back(run);
    for (int64_t i = 1; i < n.value(); ++i) {
      run = op(c, "mul", {run, op(c, "narrow", {src, Value::integer(d), Value::integer(i), Value::integer(1)})});
      parts.push_back(run);
    }
    return op(c, "cat", {eval::new_list(c.I, std::move(parts)), Value::integer(d)});
  }
  TensorObj* s = tensor_of(src);
  if (!s) return src;
  if (!is_floating(s->dtype))
    return c.unsupported("cumprod of integers along a dim longer than 256 or of run-time length");
  Value a = op(c, "abs", {src});
  Value mag = op(c, "exp", {op(c, "cumsum", {op(c, "log", {a}), Value::integer(d)})});
  Value negs = op(c, "cumsum", {op(c, "lt", {src, Value::integer(0)}), Value::integer(d)});
  Value odd = op(c, "eq", {op(c, "remainder", {negs, Value::integer(2)}), Value::integer(1)});
  Value zeros_seen = op(c, "cumsum", {op(c, "eq", {src, Value::integer(0)}), Value::integer(d)});
  Value zeros = op(c, "gt", {zeros_seen, Value::integer(0)});
  Value signed_ = op(c, "where", {odd, op(c, "neg", {mag}), mag});
  return op(c, "where", {zeros, op(c, "mul", {signed_, Value::integer(0)}), signed_});
}

// ---- logaddexp, logcumsumexp ---------------------------------------------------------------------------

// log(exp(a) + exp(b)) as PyTorch computes it: max(a, b) + log1p(exp(-|a - b|)), and a itself where
// a == b is infinite (the formula gives nan there). base2: log2(2^a + 2^b).
Value log_add(OpCall& c, Value a, Value b, bool base2) {
  Value m = op(c, "maximum", {a, b});
  Value gap = op(c, "neg", {op(c, "abs", {op(c, "sub", {a, b})})});
  Value sum = base2 ? op(c, "div", {op(c, "log1p", {op(c, "exp2", {gap})}), Value::real(std::log(2.0))})
                    : op(c, "log1p", {op(c, "exp", {gap})});
  Value same_inf = op(c, "logical_and", {op(c, "isinf", {a}), op(c, "eq", {a, b})});
  return op(c, "where", {same_inf, a, op(c, "add", {m, sum})});
}

Value logaddexp(OpCall& c, bool base2) {
  TensorObj *a = c.t(0), *b = c.t(1);
  if (!is_floating(a->dtype) && !is_floating(b->dtype))
    c.runtime_error(fmt::format("\"{}\" not implemented for '{}'", c.name(), info(a->dtype).name));
  return log_add(c, tv(a), tv(b), base2);
}

// The running log-sum-exp along a dim: along a static length up to 256, a running logaddexp as
// PyTorch's scan computes it (each prefix exact); otherwise log(cumsum(exp(x - m))) + m with m the
// dim's (finite) maximum, which loses prefixes more than ~88 (float32) below that maximum to -inf.
Value logcumsumexp(OpCall& c) {
  TensorObj* x = c.t(0);
  if (!is_floating(x->dtype)) c.runtime_error(fmt::format("\"logcumsumexp_out_cpu\" not implemented for '{}'", info(x->dtype).name));
  int64_t d = norm_dim(c.I, c.a.int_(1), std::max<int64_t>(x->rank(), 1));
  if (x->rank() == 0) return op(c, "clone", {tv(x)});
  DimExpr n = x->shape[d];
  if (n.is_const() && n.value() <= 256) {
    if (n.value() == 0) return op(c, "clone", {tv(x)});
    std::vector<Value> parts;
    Value run = op(c, "narrow", {tv(x), Value::integer(d), Value::integer(0), Value::integer(1)});
    parts.push_back(run);
    for (int64_t i = 1; i < n.value(); ++i) {
      run = log_add(c, run, op(c, "narrow", {tv(x), Value::integer(d), Value::integer(i), Value::integer(1)}), false);
      parts.push_back(run);
    }
    return op(c, "cat", {eval::new_list(c.I, std::move(parts)), Value::integer(d)});
  }
  Value m = op(c, "amax", {tv(x), ints(c, {d}), Value::boolean(true)});
  m = op(c, "where", {op(c, "isfinite", {m}), m, Value::integer(0)});
  Value e = op(c, "exp", {op(c, "sub", {tv(x), m})});
  return op(c, "add", {op(c, "log", {op(c, "cumsum", {e, Value::integer(d)})}), m});
}

// ---- in-place view changes and sliding windows -------------------------------------------------------

// squeeze_ / unsqueeze_ / transpose_ / t_: self takes the view's shape and values (a tensor that is
// itself a view of another keeps PyTorch's aliasing only through its base, so that is reported).
Value rebind_self(OpCall& c, const Value& r) {
  TensorObj* self = c.t(0);
  TensorObj* res = tensor_of(r);
  if (!res) return r;
  if (self->base)
    return c.unsupported(fmt::format("Tensor.{} of a tensor that is a view of another (write the out-of-place "
                                     "form: x = x.{}(...))", c.name(), c.name().substr(0, c.name().size() - 1)));
  note_write(c.T, self);
  self->take_state_of(*res);
  return Value::borrow(self);
}

Value inplace_view(OpCall& c, std::string_view op_name, size_t nargs) {
  std::vector<Value> args = {tv(c.t(0))};
  for (size_t i = 1; i < nargs; ++i) args.push_back(c.a.raw(i));
  return rebind_self(c, op(c, op_name, std::move(args)));
}

// Tensor.unfold(dim, size, step): every window of `size` elements `step` apart along dim, as a new
// last dim (index_select of the windows' positions, then a reshape and a permute).
Value unfold_windows(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t rank = std::max<int64_t>(x->rank(), 1);
  int64_t d = norm_dim(c.I, c.a.int_(1), rank);
  int64_t size = c.a.int_(2), step = c.a.int_(3);
  if (step <= 0) c.runtime_error(fmt::format("step is {} but must be > 0", step));
  if (x->rank() == 0) return op(c, "reshape", {tv(x), ints(c, {1})});
  DimExpr len = x->shape[d];
  if (!len.is_const()) return c.unsupported("Tensor.unfold along a dim whose size is only known at run time");
  if (size > len.value())
    c.runtime_error(fmt::format("maximum size for tensor at dimension {} is {} but size is {}", d, len.value(), size));
  int64_t windows = (len.value() - size) / step + 1;
  std::vector<int64_t> pos;
  for (int64_t w = 0; w < windows; ++w)
    for (int64_t k = 0; k < size; ++k) pos.push_back(w * step + k);
  Value idx = c.out(c.rec.const_i64(pos), DType::Int64, {DimExpr(windows * size)});
  Value picked = op(c, "index_select", {tv(x), Value::integer(d), idx});
  std::vector<DimExpr> shape = x->shape;
  shape[d] = DimExpr(windows);
  shape.insert(shape.begin() + d + 1, DimExpr(size));
  Value r = op(c, "reshape", {picked, sizes(c, shape)});
  std::vector<int64_t> perm;
  for (int64_t i = 0; i <= static_cast<int64_t>(x->rank()); ++i)
    if (i != d + 1) perm.push_back(i);
  perm.push_back(d + 1);
  return op(c, "permute", {r, ints(c, perm)});
}

// Tensor.fill_diagonal_(value, wrap=False): the elements whose indices are all equal (x[i, i, ..., i])
// set to value, written into self. PyTorch's rule: at least 2 dims, and beyond 2 all dims equal; a
// matrix takes its first min(rows, cols) diagonal elements (wrap for tall matrices is not modelled).
Value fill_diagonal(OpCall& c) {
  TensorObj* x = c.t(0);
  size_t rank = x->rank();
  if (rank < 2) c.runtime_error("dimensions must larger than 1");
  for (size_t d = 1; rank > 2 && d < rank; ++d) {
    if (x->shape[d] == x->shape[0]) continue;
    if (x->shape[d].is_const() && x->shape[0].is_const())
      c.runtime_error("all dimensions of input must be of equal length");
    return c.unsupported("fill_diagonal_ of a tensor with more than 2 dims whose sizes are only known at run time "
                         "(PyTorch needs them all equal)");
  }
  if (c.a.boolean(2)) return c.unsupported("fill_diagonal_ with wrap=True");
  Value mask, first;
  for (size_t d = 0; d < rank; ++d) {  // coordinate d along its own dim, broadcast over the others
    std::vector<DimExpr> shape(rank, DimExpr(1));
    shape[d] = x->shape[d];
    Value coord = op(c, "reshape", {op(c, "arange", {make_size_value(c.T, x->shape[d])}), sizes(c, shape)});
    if (d == 0) {
      first = coord;
      continue;
    }
    Value same = op(c, "eq", {first, coord});
    mask = d == 1 ? same : op(c, "logical_and", {mask, same});
  }
  Value filled = op(c, "masked_fill", {tv(x), mask, c.a.raw(1)});
  TensorObj* f = tensor_of(filled);
  if (!f) return filled;
  assign_inplace(c.T, x, value_of(c.T, f));
  return tv(x);
}

// Tensor.resize_(sizes): self takes the new shape; its elements in order are kept as far as both
// sizes go (a reshape when the count is the same, the first elements when it shrinks), and the
// elements it gains are uninitialized memory in PyTorch (here: any values, an uninitialized tensor's).
// fairseq's `buf = torch.LongTensor(); buf.resize_(n); torch.arange(n, out=buf)`.
Value resize_self(OpCall& c) {
  TensorObj* x = c.t(0);
  std::vector<DimExpr> shape = c.a.dims(1);
  DimExpr have = product(x->shape), want = product(shape);
  Value r;
  if (have == want) {
    r = op(c, "reshape", {tv(x), sizes(c, shape)});
  } else if (have.is_const() && have.value() == 0) {
    r = op(c, "new_empty", {tv(x), sizes(c, shape)});
  } else if (have.is_const() && want.is_const()) {
    Value flat = op(c, "reshape", {tv(x), ints(c, {-1})});
    if (want.value() < have.value()) {
      flat = op(c, "narrow", {flat, Value::integer(0), Value::integer(0), Value::integer(want.value())});
    } else {
      Value more = op(c, "new_empty", {tv(x), ints(c, {want.value() - have.value()})});
      std::vector<Value> parts = {flat, more};
      flat = op(c, "cat", {eval::new_list(c.I, std::move(parts))});
    }
    r = op(c, "reshape", {flat, sizes(c, shape)});
  } else {
    return c.unsupported("Tensor.resize_ to a different number of elements when either count is only known at run time");
  }
  return rebind_self(c, r);
}

// ---- erfinv and the remaining in-place random initializers --------------------------------------------

// erfinv (no ONNX op): M. Giles' single-precision approximation ("Approximating the erfinv
// function", GPU Gems 2012), a polynomial in w = -log(1 - x^2) on each side of w = 5; within a few
// float32 ulps of PyTorch's. +-1 give +-inf, |x| > 1 NaN, as PyTorch.
Value erfinv(OpCall& c) {
  TensorObj* t = c.t(0);
  Value x = tv(t);
  if (!is_floating(t->dtype)) x = op(c, "to", {x, c.T.dtype_object(c.T.default_dtype)});
  Value one_minus_x2 = op(c, "mul", {op(c, "rsub", {x, Value::integer(1)}), op(c, "add", {x, Value::integer(1)})});
  Value w = op(c, "neg", {op(c, "log", {one_minus_x2})});
  auto poly = [&](const Value& v, std::vector<double> k) {  // Horner: ((k0 v + k1) v + k2) ...
    Value p = op(c, "add", {op(c, "mul", {v, Value::real(k[0])}), Value::real(k[1])});
    for (size_t i = 2; i < k.size(); ++i) p = op(c, "add", {op(c, "mul", {p, v}), Value::real(k[i])});
    return p;
  };
  Value near = op(c, "sub", {w, Value::real(2.5)});
  Value p1 = poly(near, {2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                         -0.00125372503, -0.00417768164, 0.246640727, 1.50140941});
  Value far = op(c, "sub", {op(c, "sqrt", {w}), Value::real(3.0)});
  Value p2 = poly(far, {-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                        -0.0076224613, 0.00943887047, 1.00167406, 2.83297682});
  Value p = op(c, "where", {op(c, "lt", {w, Value::real(5.0)}), p1, p2});
  // (the polynomial's limit at w = inf has the wrong sign: +-1 are set apart)
  Value edge = op(c, "eq", {op(c, "abs", {x}), Value::integer(1)});
  return op(c, "where", {edge, op(c, "mul", {x, Value::real(INFINITY)}), op(c, "mul", {p, x})});
}

// i0 (no ONNX op): Cephes' modified Bessel function of order zero, as PyTorch computes it:
// exp(|x|) times a Chebyshev series in |x|/2 - 2 up to 8, in 32/|x| - 2 (over sqrt|x|) above,
// evaluated by Clenshaw's recurrence in the input's float dtype (integers in the default dtype).
Value i0(OpCall& c) {
  static const std::vector<double> A{
      -4.4153416464793395e-18, 3.3307945188222384e-17, -2.431279846547955e-16, 1.715391285555133e-15,
      -1.1685332877993451e-14, 7.676185498604936e-14, -4.856446783111929e-13, 2.95505266312964e-12,
      -1.726826291441556e-11, 9.675809035373237e-11, -5.189795601635263e-10, 2.6598237246823866e-09,
      -1.300025009986248e-08, 6.046995022541919e-08, -2.670793853940612e-07, 1.1173875391201037e-06,
      -4.4167383584587505e-06, 1.6448448070728896e-05, -5.754195010082104e-05, 0.00018850288509584165,
      -0.0005763755745385824, 0.0016394756169413357, -0.004324309995050576, 0.010546460394594998,
      -0.02373741480589947, 0.04930528423967071, -0.09490109704804764, 0.17162090152220877,
      -0.3046826723431984, 0.6767952744094761};
  static const std::vector<double> B{
      -7.233180487874754e-18, -4.830504485944182e-18, 4.46562142029676e-17, 3.461222867697461e-17,
      -2.8276239805165836e-16, -3.425485619677219e-16, 1.7725601330565263e-15, 3.8116806693526224e-15,
      -9.554846698828307e-15, -4.150569347287222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
      7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11, -3.1499165279632416e-11,
      1.1889147107846439e-11, 4.94060238822497e-10, 3.3962320257083865e-09, 2.266668990498178e-08,
      2.0489185894690638e-07, 2.8913705208347567e-06, 6.889758346916825e-05, 0.0033691164782556943,
      0.8044904110141088};
  TensorObj* t = c.t(0);
  Value x = tv(t);
  if (!is_floating(t->dtype)) x = op(c, "to", {x, c.T.dtype_object(c.T.default_dtype)});
  Value ax = op(c, "abs", {x});
  auto chbevl = [&](const Value& y, const std::vector<double>& k) {
    Value b1 = Value::real(k[0]), b2 = Value::real(0.0);
    Value b0 = op(c, "add", {op(c, "mul", {y, b1}), Value::real(k[1])});
    for (size_t i = 2; i < k.size(); ++i) {
      b2 = b1;
      b1 = b0;
      b0 = op(c, "add", {op(c, "sub", {op(c, "mul", {y, b1}), b2}), Value::real(k[i])});
    }
    return op(c, "mul", {op(c, "sub", {b0, b2}), Value::real(0.5)});
  };
  Value e = op(c, "exp", {ax});
  Value small = op(c, "mul", {e, chbevl(op(c, "sub", {op(c, "div", {ax, Value::real(2.0)}), Value::real(2.0)}), A)});
  Value y = op(c, "sub", {op(c, "div", {Value::real(32.0), ax}), Value::real(2.0)});
  Value large = op(c, "div", {op(c, "mul", {e, chbevl(y, B)}), op(c, "sqrt", {ax})});
  return op(c, "where", {op(c, "le", {ax, Value::real(8.0)}), small, large});
}

// sinc: sin(pi x) / (pi x), 1 at 0 (integers in the default float dtype).
Value sinc(OpCall& c) {
  TensorObj* t = c.t(0);
  Value x = tv(t);
  if (!is_floating(t->dtype)) x = op(c, "to", {x, c.T.dtype_object(c.T.default_dtype)});
  Value px = op(c, "mul", {x, Value::real(M_PI)});
  return op(c, "where", {op(c, "eq", {x, Value::integer(0)}), Value::real(1.0), op(c, "div", {op(c, "sin", {px}), px})});
}

// ---- PyTorch's deprecated overloads: scalars first ------------------------------------------------------
// torch.addmm(beta, self, alpha, mat1, mat2), x.addmm_(beta, alpha, mat1, mat2), x.add(alpha, other),
// x.addcmul(value, t1, t2), ... (PyTorch warns and runs them): the current op, with those scalars
// passed as its keywords. `tensors` are the positional tensors of the current op, in order.
Value with_keywords(OpCall& c, const char* name, std::vector<Value> tensors,
                    std::vector<std::pair<const char*, Value>> keywords) {
  std::vector<Value> vals = std::move(tensors);
  std::vector<eval::Str*> names;
  uint32_t npos = static_cast<uint32_t>(vals.size());
  for (auto& [k, v] : keywords) {
    vals.push_back(v);
    names.push_back(c.I.intern(k));
  }
  eval::Args a(vals.data(), npos);
  a.nkw = static_cast<uint32_t>(keywords.size());
  a.kwvals = vals.data() + npos;
  a.kwnames = names.data();
  return call_op(c.T, *find_op(name), Value(), a);
}

// (beta, self, [alpha,] m1, m2) for torch.NAME; (self, beta, [alpha,] m1, m2) for Tensor.NAME.
template <bool kMethodForm, bool kAlpha>
Value scalars_first_mm(OpCall& c) {
  const std::string& name = c.name();
  int self = kMethodForm ? 0 : 1, beta = kMethodForm ? 1 : 0, m1 = kAlpha ? 3 : 2;
  std::vector<std::pair<const char*, Value>> kw{{"beta", c.a.raw(beta)}};
  if (kAlpha) kw.push_back({"alpha", c.a.raw(2)});
  return with_keywords(c, name.c_str(), {tv(c.t(self)), tv(c.t(m1)), tv(c.t(m1 + 1))}, std::move(kw));
}

// (self, scalar, t1[, t2]): add/sub(self, alpha, other), addcmul/addcdiv(self, value, t1, t2).
Value scalar_second(OpCall& c) {
  const std::string& name = c.name();
  const char* key = name == "add" || name == "sub" ? "alpha" : "value";
  std::vector<Value> ts{tv(c.t(0)), tv(c.t(2))};
  if (c.a.schema->params.size() > 3) ts.push_back(tv(c.t(3)));
  return with_keywords(c, name.c_str(), std::move(ts), {{key, c.a.raw(1)}});
}

// ---- grid_sampler ----------------------------------------------------------------------------------------

Value grid_sampler(OpCall& c) {
  TensorObj *x = c.t(0), *grid = c.t(1);
  int64_t mode = c.a.int_(2), pad = c.a.int_(3);
  bool align = c.a.boolean(4);
  size_t rank = x->rank();
  if (rank != 4 && rank != 5)
    c.runtime_error(fmt::format("grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but "
                                "got input with sizes {} and grid with sizes {}", rank, grid->rank()));
  if (grid->rank() != rank || !(grid->shape.back() == DimExpr(static_cast<int64_t>(rank) - 2)))
    c.runtime_error(fmt::format("grid_sampler(): expected grid to have size {} in last dimension", rank - 2));
  if (!is_floating(x->dtype) || x->dtype != grid->dtype)
    c.runtime_error("grid_sampler(): expected input and grid to have the same floating dtype");
  static const char* const modes[] = {"bilinear", "nearest", "bicubic"};
  static const char* const pads[] = {"zeros", "border", "reflection"};
  if (mode < 0 || mode > 2) c.runtime_error(fmt::format("grid_sampler(): unknown interpolation mode {}", mode));
  if (pad < 0 || pad > 2) c.runtime_error(fmt::format("grid_sampler(): unknown padding mode {}", pad));
  if (mode == 2 && rank == 5) c.runtime_error("grid_sampler(): bicubic interpolation only supports 4D input");
  std::vector<DimExpr> shape = {x->shape[0], x->shape[1]};
  for (size_t i = 1; i + 1 < rank; ++i) shape.push_back(grid->shape[i]);
  return c.node("grid_sample", {c.v(x), c.v(grid)}, x->dtype, shape,
                {{"mode", std::string(modes[mode])}, {"padding_mode", std::string(pads[pad])},
                 {"align_corners", int64_t{align}}},
                ir::kOnnxifyDomain);
}

}  // namespace

const std::vector<OpDef>& derived_ops() {
  static const std::vector<OpDef> ops = {
      {"isnan(Tensor self) -> Tensor", kFn | kMethod, isnan},
      {"isinf(Tensor self) -> Tensor", kFn | kMethod, isinf},
      {"isposinf(Tensor self) -> Tensor", kFn | kMethod, isposinf},
      {"isneginf(Tensor self) -> Tensor", kFn | kMethod, isneginf},
      {"isfinite(Tensor self) -> Tensor", kFn | kMethod, isfinite},
      {"isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> Tensor",
       kFn | kMethod, isclose},
      {"allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> Tensor",
       kFn | kMethod, allclose},
      {"equal(Tensor self, Tensor other) -> bool", kFn | kMethod, equal},
      {"nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor",
       kFn | kMethod | kInplace | kFnInplace, nan_to_num},
      {"logit(Tensor self, float? eps=None) -> Tensor", kFn | kMethod | kInplace | kFnInplace, logit},
      {"diagonal(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor", kFn | kMethod, diagonal},
      {"diag(Tensor self, int diagonal=0) -> Tensor", kFn | kMethod, diag},
      {"diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", kFn | kMethod, diag_embed},
      {"trace(Tensor self) -> Tensor", kFn | kMethod, trace},
      {"dot(Tensor self, Tensor tensor) -> Tensor", kFn | kMethod, dot},
      {"vdot(Tensor self, Tensor other) -> Tensor", kFn | kMethod, dot},
      {"mv(Tensor self, Tensor vec) -> Tensor", kFn | kMethod, mv},
      {"cross(Tensor self, Tensor other, int? dim=None) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return cross(c, c.a.opt_int(2)); }},
      {"cdist(Tensor x1, Tensor x2, float p=2, int? compute_mode=None) -> Tensor", kFn, cdist},
      {"dist(Tensor self, Tensor other, Scalar p=2) -> Tensor", kFn | kMethod, dist},
      {"movedim.intlist(Tensor self, int[] source, int[] destination) -> Tensor", kFn | kMethod, movedim},
      {"moveaxis.intlist(Tensor self, int[] source, int[] destination) -> Tensor", kFn | kMethod, movedim},
      {"movedim.int(Tensor self, int source, int destination) -> Tensor", kFn | kMethod, movedim_int},
      {"moveaxis.int(Tensor self, int source, int destination) -> Tensor", kFn | kMethod, movedim_int},
      {"rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor", kFn | kMethod, rot90},
      {"fliplr(Tensor self) -> Tensor", kFn | kMethod, [](OpCall& c) { return flip_side(c, 1, 2); }},
      {"flipud(Tensor self) -> Tensor", kFn | kMethod, [](OpCall& c) { return flip_side(c, 0, 1); }},
      {"repeat_interleave.self_int(Tensor self, SymInt repeats, int? dim=None, *, SymInt? output_size=None) -> Tensor",
       kFn | kMethod, repeat_interleave_int},
      {"repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, SymInt? output_size=None) -> Tensor",
       kFn | kMethod, repeat_interleave_tensor},
      {"take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor", kFn | kMethod, take_along_dim},
      {"masked_select(Tensor self, Tensor mask) -> Tensor", kFn | kMethod, masked_select},
      {"argwhere(Tensor self) -> Tensor", kFn | kMethod, [](OpCall& c) { return op(c, "nonzero", {tv(c.t(0))}); }},
      // Deprecated overloads (after the current ones, so that they are tried last).
      {"addmm.deprecated(Scalar beta, Tensor self, Scalar alpha, Tensor mat1, Tensor mat2) -> Tensor", kFn,
       scalars_first_mm<false, true>},
      {"addmm.deprecated_beta(Scalar beta, Tensor self, Tensor mat1, Tensor mat2) -> Tensor", kFn,
       scalars_first_mm<false, false>},
      {"addmm.deprecated_method(Tensor self, Scalar beta, Scalar alpha, Tensor mat1, Tensor mat2) -> Tensor",
       kMethod | kInplace, scalars_first_mm<true, true>},
      {"addmm.deprecated_method_beta(Tensor self, Scalar beta, Tensor mat1, Tensor mat2) -> Tensor", kMethod | kInplace,
       scalars_first_mm<true, false>},
      {"baddbmm.deprecated(Scalar beta, Tensor self, Scalar alpha, Tensor batch1, Tensor batch2) -> Tensor", kFn,
       scalars_first_mm<false, true>},
      {"baddbmm.deprecated_beta(Scalar beta, Tensor self, Tensor batch1, Tensor batch2) -> Tensor", kFn,
       scalars_first_mm<false, false>},
      {"baddbmm.deprecated_method(Tensor self, Scalar beta, Scalar alpha, Tensor batch1, Tensor batch2) -> Tensor",
       kMethod | kInplace, scalars_first_mm<true, true>},
      {"baddbmm.deprecated_method_beta(Tensor self, Scalar beta, Tensor batch1, Tensor batch2) -> Tensor",
       kMethod | kInplace, scalars_first_mm<true, false>},
      {"add.deprecated(Tensor self, Scalar alpha, Tensor other) -> Tensor", kFn | kMethod | kInplace, scalar_second},
      {"sub.deprecated(Tensor self, Scalar alpha, Tensor other) -> Tensor", kFn | kMethod | kInplace, scalar_second},
      {"addcmul.deprecated(Tensor self, Scalar value, Tensor tensor1, Tensor tensor2) -> Tensor",
       kFn | kMethod | kInplace, scalar_second},
      {"addcdiv.deprecated(Tensor self, Scalar value, Tensor tensor1, Tensor tensor2) -> Tensor",
       kFn | kMethod | kInplace, scalar_second},
      // torch.where(condition): nonzero(condition, as_tuple=True), one index tensor per dim.
      {"where(Tensor condition) -> Tensor[]", kFn,
       [](OpCall& c) { return op(c, "unbind", {op(c, "nonzero", {tv(c.t(0))}), Value::integer(1)}); }},
      {"count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor", kFn | kMethod, count_nonzero},
      {"count_nonzero(Tensor self, int? dim=None) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         Value nz = op(c, "ne", {tv(c.t(0)), Value::integer(0)});
         if (c.a.is_none(1)) return op(c, "sum", {nz});
         return op(c, "sum", {nz, ints(c, {c.a.int_(1)})});
       }},
      {"index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", kFn | kMethod | kInplace,
       index_fill},
      {"index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor", kFn | kMethod | kInplace,
       index_fill},
      {"index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", kFn | kMethod | kInplace, index_copy},
      {"index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor",
       kFn | kMethod | kInplace, index_add},
      {"cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", kFn | kMethod | kInplace, cumprod},
      {"logcumsumexp(Tensor self, int dim) -> Tensor", kFn | kMethod, logcumsumexp},
      {"logaddexp(Tensor self, Tensor other) -> Tensor", kFn | kMethod, [](OpCall& c) { return logaddexp(c, false); }},
      {"logaddexp2(Tensor self, Tensor other) -> Tensor", kFn | kMethod, [](OpCall& c) { return logaddexp(c, true); }},
      {"squeeze_(Tensor self) -> Tensor", kMethod, [](OpCall& c) { return inplace_view(c, "squeeze", 1); }},
      {"squeeze_.dim(Tensor self, int dim) -> Tensor", kMethod, [](OpCall& c) { return inplace_view(c, "squeeze", 2); }},
      {"squeeze_.dims(Tensor self, int[] dim) -> Tensor", kMethod, [](OpCall& c) { return inplace_view(c, "squeeze", 2); }},
      {"unsqueeze_(Tensor self, int dim) -> Tensor", kMethod, [](OpCall& c) { return inplace_view(c, "unsqueeze", 2); }},
      {"transpose_(Tensor self, int dim0, int dim1) -> Tensor", kMethod,
       [](OpCall& c) { return inplace_view(c, "transpose", 3); }},
      {"t_(Tensor self) -> Tensor", kMethod, [](OpCall& c) { return inplace_view(c, "t", 1); }},
      {"unfold(Tensor self, int dimension, int size, int step) -> Tensor", kMethod, unfold_windows},
      {"erfinv(Tensor self) -> Tensor", kFn | kMethod | kInplace, erfinv},
      {"i0(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, i0},
      {"sinc(Tensor self) -> Tensor", kFn | kMethod | kInplace | kFnInplace, sinc},
      {"pdist(Tensor input, float p=2) -> Tensor", kFn, pdist},
      {"bincount(Tensor self, Tensor? weights=None, SymInt minlength=0) -> Tensor", kFn | kMethod, bincount},
      {"fill_diagonal_(Tensor self, Scalar fill_value, bool wrap=False) -> Tensor", kMethod, fill_diagonal},
      {"resize_(Tensor self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor", kMethod, resize_self},
      {"grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor",
       kFn, grid_sampler},
  };
  return ops;
}

}  // namespace onnxify::torch
