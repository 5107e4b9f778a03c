// max_pool and avg_pool with PyTorch's semantics: kernel, stride, padding, dilation, ceil_mode
// (PyTorch drops a last window that would start in the right padding), count_include_pad,
// divisor_override, 1-d/2-d/3-d, batched or not, and max_pool's per-plane indices.
//
// ONNX MaxPool / AveragePool where the target runs them with these semantics (ONNX Runtime follows
// PyTorch's ceil_mode rule and count_include_pad divisors; checked against PyTorch in
// tests/onnx/lower/). Otherwise:
//   * windowed slices: the K strided slices of the padded input stacked on a new axis, ReduceMax
//     for the values and ArgMax + index arithmetic for PyTorch's per-plane indices (targets
//     without MaxPool's Indices output or dilation, e.g. TensorRT);
//   * sum / divisor: the same windowed slices of the zero-padded input summed, divided by PyTorch's
//     divisor (a constant map when sizes are static, the window sums of a ones plane padded like
//     PyTorch counts otherwise), so ceil_mode overhangs, count_include_pad and divisor_override
//     come out exactly.
// MaxPool's Indices output is ONNX's whole-tensor layout; where the indices only feed max_unpool it
// stays that way (unpool.cpp consumes it with MaxUnpool), and only other uses get the per-plane
// conversion (Mod by the plane size).
#include <fmt/core.h>

#include <cmath>
#include <limits>

#include "onnx/lower/pool_util.h"

namespace onnxify::lowering {

using ir::DimExpr;
using ir::Node;
using ir::Type;
using ir::Value;

int64_t PoolSpec::window() const {
  int64_t w = 1;
  for (int64_t v : k) w *= v;
  return w;
}

PoolSpec read_pool_spec(const Node& n, bool has_dilation) {
  PoolSpec ps;
  ps.k = ir::attr_ints(n, "kernel_size");
  ps.s = ir::attr_ints(n, "stride");
  ps.p = ir::attr_ints(n, "padding");
  if (has_dilation) ps.d = ir::attr_ints(n, "dilation");
  size_t k = ps.k.size();
  if (ps.s.empty()) ps.s = ps.k;
  if (ps.p.empty()) ps.p.assign(k, 0);
  if (ps.d.empty()) ps.d.assign(k, 1);
  if (n.attr("ceil_mode")) ps.ceil_mode = ir::attr_i(n, "ceil_mode") != 0;
  return ps;
}

std::vector<Int> pool_out_sizes(Builder& b, Value* xb, const PoolSpec& ps, bool* ceil_matters) {
  std::vector<Int> out;
  *ceil_matters = false;
  for (size_t i = 0; i < ps.spatial(); ++i) {
    Int in = int_dim(b, xb, static_cast<int64_t>(2 + i));
    Int o = pool_out(b, in, ps.k[i], ps.s[i], ps.p[i], ps.d[i], ps.ceil_mode);
    if (ps.ceil_mode) {
      if (!in.is_const()) {
        *ceil_matters = true;
      } else {
        Int f = pool_out(b, in, ps.k[i], ps.s[i], ps.p[i], ps.d[i], false);
        if (f.c() != o.c()) *ceil_matters = true;
      }
    }
    out.push_back(o);
  }
  return out;
}

Type pooled_type(Value* xb, const std::vector<Int>& out, ir::ElementType e) {
  std::vector<DimExpr> d = {xb->type().dim(0), xb->type().dim(1)};
  for (const Int& o : out) d.push_back(o.expr);
  return Type::tensor(e, d);
}

Value* iota(Builder& b, const Int& n) {
  if (n.is_const()) {
    std::vector<int64_t> v(static_cast<size_t>(std::max<int64_t>(n.c(), 0)));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>(i);
    return b.i64(v);
  }
  return b.op("Range", {b.i64_scalar(0), b.squeeze(n.value, {0}), b.i64_scalar(1)}, Attrs(),
              Type::tensor(ir::ElementType::Int64, {n.expr}));
}

Value* window_stack(Builder& b, Value* xb, const PoolSpec& ps, const std::vector<Int>& out,
                    double pad_value) {
  size_t sp = ps.spatial();
  // Right padding: exactly enough for the last window when sizes are static; p + s - 1 (always
  // enough, the slices below take exactly `out` windows) otherwise.
  std::vector<int64_t> pads(2 * (sp + 2), 0);
  bool any = false;
  for (size_t i = 0; i < sp; ++i) {
    int64_t right = ps.p[i] + ps.s[i] - 1;
    Int in = int_dim(b, xb, static_cast<int64_t>(2 + i));
    if (in.is_const() && out[i].is_const())
      right =
          std::max<int64_t>(0, (out[i].c() - 1) * ps.s[i] + ps.d[i] * (ps.k[i] - 1) + 1 - in.c() - ps.p[i]);
    pads[2 + i] = ps.p[i];
    pads[sp + 2 + 2 + i] = right;
    any = any || ps.p[i] || right;
  }
  Value* xp = xb;
  if (any) {
    std::vector<DimExpr> d = xb->type().dims();
    for (size_t i = 0; i < sp; ++i) d[2 + i] = d[2 + i] + DimExpr(pads[2 + i] + pads[sp + 4 + i]);
    xp = b.op("Pad", {xb, b.i64(pads), fconst(b, pad_value, xb)}, Attrs().s("mode", "constant"),
              Type::tensor(Builder::elem(xb), d));
  }
  std::vector<int64_t> axes, steps;
  for (size_t i = 0; i < sp; ++i) {
    axes.push_back(static_cast<int64_t>(2 + i));
    steps.push_back(ps.s[i]);
  }
  Type slice_type = pooled_type(xb, out, Builder::elem(xb));
  std::vector<DimExpr> sd = slice_type.dims();
  sd.insert(sd.begin() + 2, DimExpr(1));
  Type unsq_type = Type::tensor(Builder::elem(xb), sd);
  std::vector<Value*> parts;
  std::vector<int64_t> pos(sp, 0);
  for (int64_t w = 0; w < ps.window(); ++w) {
    // pos = the kernel offset of window element w, row-major.
    int64_t rem = w;
    for (size_t i = sp; i-- > 0;) {
      pos[i] = rem % ps.k[i];
      rem /= ps.k[i];
    }
    std::vector<int64_t> starts;
    std::vector<Int> ends;
    for (size_t i = 0; i < sp; ++i) {
      int64_t st = pos[i] * ps.d[i];
      starts.push_back(st);
      ends.push_back(int_add(b, int_mul(b, int_add(b, out[i], -1), ps.s[i]), st + 1));
    }
    Value* sl = b.op("Slice", {xp, b.i64(starts), shape_value(b, ends), b.i64(axes), b.i64(steps)}, Attrs(),
                     slice_type);
    parts.push_back(b.op("Unsqueeze", {sl, b.i64({2})}, Attrs(), unsq_type));
  }
  sd[2] = DimExpr(ps.window());
  return b.op("Concat", parts, Attrs().i("axis", 2), Type::tensor(Builder::elem(xb), sd));
}

Value* window_indices(Builder& b, Value* xb, Value* arg, const PoolSpec& ps, const std::vector<Int>& out) {
  size_t sp = ps.spatial();
  // Plane strides of the unpadded input: stride[i] = prod(in[i+1:]).
  std::vector<Int> stride(sp, int_const(1));
  for (size_t i = sp - 1; i-- > 0;)
    stride[i] = int_mul(b, stride[i + 1], int_dim(b, xb, static_cast<int64_t>(3 + i)));
  // table[w] = sum_i offset_i(w) * d_i * stride_i: where window element w sits relative to the
  // window's origin, in plane elements.
  Value* table = nullptr;
  std::vector<int64_t> consts(static_cast<size_t>(ps.window()), 0);
  for (size_t i = 0; i < sp; ++i) {
    std::vector<int64_t> part(static_cast<size_t>(ps.window()));
    for (int64_t w = 0; w < ps.window(); ++w) {
      int64_t rem = w, off = 0;
      for (size_t j = sp; j-- > 0;) {
        if (j == i) off = rem % ps.k[j];
        rem /= ps.k[j];
      }
      part[static_cast<size_t>(w)] = off * ps.d[i];
    }
    if (stride[i].is_const()) {
      for (size_t w = 0; w < part.size(); ++w) consts[w] += part[w] * stride[i].c();
    } else {
      Value* t = b.op("Mul", {b.i64(part), stride[i].value});
      table = table ? b.op("Add", {table, t}) : t;
    }
  }
  table = table ? b.op("Add", {table, b.i64(consts)}) : b.i64(consts);
  Value* idx = b.op("Gather", {table, arg}, Attrs().i("axis", 0), arg->type());
  // origin[o] = sum_i (o_i * s_i - p_i) * stride_i, broadcast over (*out).
  for (size_t i = 0; i < sp; ++i) {
    Value* o = iota(b, out[i]);
    Value* start = b.op("Sub", {b.op("Mul", {o, b.i64_scalar(ps.s[i])}), b.i64_scalar(ps.p[i])});
    Value* scaled = stride[i].is_const() ? b.op("Mul", {start, b.i64_scalar(stride[i].c())})
                                         : b.op("Mul", {start, stride[i].value});
    std::vector<int64_t> trailing;
    for (size_t j = i + 1; j < sp; ++j) trailing.push_back(static_cast<int64_t>(j - i));
    if (!trailing.empty()) scaled = b.unsqueeze(scaled, trailing);
    idx = b.op("Add", {idx, scaled}, Attrs(), arg->type());
  }
  return idx;
}

namespace {

// 1-d pooling for targets without it: run it as 2-d with a unit height.
bool lift_1d(const PoolSpec& ps, const Context& ctx) { return ps.spatial() == 1 && !ctx.caps.pool_1d; }

PoolSpec lifted(const PoolSpec& ps) {
  PoolSpec l = ps;
  l.k.insert(l.k.begin(), 1);
  l.s.insert(l.s.begin(), 1);
  l.p.insert(l.p.begin(), 0);
  l.d.insert(l.d.begin(), 1);
  return l;
}

Attrs pool_attrs(const PoolSpec& ps, bool ceil, bool dilations) {
  std::vector<int64_t> pads = ps.p;
  pads.insert(pads.end(), ps.p.begin(), ps.p.end());
  Attrs a;
  a.ints("kernel_shape", ps.k).ints("strides", ps.s).ints("pads", pads);
  if (ceil) a.i("ceil_mode", 1);
  if (dilations) a.ints("dilations", ps.d);
  return a;
}

bool all_ones(const std::vector<int64_t>& v) {
  for (int64_t x : v)
    if (x != 1) return false;
  return true;
}

// The indices output of a composite: used at all?
bool indices_wanted(const Node& n) { return n.num_outputs() > 1 && n.output(1) && n.output(1)->has_uses(); }

}  // namespace

void lower_max_pool(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  PoolSpec ps = read_pool_spec(n, true);
  bool added = false;
  Value* xb = batch_up(b, n.input(0), static_cast<int64_t>(ps.spatial()), &added);
  if (Builder::rank(xb) != static_cast<int64_t>(ps.spatial()) + 2) {
    ctx.error(n, "max_pool needs an input of known rank");
    return;
  }
  bool want_idx = indices_wanted(n);
  bool ceil_matters = false;
  std::vector<Int> osz = pool_out_sizes(b, xb, ps, &ceil_matters);
  Type vt = pooled_type(xb, osz, Builder::elem(xb));
  Type it = pooled_type(xb, osz, ir::ElementType::Int64);
  bool dilated = !all_ones(ps.d);
  bool onnx_ok = (!want_idx || ctx.caps.maxpool_indices) && (!dilated || ctx.caps.pool_dilation) &&
                 (!ceil_matters || ctx.caps.pool_ceil_mode) && (!want_idx || !lift_1d(ps, ctx));
  Value* values = nullptr;
  Value* indices = nullptr;
  if (onnx_ok) {
    bool lift = lift_1d(ps, ctx);
    PoolSpec qs = lift ? lifted(ps) : ps;
    Value* xin = lift ? b.unsqueeze(xb, {2}) : xb;
    Node* mp = b.node("MaxPool", {xin}, want_idx ? 2 : 1, pool_attrs(qs, ceil_matters, dilated),
                      {lift ? Type() : vt, it});
    values = lift ? b.squeeze(mp->output(0), {2}) : mp->output(0);
    if (want_idx) {
      Value* whole = mp->output(1);
      Int plane = int_const(1);
      for (size_t i = 0; i < ps.spatial(); ++i)
        plane = int_mul(b, plane, int_dim(b, xb, static_cast<int64_t>(2 + i)));
      // Uses by max_unpool keep ONNX's whole-tensor layout; only the others get per-plane indices.
      bool others = false;
      std::vector<ir::Use> uses = n.output(1)->uses();
      for (const ir::Use& u : uses) {
        if (!added && u.user && u.user->is("max_unpool", ir::kOnnxifyDomain) && u.index == 1)
          u.user->set_input(1, whole);
        else
          others = true;
      }
      ctx.whole_indices[whole] = WholeIndices{plane.expr, int_value(b, plane)};
      indices = others ? b.op("Mod", {whole, int_value(b, plane)}, Attrs(), it) : whole;
    }
  } else {
    Value* stack = window_stack(b, xb, ps, osz, -std::numeric_limits<double>::infinity());
    values = b.op("ReduceMax", {stack}, Attrs().ints("axes", {2}).i("keepdims", 0), vt);
    if (want_idx) {
      Value* arg = b.op("ArgMax", {stack}, Attrs().i("axis", 2).i("keepdims", 0), it);
      indices = window_indices(b, xb, arg, ps, osz);
    }
  }
  out = {batch_down(b, values, added)};
  if (n.num_outputs() > 1) out.push_back(indices ? batch_down(b, indices, added) : nullptr);
}

namespace {

// The divisor PyTorch uses at each output position, as a static (1, 1, *out) constant: the window
// size clipped to [-p, in + p) when count_include_pad, to [0, in) otherwise.
Value* static_divisor(Builder& b, const PoolSpec& ps, const std::vector<int64_t>& in,
                      const std::vector<int64_t>& out, bool count_pad, const Value* like) {
  size_t sp = ps.spatial();
  std::vector<std::vector<double>> per_axis(sp);
  for (size_t i = 0; i < sp; ++i)
    for (int64_t o = 0; o < out[i]; ++o) {
      int64_t start = o * ps.s[i] - ps.p[i], end = start + ps.k[i];
      int64_t lo = count_pad ? -ps.p[i] : 0, hi = count_pad ? in[i] + ps.p[i] : in[i];
      per_axis[i].push_back(static_cast<double>(std::min(end, hi) - std::max(start, lo)));
    }
  std::vector<int64_t> shape = {1, 1};
  int64_t total = 1;
  for (size_t i = 0; i < sp; ++i) {
    shape.push_back(out[i]);
    total *= out[i];
  }
  std::vector<double> vals(static_cast<size_t>(total));
  for (int64_t f = 0; f < total; ++f) {
    int64_t rem = f;
    double v = 1;
    for (size_t i = sp; i-- > 0;) {
      v *= per_axis[i][static_cast<size_t>(rem % out[i])];
      rem /= out[i];
    }
    vals[static_cast<size_t>(f)] = v;
  }
  ir::ElementType e = Builder::elem(like);
  if (e == ir::ElementType::Float64) return b.constant(ir::Tensor::from_values<double>(e, shape, vals));
  std::vector<float> f32(vals.begin(), vals.end());
  Value* c = b.constant(ir::Tensor::from_values<float>(ir::ElementType::Float32, shape, f32));
  return b.cast(c, e);
}

}  // namespace

void lower_avg_pool(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  PoolSpec ps = read_pool_spec(n, false);
  bool count_pad = ir::attr_i(n, "count_include_pad") != 0;
  int64_t divisor = ir::attr_i(n, "divisor_override");
  bool added = false;
  Value* xb = batch_up(b, n.input(0), static_cast<int64_t>(ps.spatial()), &added);
  if (Builder::rank(xb) != static_cast<int64_t>(ps.spatial()) + 2) {
    ctx.error(n, "avg_pool needs an input of known rank");
    return;
  }
  bool ceil_matters = false;
  std::vector<Int> osz = pool_out_sizes(b, xb, ps, &ceil_matters);
  Type vt = pooled_type(xb, osz, Builder::elem(xb));
  bool onnx_ok = (!ceil_matters || ctx.caps.pool_ceil_mode) && (divisor == 0 || (count_pad && !ceil_matters));
  if (onnx_ok) {
    bool lift = lift_1d(ps, ctx);
    PoolSpec q = lift ? lifted(ps) : ps;
    Value* xin = lift ? b.unsqueeze(xb, {2}) : xb;
    Attrs a = pool_attrs(q, ceil_matters, false);
    if (count_pad) a.i("count_include_pad", 1);
    Value* y = b.op("AveragePool", {xin}, std::move(a), lift ? Type() : vt);
    if (lift) y = b.squeeze(y, {2});
    // Every window is whole (no overhang) and counts its padding: the divisor is the window size.
    if (divisor) y = b.op("Mul", {y, fconst(b, static_cast<double>(ps.window()) / divisor, xb)}, Attrs(), vt);
    out = {batch_down(b, y, added)};
    return;
  }
  // sum / divisor: the windows as strided slices of the zero-padded input (no Pad feeding a pool,
  // whose fusion in ONNX Runtime would produce pads it then refuses), summed.
  size_t sp = ps.spatial();
  bool fixed = true;
  std::vector<int64_t> in_static, out_static;
  for (size_t i = 0; i < sp; ++i) {
    auto d = Builder::static_dim(xb, static_cast<int64_t>(2 + i));
    fixed = fixed && d && osz[i].is_const();
    in_static.push_back(d.value_or(0));
    out_static.push_back(osz[i].is_const() ? osz[i].c() : 0);
  }
  auto window_sum = [&](Value* v, const PoolSpec& spec) {
    return b.reduce("ReduceSum", window_stack(b, v, spec, osz, 0.0), {2}, false);
  };
  Value* sum = window_sum(xb, ps);
  Value* y;
  if (divisor) {
    y = b.op("Div", {sum, fconst(b, static_cast<double>(divisor), xb)});
  } else if (fixed) {
    y = b.op("Div", {sum, static_divisor(b, ps, in_static, out_static, count_pad, xb)});
  } else {
    // The divisor map at run time: the same windows over a (1, 1, *in) plane of ones, padded with
    // ones where PyTorch counts padding (count_include_pad) and zeros beyond.
    std::vector<Value*> plane_shape = {b.i64({1, 1})};
    std::vector<DimExpr> plane_dims = {DimExpr(1), DimExpr(1)};
    for (size_t i = 0; i < sp; ++i) {
      plane_shape.push_back(b.dim(xb, static_cast<int64_t>(2 + i)));
      plane_dims.push_back(xb->type().dim(2 + i));
    }
    Value* ones = b.op("ConstantOfShape", {b.concat_i64(plane_shape)},
                       Attrs().t("value", filled_tensor(1, Builder::elem(xb), {1})),
                       Type::tensor(Builder::elem(xb), plane_dims));
    PoolSpec spec = ps;
    if (count_pad) {
      std::vector<int64_t> pads(2 * (sp + 2), 0);
      for (size_t i = 0; i < sp; ++i) {
        pads[2 + i] = ps.p[i];
        pads[sp + 4 + i] = ps.p[i];
        std::fill(spec.p.begin(), spec.p.end(), 0);
      }
      ones = b.op("Pad", {ones, b.i64(pads), fconst(b, 1.0, xb)}, Attrs().s("mode", "constant"));
    }
    y = b.op("Div", {sum, window_sum(ones, spec)});
  }
  y->set_type(vt);
  out = {batch_down(b, y, added)};
}

}  // namespace onnxify::lowering
