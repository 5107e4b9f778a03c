// The lowering driver (onnx.h: lower, lower_composites, check_target) and the pieces every rule
// shares: the granularity decision, Int size arithmetic, pooling output sizes.
#include "onnx/lower/lower.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "ir/onnx_versions.h"
#include "ir/text.h"
#include "ir/verifier.h"
#include "passes/passes.h"

namespace onnxify {

namespace lowering {

using ir::DimExpr;
using ir::Node;
using ir::Value;

// ---- Context --------------------------------------------------------------------------------

Context::Context(const LowerOptions& o, const targets::TargetProfile& t, targets::TargetContext c)
    : options(o), target(t), tc(c), caps(t.capabilities(c)) {
  decompose_.insert(o.decompose.begin(), o.decompose.end());
  keep_.insert(o.keep.begin(), o.keep.end());
}

bool Context::coarse(const Node& n, std::string_view onnx_op, int since, std::string_view unfit) {
  const std::string& name = n.op_type();
  if (decompose_.count(name)) return false;
  std::string reason(unfit);
  bool opset_too_low = reason.empty() && opset() < since;
  if (opset_too_low)
    reason = fmt::format("{} needs opset {} or later (lowering to opset {})", onnx_op, since, opset());
  if (keep_.count(name)) {
    if (!reason.empty())
      error(n, fmt::format("cannot keep {} as one {} node: {}", name, onnx_op, reason),
            opset_too_low ? fmt::format("drop '{}' from --keep, or choose --opset {} or later", name, since)
                          : fmt::format("drop '{}' from --keep", name));
    return reason.empty();
  }
  return reason.empty() && target.prefers_coarse(name, onnx_op, tc);
}

void Context::error(const Node& n, const std::string& message, const std::string& help) {
  Diagnostic d = ir::node_diagnostic(n, message);
  if (!help.empty()) d.with_help(help);
  diagnostics.add(std::move(d));
}

Rule find_rule(std::string_view op) {
#define ONNXIFY_LOWERING(name, fn) \
  if (op == #name) return &fn;
#include "onnx/lower/rules.def"
#undef ONNXIFY_LOWERING
  return nullptr;
}

// ---- Int ------------------------------------------------------------------------------------

Int int_const(int64_t v) { return Int{DimExpr(v), nullptr}; }

Int int_dim(Builder& b, Value* x, int64_t axis) {
  int64_t r = Builder::rank(x);
  if (axis < 0) axis += r;
  DimExpr e = x->type().dim(static_cast<size_t>(axis));
  if (e.is_const()) return Int{e, nullptr};
  return Int{e, b.dim(x, axis)};
}

Value* int_value(Builder& b, const Int& v) { return v.is_const() ? b.i64({v.c()}) : v.value; }

namespace {
Int binary(Builder& b, const char* op, const Int& a, const Int& c, DimExpr e) {
  if (e.is_const()) return Int{e, nullptr};
  // x + 0, x * 1 and x / 1 are x.
  std::string_view o(op);
  int64_t unit = o == "Add" ? 0 : 1;
  if (o != "Min" && c.is_const() && c.c() == unit) return Int{e, a.value};
  if ((o == "Add" || o == "Mul") && a.is_const() && a.c() == unit) return Int{e, c.value};
  return Int{e, b.op(op, {int_value(b, a), int_value(b, c)})};
}
}  // namespace

Int int_add(Builder& b, const Int& a, const Int& c) { return binary(b, "Add", a, c, a.expr + c.expr); }
Int int_add(Builder& b, const Int& a, int64_t c) { return int_add(b, a, int_const(c)); }
Int int_mul(Builder& b, const Int& a, const Int& c) { return binary(b, "Mul", a, c, a.expr * c.expr); }
Int int_mul(Builder& b, const Int& a, int64_t k) { return int_mul(b, a, int_const(k)); }
Int int_floor_div(Builder& b, const Int& a, int64_t k) {
  return binary(b, "Div", a, int_const(k), ir::floor_div(a.expr, DimExpr(k)));
}
Int int_min(Builder& b, const Int& a, const Int& c) {
  return binary(b, "Min", a, c, ir::min(a.expr, c.expr));
}

Value* shape_value(Builder& b, const std::vector<Int>& dims) {
  std::vector<Value*> parts;
  for (const Int& d : dims) parts.push_back(int_value(b, d));
  return b.concat_i64(parts);
}

std::vector<DimExpr> exprs(const std::vector<Int>& dims) {
  std::vector<DimExpr> out;
  for (const Int& d : dims) out.push_back(d.expr);
  return out;
}

Int pool_out(Builder& b, const Int& in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  int64_t dk = d * (k - 1) + 1;
  Int span = int_add(b, in, 2 * p - dk);
  if (!ceil_mode) return int_add(b, int_floor_div(b, span, s), 1);
  // PyTorch: ceil((in + 2p - dk) / s) + 1, minus one when that last window would start in the right
  // padding; equivalently the smaller of it and floor((in + p - 1) / s) + 1 (valid for p <= k / 2).
  Int up = int_add(b, int_floor_div(b, int_add(b, span, s - 1), s), 1);
  Int last = int_add(b, int_floor_div(b, int_add(b, in, p - 1), s), 1);
  return int_min(b, up, last);
}

Value* batch_up(Builder& b, Value* x, int64_t spatial, bool* added) {
  *added = Builder::rank(x) == spatial + 1;
  return *added ? b.unsqueeze(x, {0}) : x;
}

Value* batch_down(Builder& b, Value* y, bool added) { return added ? b.squeeze(y, {0}) : y; }

Value* fconst(Builder& b, double v, const Value* like) {
  ir::ElementType e = Builder::elem(like);
  return b.scalar(v, e == ir::ElementType::Undefined ? ir::ElementType::Float32 : e);
}

// ---- driver ---------------------------------------------------------------------------------

namespace {

void lower_graph(ir::Graph& g, Context& ctx) {
  for (Node* n : g.nodes()) {
    for (ir::Graph* r : n->regions()) lower_graph(*r, ctx);
    if (n->domain() != ir::kOnnxifyDomain) continue;
    Rule rule = find_rule(n->op_type());
    if (!rule) {
      ctx.error(*n, fmt::format("no lowering rule for the composite op {}", n->qualified_op()));
      continue;
    }
    Builder b(*n);
    std::vector<Value*> out;
    rule(*n, b, ctx, out);
    if (out.size() != n->num_outputs()) continue;  // the rule reported why
    for (size_t i = 0; i < out.size(); ++i) {
      Value* old = n->output(i);
      if (!old) continue;
      Value* nv = out[i];
      if (!nv) {
        // A rule may skip an optional output nobody uses (max_pool's indices).
        if (old->has_uses()) ctx.error(*n, fmt::format("internal: the lowering of {} left output {} undefined",
                                                        n->qualified_op(), i));
        continue;
      }
      // The composite's declared type (symbolic dims included) is the truth for the new value.
      if (old->type().is_tensor() && nv->producer()) nv->set_type(old->type());
      if (!old->name().empty() && nv->producer() && nv->name().empty()) nv->set_name(old->name());
      old->replace_all_uses_with(nv);
    }
    bool dangling = false;
    for (size_t i = 0; i < n->num_outputs(); ++i) dangling = dangling || (n->output(i) && n->output(i)->has_uses());
    if (!dangling) g.erase(n);
  }
}

Status first(const DiagnosticList& list, DiagnosticList* all) {
  if (all)
    for (const Diagnostic& d : list.items()) all->add(d);
  if (list.empty()) return Status::ok();
  return Status(list.items().front());
}

// Validates the options; fills the target and its context.
Status prepare(const LowerOptions& o, const targets::TargetProfile** target, targets::TargetContext* tc) {
  *target = targets::find_target(o.target);
  if (!*target) {
    std::vector<std::string> names = target_names();
    Diagnostic d = Diagnostic::error(fmt::format("unknown target '{}'", o.target));
    std::string guess = closest_spelling(o.target, names);
    d.with_help(guess.empty() ? fmt::format("targets: {}", fmt::join(names, ", "))
                              : fmt::format("did you mean '{}'?", guess));
    return Status(std::move(d));
  }
  tc->opset = o.opset;
  if (o.target == "tensorrt") {
    int major = 0, minor = 0;
    if (std::sscanf(o.trt_version.c_str(), "%d.%d", &major, &minor) < 1 || major < 8)
      return Status::error(
          fmt::format("unsupported TensorRT version '{}' (8.x or 10.x, e.g. 8.6 or 10.15)", o.trt_version));
    tc->trt_major = major;
    tc->trt_minor = minor;
  }
  int lo = std::max(kMinOpset, (*target)->min_opset(*tc)),
      hi = std::min(kMaxOpset, (*target)->max_opset(*tc));
  if (o.opset < lo || o.opset > hi)
    return Status::error(fmt::format("target {} takes opsets {} to {}, not {}", o.target, lo, hi, o.opset));
  std::vector<std::string> names;
  for (const auto& op : ir::composite_ops()) names.push_back(op.name);
  for (const auto* list : {&o.decompose, &o.keep})
    for (const std::string& n : *list) {
      if (ir::find_composite_op(n)) continue;
      Diagnostic d = Diagnostic::error(fmt::format("'{}' is not a composite op (in --{})", n,
                                                   list == &o.decompose ? "decompose" : "keep"));
      std::string guess = closest_spelling(n, names);
      d.with_help(guess.empty() ? fmt::format("composite ops: {}", fmt::join(names, ", "))
                                : fmt::format("did you mean '{}'?", guess));
      return Status(std::move(d));
    }
  for (const std::string& n : o.keep)
    if (std::find(o.decompose.begin(), o.decompose.end(), n) != o.decompose.end())
      return Status::error(fmt::format("'{}' is in both --keep and --decompose", n));
  return Status::ok();
}

Status verify_at(const ir::Graph& g, int opset, int newer_up_to, const char* when) {
  ir::VerifyOptions vo;
  vo.opset = opset;
  vo.newer_ops_up_to = newer_up_to;
  Status s = ir::verify(g, vo);
  if (s) return s;
  Diagnostic d = s.diagnostic();
  d.with_help(fmt::format("internal error: the graph is invalid {}", when));
  return Status(std::move(d));
}

void check_graph(const ir::Graph& g, const targets::TargetProfile& t, const targets::TargetContext& tc,
                 DiagnosticList& out, const ir::NameTable& names) {
  for (const Node* n : g.nodes()) {
    for (const ir::Graph* r : n->regions()) check_graph(*r, t, tc, out, names);
    std::string why;
    if (n->domain() == ir::kOnnxifyDomain)
      why = fmt::format("composite op {} was not lowered", n->qualified_op());
    else
      why = t.check_node(*n, tc);
    if (why.empty()) continue;
    out.add(ir::node_diagnostic(*n, fmt::format("target {} rejects {}: {}", t.name, n->op_type(), why),
                                Severity::Error, &names));
  }
}

// TensorRT before 10 has no int64 tensors at the network boundary: int64 graph inputs become
// int32 (cast up inside), int64 outputs are cast down to int32. Values stay exact below 2^31.
void int32_boundary(ir::Graph& g) {
  for (size_t i = 0; i < g.num_inputs(); ++i) {
    Value* in = g.input(i);
    if (!in->type().is_tensor() || in->type().elem() != ir::ElementType::Int64 || !in->has_uses()) continue;
    Node* first = g.first();
    Node* c = g.create("", "Cast", {in}, 1, first);
    c->set_attr("to", int64_t{ir::info(ir::ElementType::Int64).onnx});
    c->output(0)->set_type(in->type());
    std::vector<ir::Use> uses = in->uses();
    in->set_type(ir::Type::tensor(ir::ElementType::Int32, in->type().dims()));
    for (const ir::Use& u : uses) {
      if (u.user == c) continue;
      if (u.user)
        u.user->set_input(u.index, c->output(0));
      else
        u.graph->set_output(u.index, c->output(0));
    }
  }
  for (size_t i = 0; i < g.num_outputs(); ++i) {
    Value* out = g.output(i);
    if (!out->type().is_tensor() || out->type().elem() != ir::ElementType::Int64) continue;
    Node* c = g.create("", "Cast", {out}, 1);
    c->set_attr("to", int64_t{ir::info(ir::ElementType::Int32).onnx});
    c->output(0)->set_type(ir::Type::tensor(ir::ElementType::Int32, out->type().dims()));
    if (out->producer()) {
      c->set_loc(out->producer()->loc());
      c->set_module_path(out->producer()->module_path());
    }
    std::string name = out->name();
    g.set_output(i, c->output(0));
    if (!name.empty() && out->producer()) {
      out->set_name(name + "_int64");
      c->output(0)->set_name(name);
    }
  }
}

}  // namespace

}  // namespace lowering

std::vector<std::string> target_names() {
  std::vector<std::string> out;
  for (const auto* t : targets::all_targets()) out.emplace_back(t->name);
  return out;
}

Status lower_composites(ir::Graph& graph, const LowerOptions& options, DiagnosticList* all) {
  const targets::TargetProfile* target = nullptr;
  targets::TargetContext tc;
  if (Status s = lowering::prepare(options, &target, &tc); !s) {
    if (all) all->add(s.diagnostic());
    return s;
  }
  lowering::Context ctx(options, *target, tc);
  lowering::lower_graph(graph, ctx);
  return lowering::first(ctx.diagnostics, all);
}

DiagnosticList check_target(const ir::Graph& graph, const LowerOptions& options) {
  DiagnosticList out;
  const targets::TargetProfile* target = nullptr;
  targets::TargetContext tc;
  if (Status s = lowering::prepare(options, &target, &tc); !s) {
    out.add(s.diagnostic());
    return out;
  }
  ir::NameTable names(graph);
  lowering::check_graph(graph, *target, tc, out, names);
  return out;
}

Status check_lower_options(const LowerOptions& options) {
  const targets::TargetProfile* target = nullptr;
  targets::TargetContext tc;
  return lowering::prepare(options, &target, &tc);
}

Status lower(ir::Graph& graph, const LowerOptions& options, DiagnosticList* all) {
  const targets::TargetProfile* target = nullptr;
  targets::TargetContext tc;
  if (Status s = lowering::prepare(options, &target, &tc); !s) {
    if (all) all->add(s.diagnostic());
    return s;
  }
  if (Status s = lower_composites(graph, options, all); !s) {
    // Report what opset conversion would reject too (one run reports every problem).
    DiagnosticList more;
    (void)convert_opset(graph, options.opset, &more);
    if (all)
      for (const Diagnostic& d : more.items()) all->add(d);
    return s;
  }
  // Rules emit canonical opset-17 forms plus coarse ops newer than 17 (when the opset is).
  if (options.verify)
    if (Status s =
            lowering::verify_at(graph, kCanonicalOpset, options.opset, "after expanding composite ops");
        !s)
      return s;
  if (options.run_pipeline) {
    passes::PassOptions po;
    po.opset = kCanonicalOpset;
    if (Status s = passes::run_pipeline(graph, target->pipeline, po); !s) return s;
    if (options.verify)
      if (Status s = lowering::verify_at(graph, kCanonicalOpset, options.opset, "after the target's passes");
          !s)
        return s;
  }
  if (Status s = convert_opset(graph, options.opset, all); !s) return s;
  if (options.run_pipeline) {
    // Conversion adds constants (axes inputs) and nodes (Shape + Slice) that may duplicate others.
    passes::PassOptions po;
    po.opset = options.opset;
    if (Status s = passes::run_pipeline(graph, {"cse", "dce"}, po); !s) return s;
  }
  if (!target->capabilities(tc).int64) lowering::int32_boundary(graph);
  if (options.verify)
    if (Status s = lowering::verify_at(graph, options.opset, 0, "after opset conversion"); !s) return s;
  DiagnosticList problems = check_target(graph, options);
  return lowering::first(problems, all);
}

}  // namespace onnxify
