// Scope analysis (CPython's symtable): which scope each name belongs to and how it is stored.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "support/diagnostic.h"
#include "syntax/ast.h"

namespace onnxify::eval {

enum class ScopeKind : uint8_t { Module, Class, Function, Lambda, Comprehension };

// How a name is stored in one scope.
enum class Binding : uint8_t {
  Local,          // a frame slot
  Cell,           // a frame slot holding a cell (captured by an inner function)
  Free,           // a frame slot holding a cell from the enclosing function (closure)
  GlobalExplicit, // `global x`
  GlobalImplicit, // not bound in any function: globals, then builtins
  Name,           // class body: the class namespace, then globals, then builtins
  ClassDeref,     // class body reading an enclosing function's variable: namespace, then the cell
};

struct Scope {
  ScopeKind kind = ScopeKind::Module;
  Scope* parent = nullptr;
  std::string name;
  const ast::Node* node = nullptr;
  std::vector<Scope*> children;
  // The class whose private names (`__x`) this scope mangles: the innermost enclosing class body,
  // inherited by the functions inside it ("" outside classes).
  std::string_view private_class;

  // Collected from the tree.
  // Names are views of the syntax tree's identifiers (or of literals): the tree outlives the table.
  std::unordered_map<std::string_view, unsigned> flags;
  std::vector<std::string_view> order;  // first-seen order of names
  std::vector<std::string_view> params;
  bool generator = false;
  bool has_yield_in_comp = false;

  // Resolved.
  std::unordered_map<std::string_view, Binding> bindings;
  std::set<std::string_view> passthrough;   // class scopes: free names only handed to inner scopes
  bool needs_class_cell = false;      // class scopes: inner functions use __class__
  std::map<std::string_view, uint32_t> slots;
  std::vector<std::string_view> slot_names;
  std::vector<std::string_view> free_names;  // in slot order

  Binding binding(std::string_view n) const;
  bool function_like() const {
    return kind == ScopeKind::Function || kind == ScopeKind::Lambda || kind == ScopeKind::Comprehension;
  }
};

class SymbolTable {
 public:
  // Builds and resolves the scopes of a module; throws Diagnostic (SyntaxError text) on scoping
  // errors such as `nonlocal x` without an enclosing binding.
  SymbolTable(const ast::Module& m, std::shared_ptr<const SourceFile> file);
  Scope* module() const { return module_; }
  // The scope a FunctionDef / Lambda / ClassDef / comprehension node opens.
  Scope* scope_of(const ast::Node* n) const;
  // CPython's private name mangling: inside class C, an identifier `__x` (not ending in `__`, no
  // dot) names `_C__x`, with C's leading underscores dropped. Applies to every name bound or read,
  // attribute names and imported names, not to keyword arguments of calls. The view stays valid as
  // long as the table.
  std::string_view mangle(const Scope* s, std::string_view name);

 private:
  Scope* new_scope(ScopeKind k, Scope* parent, std::string name, const ast::Node* node);
  void visit_stmts(Scope* s, ast::Seq<ast::stmt> body);
  void visit_stmt(Scope* s, const ast::stmt* st);
  void visit_expr(Scope* s, const ast::expr* e);
  void visit_args_defaults(Scope* s, const ast::arguments* a);
  void visit_annotations(Scope* s, const ast::arguments* a, const ast::expr* returns);
  void visit_pattern(Scope* s, const ast::pattern* p);
  void visit_comprehension(Scope* s, const ast::expr* node, ast::Seq<ast::comprehension> gens,
                           std::initializer_list<const ast::expr*> elts, const char* name);
  void define(Scope* s, std::string_view name, unsigned flag, const ast::Node* where);
  void use(Scope* s, std::string_view name);
  void add_params(Scope* s, const ast::arguments* a);
  void analyze(Scope* s, const std::set<std::string_view>& bound_above);
  void assign_slots(Scope* s);
  [[noreturn]] void syntax_error(const std::string& msg, const ast::Node* where);

  std::shared_ptr<const SourceFile> file_;
  std::vector<std::unique_ptr<Scope>> scopes_;
  std::unordered_map<const ast::Node*, Scope*> by_node_;
  std::set<std::string, std::less<>> mangled_;  // storage of mangled names (node-based: stable)
  Scope* module_ = nullptr;
  bool future_annotations_ = false;

 public:
  bool future_annotations() const { return future_annotations_; }
};

enum : unsigned {
  kDefLocal = 1,
  kDefParam = 2,
  kDefGlobal = 4,
  kDefNonlocal = 8,
  kUse = 16,
  kDefImport = 32,
};

}  // namespace onnxify::eval
