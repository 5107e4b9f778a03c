// Assignment and deletion targets: expressions parsed as loads become stores (or deletions), and
// invalid ones get CPython's messages (_PyPegen_get_invalid_target, _PyPegen_get_expr_name).
#include <fmt/core.h>

#include "syntax/parser.h"

namespace onnxify::syntax {

using namespace ast;

const expr* Parser::invalid_target(const expr* e, TargetKind kind) {
  switch (e->node_kind) {
    case NodeKind::List:
      for (const expr* x : e->cast<List>().elts)
        if (const expr* bad = invalid_target(x, kind)) return bad;
      return nullptr;
    case NodeKind::Tuple:
      for (const expr* x : e->cast<Tuple>().elts)
        if (const expr* bad = invalid_target(x, kind)) return bad;
      return nullptr;
    case NodeKind::Starred:
      if (kind == TargetKind::Del) return e;
      return invalid_target(e->cast<Starred>().value, kind);
    case NodeKind::Name:
    case NodeKind::Subscript:
    case NodeKind::Attribute:
      return nullptr;
    default:
      return e;
  }
}

const char* Parser::expr_name(const expr* e) {
  switch (e->node_kind) {
    case NodeKind::Attribute:
      return "attribute";
    case NodeKind::Subscript:
      return "subscript";
    case NodeKind::Starred:
      return "starred";
    case NodeKind::Name:
      return "name";
    case NodeKind::List:
      return "list";
    case NodeKind::Tuple:
      return "tuple";
    case NodeKind::Lambda:
      return "lambda";
    case NodeKind::Call:
      return "function call";
    case NodeKind::BoolOp:
    case NodeKind::BinOp:
    case NodeKind::UnaryOp:
      return "expression";
    case NodeKind::GeneratorExp:
      return "generator expression";
    case NodeKind::Yield:
    case NodeKind::YieldFrom:
      return "yield expression";
    case NodeKind::Await:
      return "await expression";
    case NodeKind::ListComp:
      return "list comprehension";
    case NodeKind::SetComp:
      return "set comprehension";
    case NodeKind::DictComp:
      return "dict comprehension";
    case NodeKind::Dict:
      return "dict literal";
    case NodeKind::Set:
      return "set display";
    case NodeKind::JoinedStr:
    case NodeKind::FormattedValue:
      return "f-string expression";
    case NodeKind::Constant: {
      const ConstantValue& v = e->cast<Constant>().value;
      if (v.type == ConstKind::None) return "None";
      if (v.type == ConstKind::Bool) return v.bool_value ? "True" : "False";
      if (v.type == ConstKind::Ellipsis) return "ellipsis";
      return "literal";
    }
    case NodeKind::Compare:
      return "comparison";
    case NodeKind::IfExp:
      return "conditional expression";
    case NodeKind::NamedExpr:
      return "named expression";
    default:
      return "expression";
  }
}

void Parser::set_context(expr* e, ExprContext ctx, TargetKind kind) {
  if (const expr* bad = invalid_target(e, kind)) {
    if (kind == TargetKind::Del) fail_node(*bad, fmt::format("cannot delete {}", expr_name(bad)));
    fail_node(*bad, fmt::format("cannot assign to {}", expr_name(bad)));
  }
  switch (e->node_kind) {
    case NodeKind::Name:
      e->cast<Name>().ctx = ctx;
      break;
    case NodeKind::Attribute:
      e->cast<Attribute>().ctx = ctx;
      break;
    case NodeKind::Subscript:
      e->cast<Subscript>().ctx = ctx;
      break;
    case NodeKind::Starred: {
      auto& s = e->cast<Starred>();
      s.ctx = ctx;
      set_context(s.value, ctx, kind);
      break;
    }
    case NodeKind::List: {
      auto& l = e->cast<List>();
      l.ctx = ctx;
      for (expr* x : l.elts) set_context(x, ctx, kind);
      break;
    }
    case NodeKind::Tuple: {
      auto& t = e->cast<Tuple>();
      t.ctx = ctx;
      for (expr* x : t.elts) set_context(x, ctx, kind);
      break;
    }
    default:
      break;
  }
}

}  // namespace onnxify::syntax
