// fuse_matmul_add: MatMul(A, B) followed by Add(_, C) becomes Gemm(A, B, C) where that is legal:
// A and B 2-d, the MatMul used only by the Add, C unidirectionally broadcastable to the (M, N)
// result (rank <= 2, each dim 1 or equal), and an element type Gemm takes. A Transpose with perm
// [1, 0] feeding A or B (and nothing else) becomes transA / transB.
#include "passes/passes.h"

namespace onnxify::passes {

namespace {

using ir::DimExpr;
using ir::ElementType;
using ir::Graph;
using ir::Node;
using ir::Value;

bool rank2(const Value* v) {
  return v && v->type().is_tensor() && v->type().has_rank() && v->type().rank() == 2;
}

bool gemm_type(ElementType e) {
  return e == ElementType::Float32 || e == ElementType::Float64 || e == ElementType::Float16 ||
         e == ElementType::BFloat16;
}

// C broadcasts to (m, n) in Gemm's unidirectional sense.
bool broadcasts(const Value* c, DimExpr m, DimExpr n) {
  if (!c || !c->type().is_tensor() || !c->type().has_rank() || c->type().rank() > 2) return false;
  const auto& d = c->type().dims();
  std::vector<DimExpr> want = {m, n};
  for (size_t i = 0; i < d.size(); ++i) {
    DimExpr target = want[want.size() - d.size() + i];
    bool one = d[i].is_const() && d[i].value() == 1;
    if (!one && !d[i].provably_equal(target)) return false;
  }
  return true;
}

// x, or the input of a [1, 0] Transpose that only x's consumer uses.
Value* untransposed(Value* x, bool* trans) {
  Node* t = x->producer();
  *trans = false;
  if (t && t->is("Transpose") && x->uses().size() == 1 &&
      t->attr_ints("perm") == std::vector<int64_t>{1, 0} && rank2(t->input(0))) {
    *trans = true;
    return t->input(0);
  }
  return x;
}

bool fuse(Graph& g, Node& mm) {
  Value* y = mm.output(0);
  if (!rank2(mm.input(0)) || !rank2(mm.input(1)) || !rank2(y) || y->uses().size() != 1) return false;
  if (!gemm_type(y->type().elem())) return false;
  Node* add = y->uses()[0].user;
  if (!add || !add->is("Add") || add->graph() != &g || add->num_inputs() != 2) return false;
  Value* c = add->input(0) == y ? add->input(1) : add->input(0);
  if (c == y || !rank2(add->output(0)) || !broadcasts(c, y->type().dim(0), y->type().dim(1))) return false;
  if (c->type().elem() != y->type().elem()) return false;
  bool ta = false, tb = false;
  Value* a = untransposed(mm.input(0), &ta);
  Value* b = untransposed(mm.input(1), &tb);
  Node* gemm = g.create("", "Gemm", {a, b, c}, 1, add);
  gemm->set_loc(mm.loc());
  gemm->set_module_path(mm.module_path());
  if (ta) gemm->set_attr("transA", int64_t{1});
  if (tb) gemm->set_attr("transB", int64_t{1});
  gemm->output(0)->set_type(add->output(0)->type());
  if (!add->output(0)->name().empty()) gemm->output(0)->set_name(add->output(0)->name());
  add->output(0)->replace_all_uses_with(gemm->output(0));
  g.erase(add);
  g.erase(&mm);
  return true;
}

void run(Graph& g) {
  // Collected first: fusing erases the Add, which may be the next node of a running iteration.
  std::vector<Node*> matmuls;
  for (Node* n : g.nodes()) {
    for (Graph* r : n->regions()) run(*r);
    if (n->is("MatMul")) matmuls.push_back(n);
  }
  for (Node* n : matmuls) fuse(g, *n);
}

}  // namespace

Status fuse_matmul_add(ir::Graph& graph, const PassOptions&) {
  run(graph);
  return Status::ok();
}

}  // namespace onnxify::passes
