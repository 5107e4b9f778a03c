// interpolate and grid_sample.
//
// interpolate maps to ONNX Resize with PyTorch's coordinate transformation and rounding:
//   nearest        src = floor(dst * in / out)            -> asymmetric + floor
//   nearest-exact  src = floor((dst + 0.5) * in / out)    -> half_pixel + round_prefer_ceil
//   (bi/tri)linear src = (dst + 0.5) * in / out - 0.5     -> half_pixel (negative src clamps to 0 in
//                  both); align_corners=True: src = dst * (in - 1) / (out - 1) -> align_corners
//   bicubic        as linear, A = -0.75, no clamp of src, edge samples clamped
//                                                          -> cubic, cubic_coeff_a = -0.75
//   area           adaptive average pooling to the output size
// PyTorch's in / out is 1 / scale_factor when a scale factor is given and not recomputed: then the
// Resize takes `scales` (its output size is floor(in * scale), as PyTorch's); otherwise `sizes`.
// PyTorch has no special case for an output of size 1 (pytorch_half_pixel has), so half_pixel is
// the faithful mode. Targets without cubic Resize (TensorRT) get bicubic as one interpolation
// matrix per axis, built at conversion time with PyTorch's weights and border clamping; antialias
// always does (ONNX Resize's antialias filter differs from PyTorch's, checked in ONNX Runtime).
#include <fmt/core.h>

#include <cmath>

#include "onnx/lower/pool_util.h"

namespace onnxify::lowering {

using ir::DimExpr;
using ir::ElementType;
using ir::Node;
using ir::Type;
using ir::Value;

namespace {

// PyTorch's cubic convolution weights (upsample_bicubic2d, A = -0.75) for fraction t.
void cubic_weights(double t, double w[4]) {
  const double a = -0.75;
  auto near = [&](double x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
  auto far = [&](double x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
  w[0] = far(t + 1);
  w[1] = near(t);
  w[2] = near(1 - t);
  w[3] = far(2 - t);
}

// The (out, in) bicubic interpolation matrix of one axis.
Value* bicubic_matrix(Builder& b, int64_t in, int64_t out, bool align, std::optional<double> scale_factor,
                      const Value* like) {
  double scale;
  if (align)
    scale = out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
  else
    scale = scale_factor ? 1.0 / *scale_factor : static_cast<double>(in) / static_cast<double>(out);
  std::vector<float> m(static_cast<size_t>(out * in), 0.0f);
  for (int64_t j = 0; j < out; ++j) {
    double src = align ? scale * static_cast<double>(j) : scale * (static_cast<double>(j) + 0.5) - 0.5;
    double f = std::floor(src);
    double w[4];
    cubic_weights(src - f, w);
    for (int k = 0; k < 4; ++k) {
      int64_t idx = std::clamp<int64_t>(static_cast<int64_t>(f) - 1 + k, 0, in - 1);
      m[static_cast<size_t>(j * in + idx)] += static_cast<float>(w[k]);
    }
  }
  return b.cast(b.constant(ir::Tensor::from_values<float>(ElementType::Float32, {out, in}, m)),
                Builder::elem(like));
}

// PyTorch's antialiased (bilinear or bicubic, antialias=True) weights of one axis: a triangle or
// Keys (a = -0.5) filter widened by the downscale factor, centred at scale * (j + 0.5), truncated to
// the input and normalized (aten's _compute_weights_aa).
Value* antialias_matrix(Builder& b, int64_t in, int64_t out, bool align, std::optional<double> scale_factor,
                        bool cubic, const Value* like) {
  double scale;
  if (align)
    scale = out > 1 ? static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0.0;
  else
    scale = scale_factor ? 1.0 / *scale_factor : static_cast<double>(in) / static_cast<double>(out);
  double interp = cubic ? 4.0 : 2.0;
  double support = scale >= 1.0 ? interp * 0.5 * scale : interp * 0.5;
  double invscale = scale >= 1.0 ? 1.0 / scale : 1.0;
  auto filter = [&](double x) {
    x = std::fabs(x);
    if (!cubic) return x < 1.0 ? 1.0 - x : 0.0;
    const double a = -0.5;
    if (x < 1.0) return ((a + 2.0) * x - (a + 3.0)) * x * x + 1;
    if (x < 2.0) return (((x - 5) * x + 8) * x - 4) * a;
    return 0.0;
  };
  std::vector<float> m(static_cast<size_t>(out * in), 0.0f);
  for (int64_t j = 0; j < out; ++j) {
    double center = scale * (static_cast<double>(j) + 0.5);
    int64_t lo = std::max<int64_t>(static_cast<int64_t>(center - support + 0.5), 0);
    int64_t size = std::min<int64_t>(static_cast<int64_t>(center + support + 0.5), in) - lo;
    std::vector<double> w(static_cast<size_t>(std::max<int64_t>(size, 0)));
    double total = 0;
    for (int64_t k = 0; k < size; ++k) {
      w[static_cast<size_t>(k)] = filter((static_cast<double>(k + lo) - center + 0.5) * invscale);
      total += w[static_cast<size_t>(k)];
    }
    for (int64_t k = 0; k < size; ++k)
      m[static_cast<size_t>(j * in + lo + k)] =
          static_cast<float>(total != 0 ? w[static_cast<size_t>(k)] / total : w[static_cast<size_t>(k)]);
  }
  return b.cast(b.constant(ir::Tensor::from_values<float>(ElementType::Float32, {out, in}, m)),
                Builder::elem(like));
}

}  // namespace

void lower_interpolate(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  Value* size = n.input(1);
  int64_t rank = Builder::rank(x);
  if (rank < 3) {
    ctx.error(n, "interpolate needs an input of known rank (N, C, *spatial)");
    return;
  }
  size_t sp = static_cast<size_t>(rank - 2);
  std::string mode = ir::attr_s(n, "mode");
  bool align = ir::attr_i(n, "align_corners") == 1;
  int64_t recompute = ir::attr_i(n, "recompute_scale_factor");
  bool antialias = ir::attr_i(n, "antialias") != 0;
  std::vector<float> sf =
      ir::has_attr(n, "scale_factor") ? ir::attr_floats(n, "scale_factor") : std::vector<float>{};
  bool use_scales = !size && recompute != 1;
  const Type& declared = n.output(0)->type();

  // Output spatial sizes.
  std::vector<Int> osz;
  auto given = Builder::const_ints(size);
  for (size_t i = 0; i < sp; ++i) {
    DimExpr e = declared.is_tensor() && declared.has_rank() ? declared.dim(2 + i) : DimExpr::unknown();
    Int in = int_dim(b, x, static_cast<int64_t>(2 + i));
    if (given) {
      osz.push_back(int_const((*given)[i]));
    } else if (size) {
      Value* v = b.op("Slice", {size, b.i64({static_cast<int64_t>(i)}), b.i64({static_cast<int64_t>(i) + 1}),
                                b.i64({0})});
      osz.push_back(e.is_const() ? Int{e, nullptr} : Int{e, v});
    } else if (in.is_const()) {
      // PyTorch: floor(float(in) * scale_factor) in Python floats (double).
      osz.push_back(int_const(
          static_cast<int64_t>(std::floor(static_cast<double>(in.c()) * static_cast<double>(sf[i])))));
    } else {
      Value* f = b.op("Mul", {b.cast(in.value, ElementType::Float64), b.scalar(sf[i], ElementType::Float64)});
      osz.push_back(Int{e, b.cast(b.op("Floor", {f}), ElementType::Int64)});
    }
  }
  std::vector<Int> full = {int_dim(b, x, 0), int_dim(b, x, 1)};
  full.insert(full.end(), osz.begin(), osz.end());
  Type yt = Type::tensor(Builder::elem(x), exprs(full));

  if (mode == "area") {
    out = {adaptive_avg_pool_to(b, ctx, x, osz)};
    return;
  }
  bool cubic = mode == "bicubic";
  // Interpolation matrices, one per axis, for what Resize cannot express here: antialiasing
  // (ONNX Resize's antialias filter is not PyTorch's) and cubic on targets without cubic Resize.
  bool matrices = antialias || (cubic && !ctx.caps.resize_cubic);
  if (matrices) {
    Value* y = x;
    for (size_t i = 0; i < sp; ++i) {
      auto in = Builder::static_dim(x, static_cast<int64_t>(2 + i));
      if (!in || !osz[i].is_const()) {
        ctx.error(n, antialias
                         ? std::string("antialiased interpolation needs static spatial sizes (its weights "
                                       "are built at conversion time)")
                         : fmt::format("target {} has no cubic Resize, and bicubic interpolation matrices "
                                       "need static spatial sizes",
                                       ctx.target.name));
        return;
      }
      std::optional<double> s;
      if (use_scales) s = sf[i];
      Value* w = antialias ? antialias_matrix(b, *in, osz[i].c(), align, s, cubic, x)
                           : bicubic_matrix(b, *in, osz[i].c(), align, s, x);
      y = matmul_axis(b, y, static_cast<int64_t>(2 + i), w, osz[i]);
    }
    out = {y};
    return;
  }

  Attrs a;
  if (mode == "nearest") {
    a.s("mode", "nearest").s("coordinate_transformation_mode", "asymmetric").s("nearest_mode", "floor");
  } else if (mode == "nearest-exact") {
    a.s("mode", "nearest")
        .s("coordinate_transformation_mode", "half_pixel")
        .s("nearest_mode", "round_prefer_ceil");
  } else {
    a.s("mode", cubic ? "cubic" : "linear")
        .s("coordinate_transformation_mode", align ? "align_corners" : "half_pixel");
    if (cubic) a.f("cubic_coeff_a", -0.75f);
  }
  std::vector<Value*> in = {x, nullptr};
  if (use_scales) {
    std::vector<float> scales = {1.0f, 1.0f};
    scales.insert(scales.end(), sf.begin(), sf.end());
    in.push_back(b.constant(
        ir::Tensor::from_values<float>(ElementType::Float32, {static_cast<int64_t>(scales.size())}, scales)));
  } else {
    in.push_back(nullptr);
    in.push_back(shape_value(b, full));
  }
  out = {b.op("Resize", in, std::move(a), yt)};
}

void lower_grid_sample(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  if (!ctx.coarse(n, "GridSample", 16)) {
    ctx.error(n,
              fmt::format("grid_sample has no decomposition: it needs ONNX GridSample (opset 16 or later), "
                          "lowering to opset {}",
                          ctx.opset()),
              "choose --opset 16 or later");
    return;
  }
  Attrs a;
  a.s("mode", ir::attr_s(n, "mode")).s("padding_mode", ir::attr_s(n, "padding_mode"));
  a.i("align_corners", ir::attr_i(n, "align_corners"));
  out = {b.op("GridSample", {n.input(0), n.input(1)}, std::move(a))};
}

}  // namespace onnxify::lowering
