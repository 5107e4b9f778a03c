// DimExpr's text form: printer and recursive-descent parser (grammar in dim.h).
#include <fmt/core.h>

#include <cctype>

#include "ir/dim.h"
#include "ir/dim_node.h"

namespace onnxify::ir {

namespace {

// The printed text, cut short past `limit` characters: expressions are DAGs (hash-consed), and the
// printed tree of one made by repeated min/max/floor of earlier sizes can be exponentially long.
struct Sink {
  std::string text;
  size_t limit;
  bool full() const { return text.size() > limit; }
  Sink& operator+=(std::string_view s) {
    if (!full()) text += s;
    return *this;
  }
  Sink& operator+=(char c) {
    if (!full()) text += c;
    return *this;
  }
};

void print_node(const DimNode* n, Sink& out);

// A numerator or denominator of floor/ceil: parenthesized unless it is a single unary term.
void print_operand(const DimNode* n, Sink& out, bool denominator) {
  bool simple = n->op == DimOp::Const || n->op == DimOp::Symbol || n->op == DimOp::Unknown ||
                n->op == DimOp::FloorDiv || n->op == DimOp::CeilDiv || n->op == DimOp::Mod ||
                n->op == DimOp::Min || n->op == DimOp::Max;
  if (!denominator) {
    simple =
        simple || n->op == DimOp::Product || (n->op == DimOp::Sum && n->args.size() == 1 && n->value == 0);
    if (n->op == DimOp::Const && n->value < 0) simple = true;
  } else if (n->op == DimOp::Const && n->value < 0) {
    simple = false;
  }
  if (simple) {
    print_node(n, out);
  } else {
    out += '(';
    print_node(n, out);
    out += ')';
  }
}

void print_list(const char* fn, const std::vector<const DimNode*>& args, Sink& out) {
  out += fn;
  out += '(';
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) out += ", ";
    print_node(args[i], out);
  }
  out += ')';
}

void print_node(const DimNode* n, Sink& out) {
  if (out.full()) return;
  switch (n->op) {
    case DimOp::Const:
      out += fmt::format("{}", n->value);
      return;
    case DimOp::Symbol:
      out += n->name;
      return;
    case DimOp::Unknown:
      out += '?';
      return;
    case DimOp::Product:
      for (size_t i = 0; i < n->args.size(); ++i) {
        if (i) out += '*';
        print_node(n->args[i], out);
      }
      return;
    case DimOp::FloorDiv:
    case DimOp::CeilDiv:
      out += n->op == DimOp::FloorDiv ? "floor(" : "ceil(";
      print_operand(n->args[0], out, false);
      out += " / ";
      print_operand(n->args[1], out, true);
      out += ')';
      return;
    case DimOp::Mod:
      print_list("mod", n->args, out);
      return;
    case DimOp::Min:
      print_list("min", n->args, out);
      return;
    case DimOp::Max:
      print_list("max", n->args, out);
      return;
    case DimOp::Sum:
      for (size_t i = 0; i < n->args.size(); ++i) {
        int64_t k = n->coeffs[i];
        // |k| as unsigned so INT64_MIN prints correctly.
        uint64_t mag = k < 0 ? 0 - static_cast<uint64_t>(k) : static_cast<uint64_t>(k);
        if (i == 0)
          out += k < 0 ? "-" : "";
        else
          out += k < 0 ? " - " : " + ";
        if (mag != 1) out += fmt::format("{}*", mag);
        print_node(n->args[i], out);
      }
      if (n->value != 0) {
        uint64_t mag = n->value < 0 ? 0 - static_cast<uint64_t>(n->value) : static_cast<uint64_t>(n->value);
        out += fmt::format("{}{}", n->value < 0 ? " - " : " + ", mag);
      }
      return;
  }
}

class Parser {
 public:
  Parser(std::string_view text, size_t pos) : s_(text), p_(pos) {}

  std::optional<DimExpr> parse_expr() {
    auto lhs = parse_term();
    if (!lhs) return std::nullopt;
    for (;;) {
      skip_ws();
      if (peek() == '+' || peek() == '-') {
        char op = s_[p_++];
        auto rhs = parse_term();
        if (!rhs) return std::nullopt;
        lhs = op == '+' ? *lhs + *rhs : *lhs - *rhs;
      } else {
        return lhs;
      }
    }
  }

  size_t pos() const { return p_; }
  const std::string& error() const { return error_; }
  void skip_ws() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t')) ++p_;
  }
  char peek() const { return p_ < s_.size() ? s_[p_] : '\0'; }
  std::optional<DimExpr> fail(std::string msg) {
    if (error_.empty()) {
      error_ = std::move(msg);
      error_pos_ = p_;
    }
    return std::nullopt;
  }
  size_t error_pos() const { return error_pos_; }

 private:
  // term := unary ('*' unary)*
  std::optional<DimExpr> parse_term() {
    auto lhs = parse_unary();
    if (!lhs) return std::nullopt;
    for (;;) {
      skip_ws();
      if (peek() != '*') return lhs;
      ++p_;
      auto rhs = parse_unary();
      if (!rhs) return std::nullopt;
      lhs = *lhs * *rhs;
    }
  }

  // unary := '-' unary | atom   (iterative, so a run of minus signs cannot exhaust the stack)
  std::optional<DimExpr> parse_unary() {
    bool negate = false;
    for (;;) {
      skip_ws();
      if (peek() != '-') break;
      ++p_;
      negate = !negate;
    }
    auto x = parse_atom();
    if (!x) return std::nullopt;
    return negate ? -*x : *x;
  }

  bool expect(char c) {
    skip_ws();
    if (peek() != c) {
      fail(fmt::format("expected '{}'", c));
      return false;
    }
    ++p_;
    return true;
  }

  // atom := INT | NAME | '?' | '(' expr ')' | ('floor'|'ceil') '(' term '/' term ')'
  //       | ('mod'|'min'|'max') '(' expr (',' expr)+ ')'
  std::optional<DimExpr> parse_atom() {
    skip_ws();
    // Nesting is bounded so hostile text cannot exhaust the stack.
    if (++depth_ > kMaxDepth) return fail("dimension expression nested too deeply");
    struct Leave {
      int& d;
      ~Leave() { --d; }
    } leave{depth_};
    char c = peek();
    if (c == '?') {
      ++p_;
      return DimExpr::unknown();
    }
    if (c == '(') {
      ++p_;
      auto e = parse_expr();
      if (!e || !expect(')')) return std::nullopt;
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[p_] - '0', &v))
          return fail("integer does not fit in int64");
        ++p_;
      }
      return DimExpr(v);
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = p_;
      while (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_') ++p_;
      std::string_view name = s_.substr(start, p_ - start);
      size_t after = p_;
      skip_ws();
      if (peek() != '(') {
        p_ = after;
        return DimExpr::symbol(name);
      }
      if (name == "floor" || name == "ceil") {
        ++p_;
        auto num = parse_term();
        if (!num || !expect('/')) return std::nullopt;
        auto den = parse_term();
        if (!den || !expect(')')) return std::nullopt;
        return name == "floor" ? floor_div(*num, *den) : ceil_div(*num, *den);
      }
      if (name == "mod" || name == "min" || name == "max") {
        ++p_;
        std::vector<DimExpr> args;
        for (;;) {
          auto a = parse_expr();
          if (!a) return std::nullopt;
          args.push_back(*a);
          skip_ws();
          if (peek() == ',') {
            ++p_;
            continue;
          }
          if (!expect(')')) return std::nullopt;
          break;
        }
        if (args.size() < 2) return fail(fmt::format("{}() needs at least two arguments", name));
        if (name == "mod") {
          if (args.size() != 2) return fail("mod() takes exactly two arguments");
          return mod(args[0], args[1]);
        }
        DimExpr acc = args[0];
        for (size_t i = 1; i < args.size(); ++i) acc = name == "min" ? min(acc, args[i]) : max(acc, args[i]);
        return acc;
      }
      p_ = start;
      return fail(
          fmt::format("unknown function '{}' in a dimension (expected floor, ceil, mod, min, max)", name));
    }
    if (c == '\0') return fail("expected a dimension, found the end");
    return fail(fmt::format("expected a dimension, found '{}'", c));
  }

  static constexpr int kMaxDepth = 200;
  std::string_view s_;
  size_t p_;
  int depth_ = 0;
  std::string error_;
  size_t error_pos_ = 0;
};

}  // namespace

std::string DimExpr::str() const {
  // Past this the text is useless to a reader; it ends in "..." (and no longer parses).
  constexpr size_t kReadable = 4096;
  auto s = str(kReadable);
  return s ? *s : str_prefix(kReadable) + "...";
}

std::optional<std::string> DimExpr::str(size_t max_chars) const {
  Sink out{{}, max_chars};
  print_node(node_, out);
  if (out.full()) return std::nullopt;
  return std::move(out.text);
}

std::string DimExpr::str_prefix(size_t max_chars) const {
  Sink out{{}, max_chars};
  print_node(node_, out);
  out.text.resize(std::min(out.text.size(), max_chars));
  return std::move(out.text);
}

std::optional<DimExpr> DimExpr::parse_prefix(std::string_view text, size_t* pos, std::string* error) {
  Parser p(text, *pos);
  auto e = p.parse_expr();
  if (!e) {
    if (error) *error = p.error();
    *pos = p.error_pos();
    return std::nullopt;
  }
  *pos = p.pos();
  return e;
}

std::optional<DimExpr> DimExpr::parse(std::string_view text, std::string* error) {
  size_t pos = 0;
  std::string msg;
  auto e = parse_prefix(text, &pos, &msg);
  if (!e) {
    if (error) *error = fmt::format("column {}: {}", pos + 1, msg);
    return std::nullopt;
  }
  while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
  if (pos != text.size()) {
    if (error) *error = fmt::format("column {}: unexpected '{}' after the dimension", pos + 1, text[pos]);
    return std::nullopt;
  }
  return e;
}

}  // namespace onnxify::ir
