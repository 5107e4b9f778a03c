// adaptive_avg_pool and adaptive_max_pool with PyTorch's windows: output i along an axis of input
// size n and output size m covers [floor(i * n / m), ceil((i + 1) * n / m)), so windows vary in size
// and may overlap.
//
// Exact ONNX pools where they express it: GlobalAveragePool / GlobalMaxPool for output 1, and
// AveragePool / MaxPool with kernel = stride = n / m when every n is a static multiple of m.
// Otherwise the pooling is separable by axis:
//   * average: one (m x n) averaging matrix per axis applied by MatMul (the input viewed as
//     (P, n, R)); the matrix is a constant when n and m are static, built from Range arithmetic on
//     the run-time sizes otherwise (a symbolic input, or an output size such as max(7, H)); each
//     output is then a weighted sum of its own window, with no cancellation (a cumulative sum
//     differenced at the window ends would lose float precision on large inputs);
//   * max: the input masked per window (Where with -inf) and reduced by ReduceMax;
//   * max with indices: the plane flattened to L elements, one (Q x L) window mask over all Q
//     outputs, ReduceMax and ArgMax along L -- ArgMax picks the first maximum in row-major order,
//     as PyTorch does, and L-indices are PyTorch's per-plane indices.
#include <fmt/core.h>

#include <limits>

#include "onnx/lower/pool_util.h"

namespace onnxify::lowering {

using ir::DimExpr;
using ir::ElementType;
using ir::Node;
using ir::Type;
using ir::Value;

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// The spatial output sizes: static entries of output_size, else entries of the input `size` (sizes
// only known at run time; their DimExprs are the declared output dims), else the input's size (None).
std::vector<Int> adaptive_out(Builder& b, const Node& n, Value* xb, const std::vector<int64_t>& size) {
  std::vector<Int> out;
  Value* given = n.input(1);
  const Type& declared = n.output(0)->type();
  for (size_t i = 0; i < size.size(); ++i) {
    if (size[i] >= 0) {
      out.push_back(int_const(size[i]));
    } else if (given) {
      DimExpr e = declared.is_tensor() && declared.has_rank() ? declared.dim(declared.rank() - size.size() + i)
                                                               : DimExpr::unknown();
      int64_t at = static_cast<int64_t>(i);
      out.push_back(e.is_const() ? int_const(e.value())
                                 : Int{e, b.op("Slice", {given, b.i64({at}), b.i64({at + 1}), b.i64({0})})});
    } else {
      out.push_back(int_dim(b, xb, static_cast<int64_t>(2 + i)));
    }
  }
  return out;
}

int64_t win_start(int64_t j, int64_t n, int64_t m) { return j * n / m; }
int64_t win_end(int64_t j, int64_t n, int64_t m) { return ((j + 1) * n + m - 1) / m; }

// bool (m, n): mask[j, h] = h lies in window j.
Value* axis_mask(Builder& b, const Int& n, const Int& m) {
  if (n.is_const() && m.is_const()) {
    std::vector<uint8_t> v(static_cast<size_t>(m.c() * n.c()), 0);
    for (int64_t j = 0; j < m.c(); ++j)
      for (int64_t h = win_start(j, n.c(), m.c()); h < win_end(j, n.c(), m.c()); ++h)
        v[static_cast<size_t>(j * n.c() + h)] = 1;
    return b.constant(ir::Tensor::from_values<uint8_t>(ElementType::Bool, {m.c(), n.c()}, v));
  }
  Value* nv = int_value(b, n);
  Value* mv = int_value(b, m);
  Value* j = iota(b, m);
  Value* start = b.op("Div", {b.op("Mul", {j, nv}), mv});
  Value* end = b.op(
      "Div",
      {b.op("Sub", {b.op("Add", {b.op("Mul", {b.op("Add", {j, b.i64({1})}), nv}), mv}), b.i64({1})}), mv});
  Value* h = b.unsqueeze(iota(b, n), {0});
  Value* ge = b.op("GreaterOrEqual", {h, b.unsqueeze(start, {1})});
  Value* lt = b.op("Less", {h, b.unsqueeze(end, {1})});
  return b.op("And", {ge, lt}, Attrs(), Type::tensor(ElementType::Bool, {m.expr, n.expr}));
}

// float (m, n): the averaging matrix of one axis.
Value* axis_weights(Builder& b, const Int& n, const Int& m, const Value* like) {
  ElementType e = Builder::elem(like);
  if (n.is_const() && m.is_const()) {
    std::vector<float> v(static_cast<size_t>(m.c() * n.c()), 0.0f);
    for (int64_t j = 0; j < m.c(); ++j) {
      int64_t s = win_start(j, n.c(), m.c()), t = win_end(j, n.c(), m.c());
      for (int64_t h = s; h < t; ++h)
        v[static_cast<size_t>(j * n.c() + h)] = 1.0f / static_cast<float>(t - s);
    }
    return b.cast(b.constant(ir::Tensor::from_values<float>(ElementType::Float32, {m.c(), n.c()}, v)), e);
  }
  Value* mask = b.cast(axis_mask(b, n, m), e);
  Value* count = b.op("ReduceSum", {mask, b.i64({1})}, Attrs().i("keepdims", 1));
  return b.op("Div", {mask, count});
}

// x viewed as (P, n, R) around `axis`: returns the view and the shapes to go back.
struct AxisView {
  Value* view;
  std::vector<Int> dims;  // x's dims
};

AxisView view_axis(Builder& b, Value* x, int64_t axis) {
  int64_t r = Builder::rank(x);
  std::vector<Int> dims;
  for (int64_t i = 0; i < r; ++i) dims.push_back(int_dim(b, x, i));
  Int p = int_const(1), rest = int_const(1);
  for (int64_t i = 0; i < axis; ++i) p = int_mul(b, p, dims[static_cast<size_t>(i)]);
  for (int64_t i = axis + 1; i < r; ++i) rest = int_mul(b, rest, dims[static_cast<size_t>(i)]);
  Type t = Type::tensor(Builder::elem(x), {p.expr, dims[static_cast<size_t>(axis)].expr, rest.expr});
  return {b.reshape(x, shape_value(b, {p, dims[static_cast<size_t>(axis)], rest}), t), dims};
}

Value* unview(Builder& b, Value* y, std::vector<Int> dims, int64_t axis, const Int& m) {
  dims[static_cast<size_t>(axis)] = m;
  return b.reshape(y, shape_value(b, dims), Type::tensor(Builder::elem(y), exprs(dims)));
}

Value* adaptive_avg(Builder& b, Value* xb, const std::vector<Int>& out) {
  Value* y = xb;
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t axis = static_cast<int64_t>(2 + i);
    Int n = int_dim(b, y, axis);
    if (n.expr.provably_equal(out[i].expr)) continue;  // the identity along this axis
    AxisView v = view_axis(b, y, axis);
    Value* w = axis_weights(b, n, out[i], xb);
    y = unview(b, b.op("MatMul", {w, v.view}), v.dims, axis, out[i]);
  }
  return y;
}

// Exact ONNX pooling for output 1 or static multiples; null when neither applies.
Value* exact_pool(Builder& b, Context& ctx, Value* xb, const std::vector<Int>& out, bool max) {
  // Every window one element (alexnet's 6x6 -> 6x6 at 224x224): the identity, no pool at all.
  bool identity = true;
  for (size_t i = 0; i < out.size(); ++i)
    identity = identity && int_dim(b, xb, static_cast<int64_t>(2 + i)).expr.provably_equal(out[i].expr);
  if (identity) return xb;
  bool global = true, divisible = true;
  std::vector<int64_t> k;
  for (size_t i = 0; i < out.size(); ++i) {
    Int n = int_dim(b, xb, static_cast<int64_t>(2 + i));
    global = global && out[i].is_const() && out[i].c() == 1;
    divisible = divisible && n.is_const() && out[i].is_const() && n.c() % out[i].c() == 0;
    if (divisible) k.push_back(n.c() / out[i].c());
  }
  Type t = pooled_type(xb, out, Builder::elem(xb));
  if (global) return b.op(max ? "GlobalMaxPool" : "GlobalAveragePool", {xb}, Attrs(), t);
  if (!divisible) return nullptr;
  bool lift = k.size() == 1 && !ctx.caps.pool_1d;
  if (lift) k.insert(k.begin(), 1);
  Value* xin = lift ? b.unsqueeze(xb, {2}) : xb;
  Value* y = b.op(max ? "MaxPool" : "AveragePool", {xin}, Attrs().ints("kernel_shape", k).ints("strides", k),
                  lift ? Type() : t);
  return lift ? b.squeeze(y, {2}) : y;
}

}  // namespace

void lower_adaptive_avg_pool(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  std::vector<int64_t> size = ir::attr_ints(n, "output_size");
  bool added = false;
  Value* xb = batch_up(b, n.input(0), static_cast<int64_t>(size.size()), &added);
  if (Builder::rank(xb) != static_cast<int64_t>(size.size()) + 2) {
    ctx.error(n, "adaptive_avg_pool needs an input of known rank");
    return;
  }
  std::vector<Int> osz = adaptive_out(b, n, xb, size);
  Value* y = exact_pool(b, ctx, xb, osz, false);
  if (!y) y = adaptive_avg(b, xb, osz);
  out = {batch_down(b, y, added)};
}

void lower_adaptive_max_pool(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  std::vector<int64_t> size = ir::attr_ints(n, "output_size");
  size_t sp = size.size();
  bool added = false;
  Value* xb = batch_up(b, n.input(0), static_cast<int64_t>(sp), &added);
  if (Builder::rank(xb) != static_cast<int64_t>(sp) + 2) {
    ctx.error(n, "adaptive_max_pool needs an input of known rank");
    return;
  }
  std::vector<Int> osz = adaptive_out(b, n, xb, size);
  bool want_idx = n.num_outputs() > 1 && n.output(1) && n.output(1)->has_uses();
  Type vt = pooled_type(xb, osz, Builder::elem(xb));
  if (!want_idx) {
    Value* y = exact_pool(b, ctx, xb, osz, true);
    if (!y) {
      y = xb;
      for (size_t i = 0; i < sp; ++i) {
        int64_t axis = static_cast<int64_t>(2 + i);
        Int nn = int_dim(b, y, axis);
        if (nn.expr.provably_equal(osz[i].expr)) continue;
        AxisView v = view_axis(b, y, axis);
        Value* mask = b.unsqueeze(axis_mask(b, nn, osz[i]), {2});                              // (m, n, 1)
        Value* sel = b.op("Where", {mask, b.unsqueeze(v.view, {1}), fconst(b, kNegInf, xb)});  // (P, m, n, R)
        Value* red = b.op("ReduceMax", {sel}, Attrs().ints("axes", {2}).i("keepdims", 0));
        y = unview(b, red, v.dims, axis, osz[i]);
      }
    }
    out = {batch_down(b, y, added)};
    if (n.num_outputs() > 1) out.push_back(nullptr);
    return;
  }
  // One mask over the flattened plane: (Q, L), Q = prod(out), L = prod(in).
  std::vector<Int> in;
  Int q = int_const(1), l = int_const(1);
  for (size_t i = 0; i < sp; ++i) {
    in.push_back(int_dim(b, xb, static_cast<int64_t>(2 + i)));
    q = int_mul(b, q, osz[i]);
    l = int_mul(b, l, in[i]);
  }
  Value* mask = nullptr;
  for (size_t i = 0; i < sp; ++i) {
    // Axis i's (m_i, n_i) mask placed at dims i and sp + i of a rank-2sp tensor.
    std::vector<int64_t> axes;
    for (size_t j = 0; j < 2 * sp; ++j)
      if (j != i && j != sp + i) axes.push_back(static_cast<int64_t>(j));
    Value* m = axis_mask(b, in[i], osz[i]);
    if (!axes.empty()) m = b.unsqueeze(m, axes);
    mask = mask ? b.op("And", {mask, m}) : m;
  }
  mask = b.reshape(mask, shape_value(b, {q, l}), Type::tensor(ElementType::Bool, {q.expr, l.expr}));
  Value* flat = b.reshape(xb, {0, 0, 1, -1});                        // (N, C, 1, L)
  Value* sel = b.op("Where", {mask, flat, fconst(b, kNegInf, xb)});  // (N, C, Q, L)
  Value* vals = b.op("ReduceMax", {sel}, Attrs().ints("axes", {3}).i("keepdims", 0));
  Value* arg = b.op("ArgMax", {sel}, Attrs().i("axis", 3).i("keepdims", 0));
  std::vector<Int> full = {int_dim(b, xb, 0), int_dim(b, xb, 1)};
  full.insert(full.end(), osz.begin(), osz.end());
  Value* shape = shape_value(b, full);
  Value* y = b.reshape(vals, shape, vt);
  Value* idx = b.reshape(arg, shape, pooled_type(xb, osz, ElementType::Int64));
  out = {batch_down(b, y, added), batch_down(b, idx, added)};
}

Value* matmul_axis(Builder& b, Value* x, int64_t axis, Value* w, const Int& m) {
  AxisView v = view_axis(b, x, axis);
  return unview(b, b.op("MatMul", {w, v.view}), v.dims, axis, m);
}

// Shared with interpolate(mode="area"), which is adaptive average pooling to the output size.
Value* adaptive_avg_pool_to(Builder& b, Context& ctx, Value* xb, const std::vector<Int>& out) {
  Value* y = exact_pool(b, ctx, xb, out, false);
  return y ? y : adaptive_avg(b, xb, out);
}

}  // namespace onnxify::lowering
