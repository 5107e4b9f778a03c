// The IR printer (text form documented in text.h).
#include <fmt/core.h>

#include <cinttypes>

#include "ir/text.h"
#include "ir/text_util.h"

namespace onnxify::ir {

namespace {

// One element of a dense literal.
std::string format_element(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case ElementType::Float32:
      return format_float(t.at<float>(i));
    case ElementType::Float64:
      return format_double(t.at<double>(i));
    case ElementType::Float16:
      return format_float(half_to_float(t.at<uint16_t>(i)));
    case ElementType::BFloat16:
      return format_float(bfloat16_to_float(t.at<uint16_t>(i)));
    case ElementType::Bool:
      return t.at<uint8_t>(i) ? "true" : "false";
    case ElementType::UInt64:
      return fmt::format("{}", t.at<uint64_t>(i));
    case ElementType::String:
      return quote(t.string_data()[static_cast<size_t>(i)]);
    default:
      return fmt::format("{}", t.int_at(i));
  }
}

// Float8 formats and packed 4-bit types print as hex bytes.
bool has_decimal_form(ElementType t) {
  auto c = info(t).category;
  return c != ElementCategory::Float8 && c != ElementCategory::None &&
         (info(t).bits >= 8 || info(t).bits == 0);
}

}  // namespace

std::string format_tensor_literal(const Tensor& t) {
  std::string type = t.type().str();
  if (t.dtype() != ElementType::String && t.bytes().is_mapped()) {
    return fmt::format("ref<{}>({}@{}+{})", type, quote(t.bytes().mapped_path()), t.bytes().mapped_offset(),
                       t.nbytes());
  }
  if (!has_decimal_form(t.dtype())) {
    std::string hex;
    for (size_t i = 0; i < t.nbytes(); ++i) hex += fmt::format("{:02x}", t.data()[i]);
    return fmt::format("dense<{}>hex\"{}\"", type, hex);
  }
  std::string out = fmt::format("dense<{}>[", type);
  if (info(t.dtype()).category == ElementCategory::Complex) {
    int64_t n = t.numel() * 2;
    for (int64_t i = 0; i < n; ++i) {
      if (i) out += ", ";
      out +=
          t.dtype() == ElementType::Complex64 ? format_float(t.at<float>(i)) : format_double(t.at<double>(i));
    }
  } else {
    for (int64_t i = 0; i < t.numel(); ++i) {
      if (i) out += ", ";
      out += format_element(t, i);
    }
  }
  out += ']';
  return out;
}

namespace {

class Printer {
 public:
  Printer(const Graph& main, const PrintOptions& opts) : names_(main), opts_(opts) {}

  void graph(const Graph& g, int indent) {
    out_ += "graph";
    if (!g.name().empty()) {
      out_ += ' ';
      out_ += sigil_name('@', g.name());
    }
    out_ += '(';
    for (size_t i = 0; i < g.num_inputs(); ++i) {
      if (i) out_ += ", ";
      out_ += fmt::format("{}: {}", value(g.input(i)), g.input(i)->type().str());
    }
    out_ += ") {\n";
    for (size_t i = 0; i < g.num_initializers(); ++i) {
      Value* v = g.initializer(i);
      pad(indent + 1);
      out_ += fmt::format("const {} = {}\n", value(v), format_tensor_literal(*v->initializer()));
    }
    for (Node* n : g.nodes()) node(*n, indent + 1);
    pad(indent + 1);
    out_ += "return";
    for (size_t i = 0; i < g.num_outputs(); ++i) {
      out_ += i ? ", " : " ";
      out_ += value(g.output(i));
    }
    out_ += '\n';
    pad(indent);
    out_ += '}';
  }

  void node(const Node& n, int indent) {
    pad(indent);
    out_ += header(n);
    attrs(n, indent);
    types(n);
    if (opts_.locations) {
      if (!n.module_path().empty()) {
        out_ += " @";
        out_ += quote(n.module_path());
      }
      const SourceRange& r = n.loc();
      if (r.file && r.begin.known()) {
        out_ += fmt::format(" loc({}:{}:{}", quote(r.file->path()), r.begin.line, r.begin.col);
        if (r.end.known()) out_ += fmt::format("-{}:{}", r.end.line, r.end.col);
        out_ += ')';
      }
    }
    out_ += '\n';
  }

  std::string header(const Node& n) const {
    std::string s;
    for (size_t i = 0; i < n.num_outputs(); ++i) {
      if (i) s += ", ";
      s += n.output(i) ? value(n.output(i)) : "_";
    }
    if (n.num_outputs()) s += " = ";
    s += n.qualified_op();
    s += '(';
    for (size_t i = 0; i < n.num_inputs(); ++i) {
      if (i) s += ", ";
      s += n.input(i) ? value(n.input(i)) : "_";
    }
    s += ')';
    return s;
  }

  std::string take() { return std::move(out_); }

 private:
  std::string value(const Value* v) const { return sigil_name('%', names_(v)); }

  void pad(int indent) { out_.append(static_cast<size_t>(indent) * 2, ' '); }

  void types(const Node& n) {
    bool any = false;
    for (size_t i = 0; i < n.num_outputs(); ++i)
      if (n.output(i) && !n.output(i)->type().is_unknown()) any = true;
    if (!any) return;
    out_ += " :";
    bool first = true;
    for (size_t i = 0; i < n.num_outputs(); ++i) {
      if (!n.output(i)) continue;
      out_ += first ? " " : ", ";
      first = false;
      out_ += n.output(i)->type().str();
    }
  }

  void attrs(const Node& n, int indent) {
    if (n.attrs().empty()) return;
    bool multiline = n.has_regions();  // regions print one attribute per line
    out_ += " {";
    bool first = true;
    for (const auto& [name, a] : n.attrs()) {
      if (!first) out_ += multiline ? "," : ", ";
      first = false;
      if (multiline) {
        out_ += '\n';
        pad(indent + 1);
      }
      out_ += (is_plain_name(name) ? name : quote(name)) + " = ";
      attr(a, indent + 1);
    }
    if (multiline) {
      out_ += '\n';
      pad(indent);
    }
    out_ += '}';
  }

  template <class T, class F>
  void list(std::string_view kind, const std::vector<T>& xs, F each) {
    if (xs.empty()) {
      out_ += fmt::format("{}[]", kind);
      return;
    }
    out_ += '[';
    for (size_t i = 0; i < xs.size(); ++i) {
      if (i) out_ += ", ";
      each(xs[i]);
    }
    out_ += ']';
  }

  void attr(const Attribute& a, int indent) {
    switch (a.kind()) {
      case AttrKind::Float:
        out_ += format_float(a.f());
        break;
      case AttrKind::Int:
        out_ += fmt::format("{}", a.i());
        break;
      case AttrKind::String:
        out_ += quote(a.s());
        break;
      case AttrKind::Tensor:
        out_ += format_tensor_literal(a.t());
        break;
      case AttrKind::Graph:
        graph(a.g(), indent);
        break;
      case AttrKind::Floats:
        list("floats", a.floats(), [&](float x) { out_ += format_float(x); });
        break;
      case AttrKind::Ints:
        list("ints", a.ints(), [&](int64_t x) { out_ += fmt::format("{}", x); });
        break;
      case AttrKind::Strings:
        list("strings", a.strings(), [&](const std::string& x) { out_ += quote(x); });
        break;
      case AttrKind::Tensors:
        list("tensors", a.tensors(), [&](const Tensor& x) { out_ += format_tensor_literal(x); });
        break;
      case AttrKind::Graphs:
        list("graphs", a.graphs(), [&](const Attribute::GraphPtr& g) { graph(*g, indent); });
        break;
    }
  }

  NameTable names_;
  PrintOptions opts_;
  std::string out_;
};

}  // namespace

std::string print(const Graph& graph, const PrintOptions& options) {
  Printer p(graph, options);
  p.graph(graph, 0);
  std::string out = p.take();
  out += '\n';
  return out;
}

std::string print_node_header(const Node& node, const NameTable& names) {
  std::string s;
  auto value = [&](const Value* v) { return v ? sigil_name('%', names(v)) : std::string("_"); };
  for (size_t i = 0; i < node.num_outputs(); ++i) {
    if (i) s += ", ";
    s += value(node.output(i));
  }
  if (node.num_outputs()) s += " = ";
  s += node.qualified_op();
  s += '(';
  for (size_t i = 0; i < node.num_inputs(); ++i) {
    if (i) s += ", ";
    s += value(node.input(i));
  }
  s += ')';
  return s;
}

}  // namespace onnxify::ir
