// The verifier (see verifier.h). ONNX-domain op rules come from libonnx's OpSchemaRegistry, so no
// schema table is written by hand here.
#include "ir/verifier.h"

#include <fmt/core.h>
#include <onnx/defs/schema.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "ir/onnx_versions.h"
#include "ir/op_rules.h"
#include "ir/text.h"

namespace onnxify::ir {

Diagnostic node_diagnostic(const Node& node, const std::string& message, Severity severity,
                           const NameTable* names) {
  std::string header;
  if (names) {
    header = print_node_header(node, *names);
  } else {
    // Name within the node's outermost graph so the header matches the printed IR.
    const Graph* top = node.graph();
    while (top && top->parent_graph()) top = top->parent_graph();
    header = top ? print_node_header(node, NameTable(*top)) : node.qualified_op();
  }
  std::string text = fmt::format("{}: {}", header, message);
  SourceRange r = node.loc();
  if (r.file && r.begin.known()) {
    if (!r.end.known()) r.end = SourceLoc{r.begin.line, r.begin.col + 1};  // a position: one caret
    if (!r.file->line(r.begin.line).empty()) return Diagnostic(severity, std::move(text), r);
    // The file's text is not at hand: keep the position in the header, without a quoted line.
    return Diagnostic(severity, std::move(text))
        .with_file(fmt::format("{}:{}:{}", r.file->path(), r.begin.line, r.begin.col + 1));
  }
  return Diagnostic(severity, std::move(text));
}

namespace {

std::string count(size_t n, const char* noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); }

// ONNX's type string for a value type ("tensor(float)"), or "" when unknown.
std::string onnx_type_string(const Type& t) {
  switch (t.kind()) {
    case Type::Kind::Unknown:
      return "";
    case Type::Kind::Tensor:
      return fmt::format("tensor({})", info(t.elem()).onnx_name);
    case Type::Kind::Sequence: {
      std::string in = onnx_type_string(t.inner());
      return in.empty() ? "" : fmt::format("seq({})", in);
    }
    case Type::Kind::Optional: {
      std::string in = onnx_type_string(t.inner());
      return in.empty() ? "" : fmt::format("optional({})", in);
    }
  }
  return "";
}

// The IR spelling of an ONNX type string: "tensor(float)" -> "float32", "seq(tensor(int64))" ->
// "seq<int64>".
std::string ir_spelling(std::string_view s) {
  auto wrapped = [&](std::string_view prefix, std::string_view ir_prefix) -> std::optional<std::string> {
    if (s.substr(0, prefix.size()) == prefix && s.back() == ')')
      return fmt::format("{}<{}>", ir_prefix,
                         ir_spelling(s.substr(prefix.size(), s.size() - prefix.size() - 1)));
    return std::nullopt;
  };
  if (s.substr(0, 7) == "tensor(" && s.back() == ')') {
    std::string_view e = s.substr(7, s.size() - 8);
    for (int i = 1; i <= 23; ++i) {
      auto t = element_type_from_onnx(i);
      if (t && info(*t).onnx_name == e) return std::string(to_string(*t));
    }
    return std::string(e);
  }
  if (auto w = wrapped("seq(", "seq")) return *w;
  if (auto w = wrapped("optional(", "opt")) return *w;
  return std::string(s);
}

std::string allowed_list(const onnx::DataTypeSet& set) {
  std::vector<std::string> names;
  for (const auto* dt : set) names.push_back(ir_spelling(*dt));
  std::sort(names.begin(), names.end());
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += ", ";
    out += names[i];
  }
  return out;
}

class Verifier {
 public:
  Verifier(const Graph& main, const VerifyOptions& opts) : main_(main), names_(main), opts_(opts) {}

  DiagnosticList run() {
    collect(main_);
    std::vector<const Value*> scope;
    graph(main_, scope);
    check_use_lists();
    return std::move(out_);
  }

 private:
  // --- pass 1: every live node and value, so later checks never follow a dangling pointer.
  void collect(const Graph& g) {
    graphs_.insert(&g);
    graph_order_.push_back(&g);
    auto value = [&](const Value* v) {
      if (live_.insert(v).second) value_order_.push_back(v);
    };
    for (size_t i = 0; i < g.num_inputs(); ++i) value(g.input(i));
    for (size_t i = 0; i < g.num_initializers(); ++i) value(g.initializer(i));
    for (Node* n : g.nodes()) {
      nodes_.insert(n);
      node_order_.push_back(n);
      for (size_t i = 0; i < n->num_outputs(); ++i)
        if (n->output(i)) value(n->output(i));
      for (Graph* r : n->regions()) collect(*r);
    }
  }

  void error(const Node& n, const std::string& msg) {
    out_.add(node_diagnostic(n, msg, Severity::Error, &names_));
  }
  void graph_error(const Graph& g, const std::string& msg) {
    std::string where;
    if (!g.parent_node())
      where = fmt::format("graph @{}", g.name());
    else if (g.name().empty())
      where = fmt::format("a region of {}", print_node_header(*g.parent_node(), names_));
    else
      where = fmt::format("region @{} of {}", g.name(), print_node_header(*g.parent_node(), names_));
    out_.add(Diagnostic::error(fmt::format("{}: {}", where, msg)));
  }
  std::string vname(const Value* v) const { return "%" + names_(v); }

  // --- pass 2: structure, dominance and op rules, walking in order with the visible values.
  void graph(const Graph& g, std::vector<const Value*>& scope) {
    size_t mark = scope.size();
    for (size_t i = 0; i < g.num_inputs(); ++i) visible(g.input(i), scope);
    for (size_t i = 0; i < g.num_initializers(); ++i) {
      const Value* v = g.initializer(i);
      if (v->type() != v->initializer()->type())
        graph_error(g, fmt::format("initializer {} has type {} but its data is {}", vname(v), v->type().str(),
                                   v->initializer()->type().str()));
      visible(v, scope);
    }
    for (Node* n : g.nodes()) {
      if (n->graph() != &g) {
        error(*n, "node is listed in one graph but claims another");
        continue;
      }
      node(*n, scope);
      for (size_t i = 0; i < n->num_outputs(); ++i)
        if (n->output(i)) visible(n->output(i), scope);
    }
    for (size_t i = 0; i < g.num_outputs(); ++i) {
      const Value* v = g.output(i);
      if (!v) {
        graph_error(g, fmt::format("output {} is empty", i));
      } else if (!live_.count(v)) {
        graph_error(g, fmt::format("output {} refers to a value that is no longer defined (dangling)", i));
      } else if (!visible_.count(v)) {
        graph_error(g, fmt::format("output {} is {}, which is not defined in this graph or an enclosing one",
                                   i, vname(v)));
      }
    }
    while (scope.size() > mark) {
      visible_.erase(scope.back());
      scope.pop_back();
    }
  }

  void visible(const Value* v, std::vector<const Value*>& scope) {
    visible_.insert(v);
    scope.push_back(v);
  }

  void node(const Node& n, std::vector<const Value*>& scope) {
    for (size_t i = 0; i < n.num_inputs(); ++i) {
      const Value* v = n.input(i);
      if (!v) continue;
      if (!live_.count(v)) {
        error(n, fmt::format("input {} refers to a value that is no longer defined (dangling)", i));
        continue;
      }
      if (visible_.count(v)) continue;
      bool same_or_outer = v->graph() && v->graph()->encloses(n.graph());
      if (same_or_outer)
        error(n, fmt::format("input {} uses {} before its definition", i, vname(v)));
      else
        error(n,
              fmt::format("input {} uses {}, which is defined inside another region and is not visible here",
                          i, vname(v)));
    }
    for (Graph* r : n.regions()) {
      if (r->parent_node() != &n) error(n, "a region does not point back to its node");
      graph(*r, scope);
    }
    if (!opts_.structure_only) rules(n);
  }

  void rules(const Node& n) {
    if (n.domain().empty() || n.domain() == "ai.onnx") {
      onnx_rules(n);
      control_flow(n);
    } else if (n.domain() == kOnnxifyDomain) {
      const OpRule* rule = find_op_rule(n.domain(), n.op_type());
      if (!rule) {
        error(n, fmt::format("no rule is registered for the composite op {}", n.qualified_op()));
      } else if (rule->verify) {
        std::string problem = rule->verify(n);
        if (!problem.empty()) error(n, problem);
      }
    }
  }

  void onnx_rules(const Node& n) {
    // libonnx knows opsets up to libonnx_max_opset() (17). Past it, onnx_versions.def says which ops
    // changed: a new or re-signed op is checked against the table's arity and attribute names; an op
    // whose later versions only widened types is checked against libonnx's newest schema without
    // its type lists; an unchanged op against libonnx's newest schema in full.
    int schema_opset = opts_.opset;
    bool check_types = true;
    if (opts_.opset > libonnx_max_opset()) {
      schema_opset = libonnx_max_opset();
      const OnnxVersionRow* sig = nullptr;
      for (const OnnxVersionRow* r : onnx_version_rows(n.op_type())) {
        if (r->since > opts_.opset) continue;
        check_types = false;
        if (r->change != OnnxChange::Types) sig = r;
      }
      if (sig) {
        table_rules(n, *sig);
        return;
      }
    }
    const onnx::OpSchema* s = onnx::OpSchemaRegistry::Schema(n.op_type(), schema_opset, "");
    if (opts_.newer_ops_up_to > opts_.opset) {
      // A mix of forms (opset-17 forms plus ops or attributes of the newer opset): an op re-signed
      // in between may take either signature, so check against their union.
      const OnnxVersionRow* sig = nullptr;
      for (const OnnxVersionRow* r : onnx_version_rows(n.op_type()))
        if (r->since > opts_.opset && r->since <= opts_.newer_ops_up_to && r->change != OnnxChange::Types)
          sig = r;
      if (sig) {
        OnnxVersionRow either = *sig;
        if (s) {
          either.min_inputs = std::min(either.min_inputs, s->min_input());
          if (either.max_inputs >= 0) either.max_inputs = std::max(either.max_inputs, s->max_input());
          either.min_outputs = std::min(either.min_outputs, s->min_output());
          if (either.max_outputs >= 0) either.max_outputs = std::max(either.max_outputs, s->max_output());
          for (const auto& [name, a] : s->attributes()) either.attributes.push_back(name);
        }
        table_rules(n, either);
        return;
      }
    }
    if (!s) {
      int first = onnx_op_first_opset(n.op_type());
      if (first > opts_.opset) {
        error(n, fmt::format("{} is not in ONNX opset {} (it arrived in opset {})", n.op_type(), opts_.opset,
                             first));
        return;
      }
      if (const onnx::OpSchema* later = onnx::OpSchemaRegistry::Schema(n.op_type(), "")) {
        error(n, fmt::format("{} is not in ONNX opset {} (it arrived in opset {})", n.op_type(), opts_.opset,
                             later->since_version()));
        return;
      }
      std::vector<std::string> names;
      for (const auto& sc : onnx::OpSchemaRegistry::get_all_schemas())
        if (sc.domain().empty()) names.push_back(sc.Name());
      std::string guess = closest_spelling(n.op_type(), names);
      Diagnostic d =
          node_diagnostic(n, fmt::format("unknown ONNX op '{}'", n.op_type()), Severity::Error, &names_);
      if (!guess.empty()) d.with_help(fmt::format("did you mean {}?", guess));
      out_.add(std::move(d));
      return;
    }
    if (s->deprecated()) {
      error(n, fmt::format("{} is deprecated in ONNX opset {}", n.op_type(), opts_.opset));
      return;
    }
    int ni = static_cast<int>(n.num_inputs()), no = static_cast<int>(n.num_outputs());
    if (ni < s->min_input() || ni > s->max_input()) {
      error(n, fmt::format("{} takes {} input{}, not {}", n.op_type(), arity(s->min_input(), s->max_input()),
                           s->max_input() == 1 ? "" : "s", ni));
      return;
    }
    if (no < s->min_output() || no > s->max_output()) {
      error(n, fmt::format("{} has {} output{}, not {}", n.op_type(), arity(s->min_output(), s->max_output()),
                           s->max_output() == 1 ? "" : "s", no));
      return;
    }
    attributes(n, *s);
    std::map<std::string, std::pair<std::string, std::string>> bound;  // type var -> (type, bound by)
    ports(n, *s, s->inputs(), true, bound, check_types);
    ports(n, *s, s->outputs(), false, bound, check_types);
  }

  // An op version libonnx does not know: arity and attribute names from onnx_versions.def.
  void table_rules(const Node& n, const OnnxVersionRow& r) {
    auto within = [](size_t v, int lo, int hi) {
      return static_cast<int>(v) >= lo && (hi < 0 || static_cast<int>(v) <= hi);
    };
    auto range = [](int lo, int hi) {
      return hi < 0 ? arity(lo, std::numeric_limits<int>::max()) : arity(lo, hi);
    };
    if (!within(n.num_inputs(), r.min_inputs, r.max_inputs)) {
      error(n, fmt::format("{}-{} takes {} inputs, not {}", n.op_type(), r.since,
                           range(r.min_inputs, r.max_inputs), n.num_inputs()));
      return;
    }
    if (!within(n.num_outputs(), r.min_outputs, r.max_outputs)) {
      error(n, fmt::format("{}-{} has {} outputs, not {}", n.op_type(), r.since,
                           range(r.min_outputs, r.max_outputs), n.num_outputs()));
      return;
    }
    for (int i = 0; i < r.min_inputs && i < static_cast<int>(n.num_inputs()); ++i)
      if (!n.input(i)) error(n, fmt::format("input {} of {} is required", i, n.op_type()));
    for (const auto& [name, a] : n.attrs()) {
      if (std::find(r.attributes.begin(), r.attributes.end(), name) != r.attributes.end()) continue;
      Diagnostic d =
          node_diagnostic(n, fmt::format("{}-{} has no attribute '{}'", n.op_type(), r.since, name),
                          Severity::Error, &names_);
      std::string guess = closest_spelling(name, r.attributes);
      if (!guess.empty()) d.with_help(fmt::format("did you mean '{}'?", guess));
      out_.add(std::move(d));
    }
  }

  static std::string arity(int lo, int hi) {
    if (lo == hi) return fmt::format("{}", lo);
    if (hi == std::numeric_limits<int>::max()) return fmt::format("at least {}", lo);
    return fmt::format("{} to {}", lo, hi);
  }

  void attributes(const Node& n, const onnx::OpSchema& s) {
    const auto& known = s.attributes();
    for (const auto& [name, a] : n.attrs()) {
      auto it = known.find(name);
      if (it == known.end()) {
        std::vector<std::string> names;
        for (const auto& [k, v] : known) names.push_back(k);
        Diagnostic d = node_diagnostic(n, fmt::format("{} has no attribute '{}'", n.op_type(), name),
                                       Severity::Error, &names_);
        std::string guess = closest_spelling(name, names);
        if (!guess.empty()) d.with_help(fmt::format("did you mean '{}'?", guess));
        out_.add(std::move(d));
        continue;
      }
      int want = static_cast<int>(it->second.type);
      if (want != onnx_attr_type(a.kind())) {
        auto want_kind = attr_kind_from_onnx(want);
        error(n, fmt::format("attribute '{}' must be {}, not {}", name,
                             want_kind ? std::string(to_string(*want_kind)) : std::to_string(want),
                             to_string(a.kind())));
      }
    }
    for (const auto& [name, spec] : known)
      if (spec.required && !n.attr(name)) error(n, fmt::format("missing required attribute '{}'", name));
  }

  void ports(const Node& n, const onnx::OpSchema& s,
             const std::vector<onnx::OpSchema::FormalParameter>& formal, bool inputs,
             std::map<std::string, std::pair<std::string, std::string>>& bound, bool check_types) {
    size_t count = inputs ? n.num_inputs() : n.num_outputs();
    const char* what = inputs ? "input" : "output";
    for (size_t i = 0; i < formal.size() && i < count; ++i) {
      const auto& f = formal[i];
      const Value* v = inputs ? n.input(i) : n.output(i);
      if (!v && f.GetOption() == onnx::OpSchema::Single)
        error(n, fmt::format("{} {} ({}) of {} is required", what, i, f.GetName(), n.op_type()));
    }
    if (formal.empty() || !check_types) return;
    for (size_t i = 0; i < count; ++i) {
      const Value* v = inputs ? n.input(i) : n.output(i);
      if (!v || !live_.count(v)) continue;
      size_t fi = std::min(i, formal.size() - 1);
      const auto& f = formal[fi];
      if (i >= formal.size() && f.GetOption() != onnx::OpSchema::Variadic) continue;
      std::string ts = onnx_type_string(v->type());
      if (ts.empty()) continue;
      const auto& allowed = f.GetTypes();
      bool ok = std::any_of(allowed.begin(), allowed.end(), [&](const std::string* dt) { return *dt == ts; });
      std::string port = fmt::format("{} {} ({}, {})", what, i, f.GetName(), vname(v));
      if (!ok) {
        error(n, fmt::format("{} has type {}, but {} of {} allows {}", port, ir_spelling(ts), f.GetTypeStr(),
                             n.op_type(), allowed_list(allowed)));
        continue;
      }
      const std::string& var = f.GetTypeStr();
      bool is_var = std::any_of(s.typeConstraintParams().begin(), s.typeConstraintParams().end(),
                                [&](const auto& p) { return p.type_param_str == var; });
      if (!is_var) continue;
      if (f.GetOption() == onnx::OpSchema::Variadic && !f.GetIsHomogeneous()) continue;
      auto [it, fresh] = bound.emplace(var, std::make_pair(ts, port));
      if (!fresh && it->second.first != ts)
        error(n, fmt::format("{} has type {}, but {} is {} (from {})", port, ir_spelling(ts), var,
                             ir_spelling(it->second.first), it->second.second));
    }
  }

  // If / Loop / Scan: region signatures against the node (ONNX's rules for the bodies).
  void control_flow(const Node& n) {
    auto elem_mismatch = [&](const Value* a, const Value* b) {
      return a && b && a->type().is_tensor() && b->type().is_tensor() && a->type().elem() != b->type().elem();
    };
    auto body = [&](const char* name) -> const Graph* {
      const Attribute* a = n.attr(name);
      return a && a->kind() == AttrKind::Graph ? &a->g() : nullptr;
    };
    if (n.is("If")) {
      for (const char* br : {"then_branch", "else_branch"}) {
        const Graph* g = body(br);
        if (!g) continue;
        if (g->num_inputs() != 0)
          error(n, fmt::format("{} must take no inputs, it takes {}", br, g->num_inputs()));
        if (g->num_outputs() != n.num_outputs()) {
          error(n, fmt::format("{} returns {} but If has {}", br, count(g->num_outputs(), "value"),
                               count(n.num_outputs(), "output")));
          continue;
        }
        for (size_t i = 0; i < g->num_outputs(); ++i)
          if (elem_mismatch(g->output(i), n.output(i)))
            error(n, fmt::format("{} output {} is {} but If output {} is {}", br, i,
                                 g->output(i)->type().str(), i, n.output(i)->type().str()));
      }
    } else if (n.is("Loop")) {
      const Graph* g = body("body");
      if (!g || n.num_inputs() < 2) return;
      size_t carried = n.num_inputs() - 2;
      if (g->num_inputs() != 2 + carried) {
        error(n, fmt::format(
                     "Loop body must take 2 + {} inputs (iteration, condition, carried values), it takes {}",
                     carried, g->num_inputs()));
        return;
      }
      if (n.num_outputs() < carried || g->num_outputs() != 1 + n.num_outputs()) {
        error(
            n,
            fmt::format(
                "Loop body must return 1 + {} values (condition, {} carried, {} scan outputs), it returns {}",
                n.num_outputs(), carried, n.num_outputs() >= carried ? n.num_outputs() - carried : 0,
                g->num_outputs()));
        return;
      }
      for (size_t i = 0; i < carried; ++i) {
        const Value* init = n.input(2 + i);
        if (elem_mismatch(init, g->input(2 + i)) || elem_mismatch(g->input(2 + i), g->output(1 + i)) ||
            elem_mismatch(g->output(1 + i), n.output(i)))
          error(n, fmt::format(
                       "loop-carried value {} changes element type between the initial value, the body and "
                       "the Loop output",
                       i));
      }
    } else if (n.is("Scan")) {
      const Graph* g = body("body");
      if (!g) return;
      if (g->num_inputs() != n.num_inputs())
        error(n, fmt::format("Scan body must take {} inputs (state and scan inputs), it takes {}",
                             n.num_inputs(), g->num_inputs()));
      if (g->num_outputs() != n.num_outputs())
        error(n, fmt::format("Scan body must return {} values (state and scan outputs), it returns {}",
                             n.num_outputs(), g->num_outputs()));
    }
  }

  // --- pass 3: use lists agree with the inputs and outputs that refer to each value.
  void check_use_lists() {
    for (const Graph* g : graph_order_) {
      for (size_t i = 0; i < g->num_outputs(); ++i) {
        const Value* v = g->output(i);
        if (v && live_.count(v) && !has_use(v, Use{nullptr, const_cast<Graph*>(g), static_cast<uint32_t>(i)}))
          graph_error(*g, fmt::format("internal: output {} ({}) is missing from its use list", i, vname(v)));
      }
    }
    for (const Node* n : node_order_) {
      for (size_t i = 0; i < n->num_inputs(); ++i) {
        const Value* v = n->input(i);
        if (v && live_.count(v) && !has_use(v, Use{const_cast<Node*>(n), nullptr, static_cast<uint32_t>(i)}))
          error(*n, fmt::format("internal: input {} is missing from the use list of {}", i, vname(v)));
      }
    }
    for (const Value* v : value_order_) {
      for (const Use& u : v->uses()) {
        bool ok =
            u.user
                ? nodes_.count(u.user) && u.index < u.user->num_inputs() && u.user->input(u.index) == v
                : graphs_.count(u.graph) && u.index < u.graph->num_outputs() && u.graph->output(u.index) == v;
        if (!ok) {
          out_.add(Diagnostic::error(
              fmt::format("internal: the use list of {} names a use that does not exist", vname(v))));
          break;
        }
      }
    }
  }

  static bool has_use(const Value* v, const Use& u) {
    return std::find(v->uses().begin(), v->uses().end(), u) != v->uses().end();
  }

  const Graph& main_;
  NameTable names_;
  VerifyOptions opts_;
  DiagnosticList out_;
  std::unordered_set<const Value*> live_;
  std::unordered_set<const Node*> nodes_;
  std::unordered_set<const Graph*> graphs_;
  std::unordered_set<const Value*> visible_;
  std::vector<const Graph*> graph_order_;
  std::vector<const Node*> node_order_;
  std::vector<const Value*> value_order_;
};

}  // namespace

DiagnosticList verify_all(const Graph& graph, const VerifyOptions& options) {
  return Verifier(graph, options).run();
}

Status verify(const Graph& graph, const VerifyOptions& options) {
  DiagnosticList all = verify_all(graph, options);
  if (all.empty()) return Status::ok();
  return Status(all.items().front());
}

}  // namespace onnxify::ir
