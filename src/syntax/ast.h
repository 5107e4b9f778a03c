// The Python AST, mirroring CPython 3.11's `ast` module class for class and field for field.
//
// ONE table (ONNXIFY_AST_NODES below, a transcription of CPython's Parser/Python.asdl) generates the
// node structs, the NodeKind enum, the class names, the child walker and the ast.dump printer. A
// node struct has exactly the fields `ast.<Class>._fields` lists, with the same names, so Python
// documentation of the ast module documents this tree too.
//
// Reading the tree (what a tree-walking evaluator does):
//
//   const ast::Module& m = parsed.root();
//   for (ast::stmt* s : m.body) {
//     switch (s->node_kind) {
//       case ast::NodeKind::Assign: {
//         auto& a = s->cast<ast::Assign>();
//         for (ast::expr* target : a.targets) ...;
//         eval(a.value);
//         break;
//       }
//       ...
//     }
//   }
//   if (auto* call = e->as<ast::Call>()) ...        // nullptr when e is not a Call
//   if (e->is<ast::expr>()) ...                     // category test (mod/stmt/expr/pattern/...)
//   ast::visit(*node, [](auto& n) { ... });         // n is the concrete type
//   ast::for_each_child(*node, [](ast::Node* c) { ... });
//
// Field representation (the `Card` column of the table):
//   One    T*                          never null
//   Opt    T*                          null is Python's None
//   Seq    std::span<T* const>         Python list; Dict.keys (for `**d`) and arguments.kw_defaults
//                                      (keyword-only parameter without default) hold null entries
//   Id     Identifier                  never empty
//   OptId  Identifier                  empty() is None
//   Ids    std::span<const Identifier>
//   Int    int
//   Const  ConstantValue               Python constant (see below)
//   OptStr std::string_view            empty data() is None (type comments are never collected:
//                                      the parser runs like ast.parse without type_comments)
//   Enum   the enum type (ExprContext, BoolOpKind, OperatorKind, UnaryOpKind, CmpOpKind)
//   Enums  std::span<const EnumType>   Compare.ops
//
// Positions: every node has lineno/col_offset/end_lineno/end_col_offset with CPython's
// conventions (1-based lines, 0-based UTF-8 byte columns, end exclusive). They are meaningful for
// the classes whose CPython counterpart has `_attributes` (stmt, expr, excepthandler, arg, keyword,
// alias, pattern); the other classes (mod, comprehension, arguments, withitem, match_case) still
// carry the range of their text, but ast.dump does not print it, as CPython has none.
//
// Memory: every node, list and decoded string lives in the arena of the syntax::ParsedModule that
// produced it; pointers stay valid as long as that object lives. Identifiers and undecorated string
// constants point straight into the source text, which the ParsedModule keeps alive too. Treat the
// tree as immutable.
//
// Depth: the parser refuses input whose tree would nest more than syntax::kMaxNesting levels, so
// recursive walkers over a parsed tree are bounded.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <typeinfo>

namespace onnxify::ast {

// ---------------------------------------------------------------------------------------------
// Operator and context enums (CPython's singleton classes Load(), Add(), Eq(), ...).

// clang-format off
#define ONNXIFY_AST_EXPR_CONTEXT(X) X(Load) X(Store) X(Del)
#define ONNXIFY_AST_BOOLOP(X) X(And) X(Or)
#define ONNXIFY_AST_OPERATOR(X) \
  X(Add) X(Sub) X(Mult) X(MatMult) X(Div) X(Mod) X(Pow) X(LShift) X(RShift) X(BitOr) X(BitXor) X(BitAnd) X(FloorDiv)
#define ONNXIFY_AST_UNARYOP(X) X(Invert) X(Not) X(UAdd) X(USub)
#define ONNXIFY_AST_CMPOP(X) X(Eq) X(NotEq) X(Lt) X(LtE) X(Gt) X(GtE) X(Is) X(IsNot) X(In) X(NotIn)
// clang-format on

#define ONNXIFY_AST_ENUMERATOR(name) name,
enum class ExprContext : uint8_t { ONNXIFY_AST_EXPR_CONTEXT(ONNXIFY_AST_ENUMERATOR) };
enum class BoolOpKind : uint8_t { ONNXIFY_AST_BOOLOP(ONNXIFY_AST_ENUMERATOR) };
enum class OperatorKind : uint8_t { ONNXIFY_AST_OPERATOR(ONNXIFY_AST_ENUMERATOR) };
enum class UnaryOpKind : uint8_t { ONNXIFY_AST_UNARYOP(ONNXIFY_AST_ENUMERATOR) };
enum class CmpOpKind : uint8_t { ONNXIFY_AST_CMPOP(ONNXIFY_AST_ENUMERATOR) };
#undef ONNXIFY_AST_ENUMERATOR

// CPython's class names ("Load", "Add", "NotIn", ...).
const char* name(ExprContext v);
const char* name(BoolOpKind v);
const char* name(OperatorKind v);
const char* name(UnaryOpKind v);
const char* name(CmpOpKind v);

// ---------------------------------------------------------------------------------------------
// Identifiers and constants.

// An identifier, NFKC-normalized as CPython does for non-ASCII names. Compare by content.
using Identifier = std::string_view;

enum class ConstKind : uint8_t { None, Bool, Int, Float, Complex, Str, Bytes, Ellipsis };

// The value of a Constant node (and of MatchSingleton): one of Python's literal value kinds.
struct ConstantValue {
  ConstKind type = ConstKind::None;
  bool bool_value = false;  // Bool
  // Int: literals are never negative. When the value fits in int64 it is in `int_value` and
  // `int_fits` is true; otherwise `text` holds its decimal digits (no sign, no leading zeros), the
  // exact value whatever base the literal was written in.
  bool int_fits = true;
  int64_t int_value = 0;
  // Float: the value. Complex: the imaginary part (a literal `2j` has real part +0.0).
  double float_value = 0;
  // Str: the decoded text in UTF-8; a lone surrogate from an escape like '\ud800' is encoded as its
  // 3-byte UTF-8 form (as WTF-8 does). Bytes: the raw bytes. Int: see above.
  std::string_view text;

  static ConstantValue none() { return {}; }
  static ConstantValue ellipsis() {
    ConstantValue v;
    v.type = ConstKind::Ellipsis;
    return v;
  }
  static ConstantValue boolean(bool b) {
    ConstantValue v;
    v.type = ConstKind::Bool;
    v.bool_value = b;
    return v;
  }
  static ConstantValue integer(int64_t i) {
    ConstantValue v;
    v.type = ConstKind::Int;
    v.int_value = i;
    return v;
  }
  static ConstantValue big_integer(std::string_view decimal_digits) {
    ConstantValue v;
    v.type = ConstKind::Int;
    v.int_fits = false;
    v.text = decimal_digits;
    return v;
  }
  static ConstantValue floating(double d) {
    ConstantValue v;
    v.type = ConstKind::Float;
    v.float_value = d;
    return v;
  }
  static ConstantValue imaginary(double d) {
    ConstantValue v;
    v.type = ConstKind::Complex;
    v.float_value = d;
    return v;
  }
  static ConstantValue str(std::string_view utf8) {
    ConstantValue v;
    v.type = ConstKind::Str;
    v.text = utf8;
    return v;
  }
  static ConstantValue bytes(std::string_view raw) {
    ConstantValue v;
    v.type = ConstKind::Bytes;
    v.text = raw;
    return v;
  }
};

// ---------------------------------------------------------------------------------------------
// The node table.
//
//   NODE(Class, Base, HasAttributes)   Base is the ASDL sum type (mod, stmt, expr, excepthandler,
//                                      pattern, type_ignore) or Node for a product type
//                                      (comprehension, arguments, arg, keyword, alias, withitem,
//                                      match_case), whose CPython class name is the type's name.
//   FIELD(name, Card, Type)            in `_fields` order; Card as described at the top.
//   END()
//
// Nodes of one Base are contiguous, which makes category tests a range check.
// Type comments (string? type_comment) are kept as fields so the field lists match CPython's; they
// are always None, as in ast.parse(source) without type_comments=True.

// clang-format off
#define ONNXIFY_AST_NODES(NODE, FIELD, END)                                                          \
  NODE(Module, mod, false) FIELD(body, Seq, stmt) FIELD(type_ignores, Seq, type_ignore) END()       \
  NODE(Interactive, mod, false) FIELD(body, Seq, stmt) END()                                        \
  NODE(Expression, mod, false) FIELD(body, One, expr) END()                                         \
  NODE(FunctionType, mod, false) FIELD(argtypes, Seq, expr) FIELD(returns, One, expr) END()         \
                                                                                                    \
  NODE(FunctionDef, stmt, true)                                                                     \
    FIELD(name, Id, _) FIELD(args, One, arguments) FIELD(body, Seq, stmt)                           \
    FIELD(decorator_list, Seq, expr) FIELD(returns, Opt, expr) FIELD(type_comment, OptStr, _)       \
  END()                                                                                             \
  NODE(AsyncFunctionDef, stmt, true)                                                                \
    FIELD(name, Id, _) FIELD(args, One, arguments) FIELD(body, Seq, stmt)                           \
    FIELD(decorator_list, Seq, expr) FIELD(returns, Opt, expr) FIELD(type_comment, OptStr, _)       \
  END()                                                                                             \
  NODE(ClassDef, stmt, true)                                                                        \
    FIELD(name, Id, _) FIELD(bases, Seq, expr) FIELD(keywords, Seq, keyword) FIELD(body, Seq, stmt) \
    FIELD(decorator_list, Seq, expr)                                                                \
  END()                                                                                             \
  NODE(Return, stmt, true) FIELD(value, Opt, expr) END()                                            \
  NODE(Delete, stmt, true) FIELD(targets, Seq, expr) END()                                          \
  NODE(Assign, stmt, true) FIELD(targets, Seq, expr) FIELD(value, One, expr) FIELD(type_comment, OptStr, _) END() \
  NODE(AugAssign, stmt, true) FIELD(target, One, expr) FIELD(op, Enum, OperatorKind) FIELD(value, One, expr) END() \
  NODE(AnnAssign, stmt, true)                                                                       \
    FIELD(target, One, expr) FIELD(annotation, One, expr) FIELD(value, Opt, expr) FIELD(simple, Int, _) \
  END()                                                                                             \
  NODE(For, stmt, true)                                                                             \
    FIELD(target, One, expr) FIELD(iter, One, expr) FIELD(body, Seq, stmt) FIELD(orelse, Seq, stmt) \
    FIELD(type_comment, OptStr, _)                                                                  \
  END()                                                                                             \
  NODE(AsyncFor, stmt, true)                                                                        \
    FIELD(target, One, expr) FIELD(iter, One, expr) FIELD(body, Seq, stmt) FIELD(orelse, Seq, stmt) \
    FIELD(type_comment, OptStr, _)                                                                  \
  END()                                                                                             \
  NODE(While, stmt, true) FIELD(test, One, expr) FIELD(body, Seq, stmt) FIELD(orelse, Seq, stmt) END() \
  NODE(If, stmt, true) FIELD(test, One, expr) FIELD(body, Seq, stmt) FIELD(orelse, Seq, stmt) END() \
  NODE(With, stmt, true) FIELD(items, Seq, withitem) FIELD(body, Seq, stmt) FIELD(type_comment, OptStr, _) END() \
  NODE(AsyncWith, stmt, true)                                                                       \
    FIELD(items, Seq, withitem) FIELD(body, Seq, stmt) FIELD(type_comment, OptStr, _)               \
  END()                                                                                             \
  NODE(Match, stmt, true) FIELD(subject, One, expr) FIELD(cases, Seq, match_case) END()             \
  NODE(Raise, stmt, true) FIELD(exc, Opt, expr) FIELD(cause, Opt, expr) END()                       \
  NODE(Try, stmt, true)                                                                             \
    FIELD(body, Seq, stmt) FIELD(handlers, Seq, excepthandler) FIELD(orelse, Seq, stmt)             \
    FIELD(finalbody, Seq, stmt)                                                                     \
  END()                                                                                             \
  NODE(TryStar, stmt, true)                                                                         \
    FIELD(body, Seq, stmt) FIELD(handlers, Seq, excepthandler) FIELD(orelse, Seq, stmt)             \
    FIELD(finalbody, Seq, stmt)                                                                     \
  END()                                                                                             \
  NODE(Assert, stmt, true) FIELD(test, One, expr) FIELD(msg, Opt, expr) END()                       \
  NODE(Import, stmt, true) FIELD(names, Seq, alias) END()                                           \
  NODE(ImportFrom, stmt, true) FIELD(module, OptId, _) FIELD(names, Seq, alias) FIELD(level, Int, _) END() \
  NODE(Global, stmt, true) FIELD(names, Ids, _) END()                                               \
  NODE(Nonlocal, stmt, true) FIELD(names, Ids, _) END()                                             \
  NODE(Expr, stmt, true) FIELD(value, One, expr) END()                                              \
  NODE(Pass, stmt, true) END()                                                                      \
  NODE(Break, stmt, true) END()                                                                     \
  NODE(Continue, stmt, true) END()                                                                  \
                                                                                                    \
  NODE(BoolOp, expr, true) FIELD(op, Enum, BoolOpKind) FIELD(values, Seq, expr) END()               \
  NODE(NamedExpr, expr, true) FIELD(target, One, expr) FIELD(value, One, expr) END()                \
  NODE(BinOp, expr, true) FIELD(left, One, expr) FIELD(op, Enum, OperatorKind) FIELD(right, One, expr) END() \
  NODE(UnaryOp, expr, true) FIELD(op, Enum, UnaryOpKind) FIELD(operand, One, expr) END()            \
  NODE(Lambda, expr, true) FIELD(args, One, arguments) FIELD(body, One, expr) END()                 \
  NODE(IfExp, expr, true) FIELD(test, One, expr) FIELD(body, One, expr) FIELD(orelse, One, expr) END() \
  NODE(Dict, expr, true) FIELD(keys, Seq, expr) FIELD(values, Seq, expr) END()                      \
  NODE(Set, expr, true) FIELD(elts, Seq, expr) END()                                                \
  NODE(ListComp, expr, true) FIELD(elt, One, expr) FIELD(generators, Seq, comprehension) END()      \
  NODE(SetComp, expr, true) FIELD(elt, One, expr) FIELD(generators, Seq, comprehension) END()       \
  NODE(DictComp, expr, true)                                                                        \
    FIELD(key, One, expr) FIELD(value, One, expr) FIELD(generators, Seq, comprehension)             \
  END()                                                                                             \
  NODE(GeneratorExp, expr, true) FIELD(elt, One, expr) FIELD(generators, Seq, comprehension) END()  \
  NODE(Await, expr, true) FIELD(value, One, expr) END()                                             \
  NODE(Yield, expr, true) FIELD(value, Opt, expr) END()                                             \
  NODE(YieldFrom, expr, true) FIELD(value, One, expr) END()                                         \
  NODE(Compare, expr, true) FIELD(left, One, expr) FIELD(ops, Enums, CmpOpKind) FIELD(comparators, Seq, expr) END() \
  NODE(Call, expr, true) FIELD(func, One, expr) FIELD(args, Seq, expr) FIELD(keywords, Seq, keyword) END() \
  NODE(FormattedValue, expr, true)                                                                  \
    FIELD(value, One, expr) FIELD(conversion, Int, _) FIELD(format_spec, Opt, expr)                 \
  END()                                                                                             \
  NODE(JoinedStr, expr, true) FIELD(values, Seq, expr) END()                                        \
  NODE(Constant, expr, true) FIELD(value, Const, _) FIELD(kind, OptStr, _) END()                    \
  NODE(Attribute, expr, true) FIELD(value, One, expr) FIELD(attr, Id, _) FIELD(ctx, Enum, ExprContext) END() \
  NODE(Subscript, expr, true) FIELD(value, One, expr) FIELD(slice, One, expr) FIELD(ctx, Enum, ExprContext) END() \
  NODE(Starred, expr, true) FIELD(value, One, expr) FIELD(ctx, Enum, ExprContext) END()             \
  NODE(Name, expr, true) FIELD(id, Id, _) FIELD(ctx, Enum, ExprContext) END()                       \
  NODE(List, expr, true) FIELD(elts, Seq, expr) FIELD(ctx, Enum, ExprContext) END()                 \
  NODE(Tuple, expr, true) FIELD(elts, Seq, expr) FIELD(ctx, Enum, ExprContext) END()                \
  NODE(Slice, expr, true) FIELD(lower, Opt, expr) FIELD(upper, Opt, expr) FIELD(step, Opt, expr) END() \
                                                                                                    \
  NODE(comprehension, Node, false)                                                                  \
    FIELD(target, One, expr) FIELD(iter, One, expr) FIELD(ifs, Seq, expr) FIELD(is_async, Int, _)   \
  END()                                                                                             \
  NODE(ExceptHandler, excepthandler, true)                                                          \
    FIELD(type, Opt, expr) FIELD(name, OptId, _) FIELD(body, Seq, stmt)                             \
  END()                                                                                             \
  NODE(arguments, Node, false)                                                                      \
    FIELD(posonlyargs, Seq, arg) FIELD(args, Seq, arg) FIELD(vararg, Opt, arg)                      \
    FIELD(kwonlyargs, Seq, arg) FIELD(kw_defaults, Seq, expr) FIELD(kwarg, Opt, arg)                \
    FIELD(defaults, Seq, expr)                                                                      \
  END()                                                                                             \
  NODE(arg, Node, true) FIELD(arg, Id, _) FIELD(annotation, Opt, expr) FIELD(type_comment, OptStr, _) END() \
  NODE(keyword, Node, true) FIELD(arg, OptId, _) FIELD(value, One, expr) END()                      \
  NODE(alias, Node, true) FIELD(name, Id, _) FIELD(asname, OptId, _) END()                          \
  NODE(withitem, Node, false) FIELD(context_expr, One, expr) FIELD(optional_vars, Opt, expr) END()  \
  NODE(match_case, Node, false)                                                                     \
    FIELD(pattern, One, pattern) FIELD(guard, Opt, expr) FIELD(body, Seq, stmt)                     \
  END()                                                                                             \
                                                                                                    \
  NODE(MatchValue, pattern, true) FIELD(value, One, expr) END()                                     \
  NODE(MatchSingleton, pattern, true) FIELD(value, Const, _) END()                                  \
  NODE(MatchSequence, pattern, true) FIELD(patterns, Seq, pattern) END()                            \
  NODE(MatchMapping, pattern, true)                                                                 \
    FIELD(keys, Seq, expr) FIELD(patterns, Seq, pattern) FIELD(rest, OptId, _)                      \
  END()                                                                                             \
  NODE(MatchClass, pattern, true)                                                                   \
    FIELD(cls, One, expr) FIELD(patterns, Seq, pattern) FIELD(kwd_attrs, Ids, _)                    \
    FIELD(kwd_patterns, Seq, pattern)                                                               \
  END()                                                                                             \
  NODE(MatchStar, pattern, true) FIELD(name, OptId, _) END()                                        \
  NODE(MatchAs, pattern, true) FIELD(pattern, Opt, pattern) FIELD(name, OptId, _) END()             \
  NODE(MatchOr, pattern, true) FIELD(patterns, Seq, pattern) END()                                  \
                                                                                                    \
  /* TypeIgnore's `lineno` field hides Node::lineno; the parser never makes one (no type_comments). */ \
  NODE(TypeIgnore, type_ignore, false) FIELD(lineno, Int, _) FIELD(tag, Str, _) END()
// clang-format on

// ---------------------------------------------------------------------------------------------
// Generated declarations.

#define ONNXIFY_AST_NODE_KIND(Class, Base, Attrs) Class,
#define ONNXIFY_AST_IGNORE(...)
enum class NodeKind : uint8_t {
  ONNXIFY_AST_NODES(ONNXIFY_AST_NODE_KIND, ONNXIFY_AST_IGNORE, ONNXIFY_AST_IGNORE)
};
#undef ONNXIFY_AST_NODE_KIND

// CPython's abstract base classes; product types are their own category (Category::Node).
enum class Category : uint8_t { mod, stmt, expr, excepthandler, pattern, type_ignore, Node };

// CPython's class name of a node kind ("BinOp", "arguments", ...).
const char* name(NodeKind k);
Category category(NodeKind k);
// Whether CPython's class has position `_attributes` (what ast.dump(include_attributes=True) prints).
bool has_attributes(NodeKind k);

template <class T>
using Seq = std::span<T* const>;

// Nodes are plain aggregates (no constructors: CPython's `arg` class has a field named `arg`, which
// C++ allows only in a class without user-declared constructors). The parser creates them in its
// arena and sets node_kind; nothing else creates nodes.
struct Node {
  NodeKind node_kind{};
  uint32_t lineno = 0;
  uint32_t col_offset = 0;
  uint32_t end_lineno = 0;
  uint32_t end_col_offset = 0;

  // True when this node is a T: a concrete class (ast::Call) or a category (ast::expr).
  template <class T>
  bool is() const;
  // This node as a T, or nullptr.
  template <class T>
  T* as() {
    return is<T>() ? static_cast<T*>(this) : nullptr;
  }
  template <class T>
  const T* as() const {
    return is<T>() ? static_cast<const T*>(this) : nullptr;
  }
  // This node as a T; the caller knows it is one (checked in debug builds).
  template <class T>
  T& cast();
  template <class T>
  const T& cast() const;
};

#define ONNXIFY_AST_CATEGORY(cat)                        \
  struct cat : Node {                                    \
    static constexpr Category kCategory = Category::cat; \
  };
ONNXIFY_AST_CATEGORY(mod)
ONNXIFY_AST_CATEGORY(stmt)
ONNXIFY_AST_CATEGORY(expr)
ONNXIFY_AST_CATEGORY(excepthandler)
ONNXIFY_AST_CATEGORY(pattern)
ONNXIFY_AST_CATEGORY(type_ignore)
#undef ONNXIFY_AST_CATEGORY

// Forward declarations of every class, so fields can point to any of them.
#define ONNXIFY_AST_FORWARD(Class, Base, Attrs) struct Class;
ONNXIFY_AST_NODES(ONNXIFY_AST_FORWARD, ONNXIFY_AST_IGNORE, ONNXIFY_AST_IGNORE)
#undef ONNXIFY_AST_FORWARD

// Qualified, because a field may share its type's name (match_case::pattern is a pattern*).
#define ONNXIFY_AST_FIELD_TYPE_One(T) ::onnxify::ast::T*
#define ONNXIFY_AST_FIELD_TYPE_Opt(T) ::onnxify::ast::T*
#define ONNXIFY_AST_FIELD_TYPE_Seq(T) ::onnxify::ast::Seq<::onnxify::ast::T>
#define ONNXIFY_AST_FIELD_TYPE_Id(T) Identifier
#define ONNXIFY_AST_FIELD_TYPE_OptId(T) Identifier
#define ONNXIFY_AST_FIELD_TYPE_Ids(T) std::span<const Identifier>
#define ONNXIFY_AST_FIELD_TYPE_Int(T) int
#define ONNXIFY_AST_FIELD_TYPE_Const(T) ConstantValue
#define ONNXIFY_AST_FIELD_TYPE_OptStr(T) std::string_view
#define ONNXIFY_AST_FIELD_TYPE_Str(T) std::string_view
#define ONNXIFY_AST_FIELD_TYPE_Enum(T) ::onnxify::ast::T
#define ONNXIFY_AST_FIELD_TYPE_Enums(T) std::span<const ::onnxify::ast::T>

#define ONNXIFY_AST_STRUCT_BEGIN(Class, Base, Attrs) \
  struct Class final : Base {                        \
    static constexpr NodeKind kKind = NodeKind::Class;
#define ONNXIFY_AST_STRUCT_FIELD(name, Card, Type) ONNXIFY_AST_FIELD_TYPE_##Card(Type) name{};
#define ONNXIFY_AST_STRUCT_END() \
  }                              \
  ;
ONNXIFY_AST_NODES(ONNXIFY_AST_STRUCT_BEGIN, ONNXIFY_AST_STRUCT_FIELD, ONNXIFY_AST_STRUCT_END)
#undef ONNXIFY_AST_STRUCT_BEGIN
#undef ONNXIFY_AST_STRUCT_FIELD
#undef ONNXIFY_AST_STRUCT_END

// ---------------------------------------------------------------------------------------------
// Type tests and dispatch.

namespace detail {
template <class T>
concept ConcreteNode = requires {
  T::kKind;
};
template <class T>
concept CategoryNode = requires {
  T::kCategory;
};
}  // namespace detail

template <class T>
bool Node::is() const {
  if constexpr (std::is_same_v<T, Node>) {
    return true;
  } else if constexpr (detail::ConcreteNode<T>) {
    return node_kind == T::kKind;
  } else {
    static_assert(detail::CategoryNode<T>, "is<T>: T must be a node class or category");
    return category(node_kind) == T::kCategory;
  }
}

void cast_failed(const Node& n, const char* wanted);

template <class T>
T& Node::cast() {
#ifndef NDEBUG
  if (!is<T>()) cast_failed(*this, typeid(T).name());
#endif
  return static_cast<T&>(*this);
}
template <class T>
const T& Node::cast() const {
  return const_cast<Node*>(this)->cast<T>();
}

// Calls f(concrete&) with the node's concrete class, e.g. f(ast::BinOp&). Returns what f returns.
template <class N, class F>
requires std::is_base_of_v<Node, std::remove_const_t<N>>
decltype(auto) visit(N& n, F&& f) {
  using Base = std::remove_const_t<N>;
  constexpr bool is_const = std::is_const_v<N>;
  switch (n.node_kind) {
#define ONNXIFY_AST_VISIT_CASE(Class, B, Attrs)     \
  case NodeKind::Class:                             \
    if constexpr (std::is_base_of_v<Base, Class>) { \
      if constexpr (is_const)                       \
        return f(static_cast<const Class&>(n));     \
      else                                          \
        return f(static_cast<Class&>(n));           \
    }                                               \
    break;
    ONNXIFY_AST_NODES(ONNXIFY_AST_VISIT_CASE, ONNXIFY_AST_IGNORE, ONNXIFY_AST_IGNORE)
#undef ONNXIFY_AST_VISIT_CASE
  }
  __builtin_unreachable();
}

// Calls f(Node*) for every non-null child node, in field order (what ast.iter_child_nodes yields).
namespace detail {
template <class F, class T>
void each_child(F& f, T* child) {
  if (child) f(static_cast<Node*>(child));
}
template <class F, class T>
void each_child(F& f, Seq<T> children) {
  for (T* c : children)
    if (c) f(static_cast<Node*>(c));
}
}  // namespace detail

#define ONNXIFY_AST_CHILD_One(f, x) detail::each_child(f, x);
#define ONNXIFY_AST_CHILD_Opt(f, x) detail::each_child(f, x);
#define ONNXIFY_AST_CHILD_Seq(f, x) detail::each_child(f, x);
#define ONNXIFY_AST_CHILD_Id(f, x)
#define ONNXIFY_AST_CHILD_OptId(f, x)
#define ONNXIFY_AST_CHILD_Ids(f, x)
#define ONNXIFY_AST_CHILD_Int(f, x)
#define ONNXIFY_AST_CHILD_Const(f, x)
#define ONNXIFY_AST_CHILD_OptStr(f, x)
#define ONNXIFY_AST_CHILD_Str(f, x)
#define ONNXIFY_AST_CHILD_Enum(f, x)
#define ONNXIFY_AST_CHILD_Enums(f, x)

template <class F>
void for_each_child(const Node& node, F&& f) {
  switch (node.node_kind) {
#define ONNXIFY_AST_EACH_BEGIN(Class, Base, Attrs) \
  case NodeKind::Class: {                          \
    [[maybe_unused]] const Class& n = static_cast<const Class&>(node);
#define ONNXIFY_AST_EACH_FIELD(name, Card, Type) ONNXIFY_AST_CHILD_##Card(f, n.name)
#define ONNXIFY_AST_EACH_END() \
  break;                       \
  }
    ONNXIFY_AST_NODES(ONNXIFY_AST_EACH_BEGIN, ONNXIFY_AST_EACH_FIELD, ONNXIFY_AST_EACH_END)
#undef ONNXIFY_AST_EACH_BEGIN
#undef ONNXIFY_AST_EACH_FIELD
#undef ONNXIFY_AST_EACH_END
  }
}

}  // namespace onnxify::ast
