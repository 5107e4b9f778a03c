// The composite-op table as data, and its verifier rules (see composite_ops.h).
//
// Each row's port and attribute specs are parsed once from the strings of composite_ops.def; a
// malformed row is a programming error and aborts with a message naming the row. The generic rule
// (arity, port types, attribute names/kinds/choices) covers every row; the shape rules that need
// more than the table says (pooling list lengths against the input rank, interpolate's size vs
// scale_factor, ...) are the per-op checks below, next to the rule they refine.
#include "ir/composite_ops.h"

#include <fmt/core.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include "ir/graph.h"
#include "ir/op_rules.h"
#include "support/diagnostic.h"

namespace onnxify::ir {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Splits at commas outside braces.
std::vector<std::string_view> split_top(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || (s[i] == ',' && depth == 0)) {
      std::string_view part = trim(s.substr(start, i - start));
      if (!part.empty()) out.push_back(part);
      start = i + 1;
    } else if (s[i] == '{') {
      ++depth;
    } else if (s[i] == '}') {
      --depth;
    }
  }
  return out;
}

[[noreturn]] void bad_row(std::string_view op, std::string_view what) {
  std::fprintf(stderr, "composite_ops.def: row %.*s: %.*s\n", static_cast<int>(op.size()), op.data(),
               static_cast<int>(what.size()), what.data());
  std::abort();
}

std::vector<CompositePort> parse_ports(std::string_view op, std::string_view spec) {
  std::vector<CompositePort> out;
  for (std::string_view item : split_top(spec)) {
    size_t colon = item.find(':');
    if (colon == std::string_view::npos) bad_row(op, "port without a type");
    CompositePort p;
    std::string_view name = trim(item.substr(0, colon));
    if (!name.empty() && name.back() == '?') {
      p.optional = true;
      name.remove_suffix(1);
    }
    p.name = std::string(name);
    std::string_view t = trim(item.substr(colon + 1));
    if (t == "float")
      p.type = PortType::Float;
    else if (t == "int64")
      p.type = PortType::Int64;
    else if (t == "int")
      p.type = PortType::Int;
    else if (t == "bool")
      p.type = PortType::Bool;
    else if (t == "num")
      p.type = PortType::Num;
    else if (t == "mask")
      p.type = PortType::Mask;
    else if (t == "any")
      p.type = PortType::Any;
    else
      bad_row(op, "unknown port type");
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<std::string_view> split_list(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == ',') {
      std::string_view part = trim(s.substr(start, i - start));
      if (!part.empty()) out.push_back(part);
      start = i + 1;
    }
  return out;
}

std::vector<CompositeAttr> parse_attrs(std::string_view op, std::string_view spec) {
  std::vector<CompositeAttr> out;
  for (std::string_view item : split_top(spec)) {
    CompositeAttr a;
    size_t colon = item.find(':');
    if (colon == std::string_view::npos) bad_row(op, "attribute without a kind");
    a.name = std::string(trim(item.substr(0, colon)));
    std::string_view rest = trim(item.substr(colon + 1));
    if (size_t brace = rest.find('{'); brace != std::string_view::npos) {
      size_t close = rest.find('}', brace);
      if (close == std::string_view::npos) bad_row(op, "unclosed choice list");
      for (std::string_view c : split_list(rest.substr(brace + 1, close - brace - 1)))
        a.choices.emplace_back(c);
      rest = trim(rest.substr(0, brace));
    }
    std::string_view kind = rest, dflt;
    if (size_t eq = rest.find('='); eq != std::string_view::npos) {
      kind = trim(rest.substr(0, eq));
      dflt = trim(rest.substr(eq + 1));
      a.presence = CompositeAttr::Presence::Default;
    } else if (!kind.empty() && kind.back() == '?') {
      kind.remove_suffix(1);
      a.presence = CompositeAttr::Presence::Optional;
    }
    if (kind == "int")
      a.kind = AttrKind::Int;
    else if (kind == "ints")
      a.kind = AttrKind::Ints;
    else if (kind == "float")
      a.kind = AttrKind::Float;
    else if (kind == "floats")
      a.kind = AttrKind::Floats;
    else if (kind == "string")
      a.kind = AttrKind::String;
    else
      bad_row(op, "unknown attribute kind");
    if (a.presence == CompositeAttr::Presence::Default) {
      std::string d(dflt);
      switch (a.kind) {
        case AttrKind::Int:
          a.i = std::stoll(d);
          break;
        case AttrKind::Float:
          a.f = std::stof(d);
          break;
        case AttrKind::String:
          a.s = d;
          break;
        default:
          bad_row(op, "list attributes take no default (use `?`)");
      }
    }
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<CompositeOp> build_table() {
  std::vector<CompositeOp> t;
#define ONNXIFY_COMPOSITE(name, semantics, inputs, outputs, attrs, summary)      \
  t.push_back(CompositeOp{#name, semantics, summary, parse_ports(#name, inputs), \
                          parse_ports(#name, outputs), parse_attrs(#name, attrs)});
#include "ir/composite_ops.def"
#undef ONNXIFY_COMPOSITE
  return t;
}

bool type_ok(PortType want, const Type& t) {
  if (!t.is_tensor() || t.elem() == ElementType::Undefined) return true;  // unknown: nothing to check
  ElementType e = t.elem();
  switch (want) {
    case PortType::Float:
      return is_float(e);
    case PortType::Int64:
      return e == ElementType::Int64;
    case PortType::Int:
      return e == ElementType::Int64 || e == ElementType::Int32;
    case PortType::Bool:
      return e == ElementType::Bool;
    case PortType::Num:
      return is_float(e) || is_integer(e);
    case PortType::Mask:
      return e == ElementType::Bool || is_float(e);
    case PortType::Any:
      return true;
  }
  return true;
}

std::string_view port_type_name(PortType t) {
  switch (t) {
    case PortType::Float:
      return "a floating-point tensor";
    case PortType::Int64:
      return "an int64 tensor";
    case PortType::Int:
      return "an int32 or int64 tensor";
    case PortType::Bool:
      return "a bool tensor";
    case PortType::Num:
      return "a numeric tensor";
    case PortType::Mask:
      return "a bool or floating-point tensor";
    case PortType::Any:
      return "a tensor";
  }
  return "a tensor";
}

std::string check_ports(const Node& n, const std::vector<CompositePort>& ports, bool inputs) {
  size_t count = inputs ? n.num_inputs() : n.num_outputs();
  const char* what = inputs ? "input" : "output";
  size_t required = 0;
  for (const auto& p : ports)
    if (!p.optional) ++required;
  if (count < required || count > ports.size()) {
    std::string arity =
        required == ports.size() ? std::to_string(required) : fmt::format("{} to {}", required, ports.size());
    return fmt::format("{} takes {} {}s, not {}", n.op_type(), arity, what, count);
  }
  for (size_t i = 0; i < count; ++i) {
    const Value* v = inputs ? n.input(i) : n.output(i);
    if (!v) {
      if (!ports[i].optional) return fmt::format("{} {} ({}) is required", what, i, ports[i].name);
      continue;
    }
    if (!type_ok(ports[i].type, v->type()))
      return fmt::format("{} {} ({}) must be {}, not {}", what, i, ports[i].name,
                         port_type_name(ports[i].type), v->type().str());
  }
  return "";
}

std::string check_attrs(const Node& n, const CompositeOp& op) {
  for (const auto& [name, a] : n.attrs()) {
    const CompositeAttr* spec = op.attr(name);
    if (!spec) {
      std::vector<std::string> names;
      for (const auto& s : op.attrs) names.push_back(s.name);
      std::string guess = closest_spelling(name, names);
      return fmt::format("{} has no attribute '{}'{}", op.name, name,
                         guess.empty() ? "" : fmt::format(" (did you mean '{}'?)", guess));
    }
    if (a.kind() != spec->kind)
      return fmt::format("attribute '{}' must be {}, not {}", name, to_string(spec->kind),
                         to_string(a.kind()));
    if (!spec->choices.empty()) {
      bool ok = false;
      for (const auto& c : spec->choices) ok = ok || c == a.s();
      if (!ok) {
        std::string list;
        for (size_t i = 0; i < spec->choices.size(); ++i) list += (i ? ", " : "") + spec->choices[i];
        return fmt::format("attribute '{}' is \"{}\", which is not one of {}", name, a.s(), list);
      }
    }
  }
  for (const auto& s : op.attrs)
    if (s.presence == CompositeAttr::Presence::Required && !n.attr(s.name))
      return fmt::format("missing required attribute '{}'", s.name);
  return "";
}

// ---- per-op shape rules -----------------------------------------------------------------------

const Type* input_type(const Node& n, size_t i) {
  const Value* v = n.input(i);
  return v && v->type().is_tensor() && v->type().has_rank() ? &v->type() : nullptr;
}

// Pooling: list lengths equal the spatial rank; the input is (N, C, *) or (C, *).
std::string check_pool_lists(const Node& n, const std::vector<const char*>& lists, const char* size_attr) {
  std::vector<int64_t> ref = n.attr_ints(size_attr);
  size_t k = ref.size();
  if (k < 1 || k > 3)
    return fmt::format("'{}' must have 1, 2 or 3 entries (the spatial rank), not {}", size_attr, k);
  for (const char* name : lists) {
    const Attribute* a = n.attr(name);
    if (a && a->kind() == AttrKind::Ints && a->ints().size() != k)
      return fmt::format("'{}' has {} entries but '{}' has {}", name, a->ints().size(), size_attr, k);
  }
  if (const Type* t = input_type(n, 0); t && t->rank() != k + 1 && t->rank() != k + 2)
    return fmt::format("a {}-d pooling takes input of rank {} or {}, not {}", k, k + 1, k + 2, t->rank());
  return "";
}

std::string check_pool(const Node& n) {
  if (std::string s = check_pool_lists(n, {"stride", "padding", "dilation"}, "kernel_size"); !s.empty())
    return s;
  for (int64_t v : n.attr_ints("kernel_size"))
    if (v <= 0) return "kernel_size entries must be positive";
  for (int64_t v : n.attr_ints("stride"))
    if (v <= 0) return "stride entries must be positive";
  for (int64_t v : n.attr_ints("dilation"))
    if (v <= 0) return "dilation entries must be positive";
  std::vector<int64_t> k = n.attr_ints("kernel_size"), p = n.attr_ints("padding");
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] < 0 || p[i] * 2 > k[i])
      return fmt::format("padding {} must be at least 0 and at most half of kernel_size {}", p[i], k[i]);
  return "";
}

std::string check_adaptive(const Node& n) {
  std::vector<int64_t> out = n.attr_ints("output_size");
  if (out.empty() || out.size() > 3) return "output_size must have 1, 2 or 3 entries";
  for (int64_t v : out)
    if (v == 0 || v < -1) return "output_size entries must be positive (or -1 for None)";
  if (const Type* t = input_type(n, 0); t && t->rank() != out.size() + 1 && t->rank() != out.size() + 2)
    return fmt::format("input must have rank {} or {}", out.size() + 1, out.size() + 2);
  if (const Type* t = input_type(n, 1);
      t && (t->rank() != 1 || (t->dim(0).is_const() && t->dim(0).value() != static_cast<int64_t>(out.size()))))
    return fmt::format("size must be 1-d with {} entries (one per spatial dim)", out.size());
  return "";
}

std::string check_layer_norm(const Node& n) {
  std::vector<int64_t> ns = n.attr_ints("normalized_shape");
  if (ns.empty()) return "normalized_shape must not be empty";
  const Type* t = input_type(n, 0);
  if (!t) return "";
  if (t->rank() < ns.size())
    return fmt::format("input rank {} is below len(normalized_shape) {}", t->rank(), ns.size());
  for (size_t i = 0; i < ns.size(); ++i) {
    DimExpr d = t->dim(t->rank() - ns.size() + i);
    if (d.is_const() && d.value() != ns[i])
      return fmt::format("input dim {} is {} but normalized_shape says {}", t->rank() - ns.size() + i,
                         d.value(), ns[i]);
  }
  return "";
}

std::string check_group_norm(const Node& n) {
  int64_t g = n.attr_int("num_groups", 0);
  if (g <= 0) return "num_groups must be positive";
  const Type* t = input_type(n, 0);
  if (!t) return "";
  if (t->rank() < 2) return "input must have rank 2 or more (N, C, *)";
  DimExpr c = t->dim(1);
  if (c.is_const() && c.value() % g != 0)
    return fmt::format("channels {} are not divisible by num_groups {}", c.value(), g);
  return "";
}

std::string check_interpolate(const Node& n) {
  bool size = n.input(1) != nullptr, scale = n.attr("scale_factor") != nullptr;
  if (size == scale) return "exactly one of size (input 1) and scale_factor must be given";
  const Type* t = input_type(n, 0);
  std::string mode = n.attr_string("mode", "nearest");
  if (t) {
    size_t sp = t->rank() - 2;
    if (t->rank() < 3 || t->rank() > 5) return "input must be 3-D, 4-D or 5-D (N, C, *spatial)";
    if (scale && n.attr("scale_factor")->floats().size() != sp)
      return fmt::format("scale_factor needs {} entries (one per spatial dim)", sp);
    if ((mode == "linear" && sp != 1) || (mode == "bilinear" && sp != 2) || (mode == "bicubic" && sp != 2) ||
        (mode == "trilinear" && sp != 3))
      return fmt::format("mode '{}' does not take {}-d spatial input", mode, sp);
  }
  int64_t ac = n.attr_int("align_corners", -1);
  bool linearish = mode == "linear" || mode == "bilinear" || mode == "bicubic" || mode == "trilinear";
  if (ac == 1 && !linearish) return "align_corners applies to linear, bilinear, bicubic and trilinear only";
  if (n.attr_int("antialias", 0) && mode != "bilinear" && mode != "bicubic")
    return "antialias applies to bilinear and bicubic only";
  return "";
}

std::string check_sdpa(const Node& n) {
  const Type* q = input_type(n, 0);
  const Type* k = input_type(n, 1);
  const Type* v = input_type(n, 2);
  for (const Type* t : {q, k, v})
    if (t && t->rank() < 2) return "query, key and value need rank 2 or more (..., L, E)";
  if (n.attr_int("is_causal", 0) && n.input(3)) return "is_causal and attn_mask cannot both be given";
  if (n.attr_int("enable_gqa", 0))
    for (const Type* t : {q, k, v})
      if (t && t->rank() < 3) return "enable_gqa needs query, key and value of rank 3 or more (..., H, L, E)";
  return "";
}

std::string check_shuffle(const Node& n, const char* factor) {
  if (n.attr_int(factor, 0) <= 0) return fmt::format("{} must be positive", factor);
  if (const Type* t = input_type(n, 0); t && t->rank() < 3) return "input needs rank 3 or more (*, C, H, W)";
  return "";
}

std::string check_reduce_dims(const Node& n) {
  const Type* t = input_type(n, 0);
  if (!t) return "";
  int64_t r = static_cast<int64_t>(t->rank());
  for (int64_t d : n.attr_ints("dim"))
    if (d < -std::max<int64_t>(r, 1) || d >= std::max<int64_t>(r, 1))
      return fmt::format("dim {} is out of range for rank {}", d, r);
  return "";
}

std::string check_grid_sample(const Node& n) {
  const Type* x = input_type(n, 0);
  const Type* g = input_type(n, 1);
  if (x && x->rank() != 4 && x->rank() != 5) return "input must be 4-D or 5-D";
  if (x && g && g->rank() != x->rank()) return "grid must have the rank of input";
  if (x && x->rank() == 5 && n.attr_string("mode", "bilinear") == "bicubic") return "bicubic needs 4-D input";
  return "";
}

std::string extra_check(const Node& n) {
  const std::string& op = n.op_type();
  if (op == "max_pool" || op == "avg_pool" || op == "max_unpool") return check_pool(n);
  if (op == "adaptive_avg_pool" || op == "adaptive_max_pool") return check_adaptive(n);
  if (op == "layer_norm" || op == "rms_norm") return check_layer_norm(n);
  if (op == "group_norm") return check_group_norm(n);
  if (op == "interpolate") return check_interpolate(n);
  if (op == "scaled_dot_product_attention") return check_sdpa(n);
  if (op == "pixel_shuffle") return check_shuffle(n, "upscale_factor");
  if (op == "pixel_unshuffle") return check_shuffle(n, "downscale_factor");
  if (op == "var" || op == "std") return check_reduce_dims(n);
  if (op == "grid_sample") return check_grid_sample(n);
  return "";
}

std::string verify_composite(const CompositeOp& op, const Node& n) {
  if (std::string s = check_ports(n, op.inputs, true); !s.empty()) return s;
  if (std::string s = check_ports(n, op.outputs, false); !s.empty()) return s;
  if (std::string s = check_attrs(n, op); !s.empty()) return s;
  return extra_check(n);
}

const CompositeAttr& spec_of(const Node& n, std::string_view name, AttrKind kind) {
  const CompositeOp* op = find_composite_op(n.op_type());
  const CompositeAttr* a = op ? op->attr(name) : nullptr;
  if (!a || a->kind != kind)
    throw std::logic_error(
        fmt::format("composite op {} has no {} attribute '{}'", n.op_type(), to_string(kind), name));
  return *a;
}

}  // namespace

const CompositeAttr* CompositeOp::attr(std::string_view n) const {
  for (const auto& a : attrs)
    if (a.name == n) return &a;
  return nullptr;
}

const std::vector<CompositeOp>& composite_ops() {
  static const std::vector<CompositeOp> table = build_table();
  return table;
}

const CompositeOp* find_composite_op(std::string_view name) {
  for (const auto& op : composite_ops())
    if (op.name == name) return &op;
  return nullptr;
}

std::vector<OpRule> composite_op_rules() {
  std::vector<OpRule> out;
  for (const CompositeOp& op : composite_ops()) {
    const CompositeOp* p = &op;
    out.push_back(OpRule{std::string(kOnnxifyDomain), op.name, op.summary,
                         [p](const Node& n) { return verify_composite(*p, n); }});
  }
  return out;
}

bool has_attr(const Node& n, std::string_view name) {
  const CompositeOp* op = find_composite_op(n.op_type());
  const CompositeAttr* a = op ? op->attr(name) : nullptr;
  if (!a) throw std::logic_error(fmt::format("composite op {} has no attribute '{}'", n.op_type(), name));
  return n.attr(name) || a->presence == CompositeAttr::Presence::Default;
}

int64_t attr_i(const Node& n, std::string_view name) {
  return n.attr_int(name, spec_of(n, name, AttrKind::Int).i);
}
float attr_f(const Node& n, std::string_view name) {
  return n.attr_float(name, spec_of(n, name, AttrKind::Float).f);
}
std::string attr_s(const Node& n, std::string_view name) {
  return n.attr_string(name, spec_of(n, name, AttrKind::String).s);
}
std::vector<int64_t> attr_ints(const Node& n, std::string_view name) {
  return n.attr_ints(name, spec_of(n, name, AttrKind::Ints).ints);
}
std::vector<float> attr_floats(const Node& n, std::string_view name) {
  const CompositeAttr& a = spec_of(n, name, AttrKind::Floats);
  const Attribute* v = n.attr(name);
  return v && v->kind() == AttrKind::Floats ? v->floats() : a.floats;
}

}  // namespace onnxify::ir
