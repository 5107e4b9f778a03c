// fuse_rms_norm: RMSNorm written out by hand, as Hugging Face's LlamaRMSNorm / T5LayerNorm /
// Qwen2RMSNorm and most LLaMA-style code do instead of calling nn.RMSNorm:
//
//     variance = x.pow(2).mean(-1, keepdim=True)           # or (x * x).mean(...)
//     x = x * torch.rsqrt(variance + eps)                   # or x / torch.sqrt(variance + eps)
//     return self.weight * x                                # optional, either order
//
// recorded as Mul(x, Reciprocal(Sqrt(Add(ReduceMean(Pow(x, 2), [-1], keepdims), eps)))) (or Div by
// the Sqrt), then Mul by a weight. This pass makes it the rms_norm composite (the one nn.RMSNorm
// records), which lowering turns into ONNX RMSNormalization (opset 23) where the target runs it, or
// back into plain ops. Only float32/float64 inputs: for float16 the composite computes in float32
// (PyTorch's F.rms_norm), which the hand-written form in float16 does not. The weight is taken in
// only when it has the normalized shape (D) and nothing else reads the unweighted result.
#include <optional>

#include "passes/passes.h"

namespace onnxify::passes {

namespace {

using ir::ElementType;
using ir::Graph;
using ir::Node;
using ir::Value;

int64_t rank(const Value* v) {
  return v && v->type().is_tensor() && v->type().has_rank() ? static_cast<int64_t>(v->type().rank()) : -1;
}

std::optional<double> scalar(const Value* v) {
  if (!v || !v->initializer() || v->initializer()->numel() != 1 || !ir::is_float(v->initializer()->dtype()))
    return std::nullopt;
  return v->initializer()->float_at(0);
}

const Node* producer(const Value* v, const char* op) {
  const Node* n = v ? v->producer() : nullptr;
  return n && n->is(op) ? n : nullptr;
}

// x^2 as Pow(x, 2) or Mul(x, x).
bool is_square_of(const Value* v, const Value* x) {
  if (const Node* p = producer(v, "Pow")) return p->input(0) == x && scalar(p->input(1)) == 2.0;
  if (const Node* m = producer(v, "Mul")) return m->input(0) == x && m->input(1) == x;
  return false;
}

// sqrt(mean(x^2 over the last axis, keepdims) + eps): eps, or nullopt.
std::optional<double> rms_of(const Value* s, const Value* x) {
  const Node* sq = producer(s, "Sqrt");
  const Node* add = sq ? producer(sq->input(0), "Add") : nullptr;
  if (!add || add->num_inputs() != 2) return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    auto eps = scalar(add->input(static_cast<size_t>(1 - i)));
    const Node* mean = producer(add->input(static_cast<size_t>(i)), "ReduceMean");
    if (!eps || !mean || mean->attr_int("keepdims", 1) != 1) continue;
    std::vector<int64_t> axes = mean->attr_ints("axes");
    if (mean->num_inputs() > 1 && mean->input(1)) {
      const ir::Tensor* t = mean->input(1)->initializer();
      if (!t || t->dtype() != ElementType::Int64) continue;
      axes.clear();
      for (int64_t k = 0; k < t->numel(); ++k) axes.push_back(t->int_at(k));
    }
    int64_t r = rank(x);
    if (axes.size() != 1 || (axes[0] != r - 1 && axes[0] != -1)) continue;
    if (is_square_of(mean->input(0), x)) return eps;
  }
  return std::nullopt;
}

bool fuse(Graph& g, Node& n) {
  if (n.num_inputs() != 2) return false;
  for (int xi = 0; xi < (n.is("Mul") ? 2 : 1); ++xi) {
    Value* x = n.input(static_cast<size_t>(xi));
    const Value* other = n.input(static_cast<size_t>(1 - xi));
    int64_t r = rank(x);
    if (r < 1 || !x->type().dims().back().is_const()) continue;
    ElementType e = x->type().elem();
    if (e != ElementType::Float32 && e != ElementType::Float64) continue;
    std::optional<double> eps;
    if (n.is("Div")) {
      eps = rms_of(other, x);
    } else if (const Node* rec = producer(other, "Reciprocal")) {
      eps = rms_of(rec->input(0), x);
    }
    if (!eps) continue;
    int64_t d = x->type().dims().back().value();
    // A weight of shape (D) multiplying the result, and nothing else reading it: taken in.
    Node* last = &n;
    Value* w = nullptr;
    const auto& uses = n.output(0)->uses();
    if (uses.size() == 1 && uses[0].user && uses[0].user->is("Mul") && uses[0].user->graph() == &g &&
        uses[0].user->num_inputs() == 2) {
      Node* m = uses[0].user;
      Value* c = m->input(0) == n.output(0) ? m->input(1) : m->input(0);
      if (c != n.output(0) && rank(c) == 1 && c->type().dim(0).is_const() && c->type().dim(0).value() == d &&
          c->type().elem() == e && m->output(0)->type() == n.output(0)->type()) {
        w = c;
        last = m;
      }
    }
    std::vector<Value*> ins = {x};
    if (w) ins.push_back(w);
    Node* rms = g.create("onnxify", "rms_norm", ins, 1, last);
    rms->set_loc(n.loc());
    rms->set_module_path(n.module_path());
    rms->set_attr("normalized_shape", std::vector<int64_t>{d});
    rms->set_attr("eps", static_cast<float>(*eps));
    rms->output(0)->set_type(last->output(0)->type());
    if (!last->output(0)->name().empty()) rms->output(0)->set_name(last->output(0)->name());
    last->output(0)->replace_all_uses_with(rms->output(0));
    if (last != &n) g.erase(last);
    g.erase(&n);  // the mean, sqrt and reciprocal go with dce when nothing else reads them
    return true;
  }
  return false;
}

void run(Graph& g) {
  std::vector<Node*> found;  // collected first: fusing erases nodes after the current one
  for (Node* n : g.nodes()) {
    for (Graph* r : n->regions()) run(*r);
    if (n->is("Mul") || n->is("Div")) found.push_back(n);
  }
  std::vector<Node*> erased;
  for (Node* n : found) {
    bool gone = false;
    for (Node* e : erased) gone = gone || e == n;
    if (gone) continue;
    // The weight Mul a fusion may erase is itself a candidate later in the list.
    const auto& uses = n->output(0)->uses();
    Node* next = uses.size() == 1 ? uses[0].user : nullptr;
    if (fuse(g, *n) && next) erased.push_back(next);
  }
}

}  // namespace

Status fuse_rms_norm(ir::Graph& graph, const PassOptions&) {
  run(graph);
  return Status::ok();
}

}  // namespace onnxify::passes
