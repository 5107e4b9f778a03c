// scaled_dot_product_attention: softmax(Q K^T * scale + mask) V, PyTorch's semantics: a bool mask
// marks the positions that take part (False -> -inf), a float mask is added, is_causal keeps
// key j <= query i (top-left aligned), the default scale is 1 / sqrt(E), a row whose scores are all
// -inf gives zeros (PyTorch's _safe_softmax, not Softmax's NaN), enable_gqa repeats each key/value
// head Hq/H times (repeat_interleave on dim -3), batch dims broadcast as in matmul, dropout is not
// applied.
//
// ONNX Attention (opset 23) where the target prefers it and it computes exactly that: 3-d (one
// head, made 4-d here) or 4-d (batch, heads, seq, dim) inputs of one batch size, the heads of key
// and value equal and dividing the query's (ONNX's GQA is repeat_interleave too), the mask expanded
// to (L, S) in its last two dims. ONNX Runtime 1.30 gives PyTorch's numbers there (fully masked rows
// included: 0, as the ONNX reference; causal masks top-left aligned for L != S).
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

namespace {

// Why ONNX Attention cannot compute this instance ("" when it can).
std::string attention_unfit(Value* q, Value* k, Value* v, Value* mask, bool gqa) {
  int64_t r = Builder::rank(q);
  if ((r != 3 && r != 4) || Builder::rank(k) != r || Builder::rank(v) != r)
    return "ONNX Attention takes 3-d or 4-d query, key and value of one rank";
  if (mask && Builder::rank(mask) > r) return "the mask has more dims than the query";
  DimExpr n = q->type().dim(0);
  if (!(k->type().dim(0) == n) || !(v->type().dim(0) == n))
    return "ONNX Attention does not broadcast the batch dim (query, key and value batch sizes differ)";
  if (r == 4) {
    DimExpr hq = q->type().dim(1), hk = k->type().dim(1), hv = v->type().dim(1);
    if (hk == hq && hv == hq) return "";
    bool divides = hq.is_const() && hk.is_const() && hk == hv && hq.value() % hk.value() == 0;
    // Without enable_gqa, differing head counts only broadcast a single key/value head (PyTorch
    // refuses the others), which repeating it computes too.
    if (!divides || !(gqa || hk.value() == 1))
      return "ONNX Attention needs key and value of the same head count, dividing the query's";
  }
  return "";
}

// x (..., H, S, E) -> (..., Hq, S, E), each head repeated Hq/H times in place (repeat_interleave).
Value* repeat_heads(Builder& b, Value* x, const Int& hq) {
  int64_t r = Builder::rank(x);
  Int h = int_dim(b, x, -3);
  if (h.expr == hq.expr) return x;
  Value* reps = h.is_const() && hq.is_const() ? b.i64({hq.c() / h.c()})
                                             : b.op("Div", {int_value(b, hq), int_value(b, h)});
  std::vector<Value*> expand(1, b.i64(std::vector<int64_t>(static_cast<size_t>(r - 2), 1)));
  expand.push_back(reps);
  expand.push_back(b.i64({1, 1}));
  Value* spread = b.op("Expand", {b.unsqueeze(x, {r - 2}), b.concat_i64(expand)});
  std::vector<Value*> shape;
  if (r > 3) shape.push_back(b.dims(x, 0, r - 3));
  shape.push_back(int_value(b, hq));
  shape.push_back(b.dims(x, r - 2, r));
  std::vector<DimExpr> dims = x->type().dims();
  dims[static_cast<size_t>(r - 3)] = hq.expr;
  return b.reshape(spread, b.concat_i64(shape), Type::tensor(Builder::elem(x), dims));
}

}  // namespace

void lower_sdpa(Node& n, Builder& b, Context& ctx, std::vector<Value*>& out) {
  Value* q = n.input(0);
  Value* k = n.input(1);
  Value* v = n.input(2);
  Value* mask = n.input(3);
  bool causal = ir::attr_i(n, "is_causal") != 0;
  bool gqa = ir::has_attr(n, "enable_gqa") && ir::attr_i(n, "enable_gqa") != 0;
  int64_t rank = Builder::rank(q);
  if (rank < 2 || Builder::rank(k) < 2 || Builder::rank(v) < 2 ||
      (gqa && (rank < 3 || Builder::rank(k) < 3 || Builder::rank(v) < 3))) {
    ctx.error(n, "scaled_dot_product_attention needs query, key and value of known rank");
    return;
  }
  std::optional<double> scale;
  if (ir::has_attr(n, "scale")) scale = ir::attr_f(n, "scale");
  Int e = int_dim(b, q, -1);
  if (!scale && e.is_const()) scale = 1.0 / std::sqrt(static_cast<double>(e.c()));

  if (ctx.coarse(n, "Attention", 23, attention_unfit(q, k, v, mask, gqa))) {
    // 3-d (N, L, E) is one head: (N, 1, L, E), as TensorRT also requires 4-d inputs.
    bool three = rank == 3;
    auto four = [&](Value* x) { return three ? b.unsqueeze(x, {1}) : x; };
    std::vector<Value*> in = {four(q), four(k), four(v)};
    if (mask) {
      // The mask broadcasts against (batch, heads, L, S); made 4-d, as TensorRT requires.
      int64_t mr = Builder::rank(mask);
      Value* m4 = mask;
      if (three && mr == 3) {
        m4 = b.unsqueeze(mask, {1});
      } else {
        std::vector<int64_t> lead;
        for (int64_t i = 0; i < 4 - mr; ++i) lead.push_back(i);
        if (!lead.empty()) m4 = b.unsqueeze(mask, lead);
      }
      // ONNX Runtime 1.30 takes the mask's last two dims as (L, S) without broadcasting (a shorter
      // last dim is padded, as for a KV cache): a key padding mask (N, 1, 1, S) is expanded.
      Int l = int_dim(b, q, -2), s = int_dim(b, k, -2);
      if (!(m4->type().dim(2) == l.expr) || !(m4->type().dim(3) == s.expr))
        m4 = b.op("Expand", {m4, b.concat_i64({b.i64({1, 1}), int_value(b, l), int_value(b, s)})});
      in.push_back(m4);
    }
    Attrs a;
    if (causal) a.i("is_causal", 1);
    if (ir::has_attr(n, "scale")) a.f("scale", ir::attr_f(n, "scale"));
    Value* y = b.op("Attention", in, std::move(a));
    out = {three ? b.squeeze(y, {1}) : y};
    return;
  }

  if (gqa) {
    Int hq = int_dim(b, q, -3);
    k = repeat_heads(b, k, hq);
    v = repeat_heads(b, v, hq);
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
  if (mask) {
    // _safe_softmax: a query row with no key to attend (every score -inf) gives zeros, where
    // Softmax gives NaN (which the next layer would spread through its MatMul). A causal mask
    // alone never empties a row.
    Value* dead = b.op("Equal", {b.reduce("ReduceMax", scores, {-1}, true), neg_inf});
    p = b.op("Where", {dead, fconst(b, 0.0, q), p});
  }
  out = {b.op("MatMul", {p, v})};
}

}  // namespace onnxify::lowering
