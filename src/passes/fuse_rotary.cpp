// fuse_rotary: rotary position embeddings as people write them (Hugging Face's apply_rotary_pos_emb,
// GPT-NeoX, LLaMA-style code):
//
//     def rotate_half(x):
//         x1, x2 = x[..., : d // 2], x[..., d // 2 :]      # or x.chunk(2, dim=-1)
//         return torch.cat((-x2, x1), dim=-1)
//     q_embed = q * cos + rotate_half(q) * sin
//
// are recorded as plain ops: Add(Mul(x, cos), Mul(Concat(Neg(x2), x1), sin)), with x1/x2 two Slices
// of x or a Split's halves on the last axis. The interleaved form (GPT-J's rotate_every_two:
// stack((-x[..., 1::2], x[..., ::2]), -1).flatten(-2), tables repeat_interleave'd by 2) too. This pass makes that subgraph one composite
// `rotary_embedding` (src/ir/composite_ops.def), which lowering turns into ONNX RotaryEmbedding
// (opset 23) where the target runs it, or back into the same plain ops.
//
// RotaryEmbedding takes cos/sin caches of half width and applies cache[i] to both halves (to both
// neighbours when interleaved), while the user's cos/sin are full width. The rewrite is exact only
// when their two halves (neighbours) are equal, which the code guarantees when it builds them as
// `emb = torch.cat((freqs, freqs), dim=-1); cos = emb.cos()` (`freqs.cos().repeat_interleave(2, -1)`).
// So the pass fuses only when it can prove that for both cos and sin: a constant with that
// property, or a chain of row-preserving ops (elementwise with operands constant along the last
// axis, casts, reshapes/unsqueezes/expands/transposes keeping the last axis, slices and gathers of
// rows) down to Concat(a, a) on the last axis (an Expand or Concat of a size-1 last axis, reshaped
// to pairs). It also requires what the coarse op needs: x of rank 4 (batch, heads, seq, head_dim)
// with a static, even head_dim, and cos/sin the same for every head (size 1 or absent on axis 1).
// Anything else is left as it is (the plain ops compute it exactly).
#include <optional>

#include "passes/match.h"
#include "passes/passes.h"

namespace onnxify::passes {

namespace {

using ir::Graph;
using ir::Node;
using ir::Value;

std::optional<int64_t> last_dim(const Value* v) {
  if (!v || !v->type().is_tensor() || !v->type().has_rank() || v->type().rank() == 0) return std::nullopt;
  const ir::DimExpr& d = v->type().dims().back();
  if (!d.is_const()) return std::nullopt;
  return d.value();
}

int64_t rank(const Value* v) {
  return v && v->type().is_tensor() && v->type().has_rank() ? static_cast<int64_t>(v->type().rank()) : -1;
}

// v is the same along its last axis (rank 0, or last dim 1): an operand that keeps rows' halves equal.
bool row_constant(const Value* v) {
  int64_t r = rank(v);
  if (r == 0) return true;
  auto d = last_dim(v);
  return r > 0 && d && *d == 1;
}

// Whether v's last axis is made of repeated parts by construction: two equal halves
// (v[..., :D/2] == v[..., D/2:], the rotate_half form's tables) or, `pairs`, equal neighbours
// (v[..., 2i] == v[..., 2i + 1], the interleaved form's tables).
bool repeated(const Value* v, bool pairs, int depth = 0) {
  auto d = last_dim(v);
  if (!d || *d % 2 != 0 || *d == 0 || depth > 16) return false;
  int64_t h = *d / 2;
  if (const ir::Tensor* t = v->initializer()) {
    if (!ir::is_float(t->dtype())) return false;
    for (int64_t row = 0; row < t->numel() / *d; ++row)
      for (int64_t j = 0; j < h; ++j) {
        int64_t a = pairs ? 2 * j : j, b = pairs ? 2 * j + 1 : h + j;
        if (t->float_at(row * *d + a) != t->float_at(row * *d + b)) return false;
      }
    return true;
  }
  const Node* n = v->producer();
  if (!n) return false;
  int64_t r = rank(v);
  auto on_last = [](const Node* c, int64_t rk) {
    int64_t axis = c->attr_int("axis", 0);
    return axis == rk - 1 || axis == -1;
  };
  if (!pairs && n->is("Concat")) return n->num_inputs() == 2 && n->input(0) == n->input(1) && on_last(n, r);
  if (pairs && n->is("Reshape")) {
    // (..., D/2, 2) -> (..., D): each entry repeated (repeat_interleave(2), stack((c, c), -1)).
    const Value* u = n->input(0);
    int64_t ur = rank(u);
    const Node* m = u->producer();
    if (ur == r + 1 && last_dim(u) == 2 && u->type().dim(static_cast<size_t>(ur - 2)).is_const() &&
        u->type().dim(static_cast<size_t>(ur - 2)).value() == h && m) {
      if (m->is("Expand")) return last_dim(m->input(0)) == 1;
      if (m->is("Concat"))
        return m->num_inputs() == 2 && m->input(0) == m->input(1) && on_last(m, ur) && last_dim(m->input(0)) == 1;
      return false;
    }
  }
  for (const char* op : {"Cos", "Sin", "Neg", "Cast", "Identity", "Exp", "Sqrt", "Reciprocal", "Tanh", "Sigmoid"})
    if (n->is(op)) return repeated(n->input(0), pairs, depth + 1);
  for (const char* op : {"Mul", "Div", "Add", "Sub"}) {
    if (!n->is(op) || n->num_inputs() != 2) continue;
    bool ok = true;
    for (size_t i = 0; i < 2 && ok; ++i) {
      const Value* in = n->input(i);
      ok = row_constant(in) || (last_dim(in) == d && repeated(in, pairs, depth + 1));
    }
    return ok;
  }
  // Slices and gathers of whole rows (a table cut to the input's length, rows picked by position).
  if (n->is("Slice")) {
    auto axes = n->num_inputs() > 3 && n->input(3) ? const_ints(n->input(3)) : std::nullopt;
    if (!axes || last_dim(n->input(0)) != d) return false;
    for (int64_t a : *axes)
      if (a == r - 1 || a == -1) return false;
    return repeated(n->input(0), pairs, depth + 1);
  }
  if (n->is("Gather")) {
    int64_t axis = n->attr_int("axis", 0), in_rank = rank(n->input(0));
    if (axis == in_rank - 1 || axis == -1 || last_dim(n->input(0)) != d) return false;
    return repeated(n->input(0), pairs, depth + 1);
  }
  // Layout ops that keep every row of the last axis a row (same last dim, last axis not moved).
  if (n->is("Reshape") || n->is("Unsqueeze") || n->is("Squeeze") || n->is("Expand") || n->is("Transpose")) {
    if (last_dim(n->input(0)) != d) return false;
    if (n->is("Transpose")) {
      auto perm = n->attr_ints("perm");
      if (perm.empty() || perm.back() != static_cast<int64_t>(perm.size()) - 1) return false;
    }
    return repeated(n->input(0), pairs, depth + 1);
  }
  return false;
}

// v is half `which` (0: first, 1: second) of x along the last axis of width d.
bool is_half(const Value* v, const Value* x, int which, int64_t d) {
  const Node* n = v ? v->producer() : nullptr;
  if (!n || n->input(0) != x) return false;
  int64_t r = rank(x);
  if (n->is("Split")) {
    int64_t axis = n->attr_int("axis", 0);
    if ((axis != r - 1 && axis != -1) || n->num_outputs() != 2 || v->index() != static_cast<uint32_t>(which))
      return false;
    if (n->num_inputs() > 1 && n->input(1)) {
      auto sizes = const_ints(n->input(1));
      return sizes && *sizes == std::vector<int64_t>{d / 2, d / 2};
    }
    return n->attr_ints("split").empty() || n->attr_ints("split") == std::vector<int64_t>{d / 2, d / 2};
  }
  if (n->is("Slice")) {
    auto starts = const_ints(n->input(1)), ends = const_ints(n->input(2));
    auto axes = n->num_inputs() > 3 && n->input(3) ? const_ints(n->input(3)) : std::optional<std::vector<int64_t>>();
    auto steps = n->num_inputs() > 4 && n->input(4) ? const_ints(n->input(4)) : std::vector<int64_t>{1};
    if (!starts || !ends || !axes || !steps || starts->size() != 1 || ends->size() != 1 || axes->size() != 1 ||
        steps->size() != 1 || (*steps)[0] != 1 || ((*axes)[0] != r - 1 && (*axes)[0] != -1))
      return false;
    int64_t s = (*starts)[0], e = (*ends)[0];
    return which == 0 ? s == 0 && e == d / 2 : s == d / 2 && e >= d;
  }
  return false;
}

// v is x[..., which::2] (which 0: the even entries, 1: the odd ones).
bool is_strided(const Value* v, const Value* x, int which, int64_t d) {
  const Node* n = v ? v->producer() : nullptr;
  if (!n || !n->is("Slice") || n->input(0) != x || n->num_inputs() < 5) return false;
  auto starts = const_ints(n->input(1)), ends = const_ints(n->input(2)), axes = const_ints(n->input(3)),
       steps = const_ints(n->input(4));
  int64_t r = rank(x);
  return starts && ends && axes && steps && starts->size() == 1 && ends->size() == 1 && axes->size() == 1 &&
         steps->size() == 1 && (*steps)[0] == 2 && ((*axes)[0] == r - 1 || (*axes)[0] == -1) &&
         (*starts)[0] == which && (*ends)[0] >= d;
}

// rot == stack((-x[..., 1::2], x[..., 0::2]), -1).flatten(-2): the interleaved (GPT-J) rotation,
// recorded as Reshape(Concat(Unsqueeze(Neg(odd)), Unsqueeze(even)) on a new last axis).
bool is_rotate_pairs(const Value* rot, const Value* x, int64_t d) {
  const Node* rs = rot->producer();
  if (!rs || !rs->is("Reshape") || !(rot->type() == x->type())) return false;
  const Node* c = rs->input(0)->producer();
  int64_t r = rank(x);
  if (!c || !c->is("Concat") || c->num_inputs() != 2 || rank(rs->input(0)) != r + 1 || last_dim(rs->input(0)) != 2)
    return false;
  int64_t axis = c->attr_int("axis", 0);
  if (axis != r && axis != -1) return false;
  auto unsqueezed = [&](const Value* u) -> const Value* {  // u = Unsqueeze(w) on the new last axis
    const Node* n = u->producer();
    if (!n || !n->is("Unsqueeze") || rank(n->input(0)) != r) return nullptr;
    auto axes = n->num_inputs() > 1 ? const_ints(n->input(1)) : std::nullopt;
    return axes && axes->size() == 1 && ((*axes)[0] == r || (*axes)[0] == -1) ? n->input(0) : nullptr;
  };
  const Value* a = unsqueezed(c->input(0));
  const Value* b = unsqueezed(c->input(1));
  const Node* neg = a ? a->producer() : nullptr;
  return neg && b && neg->is("Neg") && is_strided(neg->input(0), x, 1, d) && is_strided(b, x, 0, d);
}

// rot == Concat(Neg(x2), x1) on the last axis: rotate_half(x).
bool is_rotate_half(const Value* rot, const Value* x, int64_t d) {
  const Node* c = rot->producer();
  if (!c || !c->is("Concat") || c->num_inputs() != 2) return false;
  int64_t axis = c->attr_int("axis", 0), r = rank(rot);
  if (axis != r - 1 && axis != -1) return false;
  const Node* neg = c->input(0)->producer();
  return neg && neg->is("Neg") && is_half(neg->input(0), x, 1, d) && is_half(c->input(1), x, 0, d);
}

// cos/sin fit the coarse op: the same for every head (absent or size 1 on x's axis 1) and not
// broadcasting x's batch (absent, size 1 or x's batch on axis 0). Their sequence axis is not checked:
// where it is neither 1 nor x's length (a table longer than a query of length 1), ONNX Runtime's
// RotaryEmbedding refuses the caches at run time rather than computing something else.
bool fits(const Value* c, const Value* x) {
  int64_t r = rank(c);
  if (r < 1 || r > 4) return false;
  auto one = [](const ir::DimExpr& d) { return d.is_const() && d.value() == 1; };
  if (r >= 3 && !one(c->type().dim(static_cast<size_t>(r - 3)))) return false;
  return r < 4 || one(c->type().dim(0)) || c->type().dim(0).provably_equal(x->type().dim(0));
}

// Add(Mul(x, cos), Mul(rotate_half(x), sin)), each operand order -> rotary_embedding(x, cos, sin).
bool fuse(Graph& g, Node& add) {
  if (add.num_inputs() != 2) return false;
  for (int first = 0; first < 2; ++first) {
    const Node* m1 = add.input(static_cast<size_t>(first))->producer();
    const Node* m2 = add.input(static_cast<size_t>(1 - first))->producer();
    if (!m1 || !m2 || !m1->is("Mul") || !m2->is("Mul") || m1->num_inputs() != 2 || m2->num_inputs() != 2) continue;
    for (int xi = 0; xi < 2; ++xi) {
      Value* x = m1->input(static_cast<size_t>(xi));
      Value* cos = m1->input(static_cast<size_t>(1 - xi));
      auto d = last_dim(x);
      if (rank(x) != 4 || !d || *d % 2 != 0 || !ir::is_float(x->type().elem())) continue;
      for (int ri = 0; ri < 2; ++ri) {
        Value* rot = m2->input(static_cast<size_t>(ri));
        Value* sin = m2->input(static_cast<size_t>(1 - ri));
        bool pairs = is_rotate_pairs(rot, x, *d);
        if (!pairs && !is_rotate_half(rot, x, *d)) continue;
        if (last_dim(cos) != d || last_dim(sin) != d || !fits(cos, x) || !fits(sin, x)) continue;
        if (cos->type().elem() != x->type().elem() || sin->type().elem() != x->type().elem()) continue;
        if (!repeated(cos, pairs) || !repeated(sin, pairs)) continue;
        Node* r = g.create("onnxify", "rotary_embedding", {x, cos, sin}, 1, &add);
        if (pairs) r->set_attr("interleaved", int64_t{1});
        r->set_loc(add.loc());
        r->set_module_path(add.module_path());
        r->output(0)->set_type(add.output(0)->type());
        if (!add.output(0)->name().empty()) r->output(0)->set_name(add.output(0)->name());
        add.output(0)->replace_all_uses_with(r->output(0));
        g.erase(&add);  // the Muls, Concat, Neg and halves go with dce when nothing else reads them
        return true;
      }
    }
  }
  return false;
}

void run(Graph& g) {
  std::vector<Node*> adds;  // collected first: fusing erases the Add
  for (Node* n : g.nodes()) {
    for (Graph* r : n->regions()) run(*r);
    if (n->is("Add")) adds.push_back(n);
  }
  for (Node* n : adds) fuse(g, *n);
}

}  // namespace

Status fuse_rotary(ir::Graph& graph, const PassOptions&) {
  run(graph);
  return Status::ok();
}

}  // namespace onnxify::passes
