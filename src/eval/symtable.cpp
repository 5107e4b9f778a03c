// Scope analysis, following CPython's symtable.c: a first walk records, per scope, the names each
// scope binds, declares global/nonlocal and uses; a second walk resolves them top-down (what is
// visible from enclosing functions) and bottom-up (which locals inner scopes capture, so they
// become cells; which names a scope only passes through to inner scopes).
#include "eval/symtable.h"

#include <algorithm>

namespace onnxify::eval {

using namespace onnxify::ast;

Binding Scope::binding(std::string_view n) const {
  auto it = bindings.find(n);
  if (it != bindings.end()) return it->second;
  if (kind == ScopeKind::Class) return Binding::Name;
  return Binding::GlobalImplicit;
}

SymbolTable::SymbolTable(const ast::Module& m, std::shared_ptr<const SourceFile> file) : file_(std::move(file)) {
  // `from __future__ import annotations` must come first (after the docstring), as in CPython.
  for (const stmt* s : m.body) {
    if (auto* f = s->as<ImportFrom>()) {
      if (f->module == "__future__") {
        for (const alias* a : f->names)
          if (a->name == "annotations") future_annotations_ = true;
        continue;
      }
    }
    if (auto* e = s->as<Expr>()) {
      if (e->value->is<Constant>() && e->value->cast<Constant>().value.type == ConstKind::Str) continue;
    }
    break;
  }
  module_ = new_scope(ScopeKind::Module, nullptr, "<module>", &m);
  visit_stmts(module_, m.body);
  analyze(module_, {});
}

Scope* SymbolTable::new_scope(ScopeKind k, Scope* parent, std::string name, const ast::Node* node) {
  scopes_.push_back(std::make_unique<Scope>());
  Scope* s = scopes_.back().get();
  s->kind = k;
  s->parent = parent;
  s->name = std::move(name);
  s->node = node;
  s->private_class = k == ScopeKind::Class ? std::string_view(s->name) : parent ? parent->private_class : "";
  if (parent) parent->children.push_back(s);
  if (node) by_node_[node] = s;
  return s;
}

Scope* SymbolTable::scope_of(const ast::Node* n) const {
  auto it = by_node_.find(n);
  return it == by_node_.end() ? nullptr : it->second;
}

std::string_view SymbolTable::mangle(const Scope* s, std::string_view name) {
  if (!s || s->private_class.empty() || name.size() < 3 || name.substr(0, 2) != "__") return name;
  if (name.substr(name.size() - 2) == "__" || name.find('.') != std::string_view::npos) return name;
  std::string_view cls = s->private_class;
  size_t skip = cls.find_first_not_of('_');
  if (skip == std::string_view::npos) return name;  // a class named only with underscores
  std::string m = "_";
  m += cls.substr(skip);
  m += name;
  auto it = mangled_.find(m);
  if (it == mangled_.end()) it = mangled_.insert(std::move(m)).first;
  return *it;
}

void SymbolTable::syntax_error(const std::string& msg, const ast::Node* where) {
  SourceRange r;
  if (where) r = SourceRange{file_, {where->lineno, where->col_offset}, {where->end_lineno, where->end_col_offset}};
  throw Diagnostic::error("SyntaxError: " + msg, r);
}

void SymbolTable::define(Scope* s, std::string_view name, unsigned flag, const ast::Node* where) {
  std::string_view n = mangle(s, name);
  auto it = s->flags.find(n);
  if (it == s->flags.end()) {
    s->flags[n] = flag;
    s->order.push_back(n);
    return;
  }
  unsigned old = it->second;
  if ((flag & (kDefGlobal | kDefNonlocal)) && (old & (kDefLocal | kDefParam | kUse))) {
    const char* kw = (flag & kDefGlobal) ? "global" : "nonlocal";
    if (old & kDefParam) syntax_error(fmt::format("name '{}' is parameter and {}", n, kw), where);
    if (old & kUse) syntax_error(fmt::format("name '{}' is used prior to {} declaration", n, kw), where);
    syntax_error(fmt::format("name '{}' is assigned to before {} declaration", n, kw), where);
  }
  it->second |= flag;
}

void SymbolTable::use(Scope* s, std::string_view name) {
  std::string_view n = mangle(s, name);
  auto it = s->flags.find(n);
  if (it == s->flags.end()) {
    s->flags[n] = kUse;
    s->order.push_back(n);
  } else {
    it->second |= kUse;
  }
}

void SymbolTable::add_params(Scope* s, const arguments* a) {
  auto add = [&](const arg* p) {
    define(s, p->arg, kDefParam, p);
    s->params.emplace_back(mangle(s, p->arg));
  };
  for (const arg* p : a->posonlyargs) add(p);
  for (const arg* p : a->args) add(p);
  for (const arg* p : a->kwonlyargs) add(p);
  if (a->vararg) add(a->vararg);
  if (a->kwarg) add(a->kwarg);
}

void SymbolTable::visit_args_defaults(Scope* s, const arguments* a) {
  for (const expr* d : a->defaults) visit_expr(s, d);
  for (const expr* d : a->kw_defaults)
    if (d) visit_expr(s, d);
}

void SymbolTable::visit_annotations(Scope* s, const arguments* a, const expr* returns) {
  if (future_annotations_) return;
  auto ann = [&](const arg* p) {
    if (p && p->annotation) visit_expr(s, p->annotation);
  };
  for (const arg* p : a->posonlyargs) ann(p);
  for (const arg* p : a->args) ann(p);
  if (a->vararg) ann(a->vararg);
  for (const arg* p : a->kwonlyargs) ann(p);
  if (a->kwarg) ann(a->kwarg);
  if (returns) visit_expr(s, returns);
}

void SymbolTable::visit_stmts(Scope* s, ast::Seq<ast::stmt> body) {
  for (const stmt* st : body) visit_stmt(s, st);
}

void SymbolTable::visit_stmt(Scope* s, const stmt* st) {
  switch (st->node_kind) {
    case NodeKind::FunctionDef:
    case NodeKind::AsyncFunctionDef: {
      bool async = st->node_kind == NodeKind::AsyncFunctionDef;
      std::string_view name = async ? st->cast<AsyncFunctionDef>().name : st->cast<FunctionDef>().name;
      const arguments* args = async ? st->cast<AsyncFunctionDef>().args : st->cast<FunctionDef>().args;
      auto body = async ? st->cast<AsyncFunctionDef>().body : st->cast<FunctionDef>().body;
      auto decos = async ? st->cast<AsyncFunctionDef>().decorator_list : st->cast<FunctionDef>().decorator_list;
      const expr* returns = async ? st->cast<AsyncFunctionDef>().returns : st->cast<FunctionDef>().returns;
      define(s, name, kDefLocal, st);
      for (const expr* d : decos) visit_expr(s, d);
      visit_args_defaults(s, args);
      visit_annotations(s, args, returns);
      Scope* f = new_scope(ScopeKind::Function, s, std::string(name), st);
      add_params(f, args);
      visit_stmts(f, body);
      return;
    }
    case NodeKind::ClassDef: {
      const auto& c = st->cast<ClassDef>();
      define(s, c.name, kDefLocal, st);
      for (const expr* b : c.bases) visit_expr(s, b);
      for (const keyword* k : c.keywords) visit_expr(s, k->value);
      for (const expr* d : c.decorator_list) visit_expr(s, d);
      Scope* cs = new_scope(ScopeKind::Class, s, std::string(c.name), st);
      visit_stmts(cs, c.body);
      return;
    }
    case NodeKind::Return: {
      const auto& r = st->cast<Return>();
      if (r.value) visit_expr(s, r.value);
      return;
    }
    case NodeKind::Delete:
      for (const expr* t : st->cast<Delete>().targets) visit_expr(s, t);
      return;
    case NodeKind::Assign: {
      const auto& a = st->cast<Assign>();
      for (const expr* t : a.targets) visit_expr(s, t);
      visit_expr(s, a.value);
      return;
    }
    case NodeKind::AugAssign: {
      const auto& a = st->cast<AugAssign>();
      visit_expr(s, a.target);
      if (auto* n = a.target->as<Name>()) use(s, n->id);
      visit_expr(s, a.value);
      return;
    }
    case NodeKind::AnnAssign: {
      const auto& a = st->cast<AnnAssign>();
      if (auto* n = a.target->as<Name>()) {
        auto it = s->flags.find(mangle(s, n->id));
        if (it != s->flags.end() && (it->second & (kDefGlobal | kDefNonlocal)) && a.simple)
          syntax_error(fmt::format("annotated name '{}' can't be {}", n->id,
                                   (it->second & kDefGlobal) ? "global" : "nonlocal"),
                       st);
        define(s, n->id, kDefLocal, a.target);
      } else {
        visit_expr(s, a.target);
      }
      if (!future_annotations_ && s->kind != ScopeKind::Function) visit_expr(s, a.annotation);
      if (a.value) visit_expr(s, a.value);
      return;
    }
    case NodeKind::For:
    case NodeKind::AsyncFor: {
      const expr* target = st->node_kind == NodeKind::For ? st->cast<For>().target : st->cast<AsyncFor>().target;
      const expr* it = st->node_kind == NodeKind::For ? st->cast<For>().iter : st->cast<AsyncFor>().iter;
      visit_expr(s, target);
      visit_expr(s, it);
      if (st->node_kind == NodeKind::For) {
        visit_stmts(s, st->cast<For>().body);
        visit_stmts(s, st->cast<For>().orelse);
      } else {
        visit_stmts(s, st->cast<AsyncFor>().body);
        visit_stmts(s, st->cast<AsyncFor>().orelse);
      }
      return;
    }
    case NodeKind::While: {
      const auto& w = st->cast<While>();
      visit_expr(s, w.test);
      visit_stmts(s, w.body);
      visit_stmts(s, w.orelse);
      return;
    }
    case NodeKind::If: {
      const auto& i = st->cast<If>();
      visit_expr(s, i.test);
      visit_stmts(s, i.body);
      visit_stmts(s, i.orelse);
      return;
    }
    case NodeKind::With:
    case NodeKind::AsyncWith: {
      auto items = st->node_kind == NodeKind::With ? st->cast<With>().items : st->cast<AsyncWith>().items;
      for (const withitem* w : items) {
        visit_expr(s, w->context_expr);
        if (w->optional_vars) visit_expr(s, w->optional_vars);
      }
      visit_stmts(s, st->node_kind == NodeKind::With ? st->cast<With>().body : st->cast<AsyncWith>().body);
      return;
    }
    case NodeKind::Match: {
      const auto& m = st->cast<Match>();
      visit_expr(s, m.subject);
      for (const match_case* c : m.cases) {
        visit_pattern(s, c->pattern);
        if (c->guard) visit_expr(s, c->guard);
        visit_stmts(s, c->body);
      }
      return;
    }
    case NodeKind::Raise: {
      const auto& r = st->cast<Raise>();
      if (r.exc) visit_expr(s, r.exc);
      if (r.cause) visit_expr(s, r.cause);
      return;
    }
    case NodeKind::Try:
    case NodeKind::TryStar: {
      bool star = st->node_kind == NodeKind::TryStar;
      auto body = star ? st->cast<TryStar>().body : st->cast<Try>().body;
      auto handlers = star ? st->cast<TryStar>().handlers : st->cast<Try>().handlers;
      auto orelse = star ? st->cast<TryStar>().orelse : st->cast<Try>().orelse;
      auto finalbody = star ? st->cast<TryStar>().finalbody : st->cast<Try>().finalbody;
      visit_stmts(s, body);
      for (const excepthandler* h : handlers) {
        const auto& eh = h->cast<ExceptHandler>();
        if (eh.type) visit_expr(s, eh.type);
        if (!eh.name.empty()) define(s, eh.name, kDefLocal, h);
        visit_stmts(s, eh.body);
      }
      visit_stmts(s, orelse);
      visit_stmts(s, finalbody);
      return;
    }
    case NodeKind::Assert: {
      const auto& a = st->cast<Assert>();
      visit_expr(s, a.test);
      if (a.msg) visit_expr(s, a.msg);
      return;
    }
    case NodeKind::Import:
      for (const alias* a : st->cast<Import>().names) {
        std::string_view n = !a->asname.empty() ? a->asname : a->name.substr(0, a->name.find('.'));
        define(s, n, kDefLocal | kDefImport, a);
      }
      return;
    case NodeKind::ImportFrom:
      for (const alias* a : st->cast<ImportFrom>().names) {
        if (a->name == "*") {
          if (s->kind != ScopeKind::Module) syntax_error("import * only allowed at module level", st);
          continue;
        }
        define(s, !a->asname.empty() ? a->asname : a->name, kDefLocal | kDefImport, a);
      }
      return;
    case NodeKind::Global:
      for (Identifier n : st->cast<Global>().names) define(s, n, kDefGlobal, st);
      return;
    case NodeKind::Nonlocal:
      if (s->kind == ScopeKind::Module) syntax_error("nonlocal declaration not allowed at module level", st);
      for (Identifier n : st->cast<Nonlocal>().names) define(s, n, kDefNonlocal, st);
      return;
    case NodeKind::Expr: visit_expr(s, st->cast<Expr>().value); return;
    default: return;
  }
}

void SymbolTable::visit_pattern(Scope* s, const pattern* p) {
  switch (p->node_kind) {
    case NodeKind::MatchValue: visit_expr(s, p->cast<MatchValue>().value); return;
    case NodeKind::MatchSequence:
      for (const pattern* q : p->cast<MatchSequence>().patterns) visit_pattern(s, q);
      return;
    case NodeKind::MatchMapping: {
      const auto& m = p->cast<MatchMapping>();
      for (const expr* k : m.keys) visit_expr(s, k);
      for (const pattern* q : m.patterns) visit_pattern(s, q);
      if (!m.rest.empty()) define(s, m.rest, kDefLocal, p);
      return;
    }
    case NodeKind::MatchClass: {
      const auto& m = p->cast<MatchClass>();
      visit_expr(s, m.cls);
      for (const pattern* q : m.patterns) visit_pattern(s, q);
      for (const pattern* q : m.kwd_patterns) visit_pattern(s, q);
      return;
    }
    case NodeKind::MatchStar:
      if (!p->cast<MatchStar>().name.empty()) define(s, p->cast<MatchStar>().name, kDefLocal, p);
      return;
    case NodeKind::MatchAs: {
      const auto& m = p->cast<MatchAs>();
      if (m.pattern) visit_pattern(s, m.pattern);
      if (!m.name.empty()) define(s, m.name, kDefLocal, p);
      return;
    }
    case NodeKind::MatchOr:
      for (const pattern* q : p->cast<MatchOr>().patterns) visit_pattern(s, q);
      return;
    default: return;
  }
}

void SymbolTable::visit_comprehension(Scope* s, const expr* node, Seq<comprehension> gens,
                                      std::initializer_list<const expr*> elts, const char* name) {
  // The first iterable is evaluated in the enclosing scope; everything else in the new one.
  visit_expr(s, gens[0]->iter);
  Scope* c = new_scope(ScopeKind::Comprehension, s, name, node);
  for (size_t i = 0; i < gens.size(); ++i) {
    const comprehension* g = gens[i];
    if (i > 0) visit_expr(c, g->iter);
    visit_expr(c, g->target);
    for (const expr* cond : g->ifs) visit_expr(c, cond);
  }
  for (const expr* e : elts)
    if (e) visit_expr(c, e);
}

void SymbolTable::visit_expr(Scope* s, const expr* e) {
  switch (e->node_kind) {
    case NodeKind::Name: {
      const auto& n = e->cast<Name>();
      if (n.ctx == ExprContext::Load) {
        use(s, n.id);
        // super() and __class__ in a function need the enclosing class's __class__ cell.
        if ((n.id == "super" || n.id == "__class__") && s->function_like()) use(s, "__class__");
      } else {
        define(s, n.id, kDefLocal, e);
      }
      return;
    }
    case NodeKind::NamedExpr: {
      const auto& n = e->cast<NamedExpr>();
      visit_expr(s, n.value);
      const std::string_view target = n.target->cast<Name>().id;
      // The target binds in the nearest enclosing scope that is not a comprehension.
      Scope* t = s;
      while (t->kind == ScopeKind::Comprehension) {
        auto it = t->flags.find(mangle(t, target));
        if (it != t->flags.end() && (it->second & kDefLocal))
          syntax_error(fmt::format("assignment expression cannot rebind comprehension iteration variable '{}'", target),
                       e);
        t = t->parent;
      }
      if (t->kind == ScopeKind::Class)
        syntax_error("assignment expression within a comprehension cannot be used in a class body", e);
      for (Scope* c = s; c != t; c = c->parent) define(c, target, t->kind == ScopeKind::Module ? kDefGlobal : kDefNonlocal, e);
      define(t, target, kDefLocal, e);
      return;
    }
    case NodeKind::Lambda: {
      const auto& l = e->cast<Lambda>();
      visit_args_defaults(s, l.args);
      Scope* f = new_scope(ScopeKind::Lambda, s, "<lambda>", e);
      add_params(f, l.args);
      visit_expr(f, l.body);
      return;
    }
    case NodeKind::ListComp: {
      const auto& c = e->cast<ListComp>();
      visit_comprehension(s, e, c.generators, {c.elt}, "<listcomp>");
      return;
    }
    case NodeKind::SetComp: {
      const auto& c = e->cast<SetComp>();
      visit_comprehension(s, e, c.generators, {c.elt}, "<setcomp>");
      return;
    }
    case NodeKind::DictComp: {
      const auto& c = e->cast<DictComp>();
      visit_comprehension(s, e, c.generators, {c.key, c.value}, "<dictcomp>");
      return;
    }
    case NodeKind::GeneratorExp: {
      const auto& c = e->cast<GeneratorExp>();
      visit_comprehension(s, e, c.generators, {c.elt}, "<genexpr>");
      return;
    }
    case NodeKind::Yield:
    case NodeKind::YieldFrom:
    case NodeKind::Await:
      if (s->kind == ScopeKind::Comprehension) s->has_yield_in_comp = true;
      if (e->node_kind != NodeKind::Await) s->generator = true;
      break;
    default: break;
  }
  for_each_child(*e, [&](ast::Node* c) {
    if (c->is<expr>()) visit_expr(s, static_cast<const expr*>(c));
    else if (c->node_kind == NodeKind::keyword) visit_expr(s, c->cast<keyword>().value);
    else if (c->node_kind == NodeKind::arguments) visit_args_defaults(s, &c->cast<arguments>());
  });
}

// ---- resolution -----------------------------------------------------------------------------------

void SymbolTable::analyze(Scope* s, const std::set<std::string_view>& bound_above) {
  // 1. This scope's own names.
  for (std::string_view n : s->order) {
    unsigned f = s->flags[n];
    Binding b;
    if (f & kDefGlobal) {
      b = Binding::GlobalExplicit;
    } else if (f & kDefNonlocal) {
      if (!bound_above.count(n)) syntax_error(fmt::format("no binding for nonlocal '{}' found", n), s->node);
      b = Binding::Free;
    } else if (f & (kDefLocal | kDefParam)) {
      b = s->kind == ScopeKind::Module ? Binding::GlobalImplicit
          : s->kind == ScopeKind::Class ? Binding::Name
                                        : Binding::Local;
    } else if (s->kind == ScopeKind::Module) {
      b = Binding::GlobalImplicit;
    } else if (bound_above.count(n)) {
      b = s->kind == ScopeKind::Class ? Binding::ClassDeref : Binding::Free;
    } else {
      b = s->kind == ScopeKind::Class ? Binding::Name : Binding::GlobalImplicit;
    }
    s->bindings[n] = b;
  }
  // 2. Inner scopes see this scope's function variables (class bodies are invisible to them,
  //    except for the implicit __class__ cell).
  std::set<std::string_view> child_bound = bound_above;
  if (s->function_like()) {
    for (auto& [n, b] : s->bindings) {
      if (b == Binding::Local || b == Binding::Free) child_bound.insert(n);
      if (b == Binding::GlobalExplicit) child_bound.erase(n);
    }
  } else if (s->kind == ScopeKind::Class) {
    child_bound.insert("__class__");
  } else {
    child_bound.clear();
  }
  for (Scope* c : s->children) analyze(c, child_bound);
  // 3. What the inner scopes take from here.
  for (Scope* c : s->children) {
    for (std::string_view n : c->free_names) {
      if (s->kind == ScopeKind::Class && n == "__class__") {
        s->needs_class_cell = true;
        continue;
      }
      auto it = s->bindings.find(n);
      if (s->function_like() && it != s->bindings.end() && it->second == Binding::Local) {
        it->second = Binding::Cell;
      } else if (s->function_like() && it != s->bindings.end() &&
                 (it->second == Binding::Cell || it->second == Binding::Free)) {
        // already available
      } else if (s->kind == ScopeKind::Class) {
        auto own = s->bindings.find(n);
        if (own == s->bindings.end() || own->second != Binding::ClassDeref) s->passthrough.insert(n);
      } else if (s->function_like()) {
        s->bindings[n] = Binding::Free;  // passes through this function to the inner one
      }
    }
  }
  assign_slots(s);
}

void SymbolTable::assign_slots(Scope* s) {
  auto add = [&](std::string_view n) {
    if (s->slots.count(n)) return;
    s->slots[n] = static_cast<uint32_t>(s->slot_names.size());
    s->slot_names.push_back(n);
  };
  if (s->function_like()) {
    for (std::string_view p : s->params) add(p);
    for (std::string_view n : s->order) {
      Binding b = s->bindings[n];
      if (b == Binding::Local || b == Binding::Cell) add(n);
    }
    for (auto& [n, b] : s->bindings)
      if (b == Binding::Cell) add(n);
  }
  if (s->kind == ScopeKind::Class && s->needs_class_cell) add("__class__");
  std::vector<std::string_view> frees;
  for (auto& [n, b] : s->bindings)
    if (b == Binding::Free || (s->kind == ScopeKind::Class && b == Binding::ClassDeref)) frees.push_back(n);
  for (std::string_view n : s->passthrough)
    if (std::find(frees.begin(), frees.end(), n) == frees.end()) frees.push_back(n);
  std::sort(frees.begin(), frees.end());
  for (std::string_view n : frees) {
    if (s->slots.count(n) && s->kind == ScopeKind::Class && n == "__class__") continue;
    add(n);
    s->free_names.push_back(n);
  }
}

}  // namespace onnxify::eval
