// Expressions (CPython Grammar/python.gram, "EXPRESSIONS" and "PRIMARY ELEMENTS").
#include <fmt/core.h>

#include <array>

#include "syntax/parser.h"

namespace onnxify::syntax {

using namespace ast;

namespace {

// Binary operators by precedence (higher binds tighter); one row per token.
// clang-format off
#define ONNXIFY_BINARY_OPERATORS(X)                                                               \
  X(VBar, BitOr, 1) X(Circumflex, BitXor, 2) X(Amper, BitAnd, 3) X(LeftShift, LShift, 4)        \
  X(RightShift, RShift, 4) X(Plus, Add, 5) X(Minus, Sub, 5) X(Star, Mult, 6) X(Slash, Div, 6)   \
  X(DoubleSlash, FloorDiv, 6) X(Percent, Mod, 6) X(At, MatMult, 6)
// clang-format on

struct BinaryOperator {
  uint8_t precedence = 0;  // 0: not a binary operator
  OperatorKind op = OperatorKind::Add;
};

constexpr auto make_binary_table() {
  std::array<BinaryOperator, 256> t{};
#define ONNXIFY_BINARY_ROW(tok, o, prec) t[static_cast<int>(TokenKind::tok)] = {prec, OperatorKind::o};
  ONNXIFY_BINARY_OPERATORS(ONNXIFY_BINARY_ROW)
#undef ONNXIFY_BINARY_ROW
  return t;
}
constexpr auto kBinary = make_binary_table();

// True when `e` (which began at token `start`) was written inside its own parentheses.
bool parenthesized(const Token& start, const expr* e) {
  return start.kind == TokenKind::LPar && (e->lineno != start.line || e->col_offset != start.col);
}

}  // namespace

bool Parser::starts_expression_at(const Token& t) {
  switch (t.kind) {
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
      return true;
    default:
      return false;
  }
}

// star_expressions:
//     | star_expression (',' star_expression)+ [',']
//     | star_expression ','
//     | star_expression
expr* Parser::star_expressions() {
  const Token& start = tok();
  expr* first = star_expression();
  if (!at(TokenKind::Comma)) return first;
  Scratch elts(*this);
  elts.push(first);
  while (accept(TokenKind::Comma)) {
    if (!starts_expression()) break;
    elts.push(star_expression());
  }
  auto* t = make<Tuple>(start);
  t->elts = elts.seq<expr>();
  t->ctx = ExprContext::Load;
  return finish(t);
}

// star_expression: '*' bitwise_or | expression
expr* Parser::star_expression() {
  if (at(TokenKind::Star)) {
    const Token& start = advance();
    Nest nest(*this);
    auto* s = make<Starred>(start);
    s->value = bitwise_or();
    s->ctx = ExprContext::Load;
    return finish(s);
  }
  return expression();
}

// star_named_expression: '*' bitwise_or | named_expression
expr* Parser::star_named_expression() {
  if (at(TokenKind::Star)) return star_expression();
  return named_expression();
}

// named_expression: assignment_expression | expression !':='
// assignment_expression: NAME ':=' ~ expression
expr* Parser::named_expression() {
  const Token& start = tok();
  if (at(TokenKind::Name) && peek().kind == TokenKind::ColonEqual) {
    auto* target = make<Name>(start);
    target->id = identifier(advance());
    target->ctx = ExprContext::Store;
    finish(target);
    advance();
    auto* n = make<NamedExpr>(start);
    n->target = target;
    n->value = expression();
    return finish(n);
  }
  expr* e = expression();
  if (at(TokenKind::ColonEqual))
    fail_node(*e, fmt::format("cannot use assignment expressions with {}", expr_name(e)));
  if (at(TokenKind::Equal)) assignment_hint(start, e);
  return e;
}

// CPython's invalid_named_expression, for `T = V` where no assignment can be:
//     | NAME '=' bitwise_or !('='|':=')   "invalid syntax. Maybe you meant '==' or ':=' instead of '='?"
//     | !(list|tuple|genexp|'True'|'None'|'False') bitwise_or '=' bitwise_or !('='|':=')
//                                         "cannot assign to %s here. Maybe you meant '==' instead of '='?"
// Returns when neither applies.
void Parser::assignment_hint(const Token& start, const expr* target) {
  size_t save = pos_;
  advance();  // '='
  bool single = false;
  const Token* value_end = nullptr;
  try {
    (void)bitwise_or();
    value_end = &prev();
    single = !at(TokenKind::Equal) && !at(TokenKind::ColonEqual);
  } catch (const ParseError&) {
  }
  pos_ = save;
  if (!single) return;
  if (target->is<Name>() && start.kind == TokenKind::Name)
    fail_range(start, *value_end, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
  bool paren = parenthesized(start, target);
  bool operand = paren || !(target->is<Compare>() || target->is<BoolOp>() || target->is<IfExp>() ||
                            target->is<Lambda>() || target->is<Starred>() || target->is<Tuple>() ||
                            (target->is<UnaryOp>() && target->cast<UnaryOp>().op == UnaryOpKind::Not));
  if (!operand) return;
  // The lookahead excludes a list display, tuple or generator expression at the start.
  const expr* left = target;
  for (;;) {
    const expr* next = nullptr;
    if (auto* c = left->as<Call>())
      next = c->func;
    else if (auto* a = left->as<Attribute>())
      next = a->value;
    else if (auto* s = left->as<Subscript>())
      next = s->value;
    else if (auto* b = left->as<BinOp>())
      next = b->left;
    if (!next || next->lineno != left->lineno || next->col_offset != left->col_offset) break;
    left = next;
  }
  bool at_start = left->lineno == start.line && left->col_offset == start.col;
  if (start.kind == TokenKind::True || start.kind == TokenKind::False || start.kind == TokenKind::None)
    return;
  if (at_start && (left->is<List>() || left->is<Tuple>() || left->is<GeneratorExp>())) return;
  fail_node(*target,
            fmt::format("cannot assign to {} here. Maybe you meant '==' instead of '='?", expr_name(target)));
}

// expressions: expression (',' expression)+ [','] | expression ',' | expression
expr* Parser::expressions() {
  const Token& start = tok();
  expr* first = expression();
  if (!at(TokenKind::Comma)) return first;
  Scratch elts(*this);
  elts.push(first);
  while (accept(TokenKind::Comma)) {
    if (!starts_expression()) break;
    elts.push(expression());
  }
  auto* t = make<Tuple>(start);
  t->elts = elts.seq<expr>();
  t->ctx = ExprContext::Load;
  return finish(t);
}

// expression: disjunction 'if' disjunction 'else' expression | disjunction | lambdef
expr* Parser::expression() {
  Nest nest(*this);
  if (at(TokenKind::Lambda)) return lambdef();
  const Token& start = tok();
  expr* body = disjunction();
  if (!at(TokenKind::If)) return body;
  advance();
  expr* test = disjunction();
  if (!accept(TokenKind::Else)) {
    if (!at(TokenKind::Colon))
      fail_at(body->lineno, body->col_offset, test->end_lineno, test->end_col_offset,
              "expected 'else' after 'if' expression");
    invalid_syntax();
  }
  auto* e = make<IfExp>(start);
  e->test = test;
  e->body = body;
  e->orelse = expression();
  return finish(e);
}

// yield_expr: 'yield' 'from' expression | 'yield' [star_expressions]
expr* Parser::yield_expr() {
  const Token& start = advance();
  if (accept(TokenKind::From)) {
    auto* y = make<YieldFrom>(start);
    y->value = expression();
    return finish(y);
  }
  auto* y = make<Yield>(start);
  if (starts_expression()) y->value = star_expressions();
  return finish(y);
}

// disjunction: conjunction ('or' conjunction)+ | conjunction
expr* Parser::disjunction() {
  const Token& start = tok();
  expr* first = conjunction();
  if (!at(TokenKind::Or)) return first;
  Scratch values(*this);
  values.push(first);
  while (accept(TokenKind::Or)) values.push(conjunction());
  auto* b = make<BoolOp>(start);
  b->op = BoolOpKind::Or;
  b->values = values.seq<expr>();
  return finish(b);
}

// conjunction: inversion ('and' inversion)+ | inversion
expr* Parser::conjunction() {
  const Token& start = tok();
  expr* first = inversion();
  if (!at(TokenKind::And)) return first;
  Scratch values(*this);
  values.push(first);
  while (accept(TokenKind::And)) values.push(inversion());
  auto* b = make<BoolOp>(start);
  b->op = BoolOpKind::And;
  b->values = values.seq<expr>();
  return finish(b);
}

// inversion: 'not' inversion | comparison
expr* Parser::inversion() {
  if (!at(TokenKind::Not)) return comparison();
  const Token& start = advance();
  Nest nest(*this);
  auto* u = make<UnaryOp>(start);
  u->op = UnaryOpKind::Not;
  u->operand = inversion();
  return finish(u);
}

// comparison: bitwise_or compare_op_bitwise_or_pair+ | bitwise_or
// compare_op_bitwise_or_pair: '==' | '!=' | '<=' | '<' | '>=' | '>' | 'not' 'in' | 'in'
//                           | 'is' 'not' | 'is'  (each followed by bitwise_or)
expr* Parser::comparison() {
  const Token& start = tok();
  expr* left = bitwise_or();
  auto compare_op = [&](CmpOpKind* op) -> int {
    switch (kind()) {
      case TokenKind::EqEqual:
        *op = CmpOpKind::Eq;
        return 1;
      case TokenKind::NotEqual:
        *op = CmpOpKind::NotEq;
        return 1;
      case TokenKind::Less:
        *op = CmpOpKind::Lt;
        return 1;
      case TokenKind::LessEqual:
        *op = CmpOpKind::LtE;
        return 1;
      case TokenKind::Greater:
        *op = CmpOpKind::Gt;
        return 1;
      case TokenKind::GreaterEqual:
        *op = CmpOpKind::GtE;
        return 1;
      case TokenKind::In:
        *op = CmpOpKind::In;
        return 1;
      case TokenKind::Is:
        if (peek().kind == TokenKind::Not) {
          *op = CmpOpKind::IsNot;
          return 2;
        }
        *op = CmpOpKind::Is;
        return 1;
      case TokenKind::Not:
        if (peek().kind == TokenKind::In) {
          *op = CmpOpKind::NotIn;
          return 2;
        }
        return 0;
      default:
        return 0;
    }
  };
  CmpOpKind op;
  int n = compare_op(&op);
  if (!n) return left;
  std::vector<CmpOpKind> ops;
  Scratch comparators(*this);
  while (n) {
    for (int i = 0; i < n; ++i) advance();
    ops.push_back(op);
    comparators.push(bitwise_or());
    n = compare_op(&op);
  }
  auto* c = make<Compare>(start);
  c->left = left;
  c->ops = arena_.copy(std::span<const CmpOpKind>(ops));
  c->comparators = comparators.seq<expr>();
  return finish(c);
}

// bitwise_or: bitwise_or '|' bitwise_xor | bitwise_xor
// bitwise_xor: bitwise_xor '^' bitwise_and | bitwise_and
// bitwise_and: bitwise_and '&' shift_expr | shift_expr
// shift_expr: shift_expr ('<<' | '>>') sum | sum
// sum: sum ('+' | '-') term | term
// term: term ('*' | '/' | '//' | '%' | '@') factor | factor
// All left-associative, by precedence climbing over kBinary.
expr* Parser::binary(int min_precedence) {
  const Token& start = tok();
  expr* left = factor();
  size_t chain = 0;
  for (;;) {
    const BinaryOperator& b = kBinary[static_cast<int>(kind())];
    if (b.precedence == 0 || b.precedence < min_precedence) return left;
    advance();
    expr* right = binary(b.precedence + 1);
    auto* n = make<BinOp>(start);
    n->left = left;
    n->op = b.op;
    n->right = right;
    left = finish(n);
    check_chain(++chain);
  }
}

// factor: '+' factor | '-' factor | '~' factor | power
expr* Parser::factor() {
  UnaryOpKind op;
  switch (kind()) {
    case TokenKind::Plus:
      op = UnaryOpKind::UAdd;
      break;
    case TokenKind::Minus:
      op = UnaryOpKind::USub;
      break;
    case TokenKind::Tilde:
      op = UnaryOpKind::Invert;
      break;
    default:
      return power();
  }
  const Token& start = advance();
  Nest nest(*this);
  auto* u = make<UnaryOp>(start);
  u->op = op;
  u->operand = factor();
  return finish(u);
}

// power: await_primary '**' factor | await_primary
expr* Parser::power() {
  const Token& start = tok();
  expr* left = await_primary();
  if (!accept(TokenKind::DoubleStar)) return left;
  Nest nest(*this);
  auto* b = make<BinOp>(start);
  b->left = left;
  b->op = OperatorKind::Pow;
  b->right = factor();
  return finish(b);
}

// await_primary: AWAIT primary | primary
expr* Parser::await_primary() {
  if (!at(TokenKind::Await)) return primary();
  const Token& start = advance();
  Nest nest(*this);
  auto* a = make<Await>(start);
  a->value = primary();
  return finish(a);
}

// primary:
//     | primary '.' NAME
//     | primary genexp
//     | primary '(' [arguments] ')'
//     | primary '[' slices ']'
//     | atom
expr* Parser::primary() {
  const Token& start = tok();
  expr* e = atom();
  size_t chain = 0;
  for (;;) {
    switch (kind()) {
      case TokenKind::Dot: {
        advance();
        if (!at(TokenKind::Name)) invalid_syntax();
        auto* a = make<Attribute>(start);
        a->value = e;
        a->attr = identifier(advance());
        a->ctx = ExprContext::Load;
        e = finish(a);
        break;
      }
      case TokenKind::LPar:
        e = call(start, e);
        break;
      case TokenKind::LSqb: {
        advance();
        Nest nest(*this);
        Brackets brackets(*this);
        auto* s = make<Subscript>(start);
        s->value = e;
        s->slice = slices();
        s->ctx = ExprContext::Load;
        if (!accept(TokenKind::RSqb)) invalid_syntax();
        e = finish(s);
        break;
      }
      default:
        return e;
    }
    check_chain(++chain);
  }
}

// atom: NAME | 'True' | 'False' | 'None' | strings | NUMBER | (tuple | group | genexp)
//     | (list | listcomp) | (dict | set | dictcomp | setcomp) | '...'
expr* Parser::atom() {
  const Token& t = tok();
  switch (t.kind) {
    case TokenKind::Name: {
      auto* n = make<Name>(t);
      n->id = identifier(advance());
      n->ctx = ExprContext::Load;
      return finish(n);
    }
    case TokenKind::True:
    case TokenKind::False:
    case TokenKind::None:
    case TokenKind::Ellipsis: {
      advance();
      auto* c = make<Constant>(t);
      c->value = t.kind == TokenKind::True    ? ConstantValue::boolean(true)
                 : t.kind == TokenKind::False ? ConstantValue::boolean(false)
                 : t.kind == TokenKind::None  ? ConstantValue::none()
                                              : ConstantValue::ellipsis();
      return finish(c);
    }
    case TokenKind::Number:
      return number(advance());
    case TokenKind::String:
      return strings();
    case TokenKind::LPar:
      return paren_atom();
    case TokenKind::LSqb:
      return list_atom();
    case TokenKind::LBrace:
      return brace_atom();
    default:
      invalid_syntax();
  }
}

// tuple: '(' [star_named_expression ',' [star_named_expressions]] ')'
// group: '(' (yield_expr | named_expression) ')'
// genexp: '(' (assignment_expression | expression !':=') for_if_clauses ')'
expr* Parser::paren_atom() {
  Nest nest(*this);
  Brackets brackets(*this);
  const Token& open = advance();
  if (accept(TokenKind::RPar)) {
    auto* t = make<Tuple>(open);
    t->ctx = ExprContext::Load;
    return finish(t);
  }
  if (at(TokenKind::Yield)) {
    expr* y = yield_expr();
    if (!accept(TokenKind::RPar)) invalid_syntax();
    return y;
  }
  const Token& first_start = tok();
  expr* first = star_named_expression();
  if (at(TokenKind::For) || (at(TokenKind::Async) && peek().kind == TokenKind::For)) {
    auto* g = make<GeneratorExp>(open);
    g->elt = first;
    g->generators = for_if_clauses();
    if (first->is<Starred>()) fail_node(*first, "iterable unpacking cannot be used in comprehension");
    if (!accept(TokenKind::RPar)) invalid_syntax();
    return finish(g);
  }
  if (at(TokenKind::Comma)) {
    Scratch elts(*this);
    elts.push(first);
    while (accept(TokenKind::Comma)) {
      if (at(TokenKind::RPar)) break;
      const Token& elem_start = tok();
      expr* e = star_named_expression();
      elts.push(e);
      if (!at(TokenKind::Comma) && !at(TokenKind::RPar)) check_missing_comma(elem_start, e);
    }
    if (!accept(TokenKind::RPar)) invalid_syntax();
    auto* t = make<Tuple>(open);
    t->elts = elts.seq<expr>();
    t->ctx = ExprContext::Load;
    return finish(t);
  }
  if (accept(TokenKind::RPar)) {
    if (first->is<Starred>()) fail_node(*first, "cannot use starred expression here");
    return first;
  }
  check_missing_comma(first_start, first);
  invalid_syntax();
}

// list: '[' [star_named_expressions] ']'
// listcomp: '[' named_expression for_if_clauses ']'
expr* Parser::list_atom() {
  Nest nest(*this);
  Brackets brackets(*this);
  const Token& open = advance();
  Scratch elts(*this);
  while (!at(TokenKind::RSqb)) {
    const Token& elem_start = tok();
    expr* e = star_named_expression();
    if (at(TokenKind::For) || (at(TokenKind::Async) && peek().kind == TokenKind::For)) {
      if (!elts.empty())
        fail_at(elts[0]->lineno, elts[0]->col_offset, e->end_lineno, e->end_col_offset,
                "did you forget parentheses around the comprehension target?");
      auto* c = make<ListComp>(open);
      c->elt = e;
      c->generators = for_if_clauses();
      if (e->is<Starred>()) fail_node(*e, "iterable unpacking cannot be used in comprehension");
      if (!accept(TokenKind::RSqb)) invalid_syntax();
      return finish(c);
    }
    elts.push(e);
    if (!accept(TokenKind::Comma)) {
      if (!at(TokenKind::RSqb)) check_missing_comma(elem_start, e);
      break;
    }
  }
  if (!accept(TokenKind::RSqb)) invalid_syntax();
  auto* l = make<List>(open);
  l->elts = elts.seq<expr>();
  l->ctx = ExprContext::Load;
  return finish(l);
}

// dict: '{' [double_starred_kvpairs] '}'
// set: '{' star_named_expressions '}'
// dictcomp: '{' kvpair for_if_clauses '}'
// setcomp: '{' named_expression for_if_clauses '}'
// double_starred_kvpair: '**' bitwise_or | kvpair
// kvpair: expression ':' expression
expr* Parser::brace_atom() {
  Nest nest(*this);
  Brackets brackets(*this);
  const Token& open = advance();
  if (accept(TokenKind::RBrace)) return finish(make<Dict>(open));
  auto at_for = [&] { return at(TokenKind::For) || (at(TokenKind::Async) && peek().kind == TokenKind::For); };

  const Token& first_start = tok();
  bool is_dict = at(TokenKind::DoubleStar);
  expr* first = nullptr;
  if (!is_dict) {
    first = star_named_expression();
    bool bare_walrus = first->is<NamedExpr>() && !parenthesized(first_start, first);
    is_dict = at(TokenKind::Colon) && !first->is<Starred>() && !bare_walrus;
  }

  if (!is_dict) {
    Scratch elts(*this);
    if (at_for()) {
      auto* c = make<SetComp>(open);
      c->elt = first;
      c->generators = for_if_clauses();
      if (first->is<Starred>()) fail_node(*first, "iterable unpacking cannot be used in comprehension");
      if (!accept(TokenKind::RBrace)) invalid_syntax();
      return finish(c);
    }
    elts.push(first);
    const Token* elem_start = &first_start;
    expr* last = first;
    for (;;) {
      if (!accept(TokenKind::Comma)) {
        if (!at(TokenKind::RBrace)) {
          if (at_for())
            fail_at(elts[0]->lineno, elts[0]->col_offset, last->end_lineno, last->end_col_offset,
                    "did you forget parentheses around the comprehension target?");
          check_missing_comma(*elem_start, last);
        }
        break;
      }
      if (at(TokenKind::RBrace)) break;
      elem_start = &tok();
      last = star_named_expression();
      elts.push(last);
    }
    if (!accept(TokenKind::RBrace)) invalid_syntax();
    auto* s = make<Set>(open);
    s->elts = elts.seq<expr>();
    return finish(s);
  }

  Scratch keys(*this), values(*this);
  auto value_after_colon = [&](const Token& colon) -> expr* {
    if (at(TokenKind::RBrace) || at(TokenKind::Comma))
      fail(colon, "expression expected after dictionary key and ':'");
    if (at(TokenKind::Star)) {
      const Token& star = advance();
      (void)bitwise_or();  // only `'*' operand` gets the specific message
      fail_at(star.line, star.col, prev().end_line, prev().end_col,
              "cannot use a starred expression in a dictionary value");
    }
    return expression();
  };
  if (first) {
    const Token& colon = advance();
    expr* value = value_after_colon(colon);
    if (at_for()) {
      auto* c = make<DictComp>(open);
      c->key = first;
      c->value = value;
      c->generators = for_if_clauses();
      if (!accept(TokenKind::RBrace)) invalid_syntax();
      return finish(c);
    }
    keys.push(first);
    values.push(value);
    if (!accept(TokenKind::Comma)) {
      if (!at(TokenKind::RBrace)) check_missing_comma(first_start, value);
      if (!accept(TokenKind::RBrace)) invalid_syntax();
      auto* d = make<Dict>(open);
      d->keys = keys.seq<expr>();
      d->values = values.seq<expr>();
      return finish(d);
    }
  }
  while (!at(TokenKind::RBrace)) {
    const Token& item_start = tok();
    if (accept(TokenKind::DoubleStar)) {
      expr* v = bitwise_or();
      if (at_for()) fail_range(item_start, prev(), "dict unpacking cannot be used in dict comprehension");
      keys.push(nullptr);
      values.push(v);
    } else {
      expr* k = expression();
      if (!at(TokenKind::Colon)) {
        check_missing_comma(item_start, k);
        invalid_syntax();
      }
      const Token& colon = advance();
      keys.push(k);
      values.push(value_after_colon(colon));
    }
    if (!accept(TokenKind::Comma)) {
      if (!at(TokenKind::RBrace)) check_missing_comma(item_start, static_cast<expr*>(values.back()));
      break;
    }
  }
  if (!accept(TokenKind::RBrace)) invalid_syntax();
  auto* d = make<Dict>(open);
  d->keys = keys.seq<expr>();
  d->values = values.seq<expr>();
  return finish(d);
}

// slices: slice !',' | ','.(slice | starred_expression)+ [',']
expr* Parser::slices() {
  const Token& start = tok();
  auto one = [&]() -> expr* {
    if (at(TokenKind::Star)) {
      const Token& star = advance();
      auto* s = make<Starred>(star);
      s->value = expression();
      s->ctx = ExprContext::Load;
      return finish(s);
    }
    return slice();
  };
  expr* first = one();
  if (!at(TokenKind::Comma)) {
    if (!at(TokenKind::RSqb)) check_missing_comma(start, first);
    // A lone starred item is not a slice: x[*a] subscripts with the tuple (*a,).
    if (!first->is<Starred>()) return first;
  }
  Scratch elts(*this);
  elts.push(first);
  while (accept(TokenKind::Comma)) {
    if (at(TokenKind::RSqb)) break;
    const Token& elem_start = tok();
    expr* e = one();
    elts.push(e);
    if (!at(TokenKind::Comma) && !at(TokenKind::RSqb)) check_missing_comma(elem_start, e);
  }
  auto* t = make<Tuple>(start);
  t->elts = elts.seq<expr>();
  t->ctx = ExprContext::Load;
  return finish(t);
}

// slice: [expression] ':' [expression] [':' [expression]] | named_expression
expr* Parser::slice() {
  const Token& start = tok();
  expr* lower = nullptr;
  if (!at(TokenKind::Colon)) {
    if (at(TokenKind::Name) && peek().kind == TokenKind::ColonEqual) return named_expression();
    lower = expression();
    if (!at(TokenKind::Colon)) {
      if (at(TokenKind::Equal)) assignment_hint(start, lower);
      return lower;
    }
  }
  advance();
  auto ends = [&] { return at(TokenKind::Colon) || at(TokenKind::RSqb) || at(TokenKind::Comma); };
  auto* s = make<Slice>(start);
  s->lower = lower;
  if (!ends()) s->upper = expression();
  if (accept(TokenKind::Colon)) {
    if (!at(TokenKind::RSqb) && !at(TokenKind::Comma)) s->step = expression();
  }
  return finish(s);
}

// lambdef: 'lambda' [lambda_params] ':' expression
expr* Parser::lambdef() {
  const Token& start = advance();
  auto* l = make<Lambda>(start);
  l->args = parameters(true, TokenKind::Colon);
  if (!accept(TokenKind::Colon)) invalid_syntax();
  l->body = expression();
  return finish(l);
}

// for_if_clauses: for_if_clause+
// for_if_clause: [ASYNC] 'for' star_targets 'in' ~ disjunction ('if' disjunction)*
Seq<comprehension> Parser::for_if_clauses() {
  Scratch generators(*this);
  while (at(TokenKind::For) || (at(TokenKind::Async) && peek().kind == TokenKind::For)) {
    const Token& start = tok();
    auto* c = make<comprehension>(start);
    c->is_async = accept(TokenKind::Async) ? 1 : 0;
    advance();
    const Token& target_start = tok();
    expr* target = star_targets();
    if (!at(TokenKind::In)) {
      check_missing_comma(target_start, target);
      invalid_syntax();
    }
    advance();
    set_context(target, ExprContext::Store, TargetKind::For);
    c->target = target;
    c->iter = disjunction();
    Scratch ifs(*this);
    while (accept(TokenKind::If)) ifs.push(disjunction());
    c->ifs = ifs.seq<expr>();
    generators.push(finish(c));
  }
  return generators.seq<comprehension>();
}

// star_targets: star_target !',' | star_target (',' star_target)* [',']
// (targets are parsed as operands and checked by set_context)
expr* Parser::star_targets() {
  const Token& start = tok();
  expr* first = star_target();
  if (!at(TokenKind::Comma)) return first;
  Scratch elts(*this);
  elts.push(first);
  while (accept(TokenKind::Comma)) {
    if (!starts_expression()) break;
    elts.push(star_target());
  }
  auto* t = make<Tuple>(start);
  t->elts = elts.seq<expr>();
  t->ctx = ExprContext::Load;
  return finish(t);
}

// star_target: '*' (!'*' star_target) | target_with_star_atom
expr* Parser::star_target() {
  if (!at(TokenKind::Star)) return bitwise_or();
  const Token& start = advance();
  Nest nest(*this);
  if (at(TokenKind::Star)) invalid_syntax();
  auto* s = make<Starred>(start);
  s->value = star_target();
  s->ctx = ExprContext::Load;
  return finish(s);
}

// "invalid syntax. Perhaps you forgot a comma?": inside brackets, an expression directly followed
// by another (CPython's invalid_expression: !(NAME STRING | SOFT_KEYWORD) disjunction expression).
void Parser::check_missing_comma(const Token& elem_start, const expr* elem) {
  if (bracket_depth_ == 0 || !starts_expression() || at(TokenKind::Star)) return;
  const Token& after_start = toks_[(&elem_start - toks_.data()) + 1];
  if (elem_start.kind == TokenKind::Name) {
    std::string_view w = text(elem_start);
    if (after_start.kind == TokenKind::String || w == "match" || w == "case" || w == "_") return;
  }
  // The juxtaposition starts at the last operand-level expression before the gap.
  const expr* a = elem;
  while (true) {
    if (auto* i = a->as<IfExp>())
      a = i->orelse;
    else if (auto* l = a->as<Lambda>())
      a = l->body;
    else
      break;
  }
  if (auto* n = a->as<Name>(); n && (n->id == "print" || n->id == "exec")) return;
  size_t save = pos_;
  const Token* end = nullptr;
  try {
    (void)expression();
    end = &prev();
  } catch (const ParseError&) {
  }
  pos_ = save;
  if (!end) return;
  uint32_t line = a == elem ? elem_start.line : a->lineno;
  uint32_t col = a == elem ? elem_start.col : a->col_offset;
  fail_at(line, col, end->end_line, end->end_col, "invalid syntax. Perhaps you forgot a comma?");
}

}  // namespace onnxify::syntax
