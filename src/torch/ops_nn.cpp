// Neural-network ops: convolution, linear algebra (linear, matmul, mm, bmm, addmm), normalization
// (batch_norm, layer_norm, group_norm) and pooling (max/avg/adaptive, max_unpool; composite ops whose
// lowering lives in src/onnx/lower, except max/avg pools with a kernel only known at run time, which
// are recorded here as Reshape + Reduce). Output sizes are PyTorch's formulas over DimExprs.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include "torch/conv_groups.h"
#include "torch/ops.h"

namespace onnxify::torch {

using eval::Value;
using ir::DimExpr;

namespace {

// Adds a batch dim to an unbatched input of a spatial op (rank == spatial + 1); `unbatch` undoes it.
struct Batched {
  TensorObj* x;
  ir::Value* v;
  std::vector<DimExpr> shape;
  bool added = false;
};

Batched batch(OpCall& c, TensorObj* x, size_t spatial, const char* what) {
  Batched b{x, c.v(x), x->shape};
  if (x->rank() == spatial + 2) return b;
  if (x->rank() != spatial + 1)
    c.runtime_error(fmt::format("Expected {}D (unbatched) or {}D (batched) input to {}, but got input of size: {}",
                                spatial + 1, spatial + 2, what, shape_text(x->shape)));
  b.shape.insert(b.shape.begin(), DimExpr(1));
  b.v = c.rec.emit("Unsqueeze", {b.v, c.rec.const_i64({0})}, ir::Type::tensor(elem(x->dtype), b.shape));
  b.added = true;
  return b;
}

Value unbatch(OpCall& c, const Batched& b, ir::Value* v, DType dt, std::vector<DimExpr> shape) {
  if (!b.added) return c.out(v, dt, std::move(shape));
  std::vector<DimExpr> s(shape.begin() + 1, shape.end());
  ir::Value* r = c.rec.emit("Squeeze", {v, c.rec.const_i64({0})}, ir::Type::tensor(elem(dt), s));
  return c.out(r, dt, std::move(s));
}

// PyTorch's convolution / pooling output size (floor mode).
DimExpr conv_out(DimExpr in, int64_t k, int64_t s, int64_t p, int64_t d) {
  return ir::floor_div(in + 2 * p - d * (k - 1) - 1, DimExpr(s)) + 1;
}

// Pooling output size with ceil_mode: the last window must start inside the input or left padding.
DimExpr pool_out(DimExpr in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  if (!ceil_mode) return conv_out(in, k, s, p, d);
  DimExpr out = ir::ceil_div(in + 2 * p - d * (k - 1) - 1, DimExpr(s)) + 1;
  if (in.is_const()) {
    int64_t o = out.value();
    if ((o - 1) * s >= in.value() + p) --o;
    return o;
  }
  // Windows start at i*s - p; one starting at or after in + p is dropped: at most ceil((in + p) / s).
  return ir::min(out, ir::ceil_div(in + p, DimExpr(s)));
}

Value conv(OpCall& c, size_t spatial) {
  TensorObj* x = c.t(0);
  TensorObj* w = c.t(1);
  TensorObj* bias = c.a.opt_tensor(2);
  std::vector<int64_t> stride = c.a.ints(3), dilation = c.a.ints(5);
  // groups only known at run time (groups=N of modulated convolution): conv_groups.cpp
  DimExpr gdim = c.a.dim(6);
  const bool runtime_groups = !gdim.is_const();
  int64_t groups = runtime_groups ? 1 : gdim.value();
  std::string name = fmt::format("conv{}d", spatial);
  if (w->rank() != spatial + 2)
    c.runtime_error(fmt::format("Expected {}-dimensional weight for {}-dimensional input, but got weight of size {}",
                                spatial + 2, spatial + 2, shape_text(w->shape)));
  if (x->dtype != w->dtype)
    c.runtime_error(fmt::format("Input type ({}) and weight type ({}) should be the same", info(x->dtype).name,
                                info(w->dtype).name));
  Batched b = batch(c, x, spatial, name.c_str());
  DimExpr cin = b.shape[1];
  if (!runtime_groups && groups <= 0) c.runtime_error("non-positive groups is not supported");
  if (!runtime_groups && cin.is_const() && w->shape[1].is_const() && cin.value() != w->shape[1].value() * groups)
    c.runtime_error(fmt::format("Given groups={}, weight of size {}, expected input{} to have {} channels, but got {} "
                                "channels instead",
                                groups, shape_text(w->shape), shape_text(x->shape), w->shape[1].value() * groups,
                                cin.value()));
  std::vector<int64_t> kernel, pads(2 * spatial);
  for (size_t i = 0; i < spatial; ++i) {
    if (!w->shape[2 + i].is_const()) return c.unsupported("a convolution kernel of symbolic size");
    kernel.push_back(w->shape[2 + i].value());
  }
  if (c.a.schema->params[4].base == BaseType::Str) {
    std::string mode = c.a.str(4);
    if (mode == "same") {
      for (size_t i = 0; i < spatial; ++i) {
        int64_t total = dilation[i] * (kernel[i] - 1);
        pads[i] = total / 2;
        pads[i + spatial] = total - total / 2;
      }
    } else if (mode != "valid") {
      c.runtime_error(fmt::format("Invalid padding string: '{}'", mode));
    }
  } else {
    std::vector<int64_t> p = c.a.ints(4);
    for (size_t i = 0; i < spatial; ++i) pads[i] = pads[i + spatial] = p[i];
  }
  if (runtime_groups) {
    std::vector<DimExpr> shape;
    ir::Value* v = conv_runtime_groups(c, b.v, b.shape, w, bias, gdim, stride, pads, dilation, &shape);
    if (!v) return c.unsupported("a convolution kernel of symbolic size");
    return unbatch(c, b, v, x->dtype, shape);
  }
  std::vector<DimExpr> shape{b.shape[0], w->shape[0]};
  for (size_t i = 0; i < spatial; ++i) {
    DimExpr in = b.shape[2 + i];
    shape.push_back(ir::floor_div(in + pads[i] + pads[i + spatial] - dilation[i] * (kernel[i] - 1) - 1, DimExpr(stride[i])) + 1);
  }
  std::vector<ir::Value*> ins{b.v, c.v(w)};
  if (bias) ins.push_back(c.v(bias));
  ir::Value* v = c.rec.emit("Conv", ins, ir::Type::tensor(elem(x->dtype), shape),
                            {{"dilations", dilation}, {"group", groups}, {"kernel_shape", kernel}, {"pads", pads},
                             {"strides", stride}});
  return unbatch(c, b, v, x->dtype, shape);
}

// numpy matmul shapes (1-d operands are promoted and the added dim removed).
Value matmul(OpCall& c, TensorObj* a, TensorObj* b) {
  if (a->rank() == 0 || b->rank() == 0) c.runtime_error("both arguments to matmul need to be at least 1D");
  if (a->dtype != b->dtype)
    c.runtime_error(fmt::format("expected scalar type {} but found {}", info(a->dtype).name, info(b->dtype).name));
  std::vector<DimExpr> sa = a->shape, sb = b->shape;
  DimExpr ka = sa.back(), kb = sb.size() == 1 ? sb[0] : sb[sb.size() - 2];
  if (ka.is_const() && kb.is_const() && ka.value() != kb.value())
    c.runtime_error(fmt::format("mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
                                a->rank() > 1 ? sa[sa.size() - 2].str() : "1", ka.str(), kb.str(),
                                sb.size() > 1 ? sb.back().str() : "1"));
  std::vector<DimExpr> shape;
  if (sa.size() == 1 && sb.size() == 1) {
    // dot product: 0-d
  } else if (sb.size() == 1) {
    shape.assign(sa.begin(), sa.end() - 1);
  } else if (sa.size() == 1) {
    shape.assign(sb.begin(), sb.end() - 2);
    shape.push_back(sb.back());
  } else {
    std::vector<DimExpr> ba(sa.begin(), sa.end() - 2), bb(sb.begin(), sb.end() - 2);
    shape = broadcast_shapes(c.I, ba, bb);
    shape.push_back(sa[sa.size() - 2]);
    shape.push_back(sb.back());
  }
  return c.node("MatMul", {c.v(a), c.v(b)}, a->dtype, shape);
}

Value linear(OpCall& c) {
  TensorObj* x = c.t(0);
  TensorObj* w = c.t(1);
  TensorObj* bias = c.a.opt_tensor(2);
  if (w->rank() != 2 && w->rank() != 1) return c.unsupported("linear with a weight that is not 1-d or 2-d");
  if (x->rank() == 2 && w->rank() == 2) {
    DimExpr k = x->shape[1];
    if (k.is_const() && w->shape[1].is_const() && k.value() != w->shape[1].value())
      c.runtime_error(fmt::format("mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", x->shape[0].str(),
                                  k.value(), w->shape[1].value(), w->shape[0].str()));
    std::vector<ir::Value*> ins{c.v(x), c.v(w)};
    if (bias) ins.push_back(c.v(bias));
    return c.node("Gemm", ins, x->dtype, {x->shape[0], w->shape[0]}, {{"transB", int64_t{1}}});
  }
  ir::Value* wt = w->rank() == 2 ? c.rec.emit("Transpose", {c.v(w)}, ir::Type::tensor(elem(w->dtype), {w->shape[1], w->shape[0]}),
                                                {{"perm", std::vector<int64_t>{1, 0}}})
                                 : c.v(w);
  Value wtv = c.out(wt, w->dtype, w->rank() == 2 ? std::vector<DimExpr>{w->shape[1], w->shape[0]} : w->shape);
  Value y = matmul(c, x, as_tensor(wtv));
  if (!bias) return y;
  Operand a, b;
  a.t = as_tensor(y);
  b.t = bias;
  return binary_op(c.T, "Add", a, b);
}

Value batch_norm(OpCall& c) {
  TensorObj* x = c.t(0);
  TensorObj* w = c.a.opt_tensor(1);
  TensorObj* b = c.a.opt_tensor(2);
  TensorObj* mean = c.a.opt_tensor(3);
  TensorObj* var = c.a.opt_tensor(4);
  bool training = c.a.boolean(5);
  double eps = c.a.real(7);
  if (x->rank() < 2) c.value_error(fmt::format("Expected 2D or more input (got {}D input)", x->rank()));
  DimExpr ch = x->shape[1];
  std::vector<DimExpr> cshape{ch};
  auto param = [&](TensorObj* t, double fill) -> ir::Value* {
    if (t) return cast_to(c.T, c.v(t), t->dtype, x->dtype, t->shape);
    return value_of(c.T, as_tensor(new_fill(c.T, fill, x->dtype, cshape)));
  };
  if (!training && mean && var) {
    return c.node("BatchNormalization", {c.v(x), param(w, 1), param(b, 0), param(mean, 0), param(var, 1)}, x->dtype,
                  x->shape, {{"epsilon", static_cast<float>(eps)}, {"momentum", 0.9f}});
  }
  // Batch statistics (training mode, or no running stats): normalize over every dim but the channel.
  std::vector<int64_t> axes{0};
  std::vector<DimExpr> kshape{DimExpr(1), ch};
  for (size_t i = 2; i < x->rank(); ++i) axes.push_back(static_cast<int64_t>(i)), kshape.push_back(DimExpr(1));
  ir::Type kt = ir::Type::tensor(elem(x->dtype), kshape), xt = x->ir_type();
  ir::Value* mu = c.rec.emit("ReduceMean", {c.v(x)}, kt, {{"axes", axes}, {"keepdims", int64_t{1}}});
  ir::Value* d = c.rec.emit("Sub", {c.v(x), mu}, xt);
  ir::Value* v2 = c.rec.emit("ReduceMean", {c.rec.emit("Mul", {d, d}, xt)}, kt, {{"axes", axes}, {"keepdims", int64_t{1}}});
  ir::Value* den = c.rec.emit("Sqrt", {c.rec.emit("Add", {v2, c.rec.const_scalar(elem(x->dtype), eps)}, kt)}, kt);
  ir::Value* y = c.rec.emit("Div", {d, den}, xt);
  if (w) y = c.rec.emit("Mul", {y, reshape_value(c.T, param(w, 1), kshape, elem(x->dtype))}, xt);
  if (b) y = c.rec.emit("Add", {y, reshape_value(c.T, param(b, 0), kshape, elem(x->dtype))}, xt);
  return c.out(y, x->dtype, x->shape);
}

// Pool attributes from kernel_size/stride/padding/dilation lists (stride [] = kernel_size).
struct PoolArgs {
  std::vector<int64_t> k, s, p, d;
};

PoolArgs pool_args(OpCall& c, size_t spatial, size_t ik, size_t is, size_t ip, int id) {
  PoolArgs a;
  a.k = c.a.ints(ik);
  // stride=[] / None means the kernel size.
  const Value& sv = c.a.raw(is);
  bool no_stride = !sv || sv.is_none() || ((eval::is_list(sv) || eval::is_tuple(sv)) && eval::len(c.I, sv) == 0);
  a.s = no_stride ? a.k : c.a.ints(is);
  a.p = c.a.ints(ip);
  a.d = id >= 0 ? c.a.ints(static_cast<size_t>(id)) : std::vector<int64_t>(spatial, 1);
  for (size_t i = 0; i < spatial; ++i) {
    if (a.s[i] <= 0) c.runtime_error("stride should be greater than zero");
    if (a.p[i] > (a.d[i] * (a.k[i] - 1) + 1) / 2)
      c.runtime_error(fmt::format("pad should be at most half of effective kernel size, but got pad={}, kernel_size={} "
                                  "and dilation={}",
                                  a.p[i], a.k[i], a.d[i]));
  }
  return a;
}

// avg_pool's divisor_override (argument 6 of the 2d/3d forms; avg_pool1d has none); 0 = None.
int64_t divisor_override(OpCall& c, size_t spatial) {
  if (spatial == 1 || c.a.is_none(6)) return 0;
  int64_t divisor = c.a.int_(6);
  if (divisor == 0) c.runtime_error("divisor must be not zero");
  return divisor;
}

// A kernel whose size is only known at run time (mobilenetv5's avg_pool2d(x, (h, w), stride=(h, w))
// with h computed from the input size; F.max_pool1d(x, x.size(2)), global pooling written as a
// window). ONNX pools take static kernels, but with stride = kernel, no padding, no dilation and
// floor mode the windows tile the input without overlap: each axis is cropped to (I // k) * k (the
// elements floor mode leaves out), split into (I // k, k) by one Reshape, and the k axes reduced.
// Exact for these arguments; other ones with such a kernel are reported, naming the argument.
// Null when every kernel size is static (the usual path).
Value runtime_kernel_pool(OpCall& c, size_t spatial, bool is_max, bool with_indices) {
  TensorObj* x = c.t(0);
  if (x->rank() != spatial + 1 && x->rank() != spatial + 2) return Value();  // the usual path's error
  std::vector<DimExpr> k = c.a.dims(1);
  bool symbolic = false;
  for (const DimExpr& d : k) symbolic = symbolic || !d.is_const();
  if (!symbolic || k.size() != spatial) return Value();
  std::string kernel_text = shape_text(k);
  auto refuse = [&](const std::string& why) {
    return c.unsupported(fmt::format("a kernel_size only known at run time ({}) {}; with such a kernel only "
                                     "stride = kernel_size, padding 0, dilation 1, ceil_mode=False and no "
                                     "return_indices are supported",
                                     kernel_text, why));
  };
  // max_pool: kernel_size 1, stride 2, padding 3, dilation 4, ceil_mode 5; avg_pool: kernel_size 1,
  // stride 2, padding 3, ceil_mode 4, count_include_pad 5, divisor_override 6 (not in 1d).
  const Value& sv = c.a.raw(2);
  bool no_stride = !sv || sv.is_none() || ((eval::is_list(sv) || eval::is_tuple(sv)) && eval::len(c.I, sv) == 0);
  std::vector<DimExpr> s = no_stride ? k : c.a.dims(2), p = c.a.dims(3);
  std::vector<DimExpr> d = is_max ? c.a.dims(4) : std::vector<DimExpr>(spatial, DimExpr(1));
  for (size_t i = 0; i < spatial; ++i) {
    if (s[i] != k[i]) return refuse(fmt::format("with stride {}", shape_text(s)));
    if (p[i] != DimExpr(0)) return refuse(fmt::format("with padding {}", shape_text(p)));
    if (d[i] != DimExpr(1)) return refuse(fmt::format("with dilation {}", shape_text(d)));
  }
  if (c.a.boolean(is_max ? 5 : 4)) return refuse("with ceil_mode=True");
  if (with_indices) return refuse("with return_indices=True");
  int64_t divisor = is_max ? 0 : divisor_override(c, spatial);

  const size_t lead = x->rank() - spatial;
  std::vector<DimExpr> out(x->shape.begin(), x->shape.begin() + static_cast<std::ptrdiff_t>(lead));
  std::vector<DimExpr> cropped = x->shape, split = out;
  std::vector<int64_t> crop_axes, reduce_axes;
  std::vector<DimExpr> crop_ends;
  for (size_t i = 0; i < spatial; ++i) {
    DimExpr in = x->shape[lead + i];
    if (k[i].is_const() && k[i].value() == 1) {  // every element its own window
      out.push_back(in);
      split.push_back(in);
      continue;
    }
    // A kernel spanning the whole dim is one window (no crop); otherwise floor(I / k) of them.
    DimExpr o = k[i] == in ? DimExpr(1) : ir::floor_div(in, k[i]);
    DimExpr used = k[i] == in ? in : o * k[i];
    if (used != in) {
      crop_axes.push_back(static_cast<int64_t>(lead + i));
      crop_ends.push_back(used);
      cropped[lead + i] = used;
    }
    out.push_back(o);
    split.push_back(o);
    reduce_axes.push_back(static_cast<int64_t>(split.size()));
    split.push_back(k[i]);
  }
  const ir::ElementType e = elem(x->dtype);
  ir::Value* v = c.v(x);
  if (!crop_axes.empty())
    v = c.rec.emit("Slice",
                   {v, c.rec.const_i64(std::vector<int64_t>(crop_axes.size(), 0)), c.rec.shape_value(crop_ends),
                    c.rec.const_i64(crop_axes)},
                   ir::Type::tensor(e, cropped));
  v = reshape_value(c.T, v, split, e);
  Attrs reduce{{"axes", reduce_axes}, {"keepdims", int64_t{0}}};
  if (is_max) return c.node("ReduceMax", {v}, x->dtype, out, reduce);
  if (divisor == 0) return c.node("ReduceMean", {v}, x->dtype, out, reduce);
  // divisor_override replaces the window size as the divisor.
  ir::Value* sum = c.rec.emit("ReduceSum", {v, c.rec.const_i64(reduce_axes)}, ir::Type::tensor(e, out),
                              {{"keepdims", int64_t{0}}});
  return c.node("Div", {sum, c.rec.const_scalar(e, static_cast<double>(divisor))}, x->dtype, out);
}

Value max_pool(OpCall& c, size_t spatial, bool with_indices) {
  TensorObj* x = c.t(0);
  if (Value r = runtime_kernel_pool(c, spatial, true, with_indices)) return r;
  // kernel_size 1, stride 2, padding 3, dilation 4, ceil_mode 5
  PoolArgs pa = pool_args(c, spatial, 1, 2, 3, 4);
  bool ceil_mode = c.a.boolean(5);
  if (x->rank() != spatial + 1 && x->rank() != spatial + 2)
    c.runtime_error(fmt::format("max_pool{}d: Expected {}D or {}D input tensor, but got {}", spatial, spatial + 1,
                                spatial + 2, shape_text(x->shape)));
  std::vector<DimExpr> shape(x->shape.begin(), x->shape.end() - spatial);
  for (size_t i = 0; i < spatial; ++i)
    shape.push_back(pool_out(x->shape[x->rank() - spatial + i], pa.k[i], pa.s[i], pa.p[i], pa.d[i], ceil_mode));
  ir::Node* n = c.rec.node("max_pool", {c.v(x)}, with_indices ? 2 : 1, ir::kOnnxifyDomain);
  n->set_attr("kernel_size", pa.k);
  n->set_attr("stride", pa.s);
  n->set_attr("padding", pa.p);
  n->set_attr("dilation", pa.d);
  n->set_attr("ceil_mode", int64_t{ceil_mode});
  n->output(0)->set_type(ir::Type::tensor(elem(x->dtype), shape));
  Value out = c.out(n->output(0), x->dtype, shape);
  if (!with_indices) return out;
  n->output(1)->set_type(ir::Type::tensor(ir::ElementType::Int64, shape));
  return eval::new_tuple(c.I, {out, c.out(n->output(1), DType::Int64, shape)});
}

Value avg_pool(OpCall& c, size_t spatial) {
  TensorObj* x = c.t(0);
  if (Value r = runtime_kernel_pool(c, spatial, false, false)) return r;
  // kernel_size 1, stride 2, padding 3, ceil_mode 4, count_include_pad 5, divisor_override 6 (not in 1d)
  PoolArgs pa = pool_args(c, spatial, 1, 2, 3, -1);
  bool ceil_mode = c.a.boolean(4);
  bool include_pad = c.a.boolean(5);
  int64_t divisor = divisor_override(c, spatial);
  std::vector<DimExpr> shape(x->shape.begin(), x->shape.end() - spatial);
  for (size_t i = 0; i < spatial; ++i)
    shape.push_back(pool_out(x->shape[x->rank() - spatial + i], pa.k[i], pa.s[i], pa.p[i], 1, ceil_mode));
  return c.node("avg_pool", {c.v(x)}, x->dtype, shape,
                {{"kernel_size", pa.k},
                 {"stride", pa.s},
                 {"padding", pa.p},
                 {"ceil_mode", int64_t{ceil_mode}},
                 {"count_include_pad", int64_t{include_pad}},
                 {"divisor_override", divisor}},
                ir::kOnnxifyDomain);
}

// max_unpool{2,3}d(self, indices, output_size[, stride, padding]): aten's kernels, which take the
// spatial output size already resolved by F.max_unpool*d (_unpool_output_size) and never look at the
// kernel; stride/padding of the 3-d form are only validated. Recorded as the composite max_unpool
// with output_size as an int64 input (symbolic sizes flow) and a unit kernel (ONNX MaxUnpool, where
// the lowering keeps it, takes its size from output_size).
// c10's ScalarType names, as PyTorch's messages print them.
std::string_view scalar_type_name(DType t) {
  switch (t) {
    case DType::UInt8: return "Byte";
    case DType::Int8: return "Char";
    case DType::Int16: return "Short";
    case DType::Int32: return "Int";
    case DType::Int64: return "Long";
    case DType::Float16: return "Half";
    case DType::Float32: return "Float";
    case DType::Float64: return "Double";
    case DType::Bool: return "Bool";
    case DType::BFloat16: return "BFloat16";
    default: return info(t).name;
  }
}

Value max_unpool(OpCall& c, size_t spatial) {
  TensorObj* x = c.t(0);
  TensorObj* idx = c.t(1);
  std::vector<DimExpr> size = c.a.dims(2);
  const char* dims = spatial == 2 ? "(height, width)" : "(depth, height, width)";
  if (size.size() != spatial)
    c.runtime_error(fmt::format("There should be exactly {} elements {} in output_size, but got {} elements.",
                                spatial == 2 ? "two" : "three", dims, size.size()));
  if (idx->dtype != DType::Int64)
    c.runtime_error(
        fmt::format("elements in indices should be type int64 but got: {}", scalar_type_name(idx->dtype)));
  if (x->rank() != spatial + 1 && x->rank() != spatial + 2)
    c.runtime_error(fmt::format("Input to max_unpooling{}d should be a {}d or {}d Tensor, but got a tensor "
                                "with {} dimensions.",
                                spatial, spatial + 1, spatial + 2, x->rank()));
  if (x->shape != idx->shape)
    c.runtime_error(fmt::format("Expected shape of indices to be same as that of the input tensor ({}) but "
                                "got indices tensor with shape: {}",
                                shape_text(x->shape), shape_text(idx->shape)));
  if (spatial == 3) {
    for (int64_t s : c.a.ints(3))
      if (s <= 0) c.runtime_error(fmt::format("strides should be greater than zero, but got stride: [{}]",
                                              fmt::join(c.a.ints(3), ", ")));
  }
  std::vector<DimExpr> shape(x->shape.begin(), x->shape.end() - spatial);
  shape.insert(shape.end(), size.begin(), size.end());
  return c.node("max_unpool", {c.v(x), c.v(idx), c.rec.shape_value(size)}, x->dtype, shape,
                {{"kernel_size", std::vector<int64_t>(spatial, 1)},
                 {"stride", std::vector<int64_t>(spatial, 1)},
                 {"padding", std::vector<int64_t>(spatial, 0)}},
                ir::kOnnxifyDomain);
}

Value adaptive_pool(OpCall& c, size_t spatial, bool is_max) {
  TensorObj* x = c.t(0);
  std::vector<DimExpr> size = c.a.dims(1);
  if (size.size() != spatial) c.runtime_error(fmt::format("adaptive pool: output_size must be {}", spatial));
  if (x->rank() != spatial + 1 && x->rank() != spatial + 2)
    c.runtime_error(fmt::format("adaptive pool: Expected {}D or {}D tensor, but got {}", spatial + 1, spatial + 2,
                                shape_text(x->shape)));
  std::vector<DimExpr> shape(x->shape.begin(), x->shape.end() - spatial);
  std::vector<int64_t> attr;
  // A size computed from symbolic input sizes (vgg's max(7, H)) goes to the run-time input `size`;
  // the lowering's per-axis windows are Range arithmetic on it, as exact as for static sizes.
  bool runtime_size = false;
  for (size_t i = 0; i < spatial; ++i) {
    DimExpr in = x->shape[x->rank() - spatial + i];
    if (size[i] == in && !in.is_const()) {
      attr.push_back(-1);  // None: keep the input's (symbolic) size
    } else if (size[i].is_const()) {
      attr.push_back(size[i].value());
    } else {
      attr.push_back(-1);
      runtime_size = true;
    }
    shape.push_back(size[i]);
  }
  std::vector<ir::Value*> ins{c.v(x)};
  if (runtime_size) ins.push_back(c.rec.shape_value(size));
  ir::Node* n = c.rec.node(is_max ? "adaptive_max_pool" : "adaptive_avg_pool", ins, is_max ? 2 : 1,
                           ir::kOnnxifyDomain);
  n->set_attr("output_size", attr);
  n->output(0)->set_type(ir::Type::tensor(elem(x->dtype), shape));
  Value out = c.out(n->output(0), x->dtype, shape);
  if (!is_max) return out;
  n->output(1)->set_type(ir::Type::tensor(ir::ElementType::Int64, shape));
  return eval::new_tuple(c.I, {out, c.out(n->output(1), DType::Int64, shape)});
}

Value norm_composite(OpCall& c, std::string_view op, TensorObj* x, TensorObj* w, TensorObj* b, Attrs attrs) {
  std::vector<ir::Value*> ins{c.v(x), w ? c.v(w) : nullptr, b ? c.v(b) : nullptr};
  while (!ins.empty() && !ins.back()) ins.pop_back();
  return c.node(op, ins, x->dtype, x->shape, std::move(attrs), ir::kOnnxifyDomain);
}

}  // namespace

const std::vector<OpDef>& nn_ops() {
  static const std::vector<OpDef> ops = {
      {"conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, int[1] dilation=1, int groups=1) -> Tensor",
       kFn, [](OpCall& c) { return conv(c, 1); }},
      {"conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, str padding=\"valid\", int[1] dilation=1, int groups=1) -> Tensor",
       kFn, [](OpCall& c) { return conv(c, 1); }},
      {"conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor",
       kFn, [](OpCall& c) { return conv(c, 2); }},
      {"conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, str padding=\"valid\", int[2] dilation=1, int groups=1) -> Tensor",
       kFn, [](OpCall& c) { return conv(c, 2); }},
      {"conv3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] dilation=1, int groups=1) -> Tensor",
       kFn, [](OpCall& c) { return conv(c, 3); }},
      {"conv3d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, str padding=\"valid\", int[3] dilation=1, int groups=1) -> Tensor",
       kFn, [](OpCall& c) { return conv(c, 3); }},
      {"linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", kNN, linear},
      {"matmul(Tensor self, Tensor other) -> Tensor", kFn | kMethod, [](OpCall& c) { return matmul(c, c.t(0), c.t(1)); }},
      {"mm(Tensor self, Tensor mat2) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         if (c.t(0)->rank() != 2 || c.t(1)->rank() != 2) c.runtime_error("mm: both arguments must be 2D");
         return matmul(c, c.t(0), c.t(1));
       }},
      {"bmm(Tensor self, Tensor mat2) -> Tensor", kFn | kMethod,
       [](OpCall& c) {
         if (c.t(0)->rank() != 3 || c.t(1)->rank() != 3) c.runtime_error("bmm: both arguments must be 3D");
         return matmul(c, c.t(0), c.t(1));
       }},
      {"addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kFn | kMethod | kInplace,
       [](OpCall& c) {
         TensorObj* m1 = c.t(1);
         TensorObj* m2 = c.t(2);
         if (m1->rank() != 2 || m2->rank() != 2) c.runtime_error("addmm: mat1 and mat2 must be 2D");
         return c.node("Gemm", {c.v(m1), c.v(m2), c.v(c.t(0))}, m1->dtype, {m1->shape[0], m2->shape[1]},
                       {{"alpha", static_cast<float>(c.a.real(4))}, {"beta", static_cast<float>(c.a.real(3))}});
       }},
      {"batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor",
       kFn, batch_norm},
      {"layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor",
       kFn,
       [](OpCall& c) {
         TensorObj* x = c.t(0);
         std::vector<int64_t> ns = c.a.ints(1);
         if (ns.size() > x->rank()) c.runtime_error("layer_norm: normalized_shape has more dims than the input");
         for (size_t i = 0; i < ns.size(); ++i) {
           DimExpr d = x->shape[x->rank() - ns.size() + i];
           if (d.is_const() && d.value() != ns[i])
             c.runtime_error(fmt::format("Given normalized_shape={}, expected input with shape [*, {}], but got input of "
                                         "size{}",
                                         shape_text(std::vector<DimExpr>(ns.begin(), ns.end())), ns.back(),
                                         shape_text(x->shape)));
         }
         return norm_composite(c, "layer_norm", x, c.a.opt_tensor(2), c.a.opt_tensor(3),
                               {{"normalized_shape", ns}, {"eps", static_cast<float>(c.a.real(4))}});
       }},
      {"group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool cudnn_enabled=True) -> Tensor",
       kFn,
       [](OpCall& c) {
         return norm_composite(c, "group_norm", c.t(0), c.a.opt_tensor(2), c.a.opt_tensor(3),
                               {{"num_groups", c.a.int_(1)}, {"eps", static_cast<float>(c.a.real(4))}});
       }},
      {"max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, int[1] dilation=1, bool ceil_mode=False) -> Tensor",
       kFn, [](OpCall& c) { return max_pool(c, 1, false); }},
      {"max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor",
       kFn, [](OpCall& c) { return max_pool(c, 2, false); }},
      {"max_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> Tensor",
       kFn, [](OpCall& c) { return max_pool(c, 3, false); }},
      {"max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, int[1] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
       kFn, [](OpCall& c) { return max_pool(c, 1, true); }},
      {"max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
       kNN, [](OpCall& c) { return max_pool(c, 2, true); }},
      {"max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
       kNN, [](OpCall& c) { return max_pool(c, 3, true); }},
      {"avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, bool ceil_mode=False, bool count_include_pad=True) -> Tensor",
       kFn, [](OpCall& c) { return avg_pool(c, 1); }},
      {"avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
       kNN, [](OpCall& c) { return avg_pool(c, 2); }},
      {"avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
       kNN, [](OpCall& c) { return avg_pool(c, 3); }},
      {"max_unpool2d(Tensor self, Tensor indices, SymInt[2] output_size) -> Tensor", kNN,
       [](OpCall& c) { return max_unpool(c, 2); }},
      {"max_unpool3d(Tensor self, Tensor indices, SymInt[3] output_size, int[3] stride, int[3] padding) -> Tensor", kNN,
       [](OpCall& c) { return max_unpool(c, 3); }},
      {"adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor", kFn, [](OpCall& c) { return adaptive_pool(c, 1, false); }},
      {"adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor", kNN,
       [](OpCall& c) { return adaptive_pool(c, 2, false); }},
      {"adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor", kNN,
       [](OpCall& c) { return adaptive_pool(c, 3, false); }},
      {"adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)", kFn,
       [](OpCall& c) { return adaptive_pool(c, 1, true); }},
      {"adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)", kNN,
       [](OpCall& c) { return adaptive_pool(c, 2, true); }},
      {"adaptive_max_pool3d(Tensor self, int[3] output_size) -> (Tensor, Tensor)", kNN,
       [](OpCall& c) { return adaptive_pool(c, 3, true); }},
  };
  return ops;
}

}  // namespace onnxify::torch
