// pixel_shuffle, pixel_unshuffle, one_hot.
//
// pixel_shuffle of a 4-d input is exactly DepthToSpace in CRD mode (opset 11); other ranks, and
// pixel_unshuffle always (SpaceToDepth orders the channels block-first, PyTorch channel-first), are
// Reshape -> Transpose -> Reshape with the leading dims folded into one. one_hot is OneHot with
// values [0, 1]; num_classes = -1 takes the depth from max(input) + 1 at run time.
#include <fmt/core.h>

#include "onnx/lower/lower.h"

namespace onnxify::lowering {

using ir::ElementType;
using ir::Node;
using ir::Type;
using ir::Value;

namespace {

// x (*lead, C, H, W) viewed as (B, ...middle) with B = prod(lead); returns the lead dims.
std::vector<Int> lead_dims(Builder& b, Value* x) {
  std::vector<Int> lead;
  for (int64_t i = 0; i < Builder::rank(x) - 3; ++i) lead.push_back(int_dim(b, x, i));
  return lead;
}

Int product(Builder& b, const std::vector<Int>& v) {
  Int p = int_const(1);
  for (const Int& d : v) p = int_mul(b, p, d);
  return p;
}

}  // namespace

void lower_pixel_shuffle(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  int64_t r = ir::attr_i(n, "upscale_factor");
  int64_t rank = Builder::rank(x);
  if (rank < 3) {
    ctx.error(n, "pixel_shuffle needs an input of known rank (*, C, H, W)");
    return;
  }
  if (ctx.coarse(n, "DepthToSpace", 11, rank == 4 ? "" : "DepthToSpace takes 4-d input")) {
    out = {b.op("DepthToSpace", {x}, Attrs().i("blocksize", r).s("mode", "CRD"))};
    return;
  }
  std::vector<Int> lead = lead_dims(b, x);
  Int c = int_floor_div(b, int_dim(b, x, -3), r * r), h = int_dim(b, x, -2), w = int_dim(b, x, -1);
  Value* v = b.reshape(x, shape_value(b, {product(b, lead), c, int_const(r), int_const(r), h, w}));
  Value* t = b.transpose(v, {0, 1, 4, 2, 5, 3});  // (B, C, H, r, W, r)
  std::vector<Int> dims = lead;
  dims.insert(dims.end(), {c, int_mul(b, h, r), int_mul(b, w, r)});
  out = {b.reshape(t, shape_value(b, dims), Type::tensor(Builder::elem(x), exprs(dims)))};
}

void lower_pixel_unshuffle(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  int64_t r = ir::attr_i(n, "downscale_factor");
  if (Builder::rank(x) < 3) {
    ctx.error(n, "pixel_unshuffle needs an input of known rank (*, C, H, W)");
    return;
  }
  // No ONNX op has PyTorch's channel order (SpaceToDepth puts the block offset first).
  ctx.coarse(n, "SpaceToDepth", 1, "SpaceToDepth orders output channels block-first, PyTorch channel-first");
  std::vector<Int> lead = lead_dims(b, x);
  Int c = int_dim(b, x, -3), h = int_floor_div(b, int_dim(b, x, -2), r),
      w = int_floor_div(b, int_dim(b, x, -1), r);
  Value* v = b.reshape(x, shape_value(b, {product(b, lead), c, h, int_const(r), w, int_const(r)}));
  Value* t = b.transpose(v, {0, 1, 3, 5, 2, 4});  // (B, C, r, r, H, W)
  std::vector<Int> dims = lead;
  dims.insert(dims.end(), {int_mul(b, c, r * r), h, w});
  out = {b.reshape(t, shape_value(b, dims), Type::tensor(Builder::elem(x), exprs(dims)))};
}

void lower_one_hot(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  int64_t classes = ir::attr_i(n, "num_classes");
  Value* depth;
  if (classes >= 0) {
    depth = b.i64({classes});
  } else {
    Value* mx = b.op("ReduceMax", {x}, Attrs().i("keepdims", 0));
    depth = b.reshape(b.op("Add", {mx, b.i64_scalar(1)}), {1});
  }
  (void)ctx;
  out = {b.op("OneHot", {x, depth, b.i64({0, 1})}, Attrs().i("axis", -1))};
}

}  // namespace onnxify::lowering
