// Convolutions whose `groups` is only known when the model runs (modulated convolution:
// `F.conv2d(x.view(1, N * C, H, W), w.view(N * O, C, k, k), groups=N)`).
//
// ONNX's `group` is a static attribute. The lowering chosen here is im2col + one batched MatMul:
//   * the (padded) input is cut into its k_1 * ... * k_d kernel taps, each one strided Slice
//     ([B, C, S'...]), stacked into patches [B, C, K, S'...] and reshaped to [B, G, C/G * K, L]
//     (L = prod S'); C = G * C/G is contiguous, so group g's channels are one row block;
//   * the weight [O, C/G, k...] is reshaped to [G, O/G, C/G * K] (same (channel, tap) order);
//   * MatMul broadcasts [G, O/G, C/G*K] @ [B, G, C/G*K, L] -> [B, G, O/G, L] -> [B, O, S'...].
// Every output element is the same sum of products as the grouped convolution (only the summation
// order differs), the cost is linear in G, and everything stays static-attribute ONNX with symbolic
// sizes. Rejected: an ONNX Loop over the groups with one Conv each (a subgraph per conv and a
// sequential loop over the batch), and a dense Conv over all G*O filters keeping the diagonal blocks
// (G times the work). The patches take K times the input's memory, as any im2col does.
//
// The transposed convolution is col2im: one batched MatMul gives every (tap, output channel) map of
// the input pixels ([G, K * O/G, C/G] @ [B, G, C/G, S]). Tap t sends pixel x to x*s + t*d - p, so
// with stride s the output splits into s phases (positions = r mod s): each phase is the sum of its
// taps' maps shifted (ONNX Pad; negative pads crop), and the phases are interleaved (Concat,
// Transpose, Reshape) and cropped to the output size. The multiplications are exactly
// ConvTranspose's (none with inserted zeros); the shifted maps are input-sized.
#include "torch/conv_groups.h"

#include <fmt/core.h>

#include <limits>

namespace onnxify::torch {

using ir::DimExpr;

namespace {

ir::Type ty(DType dt, const std::vector<DimExpr>& shape) { return ir::Type::tensor(elem(dt), shape); }

// The grouped convolution of xv [B, C, S...] with wmat [G, Og, Cg*K] (the kernel flattened in
// row-major tap order), stride / dilation per spatial dim, pads begins then ends (may be negative).
ir::Value* im2col_matmul(OpCall& c, ir::Value* xv, std::vector<DimExpr> xs, DType dt, ir::Value* wmat, DimExpr g,
                         DimExpr og, DimExpr cg, const std::vector<int64_t>& kernel, const std::vector<int64_t>& stride,
                         const std::vector<int64_t>& pads, const std::vector<int64_t>& dilation,
                         std::vector<DimExpr>* shape) {
  const size_t sp = kernel.size();
  bool any_pad = false;
  for (int64_t p : pads) any_pad |= p != 0;
  if (any_pad) {
    std::vector<int64_t> onnx_pads(2 * (sp + 2), 0);
    for (size_t i = 0; i < sp; ++i) {
      onnx_pads[2 + i] = pads[i];
      onnx_pads[sp + 4 + i] = pads[sp + i];
      xs[2 + i] = xs[2 + i] + pads[i] + pads[sp + i];
    }
    xv = c.rec.emit("Pad", {xv, c.rec.const_i64(onnx_pads)}, ty(dt, xs));
  }
  std::vector<DimExpr> out;
  int64_t taps = 1;
  for (size_t i = 0; i < sp; ++i) {
    out.push_back(ir::floor_div(xs[2 + i] - dilation[i] * (kernel[i] - 1) - 1, DimExpr(stride[i])) + 1);
    taps *= kernel[i];
  }
  // One strided Slice per tap (row-major over the kernel dims, as the weight is flattened).
  std::vector<int64_t> axes, tap(sp, 0);
  for (size_t i = 0; i < sp; ++i) axes.push_back(static_cast<int64_t>(2 + i));
  std::vector<DimExpr> tap_shape{xs[0], xs[1], DimExpr(1)};
  tap_shape.insert(tap_shape.end(), out.begin(), out.end());
  std::vector<DimExpr> sliced(tap_shape);
  sliced.erase(sliced.begin() + 2);
  std::vector<ir::Value*> pieces;
  for (int64_t t = 0; t < taps; ++t) {
    std::vector<int64_t> starts;
    std::vector<DimExpr> ends;
    for (size_t i = 0; i < sp; ++i) {
      starts.push_back(tap[i] * dilation[i]);
      ends.push_back(out[i] * stride[i] + (tap[i] * dilation[i] - stride[i] + 1));
    }
    ir::Value* s = c.rec.emit("Slice",
                              {xv, c.rec.const_i64(starts), c.rec.shape_value(ends), c.rec.const_i64(axes),
                               c.rec.const_i64(stride)},
                              ty(dt, sliced));
    pieces.push_back(c.rec.emit("Unsqueeze", {s, c.rec.const_i64({2})}, ty(dt, tap_shape)));
    for (size_t i = sp; i-- > 0;) {  // next tap, last kernel dim fastest
      if (++tap[i] < kernel[i]) break;
      tap[i] = 0;
    }
  }
  std::vector<DimExpr> stacked(tap_shape);
  stacked[2] = DimExpr(taps);
  ir::Value* patches =
      pieces.size() == 1 ? pieces[0] : c.rec.emit("Concat", pieces, ty(dt, stacked), {{"axis", int64_t{2}}});
  DimExpr l = product(out);
  std::vector<DimExpr> cols{xs[0], g, cg * taps, l};
  patches = reshape_value(c.T, patches, cols, elem(dt));
  std::vector<DimExpr> prod{xs[0], g, og, l};
  ir::Value* y = c.rec.emit("MatMul", {wmat, patches}, ty(dt, prod));
  *shape = {xs[0], g * og};
  shape->insert(shape->end(), out.begin(), out.end());
  return reshape_value(c.T, y, *shape, elem(dt));
}

std::vector<int64_t> kernel_of(OpCall& c, TensorObj* w, size_t sp, bool* ok) {
  std::vector<int64_t> k;
  *ok = true;
  for (size_t i = 0; i < sp; ++i) {
    if (!w->shape[2 + i].is_const()) *ok = false;
    else k.push_back(w->shape[2 + i].value());
  }
  (void)c;
  return k;
}

// y [B, O, S'...] + bias [O] broadcast over the spatial dims.
ir::Value* add_bias(OpCall& c, ir::Value* y, const std::vector<DimExpr>& shape, TensorObj* bias, DType dt) {
  if (!bias) return y;
  std::vector<int64_t> axes;
  std::vector<DimExpr> bs{bias->shape[0]};
  for (size_t i = 2; i < shape.size(); ++i) axes.push_back(static_cast<int64_t>(i - 1)), bs.push_back(DimExpr(1));
  ir::Value* b = cast_to(c.T, c.v(bias), bias->dtype, dt, bias->shape);
  if (!axes.empty()) b = c.rec.emit("Unsqueeze", {b, c.rec.const_i64(axes)}, ty(dt, bs));
  return c.rec.emit("Add", {y, b}, ty(dt, shape));
}

}  // namespace

ir::Value* conv_runtime_groups(OpCall& c, ir::Value* xv, const std::vector<DimExpr>& xs, TensorObj* w,
                               TensorObj* bias, DimExpr groups, const std::vector<int64_t>& stride,
                               const std::vector<int64_t>& pads, const std::vector<int64_t>& dilation,
                               std::vector<DimExpr>* shape) {
  const size_t sp = xs.size() - 2;
  bool ok = false;
  std::vector<int64_t> kernel = kernel_of(c, w, sp, &ok);
  if (!ok) {
    c.unsupported("a convolution kernel of symbolic size");
    return nullptr;
  }
  DType dt = w->dtype;
  DimExpr og = ir::floor_div(w->shape[0], groups), cg = w->shape[1];
  int64_t taps = 1;
  for (int64_t k : kernel) taps *= k;
  std::vector<DimExpr> ws{groups, og, cg * taps};
  ir::Value* wmat = reshape_value(c.T, c.v(w), ws, elem(dt));
  ir::Value* y = im2col_matmul(c, xv, xs, dt, wmat, groups, og, cg, kernel, stride, pads, dilation, shape);
  return add_bias(c, y, *shape, bias, dt);
}

ir::Value* conv_transpose_runtime_groups(OpCall& c, ir::Value* xv, const std::vector<DimExpr>& xs, TensorObj* w,
                                         TensorObj* bias, DimExpr groups, const std::vector<int64_t>& stride,
                                         const std::vector<int64_t>& padding, const std::vector<int64_t>& outpad,
                                         const std::vector<int64_t>& dilation, std::vector<DimExpr>* shape) {
  const size_t sp = xs.size() - 2;
  bool ok = false;
  std::vector<int64_t> kernel = kernel_of(c, w, sp, &ok);
  if (!ok) {
    c.unsupported("a transposed convolution kernel of symbolic size");
    return nullptr;
  }
  DType dt = w->dtype;
  DimExpr cg = ir::floor_div(xs[1], groups), og = w->shape[1];
  int64_t taps = 1, phases = 1;
  for (int64_t k : kernel) taps *= k;
  for (int64_t s : stride) phases *= s;
  // cols[b, g, tap, o, pixel] = sum_c w[g*Cg + c, o, tap] * x[b, g*Cg + c, pixel] (tap outermost, so
  // that each tap's map is one contiguous block per (b, g))
  std::vector<DimExpr> w4{groups, cg, og, DimExpr(taps)}, wt{groups, DimExpr(taps), og, cg},
      w3{groups, og * taps, cg};
  ir::Value* wv = reshape_value(c.T, c.v(w), w4, elem(dt));
  wv = c.rec.emit("Transpose", {wv}, ty(dt, wt), {{"perm", std::vector<int64_t>{0, 3, 2, 1}}});
  wv = reshape_value(c.T, wv, w3, elem(dt));
  DimExpr pix = product(xs, 2);
  std::vector<DimExpr> x4{xs[0], groups, cg, pix}, c4{xs[0], groups, og * taps, pix},
      c5{xs[0], groups, DimExpr(taps), og, pix};
  ir::Value* x4v = reshape_value(c.T, xv, x4, elem(dt));
  ir::Value* cols = c.rec.emit("MatMul", {wv, x4v}, ty(dt, c4));
  cols = reshape_value(c.T, cols, c5, elem(dt));
  // Per dim: output length L, phases s, phase length M = ceil(L / s).
  *shape = {xs[0], groups * og};
  std::vector<DimExpr> plane{xs[0], groups * og}, phase_shape{xs[0], groups * og};
  for (size_t i = 0; i < sp; ++i) {
    DimExpr l = (xs[2 + i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (kernel[i] - 1) + outpad[i] + 1;
    shape->push_back(l);
    plane.push_back(xs[2 + i]);
    phase_shape.push_back(ir::ceil_div(l, DimExpr(stride[i])));
  }
  // Tap t sends pixel x to x*s + e (e = t*d - p = q*s + r): phase r, shifted by q. Each phase sums its
  // taps' maps, shifted (ONNX Pad; negative pads crop) to M.
  std::vector<std::vector<ir::Value*>> by_phase(static_cast<size_t>(phases));
  std::vector<int64_t> tap(sp, 0);
  for (int64_t t = 0; t < taps; ++t) {
    std::vector<DimExpr> b4{xs[0], groups, og, pix};
    ir::Value* m = c.rec.emit("Gather", {cols, c.rec.const_i64_scalar(t)}, ty(dt, b4), {{"axis", int64_t{2}}});
    m = reshape_value(c.T, m, plane, elem(dt));
    std::vector<DimExpr> pads(2 * (sp + 2), DimExpr(0));
    int64_t phase = 0;
    for (size_t i = 0; i < sp; ++i) {
      int64_t e = tap[i] * dilation[i] - padding[i];
      int64_t q = ir::floor_div(e, stride[i]), r = e - q * stride[i];
      phase = phase * stride[i] + r;
      pads[2 + i] = DimExpr(q);
      pads[sp + 4 + i] = phase_shape[2 + i] - xs[2 + i] - q;
    }
    bool any = false;
    for (const DimExpr& d : pads) any |= !(d.is_const() && d.value() == 0);
    if (any) m = c.rec.emit("Pad", {m, c.rec.shape_value(pads)}, ty(dt, phase_shape));
    by_phase[static_cast<size_t>(phase)].push_back(m);
    for (size_t i = sp; i-- > 0;) {  // next tap, last kernel dim fastest
      if (++tap[i] < kernel[i]) break;
      tap[i] = 0;
    }
  }
  std::vector<DimExpr> one_phase(phase_shape);
  one_phase.insert(one_phase.begin() + 2, DimExpr(1));
  std::vector<ir::Value*> stacked;
  for (auto& parts : by_phase) {
    ir::Value* p = parts.empty()   ? c.rec.emit("Expand", {c.rec.const_scalar(elem(dt), 0), c.rec.shape_value(phase_shape)},
                                                ty(dt, phase_shape))
                   : parts.size() == 1 ? parts[0]
                                       : c.rec.emit("Sum", parts, ty(dt, phase_shape));
    stacked.push_back(phases == 1 ? p : c.rec.emit("Unsqueeze", {p, c.rec.const_i64({2})}, ty(dt, one_phase)));
  }
  if (phases == 1) return add_bias(c, stacked[0], *shape, bias, dt);  // M = L
  // Interleave: [B, O, s0*s1.., M0, M1..] -> [B, O, s0, s1.., M0, M1..] -> [B, O, M0, s0, M1, s1..]
  // -> [B, O, M0*s0, M1*s1..], cropped to L.
  std::vector<DimExpr> all(phase_shape), split{xs[0], groups * og}, inter{xs[0], groups * og},
      merged{xs[0], groups * og};
  all.insert(all.begin() + 2, DimExpr(phases));
  std::vector<int64_t> perm{0, 1};
  for (size_t i = 0; i < sp; ++i) split.push_back(DimExpr(stride[i]));
  for (size_t i = 0; i < sp; ++i) {
    split.push_back(phase_shape[2 + i]);
    inter.push_back(phase_shape[2 + i]), inter.push_back(DimExpr(stride[i]));
    merged.push_back(phase_shape[2 + i] * stride[i]);
    perm.push_back(static_cast<int64_t>(2 + sp + i)), perm.push_back(static_cast<int64_t>(2 + i));
  }
  ir::Value* y = c.rec.emit("Concat", stacked, ty(dt, all), {{"axis", int64_t{2}}});
  y = reshape_value(c.T, y, split, elem(dt));
  y = c.rec.emit("Transpose", {y}, ty(dt, inter), {{"perm", perm}});
  y = reshape_value(c.T, y, merged, elem(dt));
  std::vector<int64_t> zeros(sp, 0), axes;
  std::vector<DimExpr> ends(shape->begin() + 2, shape->end());
  for (size_t i = 0; i < sp; ++i) axes.push_back(static_cast<int64_t>(2 + i));
  y = c.rec.emit("Slice", {y, c.rec.const_i64(zeros), c.rec.shape_value(ends), c.rec.const_i64(axes)}, ty(dt, *shape));
  return add_bias(c, y, *shape, bias, dt);
}

}  // namespace onnxify::torch
