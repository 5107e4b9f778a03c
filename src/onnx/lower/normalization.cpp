// Normalizations and moments: layer_norm, group_norm, rms_norm, var, std.
//
// LayerNormalization (17), GroupNormalization (21; opset 18's version takes per-group scale and
// bias, a different meaning, so it is never used) and RMSNormalization (23) where the opset has
// them. The decompositions follow the patterns ONNX Runtime fuses back into one kernel:
// LayerNormFusion (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add) and
// SimplifiedLayerNormFusion (Pow, ReduceMean, Add, Sqrt, Div, Mul). group_norm decomposes to
// InstanceNormalization over (N, G, C/G * spatial) plus a per-channel affine, one kernel everywhere
// (TensorRT included).
#include <fmt/core.h>

#include "onnx/lower/lower.h"

namespace onnxify::lowering {

using ir::DimExpr;
using ir::ElementType;
using ir::Node;
using ir::Value;

namespace {

std::vector<int64_t> trailing_axes(size_t count) {
  std::vector<int64_t> axes;
  for (size_t i = 0; i < count; ++i) axes.push_back(-static_cast<int64_t>(count - i));
  return axes;
}

ElementType float_elem(const Value* x) {
  ElementType e = Builder::elem(x);
  return e == ElementType::Undefined ? ElementType::Float32 : e;
}

// Per-channel (C) weight or bias of (N, C, *) reshaped to broadcast: (C, 1, ..., 1).
Value* per_channel(Builder& b, Value* w, int64_t rank) {
  if (rank <= 2) return w;
  std::vector<int64_t> axes;
  for (int64_t i = 1; i < rank - 1; ++i) axes.push_back(i);
  return b.unsqueeze(w, axes);
}

// PyTorch's default epsilon for rms_norm: the machine epsilon of its opmath type (ATen computes
// float16 and bfloat16 in float32), so float32's for every type but float64.
double default_rms_eps(ElementType e) {
  return e == ElementType::Float64 ? 2.220446049250313e-16 : 1.1920928955078125e-07;
}

}  // namespace

void lower_layer_norm(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  Value* w = n.input(1);
  Value* bias = n.input(2);
  std::vector<int64_t> shape = ir::attr_ints(n, "normalized_shape");
  float eps = ir::attr_f(n, "eps");
  if (ctx.coarse(n, "LayerNormalization", 17)) {
    Value* scale = w ? w : b.filled(1.0, float_elem(x), shape);
    std::vector<Value*> in = {x, scale};
    if (bias) in.push_back(bias);
    out = {b.op("LayerNormalization", in,
                Attrs().i("axis", -static_cast<int64_t>(shape.size())).f("epsilon", eps))};
    return;
  }
  std::vector<int64_t> axes = trailing_axes(shape.size());
  Value* mean = b.reduce("ReduceMean", x, axes, true);
  Value* d = b.op("Sub", {x, mean});
  Value* var = b.reduce("ReduceMean", b.op("Pow", {d, fconst(b, 2.0, x)}), axes, true);
  Value* y = b.op("Div", {d, b.op("Sqrt", {b.op("Add", {var, fconst(b, eps, x)})})});
  if (w) y = b.op("Mul", {y, w});
  if (bias) y = b.op("Add", {y, bias});
  out = {y};
}

void lower_group_norm(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  Value* w = n.input(1);
  Value* bias = n.input(2);
  int64_t groups = ir::attr_i(n, "num_groups");
  float eps = ir::attr_f(n, "eps");
  int64_t rank = Builder::rank(x);
  if (rank < 2) {
    ctx.error(n, "group_norm needs an input of known rank (N, C, *)");
    return;
  }
  auto channels = Builder::static_dim(x, 1);
  std::string unfit = channels || (w && bias) ? "" : "the channel count is not known at conversion time";
  if (ctx.coarse(n, "GroupNormalization", 21, unfit)) {
    Value* scale = w ? w : b.filled(1.0, float_elem(x), {*channels});
    Value* shift = bias ? bias : b.filled(0.0, float_elem(x), {*channels});
    out = {b.op("GroupNormalization", {x, scale, shift}, Attrs().f("epsilon", eps).i("num_groups", groups))};
    return;
  }
  Value* grouped = b.reshape(x, {0, groups, -1});
  Value* normed =
      b.op("InstanceNormalization",
           {grouped, b.filled(1.0, float_elem(x), {groups}), b.filled(0.0, float_elem(x), {groups})},
           Attrs().f("epsilon", eps));
  Value* y = b.reshape(normed, b.shape(x), x->type());
  if (w) y = b.op("Mul", {y, per_channel(b, w, rank)});
  if (bias) y = b.op("Add", {y, per_channel(b, bias, rank)});
  out = {y};
}

// rms_norm computes in PyTorch's opmath type: float16 / bfloat16 inputs are normalized in float32
// and cast back before the weight multiplies (RMSNormalization's default stash_type is float32 too).
void lower_rms_norm(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  Value* w = n.input(1);
  std::vector<int64_t> shape = ir::attr_ints(n, "normalized_shape");
  ElementType e = float_elem(x);
  double eps = ir::has_attr(n, "eps") ? ir::attr_f(n, "eps") : default_rms_eps(e);
  if (ctx.coarse(n, "RMSNormalization", 23)) {
    Value* scale = w ? w : b.filled(1.0, e, shape);
    Attrs a;
    a.i("axis", -static_cast<int64_t>(shape.size())).f("epsilon", static_cast<float>(eps));
    if (e == ElementType::Float64) a.i("stash_type", static_cast<int64_t>(ir::info(e).onnx));
    out = {b.op("RMSNormalization", {x, scale}, std::move(a))};
    return;
  }
  bool half = e == ElementType::Float16 || e == ElementType::BFloat16;
  Value* xc = half ? b.cast(x, ElementType::Float32) : x;
  Value* ms = b.reduce("ReduceMean", b.op("Pow", {xc, fconst(b, 2.0, xc)}), trailing_axes(shape.size()), true);
  Value* y = b.op("Div", {xc, b.op("Sqrt", {b.op("Add", {ms, fconst(b, eps, xc)})})});
  if (half) y = b.cast(y, e);
  if (w) y = b.op("Mul", {y, w});
  out = {y};
}

namespace {

// sum((x - mean)^2) / max(n - correction, 0) over `dim` (all dims when absent or empty).
Value* variance(Node& n, Builder& b, Context& ctx) {
  Value* x = n.input(0);
  int64_t rank = Builder::rank(x);
  if (rank < 0) {
    ctx.error(n, fmt::format("{} needs an input of known rank", n.op_type()));
    return nullptr;
  }
  std::vector<int64_t> dims = ir::has_attr(n, "dim") ? ir::attr_ints(n, "dim") : std::vector<int64_t>{};
  if (dims.empty())
    for (int64_t i = 0; i < rank; ++i) dims.push_back(i);
  for (int64_t& d : dims)
    if (d < 0) d += std::max<int64_t>(rank, 1);
  if (rank == 0) dims.clear();  // a 0-d tensor: one element, nothing to reduce
  bool keep = ir::attr_i(n, "keepdim") != 0;
  double correction = ir::attr_f(n, "correction");
  Value* mean = dims.empty() ? x : b.reduce("ReduceMean", x, dims, true);
  Value* d = b.op("Sub", {x, mean});
  Value* sq = b.op("Mul", {d, d});
  Value* sum = dims.empty() ? sq : b.reduce("ReduceSum", sq, dims, keep);
  Int count = int_const(1);
  for (int64_t a : dims) count = int_mul(b, count, int_dim(b, x, a));
  Value* denom;
  if (count.is_const()) {
    denom = fconst(b, std::max(0.0, static_cast<double>(count.c()) - correction), x);
  } else {
    Value* c = b.op("Sub", {b.cast(b.squeeze(count.value, {0}), Builder::elem(x)), fconst(b, correction, x)});
    denom = b.op("Max", {c, fconst(b, 0.0, x)});
  }
  return b.op("Div", {sum, denom});
}

}  // namespace

void lower_var(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  if (Value* v = variance(n, b, ctx)) out = {v};
}

void lower_std(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  if (Value* v = variance(n, b, ctx)) out = {b.op("Sqrt", {v})};
}

}  // namespace onnxify::lowering
