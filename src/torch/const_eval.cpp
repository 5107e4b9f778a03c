// Conversion-time values (DESIGN.md decision 1): a tensor that depends on no graph input, no weight
// and no random or uninitialized placeholder has values onnxify can compute itself, so item(),
// tolist(), int(t), bool(t), iteration and Python control flow on it behave as in eager.
//
// Constants made from Python data keep their values (TensorObj::data / fill). Everything computed
// from them was recorded as IR nodes; when Python needs the values, those nodes are evaluated here
// with the fold pass's kernels (passes/kernels/kernels.def), on demand. Results for values of the
// main graph are memoized (its nodes live as long as the export); values inside a region being
// recorded (an If branch, a Loop body) are evaluated afresh each time, as the region may be dropped.
//
// An initializer is a conversion-time constant unless it is marked opaque: the checkpoint's weights
// (bound before forward runs) and the zeros that stand for random or uninitialized tensors.
#include <fmt/core.h>

#include "passes/kernels/array.h"
#include "passes/kernels/kernels.h"
#include "passes/passes.h"
#include "torch/ops.h"

namespace onnxify::torch {

std::string shape_text(const std::vector<ir::DimExpr>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + s[i].str();
  return out + "]";
}

namespace {

// Evaluated results may be large (a causal mask, a position table): far above what fold keeps.
constexpr size_t kMaxBytes = size_t{1} << 30;
// Results kept for later requests; larger intermediates live only while one request is evaluated.
constexpr size_t kMemoBytes = size_t{16} << 20;

std::string where(const ir::Node& n) {
  const SourceRange& r = n.loc();
  if (!r.known() || !r.file) return "";
  return fmt::format(" (recorded at {}:{})", r.file->path(), r.begin.line);
}

class Evaluator {
 public:
  // through_checkpoint: the checkpoint's weights count as constants, and nothing is memoized in T
  // (those results hold for this checkpoint only).
  explicit Evaluator(Torch& T, bool through_checkpoint = false) : T_(T), through_checkpoint_(through_checkpoint) {
    limits_.max_bytes = kMaxBytes;
  }

  // The value's tensor, or null with why_ set.
  std::shared_ptr<const ir::Tensor> value(const ir::Value* root) {
    // Depth-first over producers with an explicit stack: a condition in forward may sit at the end of
    // a chain as long as the network.
    std::vector<const ir::Value*> stack{root};
    while (!stack.empty()) {
      const ir::Value* v = stack.back();
      if (known(v) || failed(v)) {
        stack.pop_back();
        continue;
      }
      if (const std::string* why = leaf(v)) {
        fail(v, *why);
        stack.pop_back();
        continue;
      }
      if (v->is_initializer()) {
        remember(v, std::make_shared<const ir::Tensor>(*v->initializer()));
        stack.pop_back();
        continue;
      }
      const ir::Node* n = v->producer();
      // Inputs first; an input that failed fails the node.
      bool pending = false;
      const std::string* bad = nullptr;
      for (const ir::Value* in : n->inputs()) {
        if (!in || known(in)) continue;
        if (const std::string* why = failure(in)) {
          bad = why;
          break;
        }
        stack.push_back(in);
        pending = true;
      }
      if (bad) {
        std::string why = *bad;
        fail_outputs(n, why);
        stack.pop_back();
        continue;
      }
      if (pending) continue;
      stack.pop_back();
      run(n);
    }
    auto it = local_.find(root);
    if (it != local_.end()) return it->second;
    if (auto g = T_.known.find(root); g != T_.known.end()) return g->second;
    const std::string* why = failure(root);
    why_ = why ? *why : std::string("could not be computed");
    return nullptr;
  }

  const std::string& why() const { return why_; }

 private:
  bool in_main(const ir::Value* v) const { return !through_checkpoint_ && v->graph() == &T_.rec.main(); }

  bool known(const ir::Value* v) const { return local_.count(v) || (in_main(v) && T_.known.count(v)); }
  bool failed(const ir::Value* v) const { return failure(v) != nullptr; }
  const std::string* failure(const ir::Value* v) const {
    if (auto it = local_fail_.find(v); it != local_fail_.end()) return &it->second;
    if (in_main(v))
      if (auto it = T_.unknown.find(v); it != T_.unknown.end()) return &it->second;
    return nullptr;
  }
  std::shared_ptr<const ir::Tensor> get(const ir::Value* v) const {
    if (auto it = local_.find(v); it != local_.end()) return it->second;
    return T_.known.at(v);
  }

  // Why a value that no node here computes is no conversion-time constant (null when it is one).
  const std::string* leaf(const ir::Value* v) {
    if (auto it = T_.opaque.find(v); it != T_.opaque.end() && !(through_checkpoint_ && T_.checkpoint_weights.count(v)))
      return &it->second;
    if (v->is_initializer()) return nullptr;
    static const std::string input = "";
    if (v->is_graph_input() || !v->producer()) return &input;
    const ir::Node* n = v->producer();
    // Values drawn at run time (torch.rand in forward) are only known when the model runs, as an
    // input is: `if torch.rand(()) < p:` is a tensor-dependent branch.
    if (passes::nondeterministic(*n)) return &input;
    if (n->has_regions()) {
      scratch_ = "is computed by a tensor-dependent " + std::string(n->op_type() == "If" ? "condition" : "loop");
      return &scratch_;
    }
    if (!passes::kernels::find_kernel(*n)) {
      scratch_ = fmt::format("is computed by {}{}, which onnxify cannot evaluate at conversion time",
                             n->qualified_op(), where(*n));
      return &scratch_;
    }
    return nullptr;
  }

  void remember(const ir::Value* v, std::shared_ptr<const ir::Tensor> t) {
    if (in_main(v) && t->nbytes() <= kMemoBytes)
      T_.known[v] = std::move(t);
    else
      local_[v] = std::move(t);
  }
  void fail(const ir::Value* v, const std::string& why) {
    if (in_main(v))
      T_.unknown[v] = why;
    else
      local_fail_[v] = why;
  }
  void fail_outputs(const ir::Node* n, const std::string& why) {
    for (size_t i = 0; i < n->num_outputs(); ++i)
      if (n->output(i)) fail(n->output(i), why);
  }

  void run(const ir::Node* n) {
    std::vector<std::shared_ptr<const ir::Tensor>> keep;
    std::vector<const ir::Tensor*> in;
    for (const ir::Value* v : n->inputs()) {
      keep.push_back(v ? get(v) : nullptr);
      in.push_back(keep.back().get());
    }
    auto out = passes::kernels::find_kernel(*n)(*n, in, limits_);
    bool ok = out && out->size() == n->num_outputs();
    for (size_t i = 0; ok && i < out->size(); ++i) {
      const ir::Value* o = n->output(i);
      if (o && o->type().is_tensor() && (o->type().elem() != (*out)[i].dtype() ||
                                         (o->type().has_rank() && o->type().rank() != (*out)[i].rank())))
        ok = false;
    }
    if (!ok) {
      fail_outputs(n, fmt::format("is computed by {}{}, which onnxify could not evaluate at conversion time for "
                                  "these operands",
                                  n->qualified_op(), where(*n)));
      return;
    }
    for (size_t i = 0; i < out->size(); ++i)
      if (n->output(i)) remember(n->output(i), std::make_shared<const ir::Tensor>(std::move((*out)[i])));
  }

  Torch& T_;
  const bool through_checkpoint_;
  passes::kernels::Limits limits_;
  std::unordered_map<const ir::Value*, std::shared_ptr<const ir::Tensor>> local_;
  std::unordered_map<const ir::Value*, std::string> local_fail_;
  std::string scratch_, why_;
};

// A tensor of `shape` whose every element is `v`.
std::shared_ptr<const ir::Tensor> splat(DType dt, const std::vector<int64_t>& shape, double v) {
  passes::kernels::Array a = passes::kernels::make(elem(dt), shape);
  if (a.is_float())
    for (double& x : a.f) x = v;
  else
    for (int64_t& x : a.i) x = dt == DType::Bool ? v != 0 : static_cast<int64_t>(v);
  return std::make_shared<const ir::Tensor>(passes::kernels::store(a));
}

}  // namespace

void mark_opaque(Torch& T, const ir::Value* v, std::string what) {
  T.opaque[v] = "depends on " + std::move(what);
  T.known.erase(v);
}

std::shared_ptr<const ir::Tensor> known_values(Torch& T, TensorObj* t, std::string* why) {
  auto set_why = [&](std::string w) {
    if (why) *why = std::move(w);
    return nullptr;
  };
  bool stale = t->base && t->base_version != t->base->version;
  if (!stale && !t->value) {
    // Not recorded yet: a constant made from Python data, a fill, or a placeholder.
    if (t->random) return set_why("depends on random or uninitialized values (torch.rand/randn/empty, nn.init), which no export can reproduce");
    if (t->uninitialized) return set_why("depends on uninitialized values (torch.empty)");
    if (t->data) return t->data;
    if (t->fill) {
      std::vector<int64_t> shape;
      for (const ir::DimExpr& d : t->shape) {
        if (!d.is_const()) return set_why("");
        shape.push_back(d.value());
      }
      if (elem(t->dtype) == ir::ElementType::Undefined || !passes::kernels::numeric_ok(elem(t->dtype)))
        return set_why(fmt::format("has dtype torch.{}, which onnxify does not compute with", info(t->dtype).name));
      return splat(t->dtype, shape, *t->fill);
    }
  }
  if (!stale && t->data && !t->random && !t->uninitialized) return t->data;
  ir::Value* v = value_of(T, t);
  Evaluator e(T);
  auto r = e.value(v);
  if (r) return r;
  // A tensor of symbolic size may still hold one value everywhere (const_uniform.cpp); its values
  // are known when its shape is static (a reduction to a scalar, an element of it).
  bool static_shape = true;
  std::vector<int64_t> shape;
  for (const ir::DimExpr& d : t->shape) {
    static_shape = static_shape && d.is_const();
    if (static_shape) shape.push_back(d.value());
  }
  if (static_shape)
    if (std::optional<ir::Tensor> u = uniform_value(T, v)) {
      auto a = passes::kernels::load(*u);
      if (a && u->dtype() == elem(t->dtype)) {
        double x = a->is_float() ? a->f[0] : static_cast<double>(a->i[0]);
        if (a->is_float() || static_cast<int64_t>(x) == a->i[0]) return splat(t->dtype, shape, x);
      }
    }
  return set_why(e.why());
}

std::shared_ptr<const ir::Tensor> checkpoint_values(Torch& T, ir::Value* v) {
  if (T.checkpoint_weights.empty()) return nullptr;
  Evaluator e(T, true);
  return e.value(v);
}

std::shared_ptr<const ir::Tensor> need_values(Torch& T, TensorObj* t, const std::string& use) {
  std::string why;
  auto r = known_values(T, t, &why);
  if (r) return r;
  std::string what = fmt::format("the value of a tensor of shape {}", shape_text(t->shape));
  if (why.empty()) need_concrete(T, what, use);
  throw Diagnostic::error(fmt::format("{} {}, but {} needs a concrete value at conversion time", what, why, use),
                          T.rec.location())
      .with_help("only Python values, static sizes and tensors computed from them are known at conversion time");
}

}  // namespace onnxify::torch
