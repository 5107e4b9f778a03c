// Statements (CPython Grammar/python.gram, "STATEMENTS" and "COMPOUND STATEMENTS").
#include <fmt/core.h>

#include "syntax/parser.h"

namespace onnxify::syntax {

using namespace ast;

// file: [statements] ENDMARKER
Module* Parser::file() {
  const Token& start = tok();
  Scratch body(*this);
  while (!at(TokenKind::EndMarker)) statement(body);
  auto* m = make<Module>(start);
  m->body = body.seq<stmt>();
  return finish(m);
}

// eval: expressions NEWLINE* ENDMARKER
Expression* Parser::eval_input() {
  const Token& start = tok();
  expr* body = expressions();
  while (accept(TokenKind::Newline)) {
  }
  if (!at(TokenKind::EndMarker)) invalid_syntax();
  auto* e = make<Expression>(start);
  e->body = body;
  return finish(e);
}

// statement: compound_stmt | simple_stmts
void Parser::statement(Scratch& out) {
  if (stmt* s = compound_stmt()) {
    out.push(s);
    return;
  }
  simple_stmts(out);
}

// simple_stmts: simple_stmt !';' NEWLINE | ';'.simple_stmt+ [';'] NEWLINE
void Parser::simple_stmts(Scratch& out) {
  for (;;) {
    out.push(simple_stmt());
    if (!accept(TokenKind::Semi)) break;
    if (at(TokenKind::Newline)) break;
  }
  if (!accept(TokenKind::Newline)) invalid_syntax();
}

// simple_stmt: assignment | star_expressions | return_stmt | import_stmt | raise_stmt | 'pass'
//            | del_stmt | yield_stmt | assert_stmt | 'break' | 'continue' | global_stmt
//            | nonlocal_stmt
stmt* Parser::simple_stmt() {
  const Token& start = tok();
  switch (kind()) {
    case TokenKind::Return:
      return return_stmt();
    case TokenKind::Import:
      return import_name();
    case TokenKind::From:
      return import_from();
    case TokenKind::Raise:
      return raise_stmt();
    case TokenKind::Del:
      return del_stmt();
    case TokenKind::Assert:
      return assert_stmt();
    case TokenKind::Global:
      return global_stmt(false);
    case TokenKind::Nonlocal:
      return global_stmt(true);
    case TokenKind::Pass:
      advance();
      return finish(make<Pass>(start));
    case TokenKind::Break:
      advance();
      return finish(make<Break>(start));
    case TokenKind::Continue:
      advance();
      return finish(make<Continue>(start));
    default:
      return expression_stmt();
  }
}

namespace {

bool aug_operator(TokenKind k, OperatorKind* op) {
  switch (k) {
    case TokenKind::PlusEqual:
      *op = OperatorKind::Add;
      return true;
    case TokenKind::MinEqual:
      *op = OperatorKind::Sub;
      return true;
    case TokenKind::StarEqual:
      *op = OperatorKind::Mult;
      return true;
    case TokenKind::AtEqual:
      *op = OperatorKind::MatMult;
      return true;
    case TokenKind::SlashEqual:
      *op = OperatorKind::Div;
      return true;
    case TokenKind::PercentEqual:
      *op = OperatorKind::Mod;
      return true;
    case TokenKind::AmperEqual:
      *op = OperatorKind::BitAnd;
      return true;
    case TokenKind::VBarEqual:
      *op = OperatorKind::BitOr;
      return true;
    case TokenKind::CircumflexEqual:
      *op = OperatorKind::BitXor;
      return true;
    case TokenKind::LeftShiftEqual:
      *op = OperatorKind::LShift;
      return true;
    case TokenKind::RightShiftEqual:
      *op = OperatorKind::RShift;
      return true;
    case TokenKind::DoubleStarEqual:
      *op = OperatorKind::Pow;
      return true;
    case TokenKind::DoubleSlashEqual:
      *op = OperatorKind::FloorDiv;
      return true;
    default:
      return false;
  }
}

}  // namespace

// assignment:
//     | NAME ':' expression ['=' annotated_rhs]
//     | ('(' single_target ')' | single_subscript_attribute_target) ':' expression ['=' annotated_rhs]
//     | (star_targets '=')+ (yield_expr | star_expressions) !'=' [TYPE_COMMENT]
//     | single_target augassign ~ (yield_expr | star_expressions)
// star_expressions (an expression statement) otherwise.
stmt* Parser::expression_stmt() {
  const Token& start = tok();
  const size_t start_pos = pos_;
  bool first_is_yield = at(TokenKind::Yield);
  expr* first = first_is_yield ? yield_expr() : star_expressions();
  auto rhs = [&] { return at(TokenKind::Yield) ? yield_expr() : star_expressions(); };

  if (at(TokenKind::Colon)) {
    // Annotated assignment: one Name (simple when not parenthesized), attribute or subscript. The
    // target is judged once the annotation parsed, as CPython's invalid_assignment does.
    advance();
    expr* annotation = expression();
    int simple = 0;
    if (first->is<Tuple>()) {
      auto& t = first->cast<Tuple>();
      bool parenthesized =
          t.elts.empty() || t.elts[0]->col_offset != t.col_offset || t.elts[0]->lineno != t.lineno;
      fail_node(parenthesized ? *first : *t.elts[0], "only single target (not tuple) can be annotated");
    }
    if (first->is<List>()) fail_node(*first, "only single target (not list) can be annotated");
    if (first->is<Name>()) {
      simple = start.kind == TokenKind::Name ? 1 : 0;
    } else if (!first->is<Attribute>() && !first->is<Subscript>()) {
      fail_node(*first, "illegal target for annotation");
    }
    set_context(first, ExprContext::Store, TargetKind::Star);
    auto* s = make<AnnAssign>(start);
    s->target = first;
    s->annotation = annotation;
    if (accept(TokenKind::Equal)) s->value = rhs();
    s->simple = simple;
    return finish(s);
  }

  OperatorKind op;
  if (aug_operator(kind(), &op)) {
    advance();
    expr* value = rhs();
    if (!first->is<Name>() && !first->is<Attribute>() && !first->is<Subscript>())
      fail_node(*first,
                fmt::format("'{}' is an illegal expression for augmented assignment", expr_name(first)));
    set_context(first, ExprContext::Store, TargetKind::Star);
    auto* s = make<AugAssign>(start);
    s->target = first;
    s->op = op;
    s->value = value;
    return finish(s);
  }

  if (at(TokenKind::Equal)) {
    Scratch targets(*this);
    expr* value = first;
    bool value_is_bare_yield = first_is_yield;
    const Token* value_start = &start;
    size_t count = 0;
    while (at(TokenKind::Equal)) {
      if (value_is_bare_yield) fail_node(*value, "assignment to yield expression not possible");
      // `T = V` with a single '=' gets CPython's "Maybe you meant '=='" hint.
      if (count == 0 && invalid_target(value, TargetKind::Star)) assignment_hint(*value_start, value);
      set_context(value, ExprContext::Store, TargetKind::Star);
      targets.push(value);
      advance();
      ++count;
      value_start = &tok();
      value_is_bare_yield = at(TokenKind::Yield);
      value = rhs();
    }
    auto* s = make<Assign>(start);
    s->targets = targets.seq<expr>();
    s->value = value;
    return finish(s);
  }

  // A Python 2 print/exec statement gets CPython's hint.
  if (first->is<Name>() && pos_ == start_pos + 1 && starts_expression() && !at(TokenKind::LPar)) {
    std::string_view id = first->cast<Name>().id;
    if (id == "print" || id == "exec") {
      const Token& name = start;
      size_t save = pos_;
      const Token* last = &tok();
      try {
        (void)star_expressions();
        last = &prev();
      } catch (const ParseError&) {
      }
      pos_ = save;
      fail_range(name, *last,
                 fmt::format("Missing parentheses in call to '{}'. Did you mean {}(...)?", id, id));
    }
  }
  auto* s = make<Expr>(start);
  s->value = first;
  return finish(s);
}

// return_stmt: 'return' [star_expressions]
stmt* Parser::return_stmt() {
  const Token& start = advance();
  auto* s = make<Return>(start);
  if (!at(TokenKind::Newline) && !at(TokenKind::Semi)) s->value = star_expressions();
  return finish(s);
}

// raise_stmt: 'raise' expression ['from' expression] | 'raise'
stmt* Parser::raise_stmt() {
  const Token& start = advance();
  auto* s = make<Raise>(start);
  if (!at(TokenKind::Newline) && !at(TokenKind::Semi)) {
    s->exc = expression();
    if (accept(TokenKind::From)) s->cause = expression();
  }
  return finish(s);
}

// global_stmt: 'global' ','.NAME+
// nonlocal_stmt: 'nonlocal' ','.NAME+
stmt* Parser::global_stmt(bool nonlocal) {
  const Token& start = advance();
  std::vector<Identifier> names;
  do {
    if (!at(TokenKind::Name)) invalid_syntax();
    names.push_back(identifier(advance()));
  } while (accept(TokenKind::Comma));
  auto ids = arena_.copy(std::span<const Identifier>(names));
  if (nonlocal) {
    auto* s = make<Nonlocal>(start);
    s->names = ids;
    return finish(s);
  }
  auto* s = make<Global>(start);
  s->names = ids;
  return finish(s);
}

// del_stmt: 'del' del_targets &(';' | NEWLINE)
// del_targets: ','.del_target+ [',']
stmt* Parser::del_stmt() {
  const Token& start = advance();
  Scratch targets(*this);
  for (;;) {
    expr* t = star_expression();
    set_context(t, ExprContext::Del, TargetKind::Del);
    targets.push(t);
    if (!accept(TokenKind::Comma)) break;
    if (at(TokenKind::Newline) || at(TokenKind::Semi)) break;
  }
  if (!at(TokenKind::Newline) && !at(TokenKind::Semi)) invalid_syntax();
  auto* s = make<Delete>(start);
  s->targets = targets.seq<expr>();
  return finish(s);
}

// assert_stmt: 'assert' expression [',' expression]
stmt* Parser::assert_stmt() {
  const Token& start = advance();
  auto* s = make<Assert>(start);
  s->test = expression();
  if (accept(TokenKind::Comma)) s->msg = expression();
  return finish(s);
}

// dotted_name: dotted_name '.' NAME | NAME
// The name is "a.b.c" however the source spaces it.
Identifier Parser::dotted_name(const Token** last) {
  if (!at(TokenKind::Name)) invalid_syntax();
  const Token& first = advance();
  *last = &first;
  bool contiguous = true;
  size_t parts = 1;
  while (at(TokenKind::Dot) && peek().kind == TokenKind::Name) {
    contiguous &= tok().begin == (*last)->end && peek().begin == tok().end;
    advance();
    *last = &advance();
    ++parts;
  }
  if (parts == 1) return identifier(first);
  std::string_view whole = ctx_.text.substr(first.begin, (*last)->end - first.begin);
  bool ascii = true;
  for (char c : whole) ascii &= static_cast<unsigned char>(c) < 0x80;
  if (contiguous && ascii) return whole;
  std::string joined;
  for (size_t i = 0, k = 0; k < parts; i += 2, ++k) {
    if (k) joined += '.';
    const Token& t = toks_[(&first - toks_.data()) + i];
    joined += identifier(t);
  }
  return arena_.copy(joined);
}

// import_name: 'import' dotted_as_names
// dotted_as_names: ','.dotted_as_name+
// dotted_as_name: dotted_name ['as' NAME]
stmt* Parser::import_name() {
  const Token& start = advance();
  Scratch names(*this);
  do {
    const Token& name_start = tok();
    const Token* last;
    auto* a = make<alias>(name_start);
    a->name = dotted_name(&last);
    if (accept(TokenKind::As)) {
      if (!at(TokenKind::Name)) invalid_syntax();
      a->asname = identifier(advance());
    }
    names.push(finish(a));
  } while (accept(TokenKind::Comma));
  auto* s = make<Import>(start);
  s->names = names.seq<alias>();
  return finish(s);
}

// import_from:
//     | 'from' ('.' | '...')* dotted_name 'import' import_from_targets
//     | 'from' ('.' | '...')+ 'import' import_from_targets
// import_from_targets:
//     | '(' import_from_as_names [','] ')'
//     | import_from_as_names !','
//     | '*'
// import_from_as_name: NAME ['as' NAME]
stmt* Parser::import_from() {
  const Token& start = advance();
  int level = 0;
  for (;;) {
    if (accept(TokenKind::Dot))
      ++level;
    else if (accept(TokenKind::Ellipsis))
      level += 3;
    else
      break;
  }
  auto* s = make<ImportFrom>(start);
  s->level = level;
  if (level == 0 || !at(TokenKind::Import)) {
    const Token* last;
    s->module = dotted_name(&last);
  }
  if (!accept(TokenKind::Import)) invalid_syntax();
  Scratch names(*this);
  if (at(TokenKind::Star)) {
    const Token& star = advance();
    auto* a = make<alias>(star);
    a->name = "*";
    names.push(finish(a));
  } else {
    bool parens = accept(TokenKind::LPar);
    for (;;) {
      if (!at(TokenKind::Name)) invalid_syntax();
      const Token& name = advance();
      auto* a = make<alias>(name);
      a->name = identifier(name);
      if (accept(TokenKind::As)) {
        if (!at(TokenKind::Name)) invalid_syntax();
        a->asname = identifier(advance());
      }
      names.push(finish(a));
      if (!at(TokenKind::Comma)) break;
      const Token& comma = advance();
      if (parens && at(TokenKind::RPar)) break;
      if (!parens && at(TokenKind::Newline))
        fail_at(comma.end_line, comma.end_col, comma.end_line, comma.end_col,
                "trailing comma not allowed without surrounding parentheses");
    }
    if (parens && !accept(TokenKind::RPar)) invalid_syntax();
  }
  s->names = names.seq<alias>();
  return finish(s);
}

// ':' before a block. CPython says "expected ':'" where the header ends at the line's end (and,
// for try/else/finally/def, wherever the ':' is missing).
void Parser::expect_block_colon() {
  if (accept(TokenKind::Colon)) return;
  if (at(TokenKind::Newline)) fail(tok(), "expected ':'");
  invalid_syntax();
}

// block: NEWLINE INDENT statements DEDENT | simple_stmts
Seq<stmt> Parser::block(const Token& owner, const char* what) {
  Scratch body(*this);
  if (accept(TokenKind::Newline)) {
    if (!at(TokenKind::Indent))
      fail(tok(), fmt::format("expected an indented block after {} on line {}", what, owner.line));
    advance();
    while (!at(TokenKind::Dedent) && !at(TokenKind::EndMarker)) statement(body);
    accept(TokenKind::Dedent);
  } else {
    simple_stmts(body);
  }
  return body.seq<stmt>();
}

// compound_stmt: function_def | if_stmt | class_def | with_stmt | for_stmt | try_stmt
//              | while_stmt | match_stmt
// Returns nullptr when the statement is a simple one.
stmt* Parser::compound_stmt() {
  const Token& start = tok();
  switch (kind()) {
    case TokenKind::If:
      return if_stmt(false);
    case TokenKind::While:
      return while_stmt();
    case TokenKind::For:
      return for_stmt(start, false);
    case TokenKind::With:
      return with_stmt(start, false);
    case TokenKind::Try:
      return try_stmt();
    case TokenKind::Def:
      return function_def(start, false, {});
    case TokenKind::Class:
      return class_def(start, {});
    case TokenKind::At:
      return decorated();
    case TokenKind::Async: {
      TokenKind next = peek().kind;
      if (next == TokenKind::Def) {
        advance();
        return function_def(start, true, {});
      }
      if (next == TokenKind::For) {
        advance();
        return for_stmt(start, true);
      }
      if (next == TokenKind::With) {
        advance();
        return with_stmt(start, true);
      }
      advance();
      invalid_syntax();
    }
    case TokenKind::Name:
      if (at_match_stmt()) return match_stmt();
      return nullptr;
    case TokenKind::Elif:
    case TokenKind::Else:
    case TokenKind::Except:
    case TokenKind::Finally:
      invalid_syntax();
    default:
      return nullptr;
  }
}

// if_stmt: 'if' named_expression ':' block (elif_stmt | [else_block])
// elif_stmt: 'elif' named_expression ':' block (elif_stmt | [else_block])
stmt* Parser::if_stmt(bool elif) {
  Nest nest(*this);  // each elif nests one level deeper in the tree
  const Token& start = advance();
  auto* s = make<If>(start);
  s->test = named_expression();
  expect_block_colon();
  s->body = block(start, elif ? "'elif' statement" : "'if' statement");
  if (at(TokenKind::Elif)) {
    stmt* inner = if_stmt(true);
    s->orelse = arena_.copy(std::span<stmt* const>(&inner, 1));
  } else if (at(TokenKind::Else)) {
    s->orelse = else_block();
  }
  return finish(s);
}

// else_block: 'else' &&':' block
Seq<stmt> Parser::else_block() {
  const Token& start = advance();
  if (!accept(TokenKind::Colon)) fail(tok(), "expected ':'");
  return block(start, "'else' statement");
}

// while_stmt: 'while' named_expression ':' block [else_block]
stmt* Parser::while_stmt() {
  const Token& start = advance();
  auto* s = make<While>(start);
  s->test = named_expression();
  expect_block_colon();
  s->body = block(start, "'while' statement");
  if (at(TokenKind::Else)) s->orelse = else_block();
  return finish(s);
}

// for_stmt: [ASYNC] 'for' star_targets 'in' ~ star_expressions ':' [TYPE_COMMENT] block [else_block]
stmt* Parser::for_stmt(const Token& start, bool is_async) {
  const Token& for_token = advance();
  expr* target = star_targets();
  set_context(target, ExprContext::Store, TargetKind::For);
  if (!accept(TokenKind::In)) invalid_syntax();
  expr* iter = star_expressions();
  expect_block_colon();
  Seq<stmt> body = block(for_token, "'for' statement");
  Seq<stmt> orelse;
  if (at(TokenKind::Else)) orelse = else_block();
  if (is_async) {
    auto* s = make<AsyncFor>(start);
    s->target = target;
    s->iter = iter;
    s->body = body;
    s->orelse = orelse;
    return finish(s);
  }
  auto* s = make<For>(start);
  s->target = target;
  s->iter = iter;
  s->body = body;
  s->orelse = orelse;
  return finish(s);
}

// with_item: expression 'as' star_target &(',' | ')' | ':') | expression
withitem* Parser::with_item() {
  const Token& start = tok();
  auto* w = make<withitem>(start);
  w->context_expr = expression();
  if (accept(TokenKind::As)) {
    expr* target = star_target();
    if (!at(TokenKind::Comma) && !at(TokenKind::RPar) && !at(TokenKind::Colon)) invalid_syntax();
    set_context(target, ExprContext::Store, TargetKind::Star);
    w->optional_vars = target;
  }
  return finish(w);
}

// with_stmt:
//     | [ASYNC] 'with' '(' ','.with_item+ ','? ')' ':' block
//     | [ASYNC] 'with' ','.with_item+ ':' [TYPE_COMMENT] block
// The parenthesized form is tried first and abandoned when it does not fit, as CPython's PEG parser
// does: `with (a, b):` has two items, `with (a, b) as c:` one tuple.
stmt* Parser::with_stmt(const Token& start, bool is_async) {
  const Token& with_token = advance();
  Scratch items(*this);
  bool done = false;
  if (at(TokenKind::LPar)) {
    size_t save = pos_;
    try {
      advance();
      for (;;) {
        items.push(with_item());
        if (!accept(TokenKind::Comma)) break;
        if (at(TokenKind::RPar)) break;
      }
      if (!accept(TokenKind::RPar) || !at(TokenKind::Colon)) throw ParseError{};
      done = true;
    } catch (const ParseError&) {
      pos_ = save;
      items.clear();  // the speculative nodes stay in the arena, unused
    }
  }
  if (!done) {
    for (;;) {
      items.push(with_item());
      if (!accept(TokenKind::Comma)) break;
    }
  }
  expect_block_colon();
  Seq<stmt> body = block(with_token, "'with' statement");
  if (is_async) {
    auto* s = make<AsyncWith>(start);
    s->items = items.seq<withitem>();
    s->body = body;
    return finish(s);
  }
  auto* s = make<With>(start);
  s->items = items.seq<withitem>();
  s->body = body;
  return finish(s);
}

// try_stmt:
//     | 'try' &&':' block finally_block
//     | 'try' &&':' block except_block+ [else_block] [finally_block]
//     | 'try' &&':' block except_star_block+ [else_block] [finally_block]
// finally_block: 'finally' &&':' block
stmt* Parser::try_stmt() {
  const Token& start = advance();
  if (!accept(TokenKind::Colon)) fail(tok(), "expected ':'");
  Seq<stmt> body = block(start, "'try' statement");
  Scratch handlers(*this);
  bool star = false, any_star = false, any_plain = false;
  while (at(TokenKind::Except)) {
    handlers.push(except_block(&star));
    (star ? any_star : any_plain) = true;
    if (any_star && any_plain) {
      const auto& h = *handlers.back();
      fail_at(h.lineno, h.col_offset, h.lineno, h.col_offset + 6,
              "cannot have both 'except' and 'except*' on the same 'try'");
    }
  }
  Seq<stmt> orelse, finalbody;
  if (!handlers.empty() && at(TokenKind::Else)) orelse = else_block();
  if (at(TokenKind::Finally)) {
    const Token& fin = advance();
    if (!accept(TokenKind::Colon)) fail(tok(), "expected ':'");
    finalbody = block(fin, "'finally' statement");
  }
  if (handlers.empty() && finalbody.empty()) fail(tok(), "expected 'except' or 'finally' block");
  if (any_star) {
    auto* s = make<TryStar>(start);
    s->body = body;
    s->handlers = handlers.seq<excepthandler>();
    s->orelse = orelse;
    s->finalbody = finalbody;
    return finish(s);
  }
  auto* s = make<Try>(start);
  s->body = body;
  s->handlers = handlers.seq<excepthandler>();
  s->orelse = orelse;
  s->finalbody = finalbody;
  return finish(s);
}

// except_block: 'except' expression ['as' NAME] ':' block | 'except' ':' block
// except_star_block: 'except' '*' expression ['as' NAME] ':' block
excepthandler* Parser::except_block(bool* star) {
  const Token& start = advance();
  auto* h = make<ExceptHandler>(start);
  *star = accept(TokenKind::Star);
  if (!at(TokenKind::Colon) || *star) {
    if (at(TokenKind::Newline)) fail(tok(), "expected ':'");
    const Token& type_start = tok();
    expr* type = expression();
    if (at(TokenKind::Comma)) {
      // except A, B: (Python 2) needs parentheses.
      size_t save = pos_;
      advance();
      const Token* last = &prev();
      try {
        (void)expressions();
        last = &prev();
      } catch (const ParseError&) {
      }
      pos_ = save;
      fail_range(type_start, *last, "multiple exception types must be parenthesized");
    }
    h->type = type;
    if (accept(TokenKind::As)) {
      if (!at(TokenKind::Name)) invalid_syntax();
      h->name = identifier(advance());
    }
  }
  expect_block_colon();
  h->body = block(start, *star ? "'except*' statement" : "'except' statement");
  return finish(h);
}

// decorators: ('@' named_expression NEWLINE)+
// function_def: decorators function_def_raw | function_def_raw
// class_def: decorators class_def_raw | class_def_raw
stmt* Parser::decorated() {
  Scratch decorators(*this);
  while (accept(TokenKind::At)) {
    decorators.push(named_expression());
    if (!accept(TokenKind::Newline)) invalid_syntax();
  }
  Seq<expr> decos = decorators.seq<expr>();
  const Token& start = tok();
  if (at(TokenKind::Def)) return function_def(start, false, decos);
  if (at(TokenKind::Async) && peek().kind == TokenKind::Def) {
    advance();
    return function_def(start, true, decos);
  }
  if (at(TokenKind::Class)) return class_def(start, decos);
  invalid_syntax();
}

// function_def_raw:
//     | [ASYNC] 'def' NAME &&'(' [params] ')' ['->' expression] &&':' [func_type_comment] block
stmt* Parser::function_def(const Token& start, bool is_async, Seq<expr> decorators) {
  const Token& def = advance();
  if (!at(TokenKind::Name)) invalid_syntax();
  Identifier name = identifier(advance());
  if (!accept(TokenKind::LPar)) fail(tok(), "expected '('");
  ast::arguments* args = parameters(false, TokenKind::RPar);
  if (!accept(TokenKind::RPar)) invalid_syntax();
  expr* returns = nullptr;
  if (at(TokenKind::RArrow)) {
    // ['->' expression] is optional and ':' is forced: a bare '->' is a missing ':'.
    if (!starts_expression_at(peek()) || peek().kind == TokenKind::Star) fail(tok(), "expected ':'");
    advance();
    returns = expression();
  }
  if (!accept(TokenKind::Colon)) fail(tok(), "expected ':'");
  Seq<stmt> body = block(def, "function definition");
  if (is_async) {
    auto* s = make<AsyncFunctionDef>(start);
    s->name = name;
    s->args = args;
    s->body = body;
    s->decorator_list = decorators;
    s->returns = returns;
    return finish(s);
  }
  auto* s = make<FunctionDef>(start);
  s->name = name;
  s->args = args;
  s->body = body;
  s->decorator_list = decorators;
  s->returns = returns;
  return finish(s);
}

// class_def_raw: 'class' NAME ['(' [arguments] ')'] ':' block
stmt* Parser::class_def(const Token& start, Seq<expr> decorators) {
  const Token& cls = advance();
  if (!at(TokenKind::Name)) invalid_syntax();
  auto* s = make<ClassDef>(start);
  s->name = identifier(advance());
  if (at(TokenKind::LPar)) {
    const Token& open = advance();
    Scratch bases(*this), keywords(*this);
    arguments(bases, keywords, open, true);
    if (!accept(TokenKind::RPar)) invalid_syntax();
    s->bases = bases.seq<expr>();
    s->keywords = keywords.seq<keyword>();
  }
  expect_block_colon();
  s->body = block(cls, "class definition");
  s->decorator_list = decorators;
  return finish(s);
}

}  // namespace onnxify::syntax
