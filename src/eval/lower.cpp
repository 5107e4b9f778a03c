// Lowering: syntax tree -> evaluator tree (code.h), using the resolved scopes of symtable.cpp.
#include <cstring>

#include "eval/compile.h"
#include "eval/internal.h"
#include "eval/symtable.h"
#include "syntax/syntax.h"

namespace onnxify::eval {

Value new_complex(Interp& I, double re, double im);
Value new_bytes(Interp& I, std::string s);

namespace {

using namespace onnxify::ast;

class Lowerer {
 public:
  Lowerer(Interp& I, CodeUnit& unit, SymbolTable& st) : I(I), u(unit), st(st) {}

  Code* lower_module(const ast::Module& m);

 private:
  // ---- helpers ----
  template <class T>
  T* node(const ast::Node* src) {
    T* n = u.make<T>();
    pos(n, src);
    return n;
  }
  template <class T, class A>
  T* node(const ast::Node* src, A arg) {
    T* n = u.make<T>(arg);
    pos(n, src);
    return n;
  }
  static void pos(eval::Node* n, const ast::Node* src) {
    if (!src) return;
    n->line = src->lineno;
    n->col = src->col_offset;
    n->end_line = src->end_lineno;
    n->end_col = src->end_col_offset;
  }
  Str* intern(std::string_view s) { return I.intern(s); }
  std::string qualname_for(const std::string& name) const;

  // ---- expressions ----
  Expr* expr(const ast::expr* e);
  Expr* name_expr(const ast::Node* e, std::string_view id, bool store);
  Expr* target(const ast::expr* e) { return expr(e); }
  Expr* constant(const ast::expr* e, const ConstantValue& v);
  Value constant_value(const ConstantValue& v);
  Expr* comprehension(const ast::expr* e, EK kind, Seq<comprehension> gens, const ast::expr* elt,
                      const ast::expr* value);
  // Code::loop_form of a list comprehension.
  void comprehension_loop_form(const ast::expr* e, Code* c);
  FuncDef* funcdef(const ast::Node* node, std::string_view name, const arguments* args, Seq<stmt> body,
                   const ast::expr* body_expr, const ast::expr* returns);
  Expr* call(const ast::Call& c, const ast::expr* e);
  Pattern* pattern(const ast::pattern* p);

  // ---- statements ----
  Block block(Seq<stmt> body);
  Stmt* statement(const stmt* s);
  Stmt* import_stmt(const ast::Import& s, const stmt* src);
  Stmt* import_from_stmt(const ast::ImportFrom& s, const stmt* src);
  std::string source_text(const ast::Node* n) const;

  // ---- code objects ----
  Code* new_code(Scope* sc, CodeKind kind, const ast::Node* where, const std::string& name);

  // Constant folding as CPython's AST optimizer does it (results identical; folded only when the
  // operation cannot fail and the result stays small).
  Expr* fold_binop(BinOpExpr* b);
  Expr* fold_unary(UnaryExpr* x);
  Expr* fold_tuple(SeqExpr* t);
  Expr* const_node(const ast::Node* src, Value v);

  Interp& I;
  CodeUnit& u;
  SymbolTable& st;
  Scope* scope_ = nullptr;
  Code* code_ = nullptr;
  std::string qualprefix_;  // qualname of the enclosing function/class ("" at module level)
  int guarded_ = 0;         // inside try bodies with handlers
};

std::string Lowerer::qualname_for(const std::string& name) const {
  if (!scope_ || scope_->kind == ScopeKind::Module) return name;
  if (scope_->kind == ScopeKind::Class) return qualprefix_ + "." + name;
  return qualprefix_ + ".<locals>." + name;
}

Code* Lowerer::new_code(Scope* sc, CodeKind kind, const ast::Node* where, const std::string& name) {
  Code* c = u.make_code();
  c->kind = kind;
  c->name = intern(name);
  c->qualname = intern(qualname_for(name));
  pos(&c->where, where);
  c->nslots = static_cast<uint32_t>(sc->slot_names.size());
  for (std::string_view n : sc->slot_names) c->slot_names.push_back(intern(n));
  for (auto& [n, b] : sc->bindings)
    if (b == Binding::Cell) c->cell_slots.push_back(sc->slots[n]);
  if (sc->kind == ScopeKind::Class && sc->needs_class_cell) {
    c->classcell_slot = static_cast<int32_t>(sc->slots["__class__"]);
    c->cell_slots.push_back(sc->slots["__class__"]);
  }
  for (std::string_view n : sc->free_names) {
    c->free_slots.push_back(sc->slots[n]);
    // Where the enclosing scope keeps this cell.
    Scope* p = sc->parent;
    auto it = p->slots.find(n);
    c->free_source_slots.push_back(it == p->slots.end() ? 0 : it->second);
  }
  auto cc = sc->slots.find("__class__");
  if (sc->function_like() && cc != sc->slots.end() && sc->bindings.count("__class__") &&
      sc->bindings["__class__"] == Binding::Free)
    c->class_cell_slot = static_cast<int32_t>(cc->second);
  c->generator = sc->generator && sc->kind != ScopeKind::Comprehension;
  c->future_annotations = st.future_annotations();
  return c;
}

// ---- expressions ------------------------------------------------------------------------------------

Value Lowerer::constant_value(const ConstantValue& v) {
  switch (v.type) {
    case ConstKind::None: return Value::none();
    case ConstKind::Bool: return Value::boolean(v.bool_value);
    case ConstKind::Int: return Value::integer(v.int_value);
    case ConstKind::Float: return Value::real(v.float_value);
    case ConstKind::Complex: return new_complex(I, 0.0, v.float_value);
    case ConstKind::Str: {
      // Identifier-like constants are interned, as CPython does: dict keys and getattr names
      // made from them then compare by pointer.
      bool ident = v.text.size() <= 40;
      for (size_t i = 0; ident && i < v.text.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(v.text[i]);
        ident = std::isalnum(c) || c == '_';
      }
      if (ident) return Value::borrow(intern(v.text));
      return I.str(v.text);
    }
    case ConstKind::Bytes: return new_bytes(I, std::string(v.text));
    case ConstKind::Ellipsis: return I.ellipsis;
  }
  return Value::none();
}

Expr* Lowerer::constant(const ast::expr* e, const ConstantValue& v) {
  if (v.type == ConstKind::Int && !v.int_fits) {
    auto* b = node<BigIntExpr>(e);
    b->digits = std::string(v.text);
    return b;
  }
  auto* c = node<ConstExpr>(e);
  c->value = constant_value(v);
  return c;
}

Expr* Lowerer::name_expr(const ast::Node* e, std::string_view id, bool store) {
  std::string_view n = st.mangle(scope_, id);
  Binding b = scope_->binding(n);
  EK k = EK::Global;  // every Binding sets it below
  switch (b) {
    case Binding::Local: k = EK::Local; break;
    case Binding::Cell:
    case Binding::Free: k = EK::Cell; break;
    case Binding::GlobalExplicit: k = EK::Global; break;
    case Binding::GlobalImplicit: k = scope_->kind == ScopeKind::Class ? EK::Name : EK::Global; break;
    case Binding::Name: k = EK::Name; break;
    case Binding::ClassDeref: k = store ? EK::Name : EK::ClassDeref; break;
  }
  if (scope_->kind == ScopeKind::Module) k = EK::Global;
  auto* ne = node<NameExpr>(e, k);
  ne->name = intern(n);
  if (k == EK::Local || k == EK::Cell || k == EK::ClassDeref) {
    // find, not operator[]: the scope's keys are views, and `id` may be a temporary.
    auto it = scope_->slots.find(n);
    ne->slot = it == scope_->slots.end() ? 0 : it->second;
  }
  return ne;
}

static BinOp map_binop(OperatorKind k) {
  switch (k) {
    case OperatorKind::Add: return BinOp::Add;
    case OperatorKind::Sub: return BinOp::Sub;
    case OperatorKind::Mult: return BinOp::Mul;
    case OperatorKind::MatMult: return BinOp::MatMul;
    case OperatorKind::Div: return BinOp::TrueDiv;
    case OperatorKind::Mod: return BinOp::Mod;
    case OperatorKind::Pow: return BinOp::Pow;
    case OperatorKind::LShift: return BinOp::LShift;
    case OperatorKind::RShift: return BinOp::RShift;
    case OperatorKind::BitOr: return BinOp::BitOr;
    case OperatorKind::BitXor: return BinOp::BitXor;
    case OperatorKind::BitAnd: return BinOp::BitAnd;
    case OperatorKind::FloorDiv: return BinOp::FloorDiv;
  }
  return BinOp::Add;
}

static CmpOp map_cmp(CmpOpKind k) {
  switch (k) {
    case CmpOpKind::Eq: return CmpOp::Eq;
    case CmpOpKind::NotEq: return CmpOp::Ne;
    case CmpOpKind::Lt: return CmpOp::Lt;
    case CmpOpKind::LtE: return CmpOp::Le;
    case CmpOpKind::Gt: return CmpOp::Gt;
    case CmpOpKind::GtE: return CmpOp::Ge;
    case CmpOpKind::Is: return CmpOp::Is;
    case CmpOpKind::IsNot: return CmpOp::IsNot;
    case CmpOpKind::In: return CmpOp::In;
    case CmpOpKind::NotIn: return CmpOp::NotIn;
  }
  return CmpOp::Eq;
}

Expr* Lowerer::call(const ast::Call& c, const ast::expr* e) {
  auto* ce = node<CallExpr>(e);
  ce->func = expr(c.func);
  for (const ast::expr* a : c.args) {
    if (a->is<ast::Starred>()) ce->simple = false;
    ce->args.push_back(expr(a));
  }
  for (const ast::keyword* k : c.keywords) {
    Keyword kw;
    if (!k->arg.empty()) kw.name = intern(k->arg);
    else ce->simple = false;
    kw.value = expr(k->value);
    ce->keywords.push_back(kw);
    if (kw.name) ce->kwnames.push_back(kw.name);
  }
  return ce;
}

Expr* Lowerer::comprehension(const ast::expr* e, EK kind, Seq<ast::comprehension> gens, const ast::expr* elt,
                             const ast::expr* value) {
  auto* ce = node<CompExpr>(e, kind);
  ce->first_iter = expr(gens[0]->iter);
  Scope* sc = st.scope_of(e);
  const char* name = kind == EK::ListComp ? "<listcomp>" : kind == EK::SetComp ? "<setcomp>"
                     : kind == EK::DictComp ? "<dictcomp>" : "<genexpr>";
  Code* c = new_code(sc, CodeKind::Comprehension, e, name);
  c->comp_kind = kind;
  Scope* saved_scope = scope_;
  Code* saved_code = code_;
  std::string saved_prefix = qualprefix_;
  qualprefix_ = as_str(Value::borrow(c->qualname))->s;
  scope_ = sc;
  code_ = c;
  for (size_t i = 0; i < gens.size(); ++i) {
    CompGen g;
    g.target = expr(gens[i]->target);
    if (i > 0) g.iter = expr(gens[i]->iter);
    for (const ast::expr* cond : gens[i]->ifs) g.ifs.push_back(expr(cond));
    c->gens.push_back(std::move(g));
  }
  c->elt = expr(elt);
  if (value) c->value = expr(value);
  if (kind == EK::ListComp || kind == EK::GenExp) comprehension_loop_form(e, c);
  scope_ = saved_scope;
  code_ = saved_code;
  qualprefix_ = saved_prefix;
  ce->code = c;
  return ce;
}

void Lowerer::comprehension_loop_form(const ast::expr* e, Code* c) {
  c->acc_slot = c->nslots++;
  c->slot_names.push_back(intern("<the list the comprehension makes>"));
  auto* acc = node<NameExpr>(e, EK::Local);
  acc->slot = c->acc_slot;
  acc->name = c->slot_names.back();
  auto* append = node<AttrExpr>(e);
  append->obj = acc;
  append->name = intern("append");
  auto* call = node<CallExpr>(e);
  call->func = append;
  call->args = {c->elt};
  auto* st = node<ExprStmt>(e);
  st->value = call;
  Stmt* inner = st;
  // Innermost first: each generator's conditions nest inside its loop, in order.
  for (size_t i = c->gens.size(); i-- > 0;) {
    const CompGen& g = c->gens[i];
    for (size_t j = g.ifs.size(); j-- > 0;) {
      auto* test = node<IfStmt>(e);
      test->test = g.ifs[j];
      test->body = {inner};
      inner = test;
    }
    auto* loop = node<ForStmt>(e);
    loop->target = g.target;
    loop->iter = g.iter;
    loop->body = {inner};
    inner = loop;
  }
  c->loop_form = static_cast<ForStmt*>(inner);
}

FuncDef* Lowerer::funcdef(const ast::Node* n, std::string_view name, const arguments* args, Seq<stmt> body,
                          const ast::expr* body_expr, const ast::expr* returns) {
  u.funcdefs.push_back(std::make_unique<FuncDef>());
  FuncDef* d = u.funcdefs.back().get();
  for (const ast::expr* x : args->defaults) d->defaults.push_back(expr(x));
  for (const ast::expr* x : args->kw_defaults) d->kw_defaults.push_back(x ? expr(x) : nullptr);
  auto ann = [&](const ast::arg* p) {
    if (!p || !p->annotation) return;
    if (st.future_annotations())
      d->string_annotations.emplace_back(intern(st.mangle(scope_, p->arg)), source_text(p->annotation));
    else
      d->annotations.emplace_back(intern(st.mangle(scope_, p->arg)), expr(p->annotation));
  };
  for (const ast::arg* p : args->posonlyargs) ann(p);
  for (const ast::arg* p : args->args) ann(p);
  if (args->vararg) ann(args->vararg);
  for (const ast::arg* p : args->kwonlyargs) ann(p);
  if (args->kwarg) ann(args->kwarg);
  if (returns) {
    if (st.future_annotations())
      d->string_annotations.emplace_back(intern("return"), source_text(returns));
    else
      d->annotations.emplace_back(intern("return"), expr(returns));
  }
  Scope* sc = st.scope_of(n);
  Code* c = new_code(sc, body_expr ? CodeKind::Lambda : CodeKind::Function, n, std::string(name));
  c->argcount = static_cast<uint32_t>(args->posonlyargs.size() + args->args.size());
  c->posonlycount = static_cast<uint32_t>(args->posonlyargs.size());
  c->kwonlycount = static_cast<uint32_t>(args->kwonlyargs.size());
  c->varargs = args->vararg != nullptr;
  c->varkw = args->kwarg != nullptr;
  c->is_async = n->node_kind == NodeKind::AsyncFunctionDef;
  Scope* saved_scope = scope_;
  Code* saved_code = code_;
  std::string saved_prefix = qualprefix_;
  int saved_guard = guarded_;
  guarded_ = 0;
  qualprefix_ = as_str(Value::borrow(c->qualname))->s;
  scope_ = sc;
  code_ = c;
  if (body_expr) {
    c->body_expr = expr(body_expr);
  } else {
    if (!body.empty()) {
      if (auto* es = body[0]->as<ast::Expr>()) {
        if (auto* k = es->value->as<ast::Constant>()) {
          if (k->value.type == ConstKind::Str) d->doc = intern(k->value.text);
        }
      }
    }
    c->body = block(body);
  }
  scope_ = saved_scope;
  code_ = saved_code;
  qualprefix_ = saved_prefix;
  guarded_ = saved_guard;
  d->code = c;
  return d;
}

Expr* Lowerer::expr(const ast::expr* e) {
  switch (e->node_kind) {
    case NodeKind::Constant: return constant(e, e->cast<ast::Constant>().value);
    case NodeKind::Name: {
      const auto& n = e->cast<ast::Name>();
      return name_expr(e, n.id, n.ctx != ExprContext::Load);
    }
    case NodeKind::Attribute: {
      const auto& a = e->cast<ast::Attribute>();
      auto* x = node<AttrExpr>(e);
      x->obj = expr(a.value);
      x->name = intern(st.mangle(scope_, a.attr));
      return x;
    }
    case NodeKind::Subscript: {
      const auto& s = e->cast<ast::Subscript>();
      auto* x = node<SubscriptExpr>(e);
      x->obj = expr(s.value);
      x->index = expr(s.slice);
      return x;
    }
    case NodeKind::Slice: {
      const auto& s = e->cast<ast::Slice>();
      auto* x = node<SliceExpr>(e);
      if (s.lower) x->lower = expr(s.lower);
      if (s.upper) x->upper = expr(s.upper);
      if (s.step) x->step = expr(s.step);
      return x;
    }
    case NodeKind::Call: return call(e->cast<ast::Call>(), e);
    case NodeKind::BinOp: {
      const auto& b = e->cast<ast::BinOp>();
      auto* x = node<BinOpExpr>(e);
      x->op = static_cast<uint8_t>(map_binop(b.op));
      x->left = expr(b.left);
      x->right = expr(b.right);
      return fold_binop(x);
    }
    case NodeKind::UnaryOp: {
      const auto& un = e->cast<ast::UnaryOp>();
      // Fold negative number literals.
      if (un.op == UnaryOpKind::USub) {
        if (auto* k = un.operand->as<ast::Constant>()) {
          const ConstantValue& v = k->value;
          if (v.type == ConstKind::Int && v.int_fits) {
            auto* c = node<ConstExpr>(e);
            c->value = Value::integer(-v.int_value);
            return c;
          }
          if (v.type == ConstKind::Int && !v.int_fits && v.text == "9223372036854775808") {
            auto* c = node<ConstExpr>(e);
            c->value = Value::integer(INT64_MIN);
            return c;
          }
          if (v.type == ConstKind::Float) {
            auto* c = node<ConstExpr>(e);
            c->value = Value::real(-v.float_value);
            return c;
          }
        }
      }
      auto* x = node<UnaryExpr>(e);
      UnaryOp op = un.op == UnaryOpKind::Invert ? UnaryOp::Invert
                   : un.op == UnaryOpKind::Not  ? UnaryOp::Not
                   : un.op == UnaryOpKind::UAdd ? UnaryOp::Pos
                                                : UnaryOp::Neg;
      x->op = static_cast<uint8_t>(op);
      x->operand = expr(un.operand);
      return fold_unary(x);
    }
    case NodeKind::BoolOp: {
      const auto& b = e->cast<ast::BoolOp>();
      auto* x = node<BoolOpExpr>(e, b.op == BoolOpKind::And ? EK::And : EK::Or);
      for (const ast::expr* v : b.values) x->values.push_back(expr(v));
      return x;
    }
    case NodeKind::Compare: {
      const auto& c = e->cast<ast::Compare>();
      auto* x = node<CompareExpr>(e);
      x->left = expr(c.left);
      for (CmpOpKind k : c.ops) x->ops.push_back(map_cmp(k));
      for (const ast::expr* v : c.comparators) x->comparators.push_back(expr(v));
      return x;
    }
    case NodeKind::IfExp: {
      const auto& i = e->cast<ast::IfExp>();
      auto* x = node<IfExpExpr>(e);
      x->test = expr(i.test);
      x->body = expr(i.body);
      x->orelse = expr(i.orelse);
      return x;
    }
    case NodeKind::Lambda: {
      const auto& l = e->cast<ast::Lambda>();
      auto* x = node<LambdaExpr>(e);
      x->def = funcdef(e, "<lambda>", l.args, {}, l.body, nullptr);
      return x;
    }
    case NodeKind::Tuple:
    case NodeKind::List:
    case NodeKind::Set: {
      Seq<ast::expr> elts = e->node_kind == NodeKind::Tuple ? e->cast<ast::Tuple>().elts
                            : e->node_kind == NodeKind::List ? e->cast<ast::List>().elts
                                                             : e->cast<ast::Set>().elts;
      EK k = e->node_kind == NodeKind::Tuple ? EK::Tuple : e->node_kind == NodeKind::List ? EK::List : EK::Set;
      auto* x = node<SeqExpr>(e, k);
      for (const ast::expr* v : elts) {
        if (v->is<ast::Starred>()) x->has_star = true;
        x->elts.push_back(expr(v));
      }
      bool load = k == EK::Set || (k == EK::Tuple ? e->cast<ast::Tuple>().ctx == ExprContext::Load
                                                  : e->cast<ast::List>().ctx == ExprContext::Load);
      if (load && k == EK::Tuple) return fold_tuple(x);
      if (load && k == EK::Set && x->elts.size() > 2 && !x->has_star) {
        bool all_const = true;
        for (Expr* el : x->elts)
          if (el->kind != EK::Const) all_const = false;
        if (all_const) x->const_set = constant_frozenset(I, x->elts);
      }
      return x;
    }
    case NodeKind::Dict: {
      const auto& d = e->cast<ast::Dict>();
      auto* x = node<DictExpr>(e);
      for (size_t i = 0; i < d.values.size(); ++i) {
        x->keys.push_back(d.keys[i] ? expr(d.keys[i]) : nullptr);
        x->values.push_back(expr(d.values[i]));
      }
      return x;
    }
    case NodeKind::ListComp: {
      const auto& c = e->cast<ast::ListComp>();
      return comprehension(e, EK::ListComp, c.generators, c.elt, nullptr);
    }
    case NodeKind::SetComp: {
      const auto& c = e->cast<ast::SetComp>();
      return comprehension(e, EK::SetComp, c.generators, c.elt, nullptr);
    }
    case NodeKind::DictComp: {
      const auto& c = e->cast<ast::DictComp>();
      return comprehension(e, EK::DictComp, c.generators, c.key, c.value);
    }
    case NodeKind::GeneratorExp: {
      const auto& c = e->cast<ast::GeneratorExp>();
      return comprehension(e, EK::GenExp, c.generators, c.elt, nullptr);
    }
    case NodeKind::Yield: {
      auto* x = node<YieldExpr>(e, EK::Yield);
      if (e->cast<ast::Yield>().value) x->value = expr(e->cast<ast::Yield>().value);
      return x;
    }
    case NodeKind::YieldFrom: {
      auto* x = node<YieldExpr>(e, EK::YieldFrom);
      x->value = expr(e->cast<ast::YieldFrom>().value);
      return x;
    }
    case NodeKind::Await: {
      auto* x = node<YieldExpr>(e, EK::Await);
      x->value = expr(e->cast<ast::Await>().value);
      return x;
    }
    case NodeKind::JoinedStr: {
      auto* x = node<JoinedStrExpr>(e);
      for (const ast::expr* v : e->cast<ast::JoinedStr>().values) x->values.push_back(expr(v));
      return x;
    }
    case NodeKind::FormattedValue: {
      const auto& f = e->cast<ast::FormattedValue>();
      auto* x = node<FormattedExpr>(e);
      x->value = expr(f.value);
      x->conversion = f.conversion;
      if (f.format_spec) x->spec = expr(f.format_spec);
      return x;
    }
    case NodeKind::Starred: {
      auto* x = node<StarredExpr>(e);
      x->value = expr(e->cast<ast::Starred>().value);
      return x;
    }
    case NodeKind::NamedExpr: {
      const auto& n = e->cast<ast::NamedExpr>();
      auto* x = node<NamedExprExpr>(e);
      x->value = expr(n.value);
      x->target = expr(n.target);
      return x;
    }
    default: {
      auto* c = node<ConstExpr>(e);
      c->value = Value::none();
      return c;
    }
  }
}

// ---- constant folding -----------------------------------------------------------------------------------

Expr* Lowerer::const_node(const ast::Node* src, Value v) {
  auto* c = u.make<ConstExpr>();
  c->value = std::move(v);
  return c;
}

static bool foldable_value(Interp& I, const Value& v) {
  if (v.is_none() || v.is_bool() || v.is_int() || v.is_float()) return true;
  if (!v.is_obj()) return false;
  Type* t = v.obj()->type;
  if (t == I.t.str || t == I.t.bytes || t == I.t.complex) return true;
  if (t == I.t.tuple) {
    for (const Value& x : as_tuple(v)->items)
      if (!foldable_value(I, x)) return false;
    return true;
  }
  return false;
}

static size_t value_size(Interp& I, const Value& v) {
  if (is_str(v)) return as_str(v)->s.size();
  if (has_layout(v, Layout::Bytes)) return as<Bytes>(v)->s.size();
  if (is_tuple(v)) return as_tuple(v)->items.size();
  return 0;
}

Expr* Lowerer::fold_binop(BinOpExpr* b) {
  if (b->left->kind != EK::Const || b->right->kind != EK::Const) return b;
  BinOp op = static_cast<BinOp>(b->op);
  const Value& l = static_cast<ConstExpr*>(b->left)->value;
  const Value& r = static_cast<ConstExpr*>(b->right)->value;
  if (!foldable_value(I, l) || !foldable_value(I, r) || op == BinOp::MatMul) return b;
  if (op == BinOp::Mod && is_str(l)) return b;  // CPython rewrites this into an f-string instead
  // Sequence repetition only when the result stays small (CPython's limits).
  if (op == BinOp::Mul) {
    int64_t n;
    const Value* seq = value_size(I, l) ? &l : value_size(I, r) ? &r : nullptr;
    const Value& cnt = seq == &l ? r : l;
    if (seq && int_value(cnt, &n)) {
      size_t limit = is_tuple(*seq) ? 256 : 4096;
      if (n < 0 || static_cast<size_t>(n) * value_size(I, *seq) > limit) return b;
    }
  }
  if ((op == BinOp::Add) && (is_str(l) || is_tuple(l) || has_layout(l, Layout::Bytes)) &&
      value_size(I, l) + value_size(I, r) > (is_tuple(l) ? 256u : 4096u))
    return b;
  try {
    Value v = binary_op(I, op, l, r);
    if (!foldable_value(I, v)) return b;
    auto* c = const_node(nullptr, std::move(v));
    c->line = b->line;
    c->col = b->col;
    c->end_line = b->end_line;
    c->end_col = b->end_col;
    return c;
  } catch (PyException&) {
  } catch (Diagnostic&) {
  }
  return b;
}

Expr* Lowerer::fold_unary(UnaryExpr* x) {
  if (x->operand->kind != EK::Const) return x;
  const Value& v = static_cast<ConstExpr*>(x->operand)->value;
  if (!foldable_value(I, v)) return x;
  try {
    Value r = unary_op(I, static_cast<UnaryOp>(x->op), v);
    auto* c = const_node(nullptr, std::move(r));
    c->line = x->line;
    c->col = x->col;
    c->end_line = x->end_line;
    c->end_col = x->end_col;
    return c;
  } catch (PyException&) {
  } catch (Diagnostic&) {
  }
  return x;
}

Expr* Lowerer::fold_tuple(SeqExpr* t) {
  if (t->has_star) return t;
  std::vector<Value> items;
  for (Expr* e : t->elts) {
    if (e->kind != EK::Const) return t;
    const Value& v = static_cast<ConstExpr*>(e)->value;
    if (!foldable_value(I, v)) return t;
    items.push_back(v);
  }
  auto* c = const_node(nullptr, new_tuple(I, std::move(items)));
  c->line = t->line;
  c->col = t->col;
  c->end_line = t->end_line;
  c->end_col = t->end_col;
  return c;
}

// ---- patterns ----------------------------------------------------------------------------------------

Pattern* Lowerer::pattern(const ast::pattern* p) {
  u.patterns.push_back(std::make_unique<Pattern>());
  Pattern* out = u.patterns.back().get();
  pos(out, p);
  auto capture = [&](std::string_view name) -> Expr* {
    if (name.empty()) return nullptr;
    return name_expr(p, name, true);
  };
  switch (p->node_kind) {
    case NodeKind::MatchValue:
      out->kind = Pattern::Value;
      out->value = expr(p->cast<MatchValue>().value);
      break;
    case NodeKind::MatchSingleton:
      out->kind = Pattern::Singleton;
      out->constant = constant_value(p->cast<MatchSingleton>().value);
      break;
    case NodeKind::MatchSequence:
      out->kind = Pattern::Sequence;
      for (const ast::pattern* q : p->cast<MatchSequence>().patterns) out->patterns.push_back(pattern(q));
      break;
    case NodeKind::MatchMapping: {
      const auto& m = p->cast<MatchMapping>();
      out->kind = Pattern::Mapping;
      for (const ast::expr* k : m.keys) out->keys.push_back(expr(k));
      for (const ast::pattern* q : m.patterns) out->patterns.push_back(pattern(q));
      out->rest = capture(m.rest);
      break;
    }
    case NodeKind::MatchClass: {
      const auto& m = p->cast<MatchClass>();
      out->kind = Pattern::Class;
      out->value = expr(m.cls);
      for (const ast::pattern* q : m.patterns) out->patterns.push_back(pattern(q));
      for (Identifier a : m.kwd_attrs) out->kwd_attrs.push_back(intern(a));
      for (const ast::pattern* q : m.kwd_patterns) out->kwd_patterns.push_back(pattern(q));
      break;
    }
    case NodeKind::MatchStar:
      out->kind = Pattern::Star;
      out->target = capture(p->cast<MatchStar>().name);
      break;
    case NodeKind::MatchAs: {
      const auto& m = p->cast<MatchAs>();
      out->kind = Pattern::As;
      if (m.pattern) out->sub = pattern(m.pattern);
      out->target = capture(m.name);
      break;
    }
    case NodeKind::MatchOr:
      out->kind = Pattern::Or;
      for (const ast::pattern* q : p->cast<MatchOr>().patterns) out->patterns.push_back(pattern(q));
      break;
    default: break;
  }
  return out;
}

// ---- statements --------------------------------------------------------------------------------------

std::string Lowerer::source_text(const ast::Node* n) const {
  const SourceFile& f = *u.file;
  std::string out;
  for (uint32_t line = n->lineno; line <= n->end_lineno && line <= f.line_count(); ++line) {
    std::string_view text = f.line(line);
    uint32_t b = line == n->lineno ? n->col_offset : 0;
    uint32_t e = line == n->end_lineno ? n->end_col_offset : static_cast<uint32_t>(text.size());
    if (b > text.size()) b = static_cast<uint32_t>(text.size());
    if (e > text.size()) e = static_cast<uint32_t>(text.size());
    if (!out.empty()) out += ' ';
    out += text.substr(b, e > b ? e - b : 0);
  }
  return out;
}

Block Lowerer::block(Seq<stmt> body) {
  Block b;
  b.reserve(body.size());
  for (const stmt* s : body) {
    Stmt* x = statement(s);
    if (x) b.push_back(x);
  }
  return b;
}

Stmt* Lowerer::import_stmt(const ast::Import& s, const stmt* src) {
  auto* x = node<ImportStmt>(src);
  x->guarded = guarded_ > 0;
  for (const alias* a : s.names) {
    ImportName n;
    n.dotted = std::string(st.mangle(scope_, a->name));  // CPython mangles imported names too
    pos(&n.where, a);
    std::string bound = !a->asname.empty() ? std::string(a->asname) : n.dotted.substr(0, n.dotted.find('.'));
    if (!a->asname.empty()) n.asname = intern(a->asname);
    n.target = name_expr(a, bound, true);
    x->names.push_back(std::move(n));
  }
  return x;
}

Stmt* Lowerer::import_from_stmt(const ast::ImportFrom& s, const stmt* src) {
  if (s.module == "__future__") return nullptr;
  auto* x = node<ImportFromStmt>(src);
  x->module = std::string(s.module);
  x->level = s.level;
  x->guarded = guarded_ > 0;
  for (const alias* a : s.names) {
    if (a->name == "*") {
      x->star = true;
      continue;
    }
    ImportName n;
    n.dotted = std::string(st.mangle(scope_, a->name));  // CPython mangles imported names too
    pos(&n.where, a);
    std::string bound = !a->asname.empty() ? std::string(a->asname) : n.dotted;
    n.target = name_expr(a, bound, true);
    x->names.push_back(std::move(n));
  }
  return x;
}

Stmt* Lowerer::statement(const stmt* s) {
  switch (s->node_kind) {
    case NodeKind::Expr: {
      auto* x = node<ExprStmt>(s);
      x->value = expr(s->cast<ast::Expr>().value);
      return x;
    }
    case NodeKind::Assign: {
      const auto& a = s->cast<ast::Assign>();
      auto* x = node<AssignStmt>(s);
      x->value = expr(a.value);
      for (const ast::expr* t : a.targets) x->targets.push_back(expr(t));
      return x;
    }
    case NodeKind::AugAssign: {
      const auto& a = s->cast<ast::AugAssign>();
      auto* x = node<AugAssignStmt>(s);
      x->target = expr(a.target);
      x->op = map_binop(a.op);
      x->value = expr(a.value);
      return x;
    }
    case NodeKind::AnnAssign: {
      const auto& a = s->cast<ast::AnnAssign>();
      auto* x = node<AnnAssignStmt>(s);
      x->target = expr(a.target);
      if (a.value) x->value = expr(a.value);
      bool in_function = scope_->function_like();
      if (a.simple && a.target->is<ast::Name>() && !in_function) {
        x->store_annotation = true;
        x->name = intern(st.mangle(scope_, a.target->cast<ast::Name>().id));
      }
      if (!in_function) {
        if (st.future_annotations())
          x->annotation_text = source_text(a.annotation);
        else
          x->annotation = expr(a.annotation);
      }
      return x;
    }
    case NodeKind::For: {
      const auto& f = s->cast<ast::For>();
      auto* x = node<ForStmt>(s);
      x->target = expr(f.target);
      x->iter = expr(f.iter);
      x->body = block(f.body);
      x->orelse = block(f.orelse);
      return x;
    }
    case NodeKind::While: {
      const auto& w = s->cast<ast::While>();
      auto* x = node<WhileStmt>(s);
      x->test = expr(w.test);
      x->body = block(w.body);
      x->orelse = block(w.orelse);
      return x;
    }
    case NodeKind::If: {
      const auto& i = s->cast<ast::If>();
      auto* x = node<IfStmt>(s);
      x->test = expr(i.test);
      x->body = block(i.body);
      x->orelse = block(i.orelse);
      return x;
    }
    case NodeKind::With: {
      const auto& w = s->cast<ast::With>();
      auto* x = node<WithStmt>(s);
      for (const withitem* it : w.items) {
        WithItem wi;
        wi.context = expr(it->context_expr);
        if (it->optional_vars) wi.vars = expr(it->optional_vars);
        x->items.push_back(wi);
      }
      x->body = block(w.body);
      return x;
    }
    case NodeKind::Try: {
      const auto& t = s->cast<ast::Try>();
      auto* x = node<TryStmt>(s);
      if (!t.handlers.empty()) ++guarded_;
      x->body = block(t.body);
      if (!t.handlers.empty()) --guarded_;
      for (const excepthandler* h : t.handlers) {
        const auto& eh = h->cast<ExceptHandler>();
        Handler hd;
        pos(&hd, h);
        if (eh.type) hd.type = expr(eh.type);
        if (!eh.name.empty()) hd.target = name_expr(h, eh.name, true);
        hd.body = block(eh.body);
        x->handlers.push_back(std::move(hd));
      }
      x->orelse = block(t.orelse);
      x->finalbody = block(t.finalbody);
      return x;
    }
    case NodeKind::Raise: {
      const auto& r = s->cast<ast::Raise>();
      auto* x = node<RaiseStmt>(s);
      if (r.exc) x->exc = expr(r.exc);
      if (r.cause) x->cause = expr(r.cause);
      return x;
    }
    case NodeKind::Return: {
      auto* x = node<ReturnStmt>(s);
      if (s->cast<ast::Return>().value) x->value = expr(s->cast<ast::Return>().value);
      return x;
    }
    case NodeKind::Break: return node<eval::Stmt>(s, SK::Break);
    case NodeKind::Continue: return node<eval::Stmt>(s, SK::Continue);
    case NodeKind::Pass: return node<eval::Stmt>(s, SK::Pass);
    case NodeKind::Global:
    case NodeKind::Nonlocal: return nullptr;
    case NodeKind::Delete: {
      auto* x = node<DeleteStmt>(s);
      for (const ast::expr* t : s->cast<ast::Delete>().targets) x->targets.push_back(expr(t));
      return x;
    }
    case NodeKind::Import: return import_stmt(s->cast<ast::Import>(), s);
    case NodeKind::ImportFrom: return import_from_stmt(s->cast<ast::ImportFrom>(), s);
    case NodeKind::FunctionDef: {
      const auto& f = s->cast<ast::FunctionDef>();
      auto* x = node<FunctionDefStmt>(s);
      for (const ast::expr* d : f.decorator_list) x->decorators.push_back(expr(d));
      x->def = funcdef(s, f.name, f.args, f.body, nullptr, f.returns);
      x->target = name_expr(s, f.name, true);
      return x;
    }
    case NodeKind::ClassDef: {
      const auto& c = s->cast<ast::ClassDef>();
      auto* x = node<ClassDefStmt>(s);
      for (const ast::expr* d : c.decorator_list) x->decorators.push_back(expr(d));
      for (const ast::expr* b : c.bases) x->bases.push_back(expr(b));
      for (const ast::keyword* k : c.keywords) {
        Keyword kw;
        if (!k->arg.empty()) kw.name = intern(k->arg);
        kw.value = expr(k->value);
        x->keywords.push_back(kw);
      }
      x->name = intern(c.name);
      Scope* sc = st.scope_of(s);
      Code* body = new_code(sc, CodeKind::Class, s, std::string(c.name));
      Scope* saved_scope = scope_;
      Code* saved_code = code_;
      std::string saved_prefix = qualprefix_;
      int saved_guard = guarded_;
      guarded_ = 0;
      qualprefix_ = as_str(Value::borrow(body->qualname))->s;
      scope_ = sc;
      code_ = body;
      // A class docstring becomes __doc__ in the namespace, first.
      if (!c.body.empty()) {
        if (auto* es = c.body[0]->as<ast::Expr>()) {
          if (auto* k = es->value->as<ast::Constant>()) {
            if (k->value.type == ConstKind::Str) {
              auto* as = node<AssignStmt>(c.body[0]);
              auto* t = node<NameExpr>(c.body[0], EK::Name);
              t->name = I.names.__doc__;
              as->targets.push_back(t);
              as->value = expr(es->value);
              body->body.push_back(as);
            }
          }
        }
      }
      Block rest = block(c.body);
      body->body.insert(body->body.end(), rest.begin(), rest.end());
      scope_ = saved_scope;
      code_ = saved_code;
      qualprefix_ = saved_prefix;
      guarded_ = saved_guard;
      x->body = body;
      x->target = name_expr(s, c.name, true);
      return x;
    }
    case NodeKind::Assert: {
      const auto& a = s->cast<ast::Assert>();
      auto* x = node<AssertStmt>(s);
      x->test = expr(a.test);
      if (a.msg) x->msg = expr(a.msg);
      return x;
    }
    case NodeKind::Match: {
      const auto& m = s->cast<ast::Match>();
      auto* x = node<MatchStmt>(s);
      x->subject = expr(m.subject);
      for (const match_case* c : m.cases) {
        MatchCase mc;
        mc.pattern = pattern(c->pattern);
        if (c->guard) mc.guard = expr(c->guard);
        mc.body = block(c->body);
        x->cases.push_back(std::move(mc));
      }
      return x;
    }
    case NodeKind::AsyncFunctionDef:
    case NodeKind::AsyncFor:
    case NodeKind::AsyncWith:
    case NodeKind::TryStar: {
      auto* x = node<UnsupportedStmt>(s);
      x->what = s->node_kind == NodeKind::AsyncFunctionDef ? "'async def'"
                : s->node_kind == NodeKind::AsyncFor       ? "'async for'"
                : s->node_kind == NodeKind::AsyncWith      ? "'async with'"
                                                           : "'except*'";
      if (s->node_kind == NodeKind::AsyncFunctionDef) {
        // Defining an async function is harmless; calling it is what we cannot do. Bind a poison.
        x->target = name_expr(s, s->cast<ast::AsyncFunctionDef>().name, true);
      }
      return x;
    }
    default: return nullptr;
  }
}

Code* Lowerer::lower_module(const ast::Module& m) {
  scope_ = st.module();
  Code* c = new_code(scope_, CodeKind::Module, &m, "<module>");
  code_ = c;
  qualprefix_ = "";
  if (!m.body.empty()) {
    if (auto* es = m.body[0]->as<ast::Expr>()) {
      if (auto* k = es->value->as<ast::Constant>()) {
        if (k->value.type == ConstKind::Str) {
          auto* as = node<AssignStmt>(m.body[0]);
          auto* t = node<NameExpr>(m.body[0], EK::Global);
          t->name = I.names.__doc__;
          as->targets.push_back(t);
          as->value = expr(es->value);
          c->body.push_back(as);
        }
      }
    }
  }
  Block rest = block(m.body);
  c->body.insert(c->body.end(), rest.begin(), rest.end());
  return c;
}

// ---- block summaries (for the control-flow hook) ---------------------------------------------------------

void collect_targets(const Expr* t, std::vector<VarRef>& out);

void add_var(const Expr* t, std::vector<VarRef>& out) {
  const auto* n = static_cast<const NameExpr*>(t);
  VarRef v;
  switch (t->kind) {
    case EK::Local: v.kind = VarRef::Fast; break;
    case EK::Cell: v.kind = VarRef::CellVar; break;
    case EK::Global: v.kind = VarRef::Global; break;
    default: v.kind = VarRef::Namespace; break;
  }
  v.slot = n->slot;
  v.name = n->name;
  for (const VarRef& o : out)
    if (o.kind == v.kind && o.slot == v.slot && o.name == v.name) return;
  out.push_back(v);
}

void collect_targets(const Expr* t, std::vector<VarRef>& out) {
  switch (t->kind) {
    case EK::Local:
    case EK::Cell:
    case EK::Global:
    case EK::Name:
    case EK::ClassDeref: add_var(t, out); return;
    case EK::Tuple:
    case EK::List:
      for (const Expr* x : static_cast<const SeqExpr*>(t)->elts) collect_targets(x, out);
      return;
    case EK::Starred: collect_targets(static_cast<const StarredExpr*>(t)->value, out); return;
    default: return;
  }
}

void summarize(const Block& b, BlockSummary& s, int loop_depth);

void summarize_stmt(const Stmt* st, BlockSummary& s, int loop_depth) {
  switch (st->kind) {
    case SK::Assign:
      for (const Expr* t : static_cast<const AssignStmt*>(st)->targets) collect_targets(t, s.assigned);
      return;
    case SK::AugAssign: collect_targets(static_cast<const AugAssignStmt*>(st)->target, s.assigned); return;
    case SK::AnnAssign:
      if (static_cast<const AnnAssignStmt*>(st)->value)
        collect_targets(static_cast<const AnnAssignStmt*>(st)->target, s.assigned);
      return;
    case SK::For: {
      const auto* f = static_cast<const ForStmt*>(st);
      collect_targets(f->target, s.assigned);
      summarize(f->body, s, loop_depth + 1);
      summarize(f->orelse, s, loop_depth);
      return;
    }
    case SK::While: {
      const auto* w = static_cast<const WhileStmt*>(st);
      summarize(w->body, s, loop_depth + 1);
      summarize(w->orelse, s, loop_depth);
      return;
    }
    case SK::If: {
      const auto* i = static_cast<const IfStmt*>(st);
      summarize(i->body, s, loop_depth);
      summarize(i->orelse, s, loop_depth);
      return;
    }
    case SK::With: {
      const auto* w = static_cast<const WithStmt*>(st);
      for (const WithItem& it : w->items)
        if (it.vars) collect_targets(it.vars, s.assigned);
      summarize(w->body, s, loop_depth);
      return;
    }
    case SK::Try: {
      const auto* t = static_cast<const TryStmt*>(st);
      summarize(t->body, s, loop_depth);
      for (const Handler& h : t->handlers) {
        if (h.target) collect_targets(h.target, s.assigned);
        summarize(h.body, s, loop_depth);
      }
      summarize(t->orelse, s, loop_depth);
      summarize(t->finalbody, s, loop_depth);
      return;
    }
    case SK::Match:
      for (const MatchCase& c : static_cast<const MatchStmt*>(st)->cases) summarize(c.body, s, loop_depth);
      return;
    case SK::Raise: s.may_raise = true; return;
    case SK::Return: s.may_return = true; return;
    case SK::Break:
      if (loop_depth == 0) s.may_break = true;
      return;
    case SK::Continue:
      if (loop_depth == 0) s.may_continue = true;
      return;
    case SK::Import:
      for (const ImportName& n : static_cast<const ImportStmt*>(st)->names) collect_targets(n.target, s.assigned);
      return;
    case SK::ImportFrom:
      for (const ImportName& n : static_cast<const ImportFromStmt*>(st)->names) collect_targets(n.target, s.assigned);
      return;
    case SK::FunctionDef: collect_targets(static_cast<const FunctionDefStmt*>(st)->target, s.assigned); return;
    case SK::ClassDef: collect_targets(static_cast<const ClassDefStmt*>(st)->target, s.assigned); return;
    case SK::Delete:
      for (const Expr* t : static_cast<const DeleteStmt*>(st)->targets) collect_targets(t, s.assigned);
      return;
    default: return;
  }
}

void summarize(const Block& b, BlockSummary& s, int loop_depth) {
  for (const Stmt* st : b) summarize_stmt(st, s, loop_depth);
}

}  // namespace

Value constant_frozenset(Interp& I, const std::vector<Expr*>& elts) {
  try {
    Value fs = new_frozenset(I, Value());
    for (Expr* el : elts) set_add(I, as<Set>(fs), static_cast<ConstExpr*>(el)->value);
    // CPython's compiler then re-creates constant frozensets from their iteration order
    // (merge_consts_recursive), which can change the layout once more.
    Value again = new_frozenset(I, Value());
    for (const Value& item : to_vector(I, fs)) set_add(I, as<Set>(again), item);
    return again;
  } catch (PyException&) {
    return Value();  // unhashable element: the error happens at run time
  }
}

void summarize_blocks(CodeUnit& u) {
  for (Stmt* n : u.flow_stmts) {
    if (n->kind == SK::If) {
      auto* i = static_cast<IfStmt*>(n);
      summarize(i->body, i->body_summary, 0);
      summarize(i->orelse, i->orelse_summary, 0);
    } else if (n->kind == SK::While) {
      auto* w = static_cast<WhileStmt*>(n);
      summarize(w->body, w->body_summary, 0);
    } else if (n->kind == SK::For) {
      auto* f = static_cast<ForStmt*>(n);
      summarize(f->body, f->body_summary, 0);
    }
  }
}

std::unique_ptr<CodeUnit> compile_module(Interp& I, std::shared_ptr<const SourceFile> file,
                                         const std::string& module_name) {
  syntax::ParsedModule parsed = syntax::parse_module(file);
  auto unit = std::make_unique<CodeUnit>();
  unit->file = parsed.file();
  unit->module_name = module_name;
  SymbolTable st(parsed.module(), unit->file);
  Lowerer lw(I, *unit, st);
  unit->module = lw.lower_module(parsed.module());
  summarize_blocks(*unit);
  return unit;
}

std::unique_ptr<CodeUnit> compile_expression(Interp& I, std::shared_ptr<const SourceFile> file,
                                             const std::string& module_name, bool own_positions) {
  // Wrap as `__result__ = (EXPR)` so the module machinery runs it.
  static constexpr uint32_t kWrap = kExpressionWrapColumns;
  std::string text = "__result__ = (" + file->text() + "\n)\n";
  static_assert(sizeof("__result__ = (") - 1 == kWrap);
  auto wrapped = std::make_shared<SourceFile>(file->path(), text);
  std::unique_ptr<CodeUnit> unit = compile_module(I, wrapped, module_name);
  if (!own_positions) return unit;
  // Only the first line is shifted by the wrapper; the wrapper's own nodes land at column 0.
  auto unshift = [](Node& n) {
    if (n.line == 1) n.col = n.col >= kWrap ? n.col - kWrap : 0;
    if (n.end_line == 1) n.end_col = n.end_col >= kWrap ? n.end_col - kWrap : 0;
  };
  for (auto& n : unit->nodes_owned) unshift(*n);
  for (auto& c : unit->codes) unshift(c->where);
  unit->file = file;
  return unit;
}

}  // namespace onnxify::eval
