// sink_transpose: Transposes moved below the elementwise ops they feed, so that a layout round trip
// ends up adjacent and cancel_transpose_reshape removes it.
//
// Channels-last code on a channels-first library (Keras on its torch backend, timm's NHWC blocks)
// turns every convolution into Transpose -> Conv -> Transpose, with the activations, BatchNorm's
// affine and residual Adds computed in between, in the other layout: a ResNet50 holds ~150
// Transposes that cancel in pairs once each has moved past the elementwise ops between it and its
// inverse. Elementwise ops commute with a Transpose:
//   * unary:   U(Transpose(x, p))                    = Transpose(U(x), p)
//   * binary:  B(Transpose(x, p), c)                 = Transpose(B(x, c'), p), c a constant of rank
//              <= rank(x): c' is c with ones prepended to that rank (numpy broadcasting), then
//              transposed by p's inverse (a Reshape and a Transpose on the constant, which fold
//              evaluates);
//              B(Transpose(x, p), Transpose(y, p))   = Transpose(B(x, y), p)
//   * a reduction keeping its dims: on the axes p maps its axes from (keepdims_reduce below);
//   * a reduction dropping its dims, when the kept dims stay in order: it reads x directly (absorbs);
//   * Pad with constant pads: the same pads on the axes p maps them from (a channels-last model's
//     ZeroPadding2D between the input's Transpose and its first Conv's);
//   * another Transpose of the result composes with p (cancel_transpose_reshape then drops the
//     identity).
// A Transpose moves only when every use of its result can take it, and only when that does not add
// Transposes: each use that cancels or merges with another Transpose pays for one a unary or
// constant use leaves below itself. Moves go strictly down the graph, so the pass ends.
#include <algorithm>
#include <optional>

#include "passes/match.h"
#include "passes/passes.h"

namespace onnxify::passes {

namespace {

using ir::DimExpr;
using ir::Graph;
using ir::Node;
using ir::Type;
using ir::Value;

// Default-domain ops computed element by element, where a Transpose of the inputs is a Transpose of
// the output (the extra inputs of Clip are scalars; PRelu's slope broadcasts like a binary operand).
bool unary(const Node& n) {
  static const char* const kOps[] = {"Relu", "Sigmoid", "Tanh", "HardSigmoid", "HardSwish", "LeakyRelu", "Elu",
                                     "Selu", "Celu", "Softplus", "Softsign", "Neg", "Abs", "Exp", "Log", "Sqrt",
                                     "Reciprocal", "Erf", "Floor", "Ceil", "Round", "Sign", "Not", "Cast",
                                     "Identity", "Gelu", "Mish", "Sin", "Cos", "IsNaN", "ThresholdedRelu", "Clip"};
  if (!n.domain().empty()) return false;
  return std::any_of(std::begin(kOps), std::end(kOps), [&](const char* op) { return n.is(op); });
}

bool binary(const Node& n) {
  static const char* const kOps[] = {"Add",  "Sub",   "Mul",  "Div",     "Pow",          "Max",
                                     "Min",  "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual",
                                     "And",  "Or",    "Xor",  "PRelu",   "Mod"};
  if (!n.domain().empty() || n.num_inputs() != 2 || n.num_outputs() != 1) return false;
  return std::any_of(std::begin(kOps), std::end(kOps), [&](const char* op) { return n.is(op); });
}

// The permutation of a Transpose whose input rank is known and matches it (types are rewritten by
// rank below).
std::optional<std::vector<int64_t>> perm_of(const Node& t) {
  auto p = transpose_perm(t);
  const Type& x = t.input(0)->type();
  if (!p || !x.is_tensor() || !x.has_rank() || p->size() != x.rank()) return std::nullopt;
  return p;
}

// The reductions a Transpose can pass (every reduction that takes axes and a keepdims flag).
bool reduction(const Node& n) {
  static const char* const kOps[] = {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd",
                                     "ReduceL1",   "ReduceL2",  "ReduceLogSumExp", "ReduceSumSquare"};
  if (!n.domain().empty()) return false;
  return std::any_of(std::begin(kOps), std::end(kOps), [&](const char* op) { return n.is(op); });
}

// Reductions that keep their reduced dims (keepdims=1) commute with a Transpose whose axes they
// follow: Reduce(Transpose(x, p), axes) = Transpose(Reduce(x, p[axes]), p). Squeeze-and-excite
// blocks average channels-last activations over their spatial axes this way.
bool keepdims_reduce(const Node& n) { return reduction(n) && n.attr_int("keepdims", 1) == 1; }

// The axes a reduction names, as given (attribute, or constant second input); nullopt when they are
// not known at conversion time; empty when it reduces every axis.
std::optional<std::vector<int64_t>> reduce_axes(const Node& n) {
  if (n.attr("axes")) return n.attr_ints("axes");
  if (n.num_inputs() < 2 || !n.input(1)) return std::vector<int64_t>{};
  return const_ints(n.input(1));
}

// A new 1-d int64 constant (a Reshape's shape, a reduction's axes, Pad's pads).
Value* int64_constant(Graph& g, const std::vector<int64_t>& values) {
  Value* c = g.add_initializer(ir::Tensor::vector_int64(values));
  c->set_type(Type::tensor(ir::ElementType::Int64, {DimExpr(static_cast<int64_t>(values.size()))}));
  return c;
}

// The reduction u, now reading x instead of Transpose(x, p): its axes become the axes of x they were
// (attribute or constant input; none given stays none: every axis).
void reduce_untransposed_axes(Graph& g, Node& u, const std::vector<int64_t>& p) {
  std::vector<int64_t> axes = *reduce_axes(u);
  const auto r = static_cast<int64_t>(p.size());
  for (int64_t& a : axes) a = p[static_cast<size_t>(a < 0 ? a + r : a)];
  if (u.attr("axes"))
    u.set_attr("axes", axes);
  else if (!axes.empty())
    u.set_input(1, int64_constant(g, axes));
}

// How one use of a Transpose's result takes the Transpose (kAbsorb: it reads x directly and its
// result is unchanged: a reduction dropping axes whose kept axes stay in order).
enum class Take { kNo, kCancel, kMerge, kBelow, kAbsorb };

// A reduction that drops its axes (keepdims=0) over Transpose(x, p): the same reduction of x over the
// axes p maps them from gives the same result when the kept axes keep their order (a channels-last
// global average pool, [N, H, W, C] -> [N, C], over x = [N, C, H, W]).
bool absorbs(const Node& u, const std::vector<int64_t>& p) {
  if (!reduction(u) || u.attr_int("keepdims", 1) != 0) return false;
  std::optional<std::vector<int64_t>> axes = reduce_axes(u);
  if (!axes || axes->empty()) return false;
  const auto r = static_cast<int64_t>(p.size());
  std::vector<bool> reduced(p.size(), false);
  for (int64_t a : *axes) {
    if (a < -r || a >= r) return false;
    reduced[static_cast<size_t>(a < 0 ? a + r : a)] = true;
  }
  int64_t last = -1;
  for (size_t i = 0; i < p.size(); ++i) {
    if (reduced[i]) continue;
    if (p[i] < last) return false;
    last = p[i];
  }
  return true;
}

struct Plan {
  Take take = Take::kNo;
  Value* other = nullptr;  // the binary op's other operand
};

bool is_transpose_with(const Value* v, const std::vector<int64_t>& p) {
  const Node* t = v ? v->producer() : nullptr;
  if (!t || !t->is("Transpose")) return false;
  auto q = perm_of(*t);
  return q && *q == p;
}

Plan plan_use(const Node& u, const Value* t, const std::vector<int64_t>& p) {
  Plan plan;
  if (u.num_outputs() == 1 && u.input(0) == t && absorbs(u, p)) {
    plan.take = Take::kAbsorb;
    return plan;
  }
  if (u.num_outputs() != 1 || !u.output(0)->type().is_tensor() || !u.output(0)->type().has_rank() ||
      u.output(0)->type().rank() != p.size())
    return plan;
  if (u.is("Transpose")) {
    plan.take = Take::kCancel;
    return plan;
  }
  if (unary(u)) {
    if (u.input(0) != t) return plan;
    for (size_t i = 1; i < u.num_inputs(); ++i)
      if (u.input(i) && (!u.input(i)->initializer() || u.input(i)->type().rank() > 0)) return plan;
    plan.take = Take::kBelow;
    return plan;
  }
  if (u.is("Pad") && u.domain().empty()) {
    // Pad(Transpose(x, p), pads) = Transpose(Pad(x, pads on x's axes), p), in every mode; the pads
    // must be known (and no axes input names a subset).
    if (u.input(0) != t || u.num_inputs() < 2 || !u.input(1) || (u.num_inputs() > 3 && u.input(3))) return plan;
    auto pads = const_ints(u.input(1));
    if (!pads || pads->size() != 2 * p.size()) return plan;
    plan.take = Take::kBelow;
    return plan;
  }
  if (keepdims_reduce(u)) {
    auto axes = reduce_axes(u);
    if (u.input(0) != t || !axes || (axes->empty() && u.attr_int("noop_with_empty_axes", 0) != 0)) return plan;
    const auto r = static_cast<int64_t>(p.size());
    if (std::any_of(axes->begin(), axes->end(), [&](int64_t a) { return a < -r || a >= r; })) return plan;
    plan.take = Take::kBelow;
    return plan;
  }
  if (!binary(u)) return plan;
  Value* other = u.input(0) == t ? u.input(1) : u.input(0);
  plan.other = other;
  if (other == t) {
    plan.take = Take::kBelow;
  } else if (other->initializer() && other->type().is_tensor() && other->type().has_rank() &&
             other->type().rank() <= p.size()) {
    plan.take = Take::kBelow;
  } else if (is_transpose_with(other, p) && other->uses().size() == 1) {
    plan.take = Take::kMerge;
  }
  return plan;
}

// The constant `c`, broadcast against a rank-r operand in the layout before Transpose(perm p): ones
// prepended to rank r, then transposed by p's inverse (folded to a constant by the fold pass).
Value* untransposed_constant(Graph& g, Value* c, const std::vector<int64_t>& p, Node* before) {
  const Type& ct = c->type();
  // A single value broadcasts alike in any layout.
  if (ct.rank() == 0 || (ct.numel().is_const() && ct.numel().value() == 1)) return c;
  Value* v = c;
  if (ct.rank() < p.size()) {
    std::vector<int64_t> shape(p.size() - ct.rank(), 1);
    for (DimExpr d : ct.dims()) shape.push_back(d.value());
    Node* r = g.create("", "Reshape", {v, int64_constant(g, shape)}, 1, before);
    std::vector<DimExpr> dims;
    for (int64_t d : shape) dims.push_back(DimExpr(d));
    r->output(0)->set_type(Type::tensor(ct.elem(), dims));
    v = r->output(0);
  }
  Node* t = g.create("", "Transpose", {v}, 1, before);
  t->set_attr("perm", inverse_perm(p));
  t->output(0)->set_type(transposed_type(v->type(), inverse_perm(p)));
  return t->output(0);
}

bool constant_dims_known(const Value* c) {
  if (!c || !c->initializer()) return true;
  for (DimExpr d : c->type().dims())
    if (!d.is_const()) return false;
  return true;
}

// What the Transpose left below u costs: one more, unless every use of u's result is the inverse
// Transpose, which it then cancels (each of those goes too).
int below_cost(const Node& u, const std::vector<int64_t>& p) {
  const auto& uses = u.output(0)->uses();
  const std::vector<int64_t> inv = inverse_perm(p);
  int inverses = 0;
  for (const ir::Use& use : uses) {
    if (!use.user || !use.user->is("Transpose")) return 1;
    auto q = perm_of(*use.user);
    if (!q || *q != inv) return 1;
    ++inverses;
  }
  return inverses ? -inverses : 1;
}

bool sink(Graph& g, Node& tr) {
  auto p = perm_of(tr);
  if (!p) return false;
  Value* x = tr.input(0);
  Value* t = tr.output(0);
  std::vector<std::pair<Node*, Plan>> plans;
  int cost = -1;  // this Transpose goes
  for (const ir::Use& use : t->uses()) {
    Node* u = use.user;
    if (!u || u->graph() != &g) return false;  // a graph output, or a use inside a region
    if (std::any_of(plans.begin(), plans.end(), [&](const auto& pl) { return pl.first == u; })) continue;
    Plan plan = plan_use(*u, t, *p);
    if (plan.take == Take::kNo || !constant_dims_known(plan.other)) return false;
    cost += plan.take == Take::kCancel ? -1 : plan.take == Take::kMerge || plan.take == Take::kAbsorb ? 0
                                                                                                 : below_cost(*u, *p);
    plans.emplace_back(u, plan);
  }
  if (plans.empty() || cost > 0) return false;

  for (auto& [u, plan] : plans) {
    if (plan.take == Take::kCancel) {
      u->set_input(0, x);
      u->set_attr("perm", compose(*p, *perm_of(*u)));
      continue;
    }
    if (plan.take == Take::kAbsorb) {
      reduce_untransposed_axes(g, *u, *p);
      u->set_input(0, x);
      continue;
    }
    // u computes in x's layout; a new Transpose below it gives its old result to its old uses.
    Value* other = nullptr;
    if (plan.other && plan.other != t)
      other = plan.take == Take::kMerge ? plan.other->producer()->input(0)
                                        : untransposed_constant(g, plan.other, *p, u);
    if (keepdims_reduce(*u)) reduce_untransposed_axes(g, *u, *p);
    if (u->is("Pad")) {
      // Axis i of the padded tensor was axis p[i] of x: its begin and end pads move there.
      std::vector<int64_t> pads = *const_ints(u->input(1)), moved(pads.size());
      const size_t r = p->size();
      for (size_t i = 0; i < r; ++i) {
        moved[static_cast<size_t>((*p)[i])] = pads[i];
        moved[r + static_cast<size_t>((*p)[i])] = pads[r + i];
      }
      u->set_input(1, int64_constant(g, moved));
    }
    for (size_t i = 0; i < u->num_inputs(); ++i) {
      if (u->input(i) == t)
        u->set_input(i, x);
      else if (other && u->input(i) == plan.other)
        u->set_input(i, other);
    }
    Value* y = u->output(0);
    const Type old_type = y->type();
    std::vector<ir::Use> uses(y->uses().begin(), y->uses().end());
    Node* below = g.create("", "Transpose", {y}, 1, u->next());
    below->set_attr("perm", *p);
    below->output(0)->set_type(old_type);
    y->set_type(transposed_type(old_type, inverse_perm(*p)));
    for (const ir::Use& use : uses) {
      if (use.user) {
        use.user->set_input(use.index, below->output(0));
      } else {
        // An output of g or of a region below it (an If branch that returns y from the enclosing
        // graph). g's output keeps its name: it moves from y to the Transpose that now gives it.
        if (use.graph == &g && !y->name().empty()) {
          below->output(0)->set_name(y->name());
          y->set_name("");
        }
        use.graph->set_output(use.index, below->output(0));
      }
    }
  }
  return true;
}

bool run(Graph& g) {
  bool changed = false;
  for (Node* n : g.nodes()) {
    for (Graph* r : n->regions()) changed = run(*r) || changed;
    if (n->is("Transpose")) changed = sink(g, *n) || changed;
  }
  return changed;
}

}  // namespace

Status sink_transpose(ir::Graph& graph, const PassOptions&) {
  while (run(graph)) {
  }
  // Transposes left without uses (moved, merged) are left for dce.
  return Status::ok();
}

}  // namespace onnxify::passes
