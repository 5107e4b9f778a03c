// The evaluator's program form: the syntax tree lowered once per module, with every name resolved
// to how it is stored (a frame slot, a cell, a global, a class-namespace entry — CPython's symtable
// rules), identifiers interned, constants built, and small caches for global and attribute lookups.
// The evaluator (exec_*.cpp) walks this tree; nothing here changes after lowering except caches.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "eval/interp.h"
#include "eval/ops.h"
#include "support/source.h"

namespace onnxify::eval {

struct Code;
struct CodeUnit;

// A node with a source range (1-based lines, 0-based byte columns, like CPython's AST).
struct Node {
  virtual ~Node() = default;
  uint32_t line = 0, col = 0, end_line = 0, end_col = 0;
};

// ---- expressions ---------------------------------------------------------------------------------

#define ONNXIFY_EXPR_KINDS(X)                                                              \
  X(Const) X(BigInt) X(Local) X(Cell) X(Global) X(Name) X(ClassDeref) X(Attr) X(Subscript) \
  X(Slice) X(Call) X(BinOp) X(Unary) X(And) X(Or) X(Compare) X(IfExp) X(Lambda) X(Tuple)  \
  X(List) X(Set) X(Dict) X(ListComp) X(SetComp) X(DictComp) X(GenExp) X(Yield) X(YieldFrom) \
  X(Await) X(JoinedStr) X(Formatted) X(Starred) X(NamedExpr)

enum class EK : uint8_t {
#define X(k) k,
  ONNXIFY_EXPR_KINDS(X)
#undef X
};

struct Expr : Node {
  EK kind;
  uint8_t op = 0;  // BinOp / UnaryOp / conversion, by kind
  explicit Expr(EK k) : kind(k) {}
};

struct ConstExpr : Expr {
  ConstExpr() : Expr(EK::Const) {}
  Value value;
};

// An int literal beyond 64 bits: evaluating it is the overflow error.
struct BigIntExpr : Expr {
  BigIntExpr() : Expr(EK::BigInt) {}
  std::string digits;
};

// A cache for a global/builtin lookup: valid while both dicts keep their key sets.
struct GlobalCache {
  Dict* globals = nullptr;
  uint32_t globals_version = 0;
  uint32_t builtins_version = 0;
  int32_t index = -1;        // entry in globals, or
  int32_t builtin_index = -1;  // entry in builtins
};

// Local / Cell / Global / Name / ClassDeref.
struct NameExpr : Expr {
  explicit NameExpr(EK k) : Expr(k) {}
  Str* name = nullptr;
  uint32_t slot = 0;  // Local, Cell, ClassDeref
  GlobalCache cache;
};

// A cache for `obj.name` on instances of one type (CPython's LOAD_ATTR specializations).
struct AttrCache {
  Type* type = nullptr;
  uint32_t version = 0;
  uint8_t kind = 0;  // see exec_expr.cpp
  Value descr;       // the class attribute found, when any
};

struct AttrExpr : Expr {
  AttrExpr() : Expr(EK::Attr) {}
  Expr* obj = nullptr;
  Str* name = nullptr;
  AttrCache cache;
};

struct SubscriptExpr : Expr {
  SubscriptExpr() : Expr(EK::Subscript) {}
  Expr* obj = nullptr;
  Expr* index = nullptr;
};

struct SliceExpr : Expr {
  SliceExpr() : Expr(EK::Slice) {}
  Expr* lower = nullptr;
  Expr* upper = nullptr;
  Expr* step = nullptr;
};

struct Keyword {
  Str* name = nullptr;  // null for **mapping
  Expr* value = nullptr;
};

struct CallExpr : Expr {
  CallExpr() : Expr(EK::Call) {}
  Expr* func = nullptr;
  std::vector<Expr*> args;      // may contain Starred
  std::vector<Keyword> keywords;
  bool simple = true;           // no *args or **kwargs
  std::vector<Str*> kwnames;    // keyword names in order, when simple
};

struct BinOpExpr : Expr {
  BinOpExpr() : Expr(EK::BinOp) {}
  Expr* left = nullptr;
  Expr* right = nullptr;
};

struct UnaryExpr : Expr {
  UnaryExpr() : Expr(EK::Unary) {}
  Expr* operand = nullptr;
};

struct BoolOpExpr : Expr {
  explicit BoolOpExpr(EK k) : Expr(k) {}
  std::vector<Expr*> values;
};

struct CompareExpr : Expr {
  CompareExpr() : Expr(EK::Compare) {}
  Expr* left = nullptr;
  std::vector<CmpOp> ops;
  std::vector<Expr*> comparators;
};

struct IfExpExpr : Expr {
  IfExpExpr() : Expr(EK::IfExp) {}
  Expr* test = nullptr;
  Expr* body = nullptr;
  Expr* orelse = nullptr;
};

// Parameter annotations and defaults of a def or lambda, evaluated when the function is made.
struct FuncDef {
  Code* code = nullptr;
  std::vector<Expr*> defaults;     // positional defaults
  std::vector<Expr*> kw_defaults;  // one per keyword-only parameter, null when none
  std::vector<std::pair<Str*, Expr*>> annotations;  // parameter name (or "return") -> expression
  std::vector<std::pair<Str*, std::string>> string_annotations;  // with `from __future__ import annotations`
  Str* doc = nullptr;
};

struct LambdaExpr : Expr {
  LambdaExpr() : Expr(EK::Lambda) {}
  FuncDef* def = nullptr;
};

// Tuple / List / Set displays (and unpacking targets for Tuple/List).
struct SeqExpr : Expr {
  explicit SeqExpr(EK k) : Expr(k) {}
  std::vector<Expr*> elts;
  bool has_star = false;
  // A set display of more than two constants: a frozenset built once (CPython compiles it as
  // BUILD_SET + a frozenset constant, which decides the set's iteration order).
  Value const_set;
};

struct DictExpr : Expr {
  DictExpr() : Expr(EK::Dict) {}
  std::vector<Expr*> keys;  // null for **mapping
  std::vector<Expr*> values;
};

// List/Set/Dict comprehensions and generator expressions: a scope of their own (code), whose
// first iterable is evaluated in the enclosing scope.
struct CompExpr : Expr {
  explicit CompExpr(EK k) : Expr(k) {}
  Code* code = nullptr;
  Expr* first_iter = nullptr;
};

struct YieldExpr : Expr {
  explicit YieldExpr(EK k) : Expr(k) {}
  Expr* value = nullptr;  // may be null for a bare `yield`
};

struct JoinedStrExpr : Expr {
  JoinedStrExpr() : Expr(EK::JoinedStr) {}
  std::vector<Expr*> values;
};

struct FormattedExpr : Expr {
  FormattedExpr() : Expr(EK::Formatted) {}
  Expr* value = nullptr;
  int conversion = -1;  // -1, 's', 'r', 'a'
  Expr* spec = nullptr;  // a JoinedStr, or null
};

struct StarredExpr : Expr {
  StarredExpr() : Expr(EK::Starred) {}
  Expr* value = nullptr;
};

struct NamedExprExpr : Expr {
  NamedExprExpr() : Expr(EK::NamedExpr) {}
  Expr* target = nullptr;
  Expr* value = nullptr;
};

// ---- statements ------------------------------------------------------------------------------------

#define ONNXIFY_STMT_KINDS(X)                                                                \
  X(Expr) X(Assign) X(AugAssign) X(AnnAssign) X(For) X(While) X(If) X(With) X(Try) X(Raise)  \
  X(Return) X(Break) X(Continue) X(Pass) X(Delete) X(Import) X(ImportFrom) X(FunctionDef)    \
  X(ClassDef) X(Assert) X(Match) X(Unsupported)

enum class SK : uint8_t {
#define X(k) k,
  ONNXIFY_STMT_KINDS(X)
#undef X
};

struct Stmt : Node {
  SK kind;
  explicit Stmt(SK k) : kind(k) {}
};

using Block = std::vector<Stmt*>;

// A variable a block may assign: a frame slot (function scopes) or a namespace name.
struct VarRef {
  enum Kind : uint8_t { Fast, CellVar, Namespace, Global } kind = Fast;
  uint32_t slot = 0;
  Str* name = nullptr;
};

// What a block may do, from the tree alone (for the control-flow hook, issue 7): the variables
// it may assign and whether it may leave the enclosing code early.
struct BlockSummary {
  std::vector<VarRef> assigned;
  bool may_return = false;
  bool may_break = false;
  bool may_continue = false;
  bool may_raise = false;
  bool may_yield = false;
};

struct ExprStmt : Stmt {
  ExprStmt() : Stmt(SK::Expr) {}
  Expr* value = nullptr;
};

struct AssignStmt : Stmt {
  AssignStmt() : Stmt(SK::Assign) {}
  std::vector<Expr*> targets;
  Expr* value = nullptr;
};

struct AugAssignStmt : Stmt {
  AugAssignStmt() : Stmt(SK::AugAssign) {}
  Expr* target = nullptr;
  BinOp op = BinOp::Add;
  Expr* value = nullptr;
};

struct AnnAssignStmt : Stmt {
  AnnAssignStmt() : Stmt(SK::AnnAssign) {}
  Expr* target = nullptr;
  Expr* annotation = nullptr;   // evaluated and stored in __annotations__ (module and class scopes)
  std::string annotation_text;  // stored instead, with `from __future__ import annotations`
  bool store_annotation = false;
  Str* name = nullptr;          // the simple name, for __annotations__
  Expr* value = nullptr;
};

struct ForStmt : Stmt {
  ForStmt() : Stmt(SK::For) {}
  Expr* target = nullptr;
  Expr* iter = nullptr;
  Block body, orelse;
  BlockSummary body_summary;
};

struct WhileStmt : Stmt {
  WhileStmt() : Stmt(SK::While) {}
  Expr* test = nullptr;
  Block body, orelse;
  BlockSummary body_summary;
};

struct IfStmt : Stmt {
  IfStmt() : Stmt(SK::If) {}
  Expr* test = nullptr;
  Block body, orelse;
  BlockSummary body_summary, orelse_summary;
};

struct WithItem {
  Expr* context = nullptr;
  Expr* vars = nullptr;
};

struct WithStmt : Stmt {
  WithStmt() : Stmt(SK::With) {}
  std::vector<WithItem> items;
  Block body;
};

struct Handler : Node {
  Expr* type = nullptr;    // null: bare except
  Expr* target = nullptr;  // the `as name` target
  Block body;
};

struct TryStmt : Stmt {
  TryStmt() : Stmt(SK::Try) {}
  Block body;
  std::vector<Handler> handlers;
  Block orelse, finalbody;
};

struct RaiseStmt : Stmt {
  RaiseStmt() : Stmt(SK::Raise) {}
  Expr* exc = nullptr;
  Expr* cause = nullptr;
};

struct ReturnStmt : Stmt {
  ReturnStmt() : Stmt(SK::Return) {}
  Expr* value = nullptr;
};

struct DeleteStmt : Stmt {
  DeleteStmt() : Stmt(SK::Delete) {}
  std::vector<Expr*> targets;
};

struct ImportName {
  std::string dotted;      // "a.b.c"
  Str* asname = nullptr;   // `as` name
  Expr* target = nullptr;  // where the bound name goes
  Node where;
};

struct ImportStmt : Stmt {
  ImportStmt() : Stmt(SK::Import) {}
  std::vector<ImportName> names;
  bool guarded = false;  // inside a try with handlers: a missing module raises ImportError
};

struct ImportFromStmt : Stmt {
  ImportFromStmt() : Stmt(SK::ImportFrom) {}
  std::string module;  // may be empty for `from . import x`
  int level = 0;
  std::vector<ImportName> names;  // dotted = the attribute name
  bool star = false;
  bool guarded = false;
};

struct FunctionDefStmt : Stmt {
  FunctionDefStmt() : Stmt(SK::FunctionDef) {}
  FuncDef* def = nullptr;
  std::vector<Expr*> decorators;
  Expr* target = nullptr;
};

struct ClassDefStmt : Stmt {
  ClassDefStmt() : Stmt(SK::ClassDef) {}
  Str* name = nullptr;
  std::vector<Expr*> bases;  // may contain Starred
  std::vector<Keyword> keywords;
  Code* body = nullptr;
  std::vector<Expr*> decorators;
  Expr* target = nullptr;
};

struct AssertStmt : Stmt {
  AssertStmt() : Stmt(SK::Assert) {}
  Expr* test = nullptr;
  Expr* msg = nullptr;
};

// `match` statements: patterns lowered to a small tree of their own.
struct Pattern : Node {
  enum Kind : uint8_t { Value, Singleton, Sequence, Mapping, Class, Star, As, Or } kind = Value;
  Expr* value = nullptr;         // Value; Class: the class
  eval::Value constant;          // Singleton
  std::vector<Pattern*> patterns;  // Sequence, Mapping (values), Class (positional), Or
  std::vector<Expr*> keys;       // Mapping
  Expr* rest = nullptr;          // Mapping **rest target
  std::vector<Str*> kwd_attrs;   // Class
  std::vector<Pattern*> kwd_patterns;
  Pattern* sub = nullptr;        // As
  Expr* target = nullptr;        // As / Star capture target (null: wildcard)
};

struct MatchCase {
  Pattern* pattern = nullptr;
  Expr* guard = nullptr;
  Block body;
};

struct MatchStmt : Stmt {
  MatchStmt() : Stmt(SK::Match) {}
  Expr* subject = nullptr;
  std::vector<MatchCase> cases;
};

// A statement we do not evaluate (async constructs): an error when reached.
struct UnsupportedStmt : Stmt {
  UnsupportedStmt() : Stmt(SK::Unsupported) {}
  std::string what;
  Expr* target = nullptr;  // `async def f`: f is bound to a poison instead
};

// ---- code ------------------------------------------------------------------------------------------

enum class CodeKind : uint8_t { Module, Class, Function, Lambda, Comprehension };

struct CompGen {
  Expr* target = nullptr;
  Expr* iter = nullptr;  // null for the first generator (its iterable comes from outside)
  std::vector<Expr*> ifs;
};

struct Code {
  CodeKind kind = CodeKind::Function;
  CodeUnit* unit = nullptr;
  Str* name = nullptr;
  Str* qualname = nullptr;
  Node where;  // the def/class/lambda

  // The frame's slot array: parameters first (positional, keyword-only, *args, **kwargs), then
  // other locals, cell variables and free variables.
  uint32_t nslots = 0;
  std::vector<Str*> slot_names;
  std::vector<uint32_t> cell_slots;  // get a new Cell at entry (a parameter's value moves into it)
  std::vector<uint32_t> free_slots;  // filled from the function's closure, in order
  // For each free variable: the slot holding its cell in the enclosing code (closure creation).
  std::vector<uint32_t> free_source_slots;

  uint32_t argcount = 0;       // positional parameters (positional-only included)
  uint32_t posonlycount = 0;
  uint32_t kwonlycount = 0;
  bool varargs = false;
  bool varkw = false;
  bool generator = false;
  bool is_async = false;
  // Zero-argument super(): the slot of the __class__ free variable, or -1.
  int32_t class_cell_slot = -1;
  // Class bodies: the slot of the __class__ cell the class body creates, or -1.
  int32_t classcell_slot = -1;

  Block body;
  Expr* body_expr = nullptr;  // lambda
  // Comprehensions.
  EK comp_kind = EK::ListComp;
  std::vector<CompGen> gens;
  Expr* elt = nullptr;
  Expr* value = nullptr;  // dict comprehension value
  // A list comprehension or generator expression as the statements it means, `for target in
  // <first>: [if cond:] [for ...:] acc.append(elt)` with `acc` the hidden local in acc_slot: the
  // control-flow hook turns one over a tensor whose rows are only known at run time into the same
  // ONNX Loop as that `for` statement (issue 15; a generator expression then runs eagerly and is
  // the list). The outermost loop's iter is null (the iterable comes from outside, evaluated in the
  // enclosing scope).
  ForStmt* loop_form = nullptr;
  uint32_t acc_slot = 0;

  bool future_annotations = false;
  SourceRange range(const Node& n) const;
};

// Everything lowered from one source file. Owns its nodes.
struct CodeUnit {
  std::shared_ptr<const SourceFile> file;
  std::string module_name;
  // Embedded library source (the stdlib written here, the torch prelude): locations that concern the
  // user (where a poison was made) are reported at the innermost frame outside library code.
  bool library = false;
  Code* module = nullptr;
  std::vector<std::unique_ptr<Code>> codes;
  // Every node, in the order made. Nodes live in blocks the unit owns (one allocation per 64 KiB
  // instead of one per node: reading a cached module makes thousands, and malloc was a sixth of
  // reading them) and are destroyed with the unit.
  std::vector<Node*> nodes_owned;
  std::vector<std::unique_ptr<FuncDef>> funcdefs;
  std::vector<std::unique_ptr<Pattern>> patterns;
  // The if/while/for statements among nodes_owned (their block summaries are computed after
  // lowering), so that pass need not test every node's class.
  std::vector<Stmt*> flow_stmts;

  CodeUnit() = default;
  CodeUnit(const CodeUnit&) = delete;
  CodeUnit& operator=(const CodeUnit&) = delete;
  ~CodeUnit() {
    for (Node* n : nodes_owned) n->~Node();
  }

  template <class T, class... A>
  T* make(A... args) {
    T* raw = new (place(sizeof(T), alignof(T))) T(args...);
    nodes_owned.push_back(raw);
    note_flow(raw);
    return raw;
  }
  template <class T>
  void note_flow(T* n) {
    if constexpr (std::is_same_v<T, IfStmt> || std::is_same_v<T, WhileStmt> || std::is_same_v<T, ForStmt>)
      flow_stmts.push_back(n);
  }
  Code* make_code() {
    codes.push_back(std::make_unique<Code>());
    codes.back()->unit = this;
    return codes.back().get();
  }

 private:
  // Room for one node in the current block (a new block when it is full).
  void* place(size_t size, size_t align) {
    static constexpr size_t kBlock = 64 << 10;
    size_t at = (block_used_ + align - 1) / align * align;
    if (blocks_.empty() || at + size > block_size_) {
      block_size_ = std::max(kBlock, size);
      // Not zeroed: a block's untouched tail then costs no page faults (most units are small).
      blocks_.push_back(std::make_unique_for_overwrite<std::max_align_t[]>(
          (block_size_ + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t)));
      at = 0;
    }
    block_used_ = at + size;
    return reinterpret_cast<std::byte*>(blocks_.back().get()) + at;
  }
  std::vector<std::unique_ptr<std::max_align_t[]>> blocks_;
  size_t block_used_ = 0, block_size_ = 0;
};

inline SourceRange Code::range(const Node& n) const {
  return SourceRange{unit->file, {n.line, n.col}, {n.end_line, n.end_col}};
}

}  // namespace onnxify::eval
