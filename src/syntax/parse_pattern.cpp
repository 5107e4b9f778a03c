// The match statement and its patterns (CPython Grammar/python.gram, "Match statement").
#include <fmt/core.h>

#include "syntax/parser.h"

namespace onnxify::syntax {

using namespace ast;

// `match` is a soft keyword: a line is a match statement when it starts with the name `match`
// followed by something that can begin an expression, and its logical line ends with ':'. Every
// other line starting with `match` is an ordinary statement (`match = re.match(...)`).
bool Parser::at_match_stmt() const {
  if (!at_name("match")) return false;
  switch (peek().kind) {
    case TokenKind::Name:
    case TokenKind::Number:
    case TokenKind::String:
    case TokenKind::LPar:
    case TokenKind::LSqb:
    case TokenKind::LBrace:
    case TokenKind::Minus:
    case TokenKind::Plus:
    case TokenKind::Tilde:
    case TokenKind::Not:
    case TokenKind::Await:
    case TokenKind::Lambda:
    case TokenKind::None:
    case TokenKind::True:
    case TokenKind::False:
    case TokenKind::Ellipsis:
    case TokenKind::Star:
      break;
    default:
      return false;
  }
  for (size_t i = pos_ + 1; i < toks_.size(); ++i) {
    TokenKind k = toks_[i].kind;
    if (k == TokenKind::Newline) {
      if (toks_[i - 1].kind == TokenKind::Colon) return true;
      // `match x` without its ':' is no expression statement either (a name cannot be followed by
      // another operand): parse it as a match statement, whose error is CPython's "expected ':'".
      switch (peek().kind) {
        case TokenKind::Name:
        case TokenKind::Number:
        case TokenKind::String:
        case TokenKind::LBrace:
        case TokenKind::Not:
        case TokenKind::Lambda:
        case TokenKind::Await:
        case TokenKind::None:
        case TokenKind::True:
        case TokenKind::False:
        case TokenKind::Ellipsis:
        case TokenKind::Tilde:
          return true;
        default:
          return false;
      }
    }
    if (k == TokenKind::EndMarker || k == TokenKind::Error) return false;
  }
  return false;
}

// match_stmt: "match" subject_expr ':' NEWLINE INDENT case_block+ DEDENT
// subject_expr: star_named_expression ',' star_named_expressions? | named_expression
// case_block: "case" patterns guard? ':' block
// guard: 'if' named_expression
stmt* Parser::match_stmt() {
  const Token& start = advance();
  auto* m = make<Match>(start);
  const Token& subject_start = tok();
  expr* first = star_named_expression();
  if (at(TokenKind::Comma)) {
    Scratch elts(*this);
    elts.push(first);
    while (accept(TokenKind::Comma)) {
      if (at(TokenKind::Colon)) break;
      elts.push(star_named_expression());
    }
    auto* t = make<Tuple>(subject_start);
    t->elts = elts.seq<expr>();
    t->ctx = ExprContext::Load;
    first = finish(t);
  } else if (first->is<Starred>()) {
    invalid_syntax();
  }
  m->subject = first;
  expect_block_colon();
  if (!accept(TokenKind::Newline)) invalid_syntax();
  if (!at(TokenKind::Indent))
    fail(tok(), fmt::format("expected an indented block after 'match' statement on line {}", start.line));
  advance();
  Scratch cases(*this);
  while (!at(TokenKind::Dedent) && !at(TokenKind::EndMarker)) {
    if (!at_name("case")) invalid_syntax();
    const Token& case_start = advance();
    auto* c = make<match_case>(case_start);
    c->pattern = patterns();
    if (accept(TokenKind::If)) c->guard = named_expression();
    expect_block_colon();
    c->body = block(case_start, "'case' statement");
    cases.push(finish(c));
  }
  accept(TokenKind::Dedent);
  m->cases = cases.seq<match_case>();
  return finish(m);
}

// patterns: open_sequence_pattern | pattern
// open_sequence_pattern: maybe_star_pattern ',' maybe_sequence_pattern?
ast::pattern* Parser::patterns() {
  const Token& start = tok();
  ast::pattern* first = maybe_star_pattern();
  if (!at(TokenKind::Comma)) {
    if (first->is<MatchStar>()) invalid_syntax();
    return first;
  }
  Scratch items(*this);
  items.push(first);
  while (accept(TokenKind::Comma)) {
    if (at(TokenKind::Colon) || at(TokenKind::If)) break;
    items.push(maybe_star_pattern());
  }
  auto* s = make<MatchSequence>(start);
  s->patterns = items.seq<ast::pattern>();
  return finish(s);
}

// maybe_star_pattern: star_pattern | pattern
// star_pattern: '*' pattern_capture_target | '*' wildcard_pattern
ast::pattern* Parser::maybe_star_pattern() {
  if (!at(TokenKind::Star)) return pattern();
  const Token& start = advance();
  if (!at(TokenKind::Name)) invalid_syntax();
  auto* s = make<MatchStar>(start);
  if (!at_name("_"))
    s->name = capture_target();
  else
    advance();
  return finish(s);
}

// pattern: as_pattern | or_pattern
// as_pattern: or_pattern 'as' pattern_capture_target
ast::pattern* Parser::pattern() {
  Nest nest(*this);
  const Token& start = tok();
  ast::pattern* p = or_pattern();
  if (!accept(TokenKind::As)) return p;
  if (at_name("_")) fail(tok(), "cannot use '_' as a target");
  if (!at(TokenKind::Name)) {
    const Token& t = tok();
    if (starts_expression()) {
      size_t save = pos_;
      const Token* end = &t;
      try {
        (void)expression();
        end = &prev();
      } catch (const ParseError&) {
      }
      pos_ = save;
      fail_range(t, *end, "invalid pattern target");
    }
    invalid_syntax();
  }
  auto* a = make<MatchAs>(start);
  a->pattern = p;
  a->name = capture_target();
  return finish(a);
}

// or_pattern: '|'.closed_pattern+
ast::pattern* Parser::or_pattern() {
  const Token& start = tok();
  ast::pattern* first = closed_pattern();
  if (!at(TokenKind::VBar)) return first;
  Scratch alts(*this);
  alts.push(first);
  while (accept(TokenKind::VBar)) alts.push(closed_pattern());
  auto* o = make<MatchOr>(start);
  o->patterns = alts.seq<ast::pattern>();
  return finish(o);
}

// pattern_capture_target: !"_" NAME !('.' | '(' | '=')
Identifier Parser::capture_target() {
  if (!at(TokenKind::Name) || at_name("_")) invalid_syntax();
  const Token& name = advance();
  if (at(TokenKind::Dot) || at(TokenKind::LPar) || at(TokenKind::Equal)) invalid_syntax();
  return identifier(name);
}

// signed_number: NUMBER | '-' NUMBER
// complex_number: signed_real_number ('+' | '-') imaginary_number
expr* Parser::signed_number(bool allow_complex) {
  const Token& start = tok();
  auto real_or_imag = [&]() -> expr* {
    if (at(TokenKind::Minus)) {
      const Token& minus = advance();
      if (!at(TokenKind::Number)) invalid_syntax();
      auto* u = make<UnaryOp>(minus);
      u->op = UnaryOpKind::USub;
      u->operand = number(advance());
      return finish(u);
    }
    if (!at(TokenKind::Number)) invalid_syntax();
    return number(advance());
  };
  expr* left = real_or_imag();
  if (!allow_complex || !(at(TokenKind::Plus) || at(TokenKind::Minus))) return left;
  auto is_imaginary = [](const expr* e) {
    if (auto* u = e->as<UnaryOp>()) e = u->operand;
    return e->cast<Constant>().value.type == ConstKind::Complex;
  };
  if (is_imaginary(left)) fail_node(*left, "real number required in complex literal");
  OperatorKind op = at(TokenKind::Plus) ? OperatorKind::Add : OperatorKind::Sub;
  advance();
  if (!at(TokenKind::Number)) invalid_syntax();
  expr* right = number(advance());
  if (!is_imaginary(right)) fail_node(*right, "imaginary number required in complex literal");
  auto* b = make<BinOp>(start);
  b->left = left;
  b->op = op;
  b->right = right;
  return finish(b);
}

// name_or_attr: attr | NAME
// attr: name_or_attr '.' NAME
expr* Parser::name_or_attr() {
  const Token& start = tok();
  auto* n = make<Name>(start);
  n->id = identifier(advance());
  n->ctx = ExprContext::Load;
  expr* e = finish(n);
  while (at(TokenKind::Dot) && peek().kind == TokenKind::Name) {
    advance();
    auto* a = make<Attribute>(start);
    a->value = e;
    a->attr = identifier(advance());
    a->ctx = ExprContext::Load;
    e = finish(a);
  }
  return e;
}

// closed_pattern: literal_pattern | capture_pattern | wildcard_pattern | value_pattern
//               | group_pattern | sequence_pattern | mapping_pattern | class_pattern
// literal_pattern: signed_number !('+' | '-') | complex_number | strings | 'None' | 'True' | 'False'
// group_pattern: '(' pattern ')'
// sequence_pattern: '[' maybe_sequence_pattern? ']' | '(' open_sequence_pattern? ')'
ast::pattern* Parser::closed_pattern() {
  const Token& start = tok();
  switch (kind()) {
    case TokenKind::Number:
    case TokenKind::Minus: {
      auto* v = make<MatchValue>(start);
      v->value = signed_number(true);
      return finish(v);
    }
    case TokenKind::String: {
      auto* v = make<MatchValue>(start);
      v->value = strings();
      if (v->value->is<JoinedStr>())
        fail_node(*v->value, "patterns may only match literals and attribute lookups");
      return finish(v);
    }
    case TokenKind::None:
    case TokenKind::True:
    case TokenKind::False: {
      advance();
      auto* s = make<MatchSingleton>(start);
      s->value = start.kind == TokenKind::None ? ConstantValue::none()
                                               : ConstantValue::boolean(start.kind == TokenKind::True);
      return finish(s);
    }
    case TokenKind::LSqb:
      advance();
      return sequence_pattern(start, TokenKind::RSqb);
    case TokenKind::LPar: {
      advance();
      Nest nest(*this);
      if (at(TokenKind::RPar)) return sequence_pattern(start, TokenKind::RPar);
      ast::pattern* first = maybe_star_pattern();
      if (accept(TokenKind::RPar)) {
        if (first->is<MatchStar>()) invalid_syntax();
        return first;  // a group
      }
      if (!at(TokenKind::Comma)) invalid_syntax();
      Scratch items(*this);
      items.push(first);
      while (accept(TokenKind::Comma)) {
        if (at(TokenKind::RPar)) break;
        items.push(maybe_star_pattern());
      }
      if (!accept(TokenKind::RPar)) invalid_syntax();
      auto* s = make<MatchSequence>(start);
      s->patterns = items.seq<ast::pattern>();
      return finish(s);
    }
    case TokenKind::LBrace:
      return mapping_pattern();
    case TokenKind::Name: {
      if (at_name("_") && peek().kind != TokenKind::Dot && peek().kind != TokenKind::LPar) {
        advance();
        return finish(make<MatchAs>(start));  // wildcard
      }
      bool dotted = peek().kind == TokenKind::Dot;
      if (!dotted && peek().kind != TokenKind::LPar) {
        auto* a = make<MatchAs>(start);
        a->name = capture_target();
        return finish(a);
      }
      expr* e = name_or_attr();
      if (at(TokenKind::LPar)) return class_pattern(start, e);
      auto* v = make<MatchValue>(start);
      v->value = e;
      return finish(v);
    }
    default:
      invalid_syntax();
  }
}

// maybe_sequence_pattern: ','.maybe_star_pattern+ ','?   (after '[' or '(')
ast::pattern* Parser::sequence_pattern(const Token& start, TokenKind close) {
  Nest nest(*this);
  Scratch items(*this);
  while (!at(close)) {
    items.push(maybe_star_pattern());
    if (!accept(TokenKind::Comma)) break;
  }
  if (!accept(close)) invalid_syntax();
  auto* s = make<MatchSequence>(start);
  s->patterns = items.seq<ast::pattern>();
  return finish(s);
}

// mapping_pattern:
//     | '{' '}'
//     | '{' double_star_pattern ','? '}'
//     | '{' items_pattern ',' double_star_pattern ','? '}'
//     | '{' items_pattern ','? '}'
// key_value_pattern: (literal_expr | attr) ':' pattern
// double_star_pattern: '**' pattern_capture_target
ast::pattern* Parser::mapping_pattern() {
  const Token& start = advance();
  Nest nest(*this);
  Scratch keys(*this), values(*this);
  auto* m = make<MatchMapping>(start);
  while (!at(TokenKind::RBrace)) {
    if (accept(TokenKind::DoubleStar)) {
      m->rest = capture_target();
      accept(TokenKind::Comma);
      break;
    }
    expr* key;
    switch (kind()) {
      case TokenKind::Number:
      case TokenKind::Minus:
        key = signed_number(true);
        break;
      case TokenKind::String:
        key = strings();
        if (key->is<JoinedStr>()) fail_node(*key, "patterns may only match literals and attribute lookups");
        break;
      case TokenKind::None:
      case TokenKind::True:
      case TokenKind::False:
        key = atom();
        break;
      case TokenKind::Name:
        if (peek().kind != TokenKind::Dot) invalid_syntax();
        key = name_or_attr();
        break;
      default:
        invalid_syntax();
    }
    if (!accept(TokenKind::Colon)) invalid_syntax();
    keys.push(key);
    values.push(pattern());
    if (!accept(TokenKind::Comma)) break;
  }
  if (!accept(TokenKind::RBrace)) invalid_syntax();
  m->keys = keys.seq<expr>();
  m->patterns = values.seq<ast::pattern>();
  return finish(m);
}

// class_pattern:
//     | name_or_attr '(' ')'
//     | name_or_attr '(' positional_patterns ','? ')'
//     | name_or_attr '(' keyword_patterns ','? ')'
//     | name_or_attr '(' positional_patterns ',' keyword_patterns ','? ')'
// keyword_pattern: NAME '=' pattern
ast::pattern* Parser::class_pattern(const Token& start, expr* cls) {
  advance();  // '('
  Nest nest(*this);
  Scratch positional(*this), kwd_patterns(*this);
  std::vector<Identifier> kwd_attrs;
  const ast::pattern* first_keyword = nullptr;
  while (!at(TokenKind::RPar)) {
    if (at(TokenKind::Name) && peek().kind == TokenKind::Equal) {
      kwd_attrs.push_back(identifier(advance()));
      advance();
      ast::pattern* p = pattern();
      if (!first_keyword) first_keyword = p;
      kwd_patterns.push(p);
    } else {
      ast::pattern* p = pattern();
      if (first_keyword) {
        // The rest of the positional patterns, for the range of the message.
        const ast::pattern* last = p;
        size_t save = pos_;
        try {
          while (accept(TokenKind::Comma) && !at(TokenKind::RPar)) {
            if (at(TokenKind::Name) && peek().kind == TokenKind::Equal) break;
            last = pattern();
          }
        } catch (const ParseError&) {
        }
        pos_ = save;
        fail_at(p->lineno, p->col_offset, last->end_lineno, last->end_col_offset,
                "positional patterns follow keyword patterns");
      }
      positional.push(p);
    }
    if (!accept(TokenKind::Comma)) break;
  }
  if (!accept(TokenKind::RPar)) invalid_syntax();
  auto* c = make<MatchClass>(start);
  c->cls = cls;
  c->patterns = positional.seq<ast::pattern>();
  c->kwd_attrs = arena_.copy(std::span<const Identifier>(kwd_attrs));
  c->kwd_patterns = kwd_patterns.seq<ast::pattern>();
  return finish(c);
}

}  // namespace onnxify::syntax
