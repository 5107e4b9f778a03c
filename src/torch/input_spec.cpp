// --input NAME=SPEC: a tensor type (`float32[N,3,224,224]`: identifiers are symbolic dims, integers
// static; `float32[]` is a scalar) or a Python literal (`3`, `True`, `None`, `(1, 2)`).
#include <fmt/core.h>

#include <cctype>

#include "torch/driver.h"

namespace onnxify::torch {

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool is_ident(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

[[noreturn]] void bad(const std::string& name, const std::string& spec, const std::string& why, const std::string& help) {
  throw BadInput{Diagnostic::error(fmt::format("--input {}={}: {}", name, spec, why)).with_help(help)};
}

}  // namespace

static InputSpec parse_one(const std::string& name, const std::string& raw, const std::string& whole);

// `(SPEC, SPEC, ...)` or `[SPEC, ...]`, optionally `* N` (Python's repetition): the items split at
// top-level commas. Returns false when `spec` is no such sequence.
// `whole` is the flag's SPEC, quoted by errors inside it.
static bool parse_seq(const std::string& name, const std::string& whole, const std::string& spec, InputSpec& in) {
  if (spec.empty() || (spec[0] != '(' && spec[0] != '[')) return false;
  int depth = 0;
  size_t close = std::string::npos;
  std::vector<size_t> commas;
  for (size_t i = 0; i < spec.size() && close == std::string::npos; ++i) {
    char c = spec[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') {
      if (--depth == 0) close = i;
    }
    if (c == ',' && depth == 1) commas.push_back(i);
  }
  if (close == std::string::npos || (spec[0] == '(') != (spec[close] == ')')) return false;
  int64_t repeat = 1;
  std::string rest = trim(spec.substr(close + 1));
  if (!rest.empty()) {
    if (rest[0] != '*') return false;
    std::string n = trim(rest.substr(1));
    if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos) return false;
    repeat = std::stoll(n);
  }
  std::vector<InputSpec> items;
  size_t start = 1;
  commas.push_back(close);
  for (size_t k = 0; k < commas.size(); ++k) {
    std::string item = trim(spec.substr(start, commas[k] - start));
    start = commas[k] + 1;
    if (item.empty()) {
      if (k + 1 == commas.size() && !items.empty()) break;  // a trailing comma
      if (k + 1 == commas.size() && commas.size() == 1) break;  // ()
      bad(name, whole, "an item of the sequence is empty", "write items separated by commas: (float32[B,4,P,8], ...)");
    }
    items.push_back(parse_one(name, item, whole));
  }
  in.seq = spec[0];
  for (int64_t r = 0; r < repeat; ++r) in.items.insert(in.items.end(), items.begin(), items.end());
  return true;
}

static bool holds_tensor(const InputSpec& in) {
  if (in.is_tensor) return true;
  for (const InputSpec& i : in.items)
    if (holds_tensor(i)) return true;
  return false;
}

InputSpec parse_input_spec(const std::string& name, const std::string& raw) {
  const std::string help =
      "SPEC is a tensor type like float32[N,3,224,224] (names are symbolic sizes, integers static) or a Python "
      "literal like 3, True or None";
  if (!is_ident(name)) bad(name, raw, fmt::format("'{}' is not a parameter name", name), help);
  return parse_one(name, raw, raw);
}

static InputSpec parse_one(const std::string& name, const std::string& item, const std::string& raw) {
  InputSpec in;
  in.name = name;
  std::string spec = trim(item);
  const std::string help =
      "SPEC is a tensor type like float32[N,3,224,224] (names are symbolic sizes, integers static) or a Python "
      "literal like 3, True or None";
  // A tuple or list with tensor types in it; one of Python values only stays a literal.
  InputSpec seq;
  seq.name = name;
  if (parse_seq(name, raw, spec, seq) && holds_tensor(seq)) return seq;
  size_t lb = spec.find('[');
  std::string head = trim(spec.substr(0, lb));
  // torch.float32[N,3] or np.float32[N,3]: the element type is written alone.
  size_t dot = head.rfind('.');
  if (lb != std::string::npos && dot != std::string::npos) {
    std::string last = trim(head.substr(dot + 1));
    if (dtype_from_name(last) || ir::element_type_from_name(last))
      bad(name, raw, fmt::format("'{}' is not an element type", head),
          fmt::format("write the element type without '{}': --input {}={}{}", head.substr(0, dot + 1), name, last,
                      spec.substr(lb)));
  }
  bool looks_like_type = lb != std::string::npos && is_ident(head);
  if (!looks_like_type) {
    if (spec.empty()) bad(name, raw, "the spec is empty", help);
    if (is_ident(spec) && spec != "True" && spec != "False" && spec != "None") {
      std::optional<DType> d = dtype_from_name(spec);
      if (d || ir::element_type_from_name(spec))
        bad(name, raw, fmt::format("a tensor type needs its shape: {}[...]", spec), help);
      bad(name, raw, fmt::format("'{}' is neither a tensor type nor a Python literal", spec), help);
    }
    in.literal = spec;
    return in;
  }
  // dtype: torch's names and aliases (float32, float, long, ...).
  std::optional<DType> d = dtype_from_name(head);
  if (!d || elem(*d) == ir::ElementType::Undefined) {
    std::vector<std::string> names;
    for (const DTypeInfo& i : all_dtypes())
      if (i.elem != ir::ElementType::Undefined) names.emplace_back(i.name);
    std::string near = closest_spelling(head, names);
    bad(name, raw, fmt::format("unknown element type '{}'", head),
        near.empty() ? "element types: float32, float16, bfloat16, float64, int64, int32, int16, int8, uint8, bool"
                     : fmt::format("did you mean '{}'?", near));
  }
  in.is_tensor = true;
  in.elem = elem(*d);
  if (spec.back() != ']') bad(name, raw, "the shape must end with ']'", help);
  std::string body = spec.substr(lb + 1, spec.size() - lb - 2);
  if (trim(body).empty()) return in;  // a scalar
  size_t start = 0;
  while (true) {
    size_t comma = body.find(',', start);
    std::string dim = trim(body.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (dim.empty()) bad(name, raw, "a dimension is empty", help);
    if (std::isdigit(static_cast<unsigned char>(dim[0]))) {
      size_t used = 0;
      long long v = 0;
      try {
        v = std::stoll(dim, &used);
      } catch (...) {
        used = 0;
      }
      if (used != dim.size()) bad(name, raw, fmt::format("'{}' is not a dimension", dim), help);
      in.dims.push_back(ir::DimExpr(static_cast<int64_t>(v)));
    } else if (is_ident(dim)) {
      in.dims.push_back(ir::DimExpr::symbol(dim));
    } else {
      bad(name, raw, fmt::format("'{}' is not a dimension (use a name or a non-negative integer)", dim), help);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return in;
}

}  // namespace onnxify::torch
