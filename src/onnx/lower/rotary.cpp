// rotary_embedding: x * cos + rotate_half(x) * sin for x (batch, heads, seq, head_dim), the pattern
// src/passes/fuse_rotary.cpp recognizes (cos and sin full width, equal halves, one per position), or
// its interleaved form (pairs of neighbours rotated; cos and sin with equal neighbours).
//
// ONNX RotaryEmbedding (opset 23) where the target prefers it: without position_ids it takes caches
// of shape (batch, seq, head_dim / 2) and computes, per half, x1 * c - x2 * s and x2 * c + x1 * s,
// which is the user's formula exactly when both halves of cos and sin are equal (the pass proved it).
// The caches are the first halves of the user's cos and sin, the head axis dropped, expanded to
// (batch, seq). ONNX Runtime 1.30 runs it on CPU. The decomposition is the user's own ops again.
#include <limits>

#include "onnx/lower/lower.h"

namespace onnxify::lowering {

using ir::Node;
using ir::Value;

namespace {

// The (batch, seq, head_dim / 2) cache of a full-width cos/sin that broadcasts to x: its first half,
// or its even entries when interleaved.
Value* half_cache(Builder& b, Value* c, Value* x, int64_t half, bool interleaved) {
  int64_t r = Builder::rank(c);
  if (r == 4) c = b.squeeze(c, {1});     // (B or 1, 1, T or 1, D): the head axis
  else if (r == 3) c = b.squeeze(c, {0});  // (1, T or 1, D)
  if (Builder::rank(c) == 2) c = b.unsqueeze(c, {0});
  else if (Builder::rank(c) == 1) c = b.unsqueeze(c, {0, 1});
  Value* h = interleaved ? b.slice(c, {0}, {std::numeric_limits<int64_t>::max()}, {2}, {2}) : b.slice(c, {0}, {half}, {2});
  return b.op("Expand", {h, b.concat_i64({b.dims(x, 0, 1), b.dims(x, 2, 3), b.i64({half})})});
}

}  // namespace

void lower_rotary_embedding(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* x = n.input(0);
  Value* cos = n.input(1);
  Value* sin = n.input(2);
  auto d = Builder::static_dim(x, -1);
  if (Builder::rank(x) != 4 || !d || *d % 2 != 0) {
    ctx.error(n, "rotary_embedding needs a 4-d input with a static, even last dim");
    return;
  }
  int64_t half = *d / 2;
  bool inter = ir::has_attr(n, "interleaved") && ir::attr_i(n, "interleaved") != 0;
  if (ctx.coarse(n, "RotaryEmbedding", 23)) {
    out = {b.op("RotaryEmbedding", {x, half_cache(b, cos, x, half, inter), half_cache(b, sin, x, half, inter)},
                Attrs().i("interleaved", inter ? 1 : 0))};
    return;
  }
  constexpr int64_t kEnd = std::numeric_limits<int64_t>::max();
  Value* rot;
  if (inter) {
    Value* even = b.unsqueeze(b.slice(x, {0}, {kEnd}, {-1}, {2}), {4});
    Value* odd = b.unsqueeze(b.slice(x, {1}, {kEnd}, {-1}, {2}), {4});
    rot = b.reshape(b.concat({b.op("Neg", {odd}), even}, 4), b.shape(x), x->type());
  } else {
    rot = b.concat({b.op("Neg", {b.slice(x, {half}, {kEnd}, {-1})}), b.slice(x, {0}, {half}, {-1})}, -1);
  }
  out = {b.op("Add", {b.op("Mul", {x, cos}), b.op("Mul", {rot, sin})})};
}

}  // namespace onnxify::lowering
