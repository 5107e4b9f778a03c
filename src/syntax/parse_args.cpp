// Parameters of def and lambda, and the arguments of calls and class headers.
#include <fmt/core.h>

#include "syntax/parser.h"

namespace onnxify::syntax {

using namespace ast;

// param: NAME [':' expression]          (def)
// param_star_annotation: NAME ':' star_expression   (*args: *Ts, PEP 646)
// lambda_param: NAME
arg* Parser::parameter(bool lambda, bool star_annotation) {
  if (!at(TokenKind::Name)) invalid_syntax();
  const Token& name = advance();
  auto* a = make<arg>(name);
  a->arg = identifier(name);
  if (!lambda && accept(TokenKind::Colon)) a->annotation = star_annotation ? star_expression() : expression();
  return finish(a);
}

// parameters (def) / lambda_parameters (lambda), in one pass over the comma-separated items:
//     | slash_no_default param_no_default* param_with_default* [star_etc]
//     | slash_with_default param_with_default* [star_etc]
//     | param_no_default+ param_with_default* [star_etc]
//     | param_with_default+ [star_etc]
//     | star_etc
// star_etc: '*' param_no_default param_maybe_default* [kwds] | '*' ',' param_maybe_default+ [kwds] | kwds
// kwds: '**' param_no_default
// with CPython's messages for the orders the grammar refuses.
arguments* Parser::parameters(bool lambda, TokenKind close) {
  auto* a = make<ast::arguments>(tok());
  Scratch posonly(*this), args(*this), kwonly(*this), kw_defaults(*this), defaults(*this);
  bool seen_slash = false, seen_star = false, seen_default = false;
  const Token* bare_star = nullptr;
  while (!at(close)) {
    if (a->kwarg) fail(tok(), "arguments cannot follow var-keyword argument");
    if (at(TokenKind::Slash)) {
      const Token& slash = tok();
      if (seen_slash) fail(slash, "/ may appear only once");
      if (seen_star) fail(slash, "/ must be ahead of *");
      if (args.empty()) {
        if (peek().kind == TokenKind::Comma) fail(slash, "at least one argument must precede /");
        invalid_syntax();
      }
      advance();
      for (size_t i = 0; i < args.size(); ++i) posonly.push(args[i]);
      args.clear();
      seen_slash = true;
    } else if (at(TokenKind::Star)) {
      const Token& star = advance();
      if (seen_star) fail(star, "* argument may appear only once");
      seen_star = true;
      if (at(TokenKind::Comma) || at(close)) {
        bare_star = &star;
      } else {
        a->vararg = parameter(lambda, !lambda);
        if (at(TokenKind::Equal)) fail(tok(), "var-positional argument cannot have default value");
      }
    } else if (at(TokenKind::DoubleStar)) {
      advance();
      if (bare_star && kwonly.empty()) fail(*bare_star, "named arguments must follow bare *");
      a->kwarg = parameter(lambda, false);
      if (at(TokenKind::Equal)) fail(tok(), "var-keyword argument cannot have default value");
    } else if (at(TokenKind::Name)) {
      arg* p = parameter(lambda, false);
      expr* def = nullptr;
      if (at(TokenKind::Equal)) {
        const Token& equal = advance();
        if (at(TokenKind::Comma) || (!lambda && at(close))) fail(equal, "expected default value expression");
        def = expression();
      }
      if (seen_star) {
        kwonly.push(p);
        kw_defaults.push(def);
      } else {
        if (def) {
          defaults.push(def);
          seen_default = true;
        } else if (seen_default) {
          fail_node(*p, "non-default argument follows default argument");
        }
        args.push(p);
      }
    } else {
      invalid_syntax();
    }
    if (!accept(TokenKind::Comma)) break;
  }
  if (bare_star && kwonly.empty()) fail(*bare_star, "named arguments must follow bare *");
  a->posonlyargs = posonly.seq<arg>();
  a->args = args.seq<arg>();
  a->kwonlyargs = kwonly.seq<arg>();
  a->kw_defaults = kw_defaults.seq<expr>();
  a->defaults = defaults.seq<expr>();
  return finish(a);
}

// primary '(' [arguments] ')' | primary genexp
expr* Parser::call(const Token& start, expr* func) {
  const Token& open = advance();
  Nest nest(*this);
  Brackets brackets(*this);
  Scratch args(*this), keywords(*this);
  arguments(args, keywords, open, false);
  if (!accept(TokenKind::RPar)) invalid_syntax();
  auto* c = make<Call>(start);
  c->func = func;
  c->args = args.seq<expr>();
  c->keywords = keywords.seq<keyword>();
  return finish(c);
}

// arguments: args [','] &')'
// args:
//     | ','.(starred_expression | (assignment_expression | expression !':=') !'=')+ [',' kwargs]
//     | kwargs
// kwargs: ','.kwarg_or_starred+ ',' ','.kwarg_or_double_starred+ | ...
// kwarg_or_starred: NAME '=' expression | starred_expression
// kwarg_or_double_starred: NAME '=' expression | '**' expression
// A generator expression that is the only argument borrows the call's parentheses (`open` and the
// closing one) as its own.
void Parser::arguments(Scratch& args, Scratch& keywords, const Token& open, bool class_bases) {
  const TokenKind close = TokenKind::RPar;
  const keyword* first_double_star = nullptr;
  bool seen_keyword = false;
  const expr* bare_genexp = nullptr;
  while (!at(close)) {
    const Token& start = tok();
    if (bare_genexp) fail_node(*bare_genexp, "Generator expression must be parenthesized");
    if (at(TokenKind::Star)) {
      advance();
      auto* s = make<Starred>(start);
      s->value = expression();
      s->ctx = ExprContext::Load;
      finish(s);
      if (first_double_star)
        fail_node(*first_double_star, "iterable argument unpacking follows keyword argument unpacking");
      args.push(s);
    } else if (at(TokenKind::DoubleStar)) {
      advance();
      auto* k = make<keyword>(start);
      k->value = expression();
      finish(k);
      if (!first_double_star) first_double_star = k;
      keywords.push(k);
    } else if (at(TokenKind::Name) && peek().kind == TokenKind::Equal) {
      auto* k = make<keyword>(start);
      k->arg = identifier(advance());
      const Token& equal = advance();
      k->value = expression();
      if (at(TokenKind::For) || (at(TokenKind::Async) && peek().kind == TokenKind::For))
        fail_range(start, equal, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
      keywords.push(finish(k));
      seen_keyword = true;
    } else if ((at(TokenKind::True) || at(TokenKind::False) || at(TokenKind::None)) &&
               peek().kind == TokenKind::Equal) {
      fail_range(start, peek(), fmt::format("cannot assign to {}", text(start)));
    } else {
      expr* e =
          at(TokenKind::Name) && peek().kind == TokenKind::ColonEqual ? named_expression() : expression();
      if (at(TokenKind::For) || (at(TokenKind::Async) && peek().kind == TokenKind::For)) {
        if (class_bases) invalid_syntax();
        auto* g = make<GeneratorExp>(start);
        g->elt = e;
        g->generators = for_if_clauses();
        finish(g);
        if (!args.empty() || !keywords.empty() || !at(close))
          fail_node(*g, "Generator expression must be parenthesized");
        g->lineno = open.line;
        g->col_offset = open.col;
        g->end_lineno = tok().end_line;
        g->end_col_offset = tok().end_col;
        args.push(g);
        bare_genexp = g;
        continue;
      }
      if (at(TokenKind::Equal))
        fail_at(start.line, start.col, tok().end_line, tok().end_col,
                "expression cannot contain assignment, perhaps you meant \"==\"?");
      if (first_double_star) fail_node(*e, "positional argument follows keyword argument unpacking");
      if (seen_keyword) fail_node(*e, "positional argument follows keyword argument");
      args.push(e);
    }
    if (!accept(TokenKind::Comma)) {
      if (!at(close)) {
        // The last argument, positional or keyword, may be followed by a forgotten comma.
        const Node* last = keywords.empty() ? nullptr : keywords.back();
        if (!args.empty() &&
            (!last || args.back()->lineno > last->lineno ||
             (args.back()->lineno == last->lineno && args.back()->col_offset > last->col_offset)))
          last = args.back();
        if (auto* k = last ? last->as<keyword>() : nullptr)
          check_missing_comma(start, k->value);
        else if (last)
          check_missing_comma(start, static_cast<const expr*>(last));
      }
      break;
    }
  }
}

}  // namespace onnxify::syntax
