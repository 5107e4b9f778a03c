// cancel_transpose_reshape: layout round trips removed.
//   * Transpose(Transpose(x, p), q) is Transpose(x, p[q]), and nothing when that is the identity;
//     a Transpose with the identity permutation is nothing;
//   * Reshape(Reshape(x, s), t) is Reshape(x, t) when t is a constant without 0 entries (a 0 would
//     copy a dim of the intermediate shape); a Reshape whose output type equals its input's (every
//     dim known and provably equal) is nothing;
//   * Squeeze(Unsqueeze(x, a), a) with the same constant axes is nothing.
// Chains collapse because each rewrite makes the next pair adjacent; the pass repeats until no
// rewrite applies. An output that would become a graph input directly keeps its node.
#include <algorithm>

#include "passes/match.h"
#include "passes/passes.h"

namespace onnxify::passes {

namespace {

using ir::Graph;
using ir::Node;
using ir::Value;

bool identity(const std::vector<int64_t>& p) {
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] != static_cast<int64_t>(i)) return false;
  return true;
}

bool fully_known(const ir::Type& t) {
  if (!t.is_tensor() || !t.has_rank()) return false;
  for (ir::DimExpr d : t.dims())
    if (d.is_unknown()) return false;
  return true;
}

// Replaces n's output by v (unless that would make a graph output a graph input) and erases n.
bool bypass(Graph& g, Node& n, Value* v) {
  Value* y = n.output(0);
  bool graph_output =
      std::any_of(y->uses().begin(), y->uses().end(), [](const ir::Use& u) { return !u.user; });
  if (graph_output && !v->producer()) return false;
  if (graph_output && !y->name().empty()) v->set_name(y->name());
  y->replace_all_uses_with(v);
  g.erase(&n);
  return true;
}

bool rewrite(Graph& g, Node& n) {
  if (n.is("Transpose")) {
    auto q = transpose_perm(n);
    if (!q) return false;
    if (identity(*q)) return bypass(g, n, n.input(0));
    Node* inner = n.input(0)->producer();
    if (!inner || !inner->is("Transpose")) return false;
    auto p = transpose_perm(*inner);
    if (!p || p->size() != q->size()) return false;
    std::vector<int64_t> composed = compose(*p, *q);
    if (identity(composed)) return bypass(g, n, inner->input(0));
    n.set_input(0, inner->input(0));
    n.set_attr("perm", composed);
    return true;
  }
  if (n.is("Reshape")) {
    const ir::Type& in = n.input(0)->type();
    const ir::Type& out = n.output(0)->type();
    if (fully_known(in) && fully_known(out) && in == out) return bypass(g, n, n.input(0));
    Node* inner = n.input(0)->producer();
    auto shape = const_ints(n.input(1));
    if (!inner || !inner->is("Reshape") || !shape || n.attr_int("allowzero", 0)) return false;
    if (std::find(shape->begin(), shape->end(), 0) != shape->end()) return false;
    n.set_input(0, inner->input(0));
    return true;
  }
  if (n.is("Squeeze")) {
    Node* inner = n.input(0)->producer();
    if (!inner || !inner->is("Unsqueeze") || n.num_inputs() < 2) return false;
    auto a = const_ints(n.input(1)), b = const_ints(inner->input(1));
    if (!a || !b || *a != *b) return false;
    for (int64_t x : *a)
      if (x < 0) return false;  // negative axes count from different ranks
    return bypass(g, n, inner->input(0));
  }
  return false;
}

bool run(Graph& g) {
  bool changed = false;
  for (Node* n : g.nodes()) {
    for (Graph* r : n->regions()) changed = run(*r) || changed;
    changed = rewrite(g, *n) || changed;
  }
  return changed;
}

}  // namespace

Status cancel_transpose_reshape(ir::Graph& graph, const PassOptions&) {
  while (run(graph)) {
  }
  // Intermediates a rewrite bypassed are left for dce.
  return Status::ok();
}

}  // namespace onnxify::passes
