#include "syntax/ast.h"

#include <cstdio>
#include <cstdlib>

namespace onnxify::ast {

#define ONNXIFY_AST_NAME(v) #v,
const char* name(ExprContext v) {
  static const char* const names[] = {ONNXIFY_AST_EXPR_CONTEXT(ONNXIFY_AST_NAME)};
  return names[static_cast<int>(v)];
}
const char* name(BoolOpKind v) {
  static const char* const names[] = {ONNXIFY_AST_BOOLOP(ONNXIFY_AST_NAME)};
  return names[static_cast<int>(v)];
}
const char* name(OperatorKind v) {
  static const char* const names[] = {ONNXIFY_AST_OPERATOR(ONNXIFY_AST_NAME)};
  return names[static_cast<int>(v)];
}
const char* name(UnaryOpKind v) {
  static const char* const names[] = {ONNXIFY_AST_UNARYOP(ONNXIFY_AST_NAME)};
  return names[static_cast<int>(v)];
}
const char* name(CmpOpKind v) {
  static const char* const names[] = {ONNXIFY_AST_CMPOP(ONNXIFY_AST_NAME)};
  return names[static_cast<int>(v)];
}
#undef ONNXIFY_AST_NAME

namespace {
struct KindInfo {
  const char* name;
  Category category;
  bool attributes;
};
#define ONNXIFY_AST_INFO(Class, Base, Attrs) {#Class, Category::Base, Attrs},
constexpr KindInfo kInfo[] = {ONNXIFY_AST_NODES(ONNXIFY_AST_INFO, ONNXIFY_AST_IGNORE, ONNXIFY_AST_IGNORE)};
#undef ONNXIFY_AST_INFO
}  // namespace

const char* name(NodeKind k) { return kInfo[static_cast<int>(k)].name; }
Category category(NodeKind k) { return kInfo[static_cast<int>(k)].category; }
bool has_attributes(NodeKind k) { return kInfo[static_cast<int>(k)].attributes; }

void cast_failed(const Node& n, const char* wanted) {
  std::fprintf(stderr, "onnxify: internal error: ast node %s is not a %s\n", name(n.node_kind), wanted);
  std::abort();
}

}  // namespace onnxify::ast
