// scaled_dot_product_attention: softmax(Q K^T * scale + mask) V, PyTorch's semantics: a bool mask
// marks the positions that take part (False -> -inf), a float mask is added, is_causal keeps
// key j <= query i (top-left aligned), the default scale is 1 / sqrt(E), dropout is not applied.
//
// ONNX Attention (opset 23) for 4-d (batch, heads, seq, dim) inputs where the target prefers it.
// The decomposition scales Q before the first MatMul (L*E multiplies instead of L*S, and fp16
// scores stay in range), then MatMul, mask, Softmax, MatMul: the shape attention fusions match.
#include <cmath>
#include <limits>

#include "onnx/lower/pool_util.h"

namespace onnxify::lowering {

using ir::DimExpr;
using ir::ElementType;
using ir::Node;
using ir::Type;
using ir::Value;

void lower_sdpa(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* q = n.input(0);
  Value* k = n.input(1);
  Value* v = n.input(2);
  Value* mask = n.input(3);
  bool causal = ir::attr_i(n, "is_causal") != 0;
  int64_t rank = Builder::rank(q);
  if (rank < 2 || Builder::rank(k) < 2) {
    ctx.error(n, "scaled_dot_product_attention needs query and key of known rank");
    return;
  }
  std::optional<double> scale;
  if (ir::has_attr(n, "scale")) scale = ir::attr_f(n, "scale");
  Int e = int_dim(b, q, -1);
  if (!scale && e.is_const()) scale = 1.0 / std::sqrt(static_cast<double>(e.c()));

  bool four =
      rank == 4 && Builder::rank(k) == 4 && Builder::rank(v) == 4 && (!mask || Builder::rank(mask) <= 4);
  if (ctx.coarse(n, "Attention", 23,
                 four ? "" : "ONNX Attention takes 4-d (batch, heads, sequence, dim) inputs")) {
    std::vector<Value*> in = {q, k, v};
    if (mask) {
      // The mask broadcasts against (batch, heads, L, S); made 4-d, as TensorRT requires.
      std::vector<int64_t> lead;
      for (int64_t i = 0; i < 4 - Builder::rank(mask); ++i) lead.push_back(i);
      in.push_back(lead.empty() ? mask : b.unsqueeze(mask, lead));
    }
    Attrs a;
    if (causal) a.i("is_causal", 1);
    if (ir::has_attr(n, "scale")) a.f("scale", ir::attr_f(n, "scale"));
    out = {b.op("Attention", in, std::move(a))};
    return;
  }

  Value* s = scale ? fconst(b, *scale, q)
                   : b.op("Div", {fconst(b, 1.0, q), b.op("Sqrt", {b.cast(e.value, Builder::elem(q))})});
  Value* qs = b.op("Mul", {q, s});
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < Builder::rank(k); ++i) perm.push_back(i);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  Value* scores = b.op("MatMul", {qs, b.transpose(k, perm)});
  Value* neg_inf = fconst(b, -std::numeric_limits<double>::infinity(), q);
  if (causal) {
    Int l = int_dim(b, q, -2), sk = int_dim(b, k, -2);
    Value* keep;
    if (l.is_const() && sk.is_const()) {
      std::vector<uint8_t> m(static_cast<size_t>(l.c() * sk.c()));
      for (int64_t i = 0; i < l.c(); ++i)
        for (int64_t j = 0; j < sk.c(); ++j) m[static_cast<size_t>(i * sk.c() + j)] = j <= i;
      keep = b.constant(ir::Tensor::from_values<uint8_t>(ElementType::Bool, {l.c(), sk.c()}, m));
    } else {
      keep = b.op("GreaterOrEqual", {b.unsqueeze(iota(b, l), {1}), b.unsqueeze(iota(b, sk), {0})});
    }
    scores = b.op("Where", {keep, scores, neg_inf});
  }
  if (mask) {
    if (Builder::elem(mask) == ElementType::Bool)
      scores = b.op("Where", {mask, scores, neg_inf});
    else
      scores = b.op("Add", {scores, mask});
  }
  Value* p = b.op("Softmax", {scores}, Attrs().i("axis", -1));
  out = {b.op("MatMul", {p, v})};
}

}  // namespace onnxify::lowering
