// max_unpool with PyTorch's semantics: a zero tensor of the output size (output_size, or
// (in - 1) * stride - 2 * padding + kernel_size) with each input element written at its per-plane
// index.
//
// When the indices are MaxPool's whole-tensor indices (pooling.cpp kept them in ONNX's layout
// because they only feed unpools) and the unpool's output plane is provably as large as the pool's
// input plane, whole-tensor and per-plane numbering name the same positions, so ONNX MaxUnpool
// consumes them directly: no conversion at all. Otherwise the per-plane indices drive a
// ScatterElements into a zero (N, C, plane) tensor along the plane axis, which every target runs
// (TensorRT has no MaxUnpool); whole-tensor indices are first reduced to per-plane by Mod.
#include "onnx/lower/pool_util.h"

namespace onnxify::lowering {

using ir::DimExpr;
using ir::Node;
using ir::Type;
using ir::Value;

void lower_max_unpool(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  PoolSpec ps = read_pool_spec(n, false);
  size_t sp = ps.spatial();
  Value* x = n.input(0);
  Value* idx = n.input(1);
  Value* size = n.input(2);
  bool added = false;
  Value* xb = batch_up(b, x, static_cast<int64_t>(sp), &added);
  if (Builder::rank(xb) != static_cast<int64_t>(sp) + 2) {
    ctx.error(n, "max_unpool needs an input of known rank");
    return;
  }
  Value* ib = added ? b.unsqueeze(idx, {0}) : idx;
  // The output's spatial sizes: output_size (as its declared dims for the type) or the default.
  const Type& declared = n.output(0)->type();
  std::vector<Int> osz;
  auto given = Builder::const_ints(size);
  // output_size holds the spatial sizes; PyTorch also accepts (N, C, *spatial), so skip a prefix.
  int64_t skip = 0;
  if (given)
    skip = static_cast<int64_t>(given->size() - sp);
  else if (auto len = Builder::static_dim(size, 0))
    skip = *len - static_cast<int64_t>(sp);
  for (size_t i = 0; i < sp; ++i) {
    int64_t at = skip + static_cast<int64_t>(i);
    if (given) {
      osz.push_back(int_const((*given)[static_cast<size_t>(at)]));
    } else if (size) {
      DimExpr e = declared.is_tensor() && declared.has_rank() ? declared.dim(declared.rank() - sp + i)
                                                              : DimExpr::unknown();
      Value* v = b.op("Slice", {size, b.i64({at}), b.i64({at + 1}), b.i64({0})});
      osz.push_back(e.is_const() ? Int{e, nullptr} : Int{e, v});
    } else {
      Int in = int_dim(b, xb, static_cast<int64_t>(2 + i));
      osz.push_back(int_add(b, int_mul(b, int_add(b, in, -1), ps.s[i]), ps.k[i] - 2 * ps.p[i]));
    }
  }
  Int plane = int_const(1);
  for (const Int& o : osz) plane = int_mul(b, plane, o);
  std::vector<Int> full = {int_dim(b, xb, 0), int_dim(b, xb, 1)};
  full.insert(full.end(), osz.begin(), osz.end());
  Type yt = Type::tensor(Builder::elem(xb), exprs(full));

  auto whole = ctx.whole_indices.find(idx);
  bool is_whole = whole != ctx.whole_indices.end() && !added;
  Value* y;
  if (is_whole && ctx.caps.maxunpool && whole->second.plane.provably_equal(plane.expr)) {
    std::vector<int64_t> pads = ps.p;
    pads.insert(pads.end(), ps.p.begin(), ps.p.end());
    y = b.op("MaxUnpool", {xb, ib, shape_value(b, full)},
             Attrs().ints("kernel_shape", ps.k).ints("strides", ps.s).ints("pads", pads), yt);
  } else {
    Value* per = is_whole ? b.op("Mod", {ib, whole->second.plane_value}) : ib;
    Value* flat_x = b.reshape(xb, {0, 0, -1});
    Value* flat_i = b.reshape(per, {0, 0, -1});
    Value* zeros_shape = shape_value(b, {full[0], full[1], plane});
    Value* zeros =
        b.op("ConstantOfShape", {zeros_shape}, Attrs().t("value", filled_tensor(0, Builder::elem(xb), {1})),
             Type::tensor(Builder::elem(xb), {full[0].expr, full[1].expr, plane.expr}));
    Value* scattered = b.op("ScatterElements", {zeros, flat_i, flat_x}, Attrs().i("axis", 2));
    y = b.reshape(scattered, shape_value(b, full), yt);
  }
  out = {batch_down(b, y, added)};
}

}  // namespace onnxify::lowering
