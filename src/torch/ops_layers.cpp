// nn layer ops beyond the core family (ops_nn.cpp): activations with parameters (prelu, selu, celu,
// threshold, shrinks, softsign), transposed convolution, instance norm, the non-constant padding
// modes, embedding, one_hot, resampling (interpolate) and channel rearrangements (pixel/channel
// shuffle). Plain ONNX ops where ONNX has PyTorch's semantics; composite ops (src/ir/composite_ops.def)
// where the ONNX form depends on the target (interpolate, pixel_shuffle, one_hot).
#include <fmt/core.h>

#include <cmath>
#include <cstdint>

#include "torch/conv_groups.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

// PyTorch's legacy tensor type names, used in some of its messages ("torch.FloatTensor").
std::string legacy_type_name(DType dt) {
  switch (dt) {
    case DType::Float32:
      return "torch.FloatTensor";
    case DType::Float64:
      return "torch.DoubleTensor";
    case DType::Float16:
      return "torch.HalfTensor";
    case DType::BFloat16:
      return "torch.BFloat16Tensor";
    case DType::Int16:
      return "torch.ShortTensor";
    case DType::Int8:
      return "torch.CharTensor";
    case DType::UInt8:
      return "torch.ByteTensor";
    case DType::Bool:
      return "torch.BoolTensor";
    default:
      return std::string(info(dt).name);
  }
}

void need_float(OpCall& c, TensorObj* x) {
  if (!is_floating(x->dtype))
    c.runtime_error(fmt::format("\"{}\" not implemented for '{}'", c.name(), info(x->dtype).name));
}

// A per-channel constant (ones / zeros) of x's dtype for an omitted affine parameter.
ir::Value* param_or(OpCall& c, TensorObj* p, TensorObj* x, double fill, const DimExpr& ch) {
  if (p) return cast_to(c.T, c.v(p), p->dtype, x->dtype, p->shape);
  return value_of(c.T, as_tensor(new_fill(c.T, fill, x->dtype, {ch})));
}

// ---- activations -----------------------------------------------------------------------------

// prelu: weight has 1 or C (= input.size(1)) elements; ONNX PRelu broadcasts the slope
// unidirectionally to the input, so a per-channel slope becomes (C, 1, ..., 1).
Value prelu(OpCall& c) {
  TensorObj* x = c.t(0);
  TensorObj* w = c.t(1);
  need_float(c, x);
  DimExpr n = product(w->shape);
  DimExpr channels = x->rank() >= 2 ? x->shape[1] : DimExpr(1);
  if (n.is_const() && n.value() != 1) {
    if (x->rank() == 0) c.runtime_error("Not allow zero-dim input tensor.");
    if (channels.is_const() && channels.value() != n.value())
      c.runtime_error(
          fmt::format("Mismatch of parameter numbers and input channel size. Found parameter numbers = {} "
                      "and channel size = {}.",
                      n.value(), channels.str()));
  }
  ir::Value* slope = cast_to(c.T, c.v(w), w->dtype, x->dtype, w->shape);
  if (!n.is_const() || n.value() != 1) {
    std::vector<DimExpr> s{n};
    for (size_t i = 2; i < x->rank(); ++i) s.push_back(DimExpr(1));
    slope = reshape_value(c.T, slope, s, elem(x->dtype));
  } else if (w->rank() > x->rank()) {
    slope =
        c.rec.emit("Reshape", {slope, c.rec.const_i64({1})}, ir::Type::tensor(elem(x->dtype), {DimExpr(1)}));
  }
  return c.node("PRelu", {c.v(x), slope}, x->dtype, x->shape);
}

// threshold: y = x > threshold ? x : value (PyTorch compares strictly; NaN stays NaN).
Value threshold(OpCall& c) {
  TensorObj* x = c.t(0);
  ir::Type bt = ir::Type::tensor(ir::ElementType::Bool, x->shape);
  ir::ElementType e = elem(x->dtype);
  ir::Value* th = c.rec.const_scalar(e, c.a.scalar(1).as_double());
  ir::Value* val = c.rec.const_scalar(e, c.a.scalar(2).as_double());
  ir::Value* le = c.rec.emit("LessOrEqual", {c.v(x), th}, bt);
  return c.node("Where", {le, val, c.v(x)}, x->dtype, x->shape);
}

Value shrink(OpCall& c, bool soft) {
  TensorObj* x = c.t(0);
  need_float(c, x);
  float l = static_cast<float>(c.a.real(1));
  if (soft && l < 0)
    c.runtime_error(fmt::format("lambda must be greater or equal to 0, but found to be {}.", c.a.real(1)));
  return c.node("Shrink", {c.v(x)}, x->dtype, x->shape, {{"lambd", l}, {"bias", soft ? l : 0.0f}});
}

// ---- transposed convolution ------------------------------------------------------------------

Value conv_transpose(OpCall& c, size_t spatial) {
  TensorObj* x = c.t(0);
  TensorObj* w = c.t(1);
  TensorObj* bias = c.a.opt_tensor(2);
  // stride 3, padding 4, output_padding 5, groups 6, dilation 7
  std::vector<int64_t> stride = c.a.ints(3), padding = c.a.ints(4), outpad = c.a.ints(5),
                       dilation = c.a.ints(7);
  // groups only known at run time (groups=N of modulated convolution): conv_groups.cpp
  DimExpr gdim = c.a.dim(6);
  const bool runtime_groups = !gdim.is_const();
  int64_t groups = runtime_groups ? 1 : gdim.value();
  if (w->rank() != spatial + 2)
    c.runtime_error(
        fmt::format("Expected {}-dimensional weight for {}-dimensional input, but got weight of size {}",
                    spatial + 2, spatial + 2, shape_text(w->shape)));
  if (x->dtype != w->dtype)
    c.runtime_error(fmt::format("Input type ({}) and weight type ({}) should be the same",
                                info(x->dtype).name, info(w->dtype).name));
  if (groups <= 0) c.runtime_error("non-positive groups is not supported");
  for (size_t i = 0; i < spatial; ++i) {
    if (stride[i] <= 0) c.runtime_error("non-positive stride is not supported");
    if (padding[i] < 0) c.runtime_error("negative padding is not supported");
    if (outpad[i] >= stride[i] && outpad[i] >= dilation[i]) {
      // PyTorch's wording: per named dim (1-d runs as 2-d with a unit height).
      std::vector<std::string> names = spatial == 3 ? std::vector<std::string>{"depth", "height", "width"}
                                                    : std::vector<std::string>{"height", "width"};
      std::vector<int64_t> op = outpad, st = stride, di = dilation;
      if (spatial == 1) op.insert(op.begin(), 0), st.insert(st.begin(), 1), di.insert(di.begin(), 1);
      std::string msg = "output padding must be smaller than either stride or dilation, but got";
      for (auto [what, vals] : {std::pair{"output_padding", &op}, {"stride", &st}, {"dilation", &di}})
        for (size_t k = 0; k < names.size(); ++k)
          msg += fmt::format(" {}_{}: {}", what, names[k], (*vals)[k]);
      c.runtime_error(msg);
    }
  }
  bool batched = x->rank() == spatial + 2;
  if (!batched && x->rank() != spatial + 1)
    c.runtime_error(
        fmt::format("Expected {}D (unbatched) or {}D (batched) input to conv_transpose{}d, but got input "
                    "of size: {}",
                    spatial + 1, spatial + 2, spatial, shape_text(x->shape)));
  std::vector<DimExpr> xs = x->shape;
  ir::Value* xv = c.v(x);
  if (!batched) {
    xs.insert(xs.begin(), DimExpr(1));
    xv = c.rec.emit("Unsqueeze", {xv, c.rec.const_i64({0})}, ir::Type::tensor(elem(x->dtype), xs));
  }
  if (xs[1].is_const() && w->shape[0].is_const() && xs[1].value() != w->shape[0].value())
    c.runtime_error(
        fmt::format("Given transposed=1, weight of size {}, expected input{} to have {} channels, but got "
                    "{} channels instead",
                    shape_text(w->shape), shape_text(x->shape), w->shape[0].value(), xs[1].value()));
  std::vector<int64_t> kernel, pads(2 * spatial);
  for (size_t i = 0; i < spatial; ++i) {
    if (!w->shape[2 + i].is_const()) return c.unsupported("a transposed convolution kernel of symbolic size");
    kernel.push_back(w->shape[2 + i].value());
    pads[i] = pads[i + spatial] = padding[i];
  }
  if (runtime_groups) {
    std::vector<DimExpr> shape;
    ir::Value* v = conv_transpose_runtime_groups(c, xv, xs, w, bias, gdim, stride, padding, outpad, dilation, &shape);
    if (!v) return c.unsupported("a transposed convolution kernel of symbolic size");
    if (batched) return c.out(v, x->dtype, shape);
    shape.erase(shape.begin());
    return c.node("Squeeze", {v, c.rec.const_i64({0})}, x->dtype, shape);
  }
  std::vector<DimExpr> shape{xs[0], w->shape[1] * groups};
  for (size_t i = 0; i < spatial; ++i)
    shape.push_back((xs[2 + i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (kernel[i] - 1) + outpad[i] +
                    1);
  std::vector<ir::Value*> ins{xv, c.v(w)};
  if (bias) ins.push_back(c.v(bias));
  ir::Value* v = c.rec.emit("ConvTranspose", ins, ir::Type::tensor(elem(x->dtype), shape),
                            {{"dilations", dilation},
                             {"group", groups},
                             {"kernel_shape", kernel},
                             {"output_padding", outpad},
                             {"pads", pads},
                             {"strides", stride}});
  if (batched) return c.out(v, x->dtype, shape);
  shape.erase(shape.begin());
  return c.node("Squeeze", {v, c.rec.const_i64({0})}, x->dtype, shape);
}

// ---- instance norm -----------------------------------------------------------------------------

Value instance_norm(OpCall& c) {
  TensorObj* x = c.t(0);
  TensorObj* w = c.a.opt_tensor(1);
  TensorObj* b = c.a.opt_tensor(2);
  TensorObj* mean = c.a.opt_tensor(3);
  TensorObj* var = c.a.opt_tensor(4);
  bool use_input_stats = c.a.boolean(5);
  float eps = static_cast<float>(c.a.real(7));
  need_float(c, x);
  if (x->rank() < 2)
    c.runtime_error(fmt::format("instance_norm: expected at least 2D input, got {}D", x->rank()));
  if (!use_input_stats && (!mean || !var))
    c.runtime_error("Expected running_mean and running_var to be defined when use_input_stats is false");
  DimExpr ch = x->shape[1];
  // PyTorch runs instance norm as a batch norm of (1, N * C, *): its per-channel tensors are repeated N
  // times.
  for (TensorObj* p : {w, b, mean, var}) {
    if (!p || !ch.is_const() || !x->shape[0].is_const()) continue;
    DimExpr n = product(p->shape);
    if (n.is_const() && n.value() != ch.value())
      c.runtime_error(fmt::format("{} should contain {} elements not {}",
                                  p == w      ? "weight"
                                  : p == b    ? "bias"
                                  : p == mean ? "running_mean"
                                              : "running_var",
                                  x->shape[0].value() * ch.value(), x->shape[0].value() * n.value()));
  }
  ir::Value* scale = param_or(c, w, x, 1.0, ch);
  ir::Value* shift = param_or(c, b, x, 0.0, ch);
  if (!use_input_stats) {
    // Eval with running statistics: every (n, c) plane is normalized with its channel's statistics.
    return c.node("BatchNormalization",
                  {c.v(x), scale, shift, cast_to(c.T, c.v(mean), mean->dtype, x->dtype, mean->shape),
                   cast_to(c.T, c.v(var), var->dtype, x->dtype, var->shape)},
                  x->dtype, x->shape, {{"epsilon", eps}});
  }
  if (x->rank() == 2) return c.unsupported("instance_norm of a 2-d input (no spatial dims)");
  return c.node("InstanceNormalization", {c.v(x), scale, shift}, x->dtype, x->shape, {{"epsilon", eps}});
}

// ---- padding (reflect / replicate; circular is Python slicing in F.pad) -------------------------

Value pad_mode(OpCall& c, size_t spatial, const char* mode) {
  TensorObj* x = c.t(0);
  std::vector<DimExpr> pad = c.a.dims(1);
  const char* torch_name = std::string_view(mode) == "reflect" ? "reflection" : "replication";
  if (pad.size() != 2 * spatial)
    c.runtime_error(
        fmt::format("{}_pad{}d: padding size is expected to be {}", torch_name, spatial, 2 * spatial));
  if (x->rank() != spatial + 1 && x->rank() != spatial + 2)
    c.runtime_error(fmt::format("{}D or {}D (batch mode) tensor expected for input, but got: {}", spatial + 1,
                                spatial + 2, shape_text(x->shape)));
  // PyTorch reads every output element from the unpadded input (a negative pad drops output
  // elements): pad the positive parts, then slice off the negative ones.
  size_t r = x->rank();
  std::vector<DimExpr> pads(2 * r, DimExpr(0));
  std::vector<DimExpr> padded = x->shape, shape = x->shape;
  std::vector<int64_t> axes, starts, ends;
  for (size_t i = 0; i < spatial; ++i) {
    size_t d = r - 1 - i;
    DimExpr before = pad[2 * i], after = pad[2 * i + 1];
    DimExpr in = x->shape[d];
    if (std::string_view(mode) == "reflect" && in.is_const() && before.is_const() && after.is_const() &&
        (before.value() >= in.value() || after.value() >= in.value()))
      c.runtime_error(
          fmt::format("Argument #4: Padding size should be less than the corresponding input dimension, "
                      "but got: padding ({}, {}) at dimension {} of input {}",
                      before.value(), after.value(), d, shape_text(x->shape)));
    int64_t crop_b = before.is_const() && before.value() < 0 ? -before.value() : 0;
    int64_t crop_a = after.is_const() && after.value() < 0 ? -after.value() : 0;
    pads[d] = crop_b ? DimExpr(0) : before;
    pads[d + r] = crop_a ? DimExpr(0) : after;
    padded[d] = in + pads[d] + pads[d + r];
    shape[d] = in + before + after;
    if (shape[d].is_const() && shape[d].value() < 1)
      c.runtime_error(fmt::format("input (size {}) is too small. Calculated output size: {} at dimension {}",
                                  in.str(), shape[d].value(), d));
    if (crop_b || crop_a) {
      axes.push_back(static_cast<int64_t>(d));
      starts.push_back(crop_b);
      ends.push_back(crop_a ? -crop_a : INT64_MAX);
    }
  }
  ir::Value* v = c.rec.emit("Pad", {c.v(x), c.rec.shape_value(pads)},
                            ir::Type::tensor(elem(x->dtype), padded), {{"mode", std::string(mode)}});
  if (axes.empty()) return c.out(v, x->dtype, shape);
  return c.node("Slice", {v, c.rec.const_i64(starts), c.rec.const_i64(ends), c.rec.const_i64(axes)}, x->dtype,
                shape);
}

// ---- embedding, one_hot --------------------------------------------------------------------------

Value embedding(OpCall& c) {
  TensorObj* w = c.t(0);
  TensorObj* idx = c.t(1);
  if (idx->dtype != DType::Int64 && idx->dtype != DType::Int32)
    c.runtime_error(
        fmt::format("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                    "Long, Int; but got {} instead (while checking arguments for embedding)",
                    legacy_type_name(idx->dtype)));
  if (w->rank() != 2) c.runtime_error("'weight' must be 2-D");
  std::vector<DimExpr> shape = idx->shape;
  shape.push_back(w->shape[1]);
  return c.node("Gather", {c.v(w), c.v(idx)}, w->dtype, shape, {{"axis", int64_t{0}}});
}

Value one_hot(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t n = c.a.int_(1);
  if (x->dtype != DType::Int64) c.runtime_error("one_hot is only applicable to index tensor of type LongTensor.");
  if (n < -1) c.runtime_error("num_classes should be -1 or positive");
  std::vector<DimExpr> shape = x->shape;
  // num_classes=-1 is max(input) + 1: a size only known when the model runs.
  shape.push_back(n == -1 ? DimExpr::unknown() : DimExpr(n));
  return c.node("one_hot", {c.v(x)}, DType::Int64, shape, {{"num_classes", n}}, ir::kOnnxifyDomain);
}

// ---- pixel / channel shuffles --------------------------------------------------------------------

Value pixel_shuffle(OpCall& c, bool up) {
  TensorObj* x = c.t(0);
  int64_t r = c.a.int_(1);
  const char* name = up ? "pixel_shuffle" : "pixel_unshuffle";
  if (x->rank() < 3)
    c.runtime_error(
        fmt::format("{} expects input to have at least 3 dimensions, but got input with {} dimension(s)",
                    name, x->rank()));
  if (r <= 0)
    c.runtime_error(fmt::format("{} expects a positive {}, but got {}", name,
                                up ? "upscale_factor" : "downscale_factor", r));
  std::vector<DimExpr> s = x->shape;
  size_t k = s.size();
  if (up) {
    if (s[k - 3].is_const() && s[k - 3].value() % (r * r) != 0)
      c.runtime_error(
          fmt::format("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
                      "of upscale_factor, but input.size(-3)={} is not divisible by {}",
                      s[k - 3].value(), r * r));
    s[k - 3] = ir::floor_div(s[k - 3], DimExpr(r * r));
    s[k - 2] = s[k - 2] * r;
    s[k - 1] = s[k - 1] * r;
    return c.node("pixel_shuffle", {c.v(x)}, x->dtype, s, {{"upscale_factor", r}}, ir::kOnnxifyDomain);
  }
  for (size_t i : {k - 2, k - 1})
    if (s[i].is_const() && s[i].value() % r != 0)
      c.runtime_error(
          fmt::format("pixel_unshuffle expects {} to be divisible by downscale_factor, but input.size({})={} "
                      "is not divisible by {}",
                      i == k - 2 ? "height" : "width", i == k - 2 ? -2 : -1, s[i].value(), r));
  s[k - 3] = s[k - 3] * (r * r);
  s[k - 2] = ir::floor_div(s[k - 2], DimExpr(r));
  s[k - 1] = ir::floor_div(s[k - 1], DimExpr(r));
  return c.node("pixel_unshuffle", {c.v(x)}, x->dtype, s, {{"downscale_factor", r}}, ir::kOnnxifyDomain);
}

// channel_shuffle: (N, C, *) -> (N, g, C/g, *) -> swap g and C/g -> (N, C, *).
Value channel_shuffle(OpCall& c) {
  TensorObj* x = c.t(0);
  int64_t g = c.a.int_(1);
  if (x->rank() <= 2)
    c.runtime_error(
        fmt::format("channel_shuffle expects input to have at least 3 dimensions, but got input with {} "
                    "dimension(s)",
                    x->rank()));
  if (g <= 0)
    c.runtime_error(
        fmt::format("Number of groups to divide channels in must be positive. Value of groups:{}", g));
  DimExpr ch = x->shape[1];
  if (ch.is_const() && ch.value() % g != 0)
    c.runtime_error(fmt::format(
        "Number of channels must be divisible by groups. Got {} channels and {} groups.", ch.value(), g));
  ir::ElementType e = elem(x->dtype);
  std::vector<DimExpr> s5{x->shape[0], DimExpr(g), ir::floor_div(ch, DimExpr(g))};
  s5.insert(s5.end(), x->shape.begin() + 2, x->shape.end());
  ir::Value* v = reshape_value(c.T, c.v(x), s5, e);
  std::vector<int64_t> perm{0, 2, 1};
  for (size_t i = 3; i < s5.size(); ++i) perm.push_back(static_cast<int64_t>(i));
  std::vector<DimExpr> t5 = s5;
  std::swap(t5[1], t5[2]);
  v = c.rec.emit("Transpose", {v}, ir::Type::tensor(e, t5), {{"perm", perm}});
  return c.out(reshape_value(c.T, v, x->shape, e), x->dtype, x->shape);
}

// ---- interpolate ---------------------------------------------------------------------------------

// The private native op of F.interpolate, which has already normalized the arguments as PyTorch's
// Python does: exactly one of size (one SymInt per spatial dim) / scale_factor (one float per
// spatial dim); align_corners only for the interpolating modes.
Value interpolate(OpCall& c) {
  TensorObj* x = c.t(0);
  std::string mode = c.a.str(3);
  // PyTorch's nearest modes also resample uint8 images; they only pick elements, so a float32 round
  // trip is exact (the composite op is float-only). Other integer types are errors, as in PyTorch.
  bool via_float = x->dtype == DType::UInt8 && (mode == "nearest" || mode == "nearest-exact");
  if (!via_float) need_float(c, x);
  if (x->rank() < 3) c.runtime_error("interpolate: expected a 3-D, 4-D or 5-D input");
  size_t sp = x->rank() - 2;
  std::optional<bool> align = c.a.opt_bool(4);
  std::optional<bool> recompute = c.a.opt_bool(5);
  bool antialias = c.a.boolean(6);
  std::vector<DimExpr> shape(x->shape.begin(), x->shape.begin() + 2);
  Attrs attrs{{"mode", mode},
              {"align_corners", int64_t{align ? int64_t{*align} : -1}},
              {"recompute_scale_factor", int64_t{recompute ? int64_t{*recompute} : -1}},
              {"antialias", int64_t{antialias}}};
  std::vector<ir::Value*> ins{c.v(x)};
  if (!c.a.is_none(1)) {
    std::vector<DimExpr> size = c.a.dims(1);
    if (size.size() != sp) c.runtime_error("interpolate: size must have one entry per spatial dim");
    shape.insert(shape.end(), size.begin(), size.end());
    ins.push_back(c.rec.shape_value(size));
  } else {
    std::vector<double> sf = c.a.reals(2);
    if (sf.size() != sp) c.runtime_error("interpolate: scale_factor must have one entry per spatial dim");
    std::vector<float> fs;
    for (size_t i = 0; i < sp; ++i) {
      DimExpr in = x->shape[2 + i];
      double f = sf[i];
      fs.push_back(static_cast<float>(f));
      if (in.is_const())
        shape.push_back(DimExpr(static_cast<int64_t>(std::floor(static_cast<double>(in.value()) * f))));
      else if (f == std::floor(f) && f >= 1)
        shape.push_back(in * static_cast<int64_t>(f));
      else if (f > 0 && f < 1 && std::exp2(std::round(std::log2(1 / f))) == 1 / f)
        shape.push_back(ir::floor_div(in, DimExpr(static_cast<int64_t>(1 / f))));  // in * 2^-k is exact
      else
        shape.push_back(DimExpr::unknown());  // floor(N * 1.5): computed by the lowering at run time
    }
    attrs.push_back({"scale_factor", fs});
  }
  if (!via_float) return c.node("interpolate", ins, x->dtype, shape, std::move(attrs), ir::kOnnxifyDomain);
  ins[0] = cast_to(c.T, ins[0], x->dtype, DType::Float32, x->shape);
  ir::Node* n = c.rec.node("interpolate", ins, 1, ir::kOnnxifyDomain);
  for (auto& [k, v] : attrs) n->set_attr(k, v.to_attribute());
  n->output(0)->set_type(ir::Type::tensor(ir::ElementType::Float32, shape));
  return c.out(cast_to(c.T, n->output(0), DType::Float32, x->dtype, shape), x->dtype, shape);
}

}  // namespace

const std::vector<OpDef>& layer_ops() {
  static const std::vector<OpDef> ops = {
      // ---- activations ----
      {"prelu(Tensor self, Tensor weight) -> Tensor", kFn | kMethod, prelu},
      {"selu(Tensor self) -> Tensor", kFn | kFnInplace,
       [](OpCall& c) {
         need_float(c, c.t(0));
         return c.unary("Selu", {{"alpha", 1.6732632423543772f}, {"gamma", 1.0507009873554805f}});
       }},
      {"celu(Tensor self, Scalar alpha=1.0) -> Tensor", kFn | kFnInplace,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         need_float(c, x);
         double alpha = c.a.real(1);
         if (alpha == 0) c.runtime_error("ZeroDivisionError");
         if (x->dtype == DType::Float32) return c.unary("Celu", {{"alpha", static_cast<float>(alpha)}});
         // ONNX Celu (and ONNX Runtime's Elu) are float32-only: max(0, x) + min(0, a * (exp(x / a) - 1)).
         ir::ElementType e = elem(x->dtype);
         ir::Type t = x->ir_type();
         ir::Value* a = c.rec.const_scalar(e, alpha);
         ir::Value* ex = c.rec.emit("Exp", {c.rec.emit("Div", {c.v(x), a}, t)}, t);
         ir::Value* neg = c.rec.emit("Mul", {c.rec.emit("Sub", {ex, c.rec.const_scalar(e, 1.0)}, t), a}, t);
         ir::Value* pos = c.rec.emit("Greater", {c.v(x), c.rec.const_scalar(e, 0.0)},
                                     ir::Type::tensor(ir::ElementType::Bool, x->shape));
         return c.node("Where", {pos, c.v(x), neg}, x->dtype, x->shape);
       }},
      {"softsign(Tensor self) -> Tensor", kNN,
       [](OpCall& c) {
         need_float(c, c.t(0));
         return c.unary("Softsign");
       }},
      {"threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor", kFn | kFnInplace, threshold},
      {"rrelu(Tensor self, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, "
       "Generator? generator=None) -> Tensor",
       kFn | kFnInplace,
       [](OpCall& c) {
         need_float(c, c.t(0));
         // Outside training the slope is fixed: (lower + upper) / 2.
         if (c.a.boolean(3)) return c.unsupported("rrelu with training=True (random slopes)");
         return c.unary("LeakyRelu", {{"alpha", static_cast<float>((c.a.real(1) + c.a.real(2)) / 2)}});
       }},
      {"hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor", kFn | kMethod,
       [](OpCall& c) { return shrink(c, false); }},
      {"softshrink(Tensor self, Scalar lambd=0.5) -> Tensor", kNN, [](OpCall& c) { return shrink(c, true); }},
      // ---- transposed convolution ----
      {"conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, "
       "int[1] output_padding=0, int groups=1, int[1] dilation=1) -> Tensor",
       kFn, [](OpCall& c) { return conv_transpose(c, 1); }},
      {"conv_transpose2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, "
       "int[2] output_padding=0, int groups=1, int[2] dilation=1) -> Tensor",
       kFn, [](OpCall& c) { return conv_transpose(c, 2); }},
      {"conv_transpose3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, "
       "int[3] output_padding=0, int groups=1, int[3] dilation=1) -> Tensor",
       kFn, [](OpCall& c) { return conv_transpose(c, 3); }},
      // ---- normalization ----
      {"instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, "
       "bool use_input_stats, float momentum, float eps, bool cudnn_enabled) -> Tensor",
       kFn, instance_norm},
      // ---- padding ----
      {"reflection_pad1d(Tensor self, SymInt[2] padding) -> Tensor", kNN,
       [](OpCall& c) { return pad_mode(c, 1, "reflect"); }},
      {"reflection_pad2d(Tensor self, SymInt[4] padding) -> Tensor", kNN,
       [](OpCall& c) { return pad_mode(c, 2, "reflect"); }},
      {"reflection_pad3d(Tensor self, SymInt[6] padding) -> Tensor", kNN,
       [](OpCall& c) { return pad_mode(c, 3, "reflect"); }},
      {"replication_pad1d(Tensor self, SymInt[2] padding) -> Tensor", kNN,
       [](OpCall& c) { return pad_mode(c, 1, "edge"); }},
      {"replication_pad2d(Tensor self, SymInt[4] padding) -> Tensor", kNN,
       [](OpCall& c) { return pad_mode(c, 2, "edge"); }},
      {"replication_pad3d(Tensor self, SymInt[6] padding) -> Tensor", kNN,
       [](OpCall& c) { return pad_mode(c, 3, "edge"); }},
      // ---- embedding, one_hot ----
      {"embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, bool "
       "sparse=False) -> Tensor",
       kFn, embedding},
      {"one_hot(Tensor self, int num_classes=-1) -> Tensor", kNN, one_hot},
      // ---- rearrangements and resampling ----
      {"pixel_shuffle(Tensor self, int upscale_factor) -> Tensor", kFn,
       [](OpCall& c) { return pixel_shuffle(c, true); }},
      {"pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor", kFn,
       [](OpCall& c) { return pixel_shuffle(c, false); }},
      {"channel_shuffle(Tensor self, int groups) -> Tensor", kFn, channel_shuffle},
      {"native_channel_shuffle(Tensor self, int groups) -> Tensor", kFn, channel_shuffle},
      {"interpolate(Tensor input, SymInt[]? size=None, float[]? scale_factor=None, str mode=\"nearest\", "
       "bool? align_corners=None, bool? recompute_scale_factor=None, bool antialias=False) -> Tensor",
       kNN, interpolate},
  };
  return ops;
}

}  // namespace onnxify::torch
