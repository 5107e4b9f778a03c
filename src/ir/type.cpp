#include "ir/type.h"

#include <fmt/core.h>

#include <cctype>

namespace onnxify::ir {

Type Type::tensor(ElementType elem, std::vector<DimExpr> dims) {
  Type t;
  t.kind_ = Kind::Tensor;
  t.elem_ = elem;
  t.ranked_ = true;
  t.dims_ = std::move(dims);
  return t;
}

Type Type::unranked(ElementType elem) {
  Type t;
  t.kind_ = Kind::Tensor;
  t.elem_ = elem;
  return t;
}

Type Type::sequence(Type element) {
  Type t;
  t.kind_ = Kind::Sequence;
  t.inner_ = std::make_shared<const Type>(std::move(element));
  return t;
}

Type Type::optional(Type element) {
  Type t;
  t.kind_ = Kind::Optional;
  t.inner_ = std::make_shared<const Type>(std::move(element));
  return t;
}

const Type& Type::inner() const {
  static const Type unknown;
  return inner_ ? *inner_ : unknown;
}

bool Type::is_static() const {
  if (kind_ != Kind::Tensor || !ranked_) return false;
  for (DimExpr d : dims_)
    if (!d.is_const()) return false;
  return true;
}

DimExpr Type::numel() const {
  if (kind_ != Kind::Tensor || !ranked_) return DimExpr::unknown();
  DimExpr n(1);
  for (DimExpr d : dims_) n = n * d;
  return n;
}

bool operator==(const Type& a, const Type& b) {
  if (a.kind_ != b.kind_ || a.elem_ != b.elem_ || a.ranked_ != b.ranked_ || a.dims_ != b.dims_) return false;
  if (a.kind_ == Type::Kind::Sequence || a.kind_ == Type::Kind::Optional) return a.inner() == b.inner();
  return true;
}

std::string Type::str() const {
  switch (kind_) {
    case Kind::Unknown:
      return "?";
    case Kind::Sequence:
      return fmt::format("seq<{}>", inner().str());
    case Kind::Optional:
      return fmt::format("opt<{}>", inner().str());
    case Kind::Tensor:
      break;
  }
  std::string out(to_string(elem_));
  if (!ranked_) return out + "[*]";
  out += '[';
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) out += ", ";
    out += dims_[i].str();
  }
  out += ']';
  return out;
}

namespace {

void skip_ws(std::string_view s, size_t* p) {
  while (*p < s.size() && (s[*p] == ' ' || s[*p] == '\t')) ++*p;
}

// Failures leave *p at the error and the message (without position) in *error.
std::optional<Type> fail(std::string* error, size_t* p, size_t pos, std::string msg) {
  if (error) *error = std::move(msg);
  *p = pos;
  return std::nullopt;
}

// type := '?' | ('seq' | 'opt') '<' type '>' | ELEM '[' ( '*' | dim (',' dim)* )? ']'
std::optional<Type> parse_type(std::string_view s, size_t* p, std::string* error, int depth) {
  skip_ws(s, p);
  if (depth > 64) return fail(error, p, *p, "type nested too deeply");
  if (*p < s.size() && s[*p] == '?') {
    ++*p;
    return Type();
  }
  size_t start = *p;
  while (*p < s.size() && (std::isalnum(static_cast<unsigned char>(s[*p])) || s[*p] == '_')) ++*p;
  std::string_view word = s.substr(start, *p - start);
  if (word.empty()) return fail(error, p, start, "expected a type");
  if (word == "seq" || word == "opt") {
    skip_ws(s, p);
    if (*p >= s.size() || s[*p] != '<') return fail(error, p, *p, "expected '<'");
    ++*p;
    auto inner = parse_type(s, p, error, depth + 1);
    if (!inner) return std::nullopt;
    skip_ws(s, p);
    if (*p >= s.size() || s[*p] != '>') return fail(error, p, *p, "expected '>'");
    ++*p;
    return word == "seq" ? Type::sequence(*inner) : Type::optional(*inner);
  }
  auto elem = element_type_from_name(word);
  if (!elem) return fail(error, p, start, fmt::format("unknown element type '{}'", word));
  skip_ws(s, p);
  if (*p >= s.size() || s[*p] != '[') return fail(error, p, *p, "expected '[' after the element type");
  ++*p;
  skip_ws(s, p);
  if (*p < s.size() && s[*p] == '*') {
    ++*p;
    skip_ws(s, p);
    if (*p >= s.size() || s[*p] != ']') return fail(error, p, *p, "expected ']'");
    ++*p;
    return Type::unranked(*elem);
  }
  std::vector<DimExpr> dims;
  if (*p < s.size() && s[*p] == ']') {
    ++*p;
    return Type::tensor(*elem, {});
  }
  for (;;) {
    std::string dim_error;
    auto d = DimExpr::parse_prefix(s, p, &dim_error);
    if (!d) return fail(error, p, *p, dim_error);
    dims.push_back(*d);
    skip_ws(s, p);
    if (*p < s.size() && s[*p] == ',') {
      ++*p;
      continue;
    }
    if (*p < s.size() && s[*p] == ']') {
      ++*p;
      break;
    }
    return fail(error, p, *p, "expected ',' or ']' in a shape");
  }
  return Type::tensor(*elem, std::move(dims));
}

}  // namespace

std::optional<Type> Type::parse_prefix(std::string_view text, size_t* pos, std::string* error) {
  return parse_type(text, pos, error, 0);
}

std::optional<Type> Type::parse(std::string_view text, std::string* error) {
  size_t pos = 0;
  std::string msg;
  auto t = parse_type(text, &pos, &msg, 0);
  if (t) {
    skip_ws(text, &pos);
    if (pos == text.size()) return t;
    msg = "unexpected text after the type";
  }
  if (error) *error = fmt::format("column {}: {}", pos + 1, msg);
  return std::nullopt;
}

}  // namespace onnxify::ir
