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
// always does (ONNX Resize's antialias filter differs from PyTorch's, checked in ONNX Runtime), its
// matrix computed by ONNX ops in the model when a size is only known at run time.
#include <fmt/core.h>

#include <cmath>
#include <optional>

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

// The same matrix when a size is only known at run time: the same arithmetic in float64 ONNX ops
// over the (out, in) grid of output rows j and input columns k (a weight is kept where
// lo_j <= k < hi_j, then rows are normalized). lo_j = max(int(center - support + 0.5), 0) is
// max(floor(...), 0): truncation and floor differ only below 0, which the max removes; the bound
// above is positive, so its truncation is a floor.
Value* antialias_matrix_runtime(Builder& b, const Int& in, const Int& out, bool align,
                                std::optional<double> scale_factor, bool cubic, const Value* like) {
  const ElementType f64 = ElementType::Float64;
  auto num = [&](double v) { return b.scalar(v, f64); };
  Value* in_f = b.cast(int_value(b, in), f64);  // [1]
  Value* out_f = b.cast(int_value(b, out), f64);
  Value* scale;
  if (align) {
    Value* ratio = b.op("Div", {b.op("Sub", {in_f, num(1)}), b.op("Max", {b.op("Sub", {out_f, num(1)}), num(1)})});
    scale = b.op("Where", {b.op("Greater", {out_f, num(1)}), ratio, num(0)});
  } else {
    scale = scale_factor ? b.reshape(num(1.0 / *scale_factor), {1}) : b.op("Div", {in_f, out_f});
  }
  double interp = cubic ? 4.0 : 2.0;
  Value* widen = b.op("GreaterOrEqual", {scale, num(1)});
  Value* support = b.op("Where", {widen, b.op("Mul", {scale, num(interp * 0.5)}), num(interp * 0.5)});
  Value* invscale = b.op("Where", {widen, b.op("Div", {num(1), b.op("Max", {scale, num(1)})}), num(1)});
  Value* j = b.unsqueeze(b.cast(iota(b, out), f64), {1});  // [out, 1]
  Value* k = b.unsqueeze(b.cast(iota(b, in), f64), {0});   // [1, in]
  Value* center = b.op("Mul", {scale, b.op("Add", {j, num(0.5)})});
  Value* lo = b.op("Max", {b.op("Floor", {b.op("Add", {b.op("Sub", {center, support}), num(0.5)})}), num(0)});
  Value* hi = b.op("Min", {b.op("Floor", {b.op("Add", {b.op("Add", {center, support}), num(0.5)})}), in_f});
  Value* inside = b.op("And", {b.op("GreaterOrEqual", {k, lo}), b.op("Less", {k, hi})});
  Value* x = b.op("Abs", {b.op("Mul", {b.op("Add", {b.op("Sub", {k, center}), num(0.5)}), invscale})});
  Value* w;
  if (!cubic) {
    w = b.op("Max", {b.op("Sub", {num(1), x}), num(0)});
  } else {
    const double a = -0.5;
    Value* x2 = b.op("Mul", {x, x});
    // x < 1: ((a + 2) x - (a + 3)) x^2 + 1;  x < 2: (((x - 5) x + 8) x - 4) a;  else 0
    Value* near = b.op("Add", {b.op("Mul", {b.op("Sub", {b.op("Mul", {x, num(a + 2)}), num(a + 3)}), x2}), num(1)});
    Value* far = b.op("Mul", {b.op("Sub", {b.op("Mul", {b.op("Add", {b.op("Mul", {b.op("Sub", {x, num(5)}), x}), num(8)}), x}),
                                         num(4)}),
                              num(a)});
    w = b.op("Where", {b.op("Less", {x, num(1)}), near, b.op("Where", {b.op("Less", {x, num(2)}), far, num(0)})});
  }
  w = b.op("Where", {inside, w, num(0)});
  Value* total = b.op("ReduceSum", {w, b.i64({1})}, Attrs().i("keepdims", 1));
  Value* nonzero = b.op("Not", {b.op("Equal", {total, num(0)})});
  w = b.op("Where", {nonzero, b.op("Div", {w, b.op("Where", {nonzero, total, num(1)})}), w});
  return b.cast(b.cast(w, ElementType::Float32), Builder::elem(like));
}

}  // namespace

namespace {

// The Python double a float attribute came from: the float's shortest round-trip decimal ("0.7"
// for 0.7f), which is what a Python scale factor like 0.7 or 1.3 was before it was stored as float.
double as_double(float f) { return std::stod(fmt::format("{}", f)); }

// PyTorch's source index of nearest / nearest-exact (aten's nearest_neighbor_compute_source_index
// and nearest_neighbor_exact_compute_source_index, float arithmetic as there). torch 1.13's CPU
// kernel for a single (n, c) plane special-cases an unchanged size as the identity even when the
// scale factor says otherwise; its kernel for several planes does not. The latter is followed.
int64_t torch_nearest(int64_t dst, int64_t in, int64_t out, std::optional<double> sf, bool exact) {
  float scale =
      sf && *sf > 0 ? static_cast<float>(1.0 / *sf) : static_cast<float>(in) / static_cast<float>(out);
  int64_t src =
      exact ? static_cast<int64_t>(floorf(static_cast<float>((static_cast<double>(dst) + 0.5) * scale)))
            : static_cast<int64_t>(floorf(static_cast<float>(dst) * scale));
  return std::min(src, in - 1);
}

// ONNX Runtime's Resize: output size int(scale * in) (float), and its nearest source index for
// asymmetric + floor (nearest) or half_pixel + round_prefer_ceil (nearest-exact).
int64_t ort_size(float scale, int64_t in) { return static_cast<int64_t>(scale * static_cast<float>(in)); }
int64_t ort_nearest(int64_t dst, int64_t in, float scale, bool exact) {
  float x = exact ? (static_cast<float>(dst) + 0.5f) / scale - 0.5f : static_cast<float>(dst) / scale;
  int64_t src = exact ? static_cast<int64_t>(std::round(x)) : static_cast<int64_t>(std::floor(x));
  return std::clamp<int64_t>(src, 0, in - 1);
}

// The input sizes a Resize decision must hold for: the static size, or a range for a symbolic one.
std::vector<int64_t> sizes_to_check(const Int& in) {
  if (in.is_const()) return {in.c()};
  std::vector<int64_t> v;
  for (int64_t i = 1; i <= 1024; ++i) v.push_back(i);
  return v;
}

// PyTorch's output size along an axis.
int64_t torch_out(int64_t in, std::optional<double> sf, std::optional<int64_t> fixed) {
  return fixed ? *fixed : static_cast<int64_t>(std::floor(static_cast<double>(in) * *sf));
}

// A float scale for Resize's `scales` input whose output sizes (ONNX Runtime: int(scale * in)) are
// PyTorch's floor(in * scale_factor) for every size to check: the float of the scale factor, or one
// ulp either side (e.g. 1.3f * 10 = 12.99999 but PyTorch's 1.3 * 10 = 13). nullopt: none works.
std::optional<float> resize_scale(double sf, const Int& in, bool nearest, bool exact) {
  float f = static_cast<float>(sf);
  for (float c : {f, std::nextafter(f, 1e30f), std::nextafter(f, -1e30f)}) {
    bool ok = true;
    for (int64_t n : sizes_to_check(in)) {
      int64_t out = torch_out(n, sf, std::nullopt);
      if (ort_size(c, n) != out) ok = false;
      for (int64_t d = 0; ok && nearest && d < out; ++d)
        ok = ort_nearest(d, n, c, exact) == torch_nearest(d, n, out, sf, exact);
      if (!ok) break;
    }
    if (ok) return c;
  }
  return std::nullopt;
}

// Whether Resize with `sizes` (scale out / in in float) picks PyTorch's nearest sources.
bool sizes_nearest_exact(const Int& in, const Int& out, bool exact) {
  if (!in.is_const() || !out.is_const()) return false;
  float scale = static_cast<float>(out.c()) / static_cast<float>(in.c());
  for (int64_t d = 0; d < out.c(); ++d)
    if (ort_nearest(d, in.c(), scale, exact) != torch_nearest(d, in.c(), out.c(), std::nullopt, exact))
      return false;
  return true;
}

// PyTorch's nearest source indices along one axis as an int64 vector: a constant for static sizes,
// the same float arithmetic in ONNX ops otherwise.
Value* nearest_indices(Builder& b, const Int& in, const Int& out, std::optional<double> sf, bool exact) {
  if (in.is_const() && out.is_const()) {
    std::vector<int64_t> v;
    for (int64_t d = 0; d < out.c(); ++d) v.push_back(torch_nearest(d, in.c(), out.c(), sf, exact));
    return b.i64(v);
  }
  Value* scale = sf ? b.scalar(static_cast<float>(1.0 / *sf), ElementType::Float32)
                    : b.op("Div", {b.cast(int_value(b, in), ElementType::Float32),
                                   b.cast(int_value(b, out), ElementType::Float32)});
  Value* dst = iota(b, out);
  Value* src;
  if (exact) {
    Value* t = b.op("Add", {b.cast(dst, ElementType::Float64), b.scalar(0.5, ElementType::Float64)});
    src = b.cast(b.op("Mul", {t, b.cast(scale, ElementType::Float64)}), ElementType::Float32);
  } else {
    src = b.op("Mul", {b.cast(dst, ElementType::Float32), scale});
  }
  Value* idx = b.cast(b.op("Floor", {src}), ElementType::Int64);
  return b.op("Min", {idx, int_value(b, int_add(b, in, -1))});
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
  std::vector<double> sf;
  if (ir::has_attr(n, "scale_factor"))
    for (float f : ir::attr_floats(n, "scale_factor")) sf.push_back(as_double(f));
  // PyTorch takes coordinates from the scale factor unless it is recomputed from the sizes.
  bool use_scales = !size && recompute != 1;
  const Type& declared = n.output(0)->type();

  // Output spatial sizes: the declared (PyTorch's) size when static, else computed as PyTorch does.
  std::vector<Int> in_dims, osz;
  auto given = Builder::const_ints(size);
  for (size_t i = 0; i < sp; ++i) {
    DimExpr e = declared.is_tensor() && declared.has_rank() ? declared.dim(2 + i) : DimExpr::unknown();
    Int in = int_dim(b, x, static_cast<int64_t>(2 + i));
    in_dims.push_back(in);
    if (given) {
      osz.push_back(int_const((*given)[i]));
    } else if (e.is_const()) {
      osz.push_back(Int{e, nullptr});
    } else if (size) {
      int64_t at = static_cast<int64_t>(i);
      osz.push_back(Int{e, b.op("Slice", {size, b.i64({at}), b.i64({at + 1}), b.i64({0})})});
    } else if (in.is_const()) {
      osz.push_back(int_const(torch_out(in.c(), sf[i], std::nullopt)));
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
  // PyTorch copies the input when no spatial size changes (whatever the scale factor says), and its
  // linear modes treat each axis whose size is unchanged as an identity.
  bool same = true;
  std::vector<bool> axis_same;
  for (size_t i = 0; i < sp; ++i) {
    axis_same.push_back(in_dims[i].expr.provably_equal(osz[i].expr));
    same = same && axis_same.back();
  }
  // Which kernels of PyTorch 2.14 (CPU) take an axis whose size is unchanged as an identity even when
  // a scale factor says otherwise (read off eager: F.interpolate(arange(3), scale_factor=1.2)):
  // the linear modes, antialiased ones, and nearest on 2-d images (its 1-d and 3-d kernels and
  // bicubic use the scale factor).
  bool identity_axes = antialias || (!cubic && mode != "nearest" && mode != "nearest-exact") ||
                       (mode == "nearest" && sp == 2);
  auto axis_identity = [&](size_t i) { return use_scales && axis_same[i] && identity_axes; };
  auto scale_of = [&](size_t i) -> std::optional<double> {
    if (use_scales && !axis_identity(i)) return sf[i];
    return std::nullopt;  // coordinates from the sizes (in / out; 1 on an identity axis)
  };
  if (same && !antialias) {
    out = {b.op("Identity", {x}, Attrs(), yt)};
    return;
  }
  // Interpolation matrices, one per axis, for what Resize cannot express here: antialiasing
  // (ONNX Resize's antialias filter is not PyTorch's) and cubic on targets without cubic Resize.
  if (antialias || (cubic && !ctx.caps.resize_cubic)) {
    Value* y = x;
    for (size_t i = 0; i < sp; ++i) {
      bool sizes_known = in_dims[i].is_const() && osz[i].is_const();
      if (!sizes_known && !antialias) {
        ctx.error(n, fmt::format("target {} has no cubic Resize, and bicubic interpolation matrices need static "
                                 "spatial sizes",
                                 ctx.target.name));
        return;
      }
      Value* w;
      if (!sizes_known)
        w = antialias_matrix_runtime(b, in_dims[i], osz[i], align, scale_of(i), cubic, x);
      else if (antialias)
        w = antialias_matrix(b, in_dims[i].c(), osz[i].c(), align, scale_of(i), cubic, x);
      else
        w = bicubic_matrix(b, in_dims[i].c(), osz[i].c(), align, scale_of(i), x);
      y = matmul_axis(b, y, static_cast<int64_t>(2 + i), w, osz[i]);
    }
    out = {y};
    return;
  }

  bool nearest = mode == "nearest" || mode == "nearest-exact";
  bool exact = mode == "nearest-exact";
  // Resize when it reproduces PyTorch: its output sizes, and for nearest modes every source index
  // (ONNX Runtime divides by a float scale where PyTorch multiplies by a float inverse, so an exact
  // integer boundary can round the other way). Otherwise nearest is a Gather of PyTorch's indices.
  std::vector<float> scales = {1.0f, 1.0f};
  bool resize_ok = true;
  for (size_t i = 0; i < sp && resize_ok; ++i) {
    if (axis_identity(i)) {
      scales.push_back(1.0f);  // PyTorch's per-axis identity (above)
    } else if (use_scales) {
      auto c = resize_scale(sf[i], in_dims[i], nearest, exact);
      if (c)
        scales.push_back(*c);
      else
        resize_ok = false;
    } else if (nearest) {
      resize_ok = sizes_nearest_exact(in_dims[i], osz[i], exact);
    }
  }
  if (nearest && !resize_ok) {
    Value* y = x;
    for (size_t i = 0; i < sp; ++i) {
      Value* idx = nearest_indices(b, in_dims[i], osz[i], scale_of(i), exact);
      if (auto v = Builder::const_ints(idx);
          v && in_dims[i].is_const() && static_cast<int64_t>(v->size()) == in_dims[i].c()) {
        bool identity = true;
        for (size_t k = 0; k < v->size(); ++k) identity = identity && (*v)[k] == static_cast<int64_t>(k);
        if (identity) continue;
      }
      y = b.op("Gather", {y, idx}, Attrs().i("axis", static_cast<int64_t>(2 + i)));
    }
    if (y == x) y = b.op("Identity", {x});
    y->set_type(yt);
    out = {y};
    return;
  }

  Attrs a;
  if (nearest) {
    a.s("mode", "nearest");
    if (exact)
      a.s("coordinate_transformation_mode", "half_pixel").s("nearest_mode", "round_prefer_ceil");
    else
      a.s("coordinate_transformation_mode", "asymmetric").s("nearest_mode", "floor");
  } else {
    a.s("mode", cubic ? "cubic" : "linear")
        .s("coordinate_transformation_mode", align ? "align_corners" : "half_pixel");
    if (cubic) a.f("cubic_coeff_a", -0.75f);
  }
  std::vector<Value*> in = {x, nullptr};
  if (use_scales && resize_ok) {
    in.push_back(b.constant(
        ir::Tensor::from_values<float>(ElementType::Float32, {static_cast<int64_t>(scales.size())}, scales)));
  } else {
    // Sizes: PyTorch's output sizes exactly; with a scale factor no float scale reproduced them, so
    // the coordinate scale becomes out / in (within float rounding of PyTorch's for linear modes).
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
