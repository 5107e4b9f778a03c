// ast.dump, generated from the node table: for each class, its fields in order, with CPython's
// rules (optional fields that are None are left out; list items that are None print as None).
#include <fmt/core.h>

#include "syntax/repr.h"
#include "syntax/syntax.h"

namespace onnxify::syntax {

using namespace ast;

namespace {

class Dumper {
 public:
  Dumper(std::string& out, DumpOptions options) : out_(out), options_(options) {}

  void node(const Node* n) {
    if (!n) {
      out_ += "None";
      return;
    }
    out_ += name(n->node_kind);
    out_ += '(';
    first_ = true;
    const Node* parent = current_;
    current_ = n;
    switch (n->node_kind) {
#define ONNXIFY_DUMP_BEGIN(Class, Base, Attrs) \
  case NodeKind::Class: {                      \
    [[maybe_unused]] const Class& x = static_cast<const Class&>(*n);
#define ONNXIFY_DUMP_FIELD(fname, Card, Type) field_##Card(#fname, x.fname);
#define ONNXIFY_DUMP_END() \
  break;                   \
  }
      ONNXIFY_AST_NODES(ONNXIFY_DUMP_BEGIN, ONNXIFY_DUMP_FIELD, ONNXIFY_DUMP_END)
#undef ONNXIFY_DUMP_BEGIN
#undef ONNXIFY_DUMP_FIELD
#undef ONNXIFY_DUMP_END
    }
    current_ = parent;
    if (options_.include_attributes && has_attributes(n->node_kind) && !in_fstring_field_) {
      key("lineno");
      out_ += fmt::format("{}", n->lineno);
      key("col_offset");
      out_ += fmt::format("{}", n->col_offset);
      key("end_lineno");
      out_ += fmt::format("{}", n->end_lineno);
      key("end_col_offset");
      out_ += fmt::format("{}", n->end_col_offset);
    }
    out_ += ')';
  }

 private:
  void key(const char* k) {
    if (!first_) out_ += ", ";
    first_ = false;
    out_ += k;
    out_ += '=';
  }
  template <class T>
  void list(const char* k, std::span<T* const> items) {
    key(k);
    out_ += '[';
    bool first = true;
    for (const T* item : items) {
      if (!first) out_ += ", ";
      first = false;
      node(item);  // restores first_ of the inner node only
      first_ = false;
    }
    out_ += ']';
  }
  void child(const char* k, const Node* n) {
    key(k);
    bool field = options_.skip_fstring_field_positions && current_->node_kind == NodeKind::FormattedValue &&
                 k[0] == 'v';  // FormattedValue.value: the replacement field's expression
    in_fstring_field_ += field;
    node(n);
    in_fstring_field_ -= field;
    first_ = false;
  }
  template <class T>
  void field_One(const char* k, const T* n) {
    child(k, n);
  }
  template <class T>
  void field_Opt(const char* k, const T* n) {
    if (n) child(k, n);
  }
  template <class T>
  void field_Seq(const char* k, Seq<T> items) {
    list(k, items);
  }
  void field_Id(const char* k, Identifier id) {
    key(k);
    repr_str(id, out_);
  }
  void field_OptId(const char* k, Identifier id) {
    if (!id.empty()) field_Id(k, id);
  }
  void field_Ids(const char* k, std::span<const Identifier> ids) {
    key(k);
    out_ += '[';
    for (size_t i = 0; i < ids.size(); ++i) {
      if (i) out_ += ", ";
      repr_str(ids[i], out_);
    }
    out_ += ']';
  }
  void field_Int(const char* k, int v) {
    key(k);
    out_ += fmt::format("{}", v);
  }
  void field_Const(const char* k, const ConstantValue& v) {
    key(k);
    repr_constant(v, out_);
  }
  void field_OptStr(const char* k, std::string_view s) {
    if (!s.empty()) field_Str(k, s);
  }
  void field_Str(const char* k, std::string_view s) {
    key(k);
    repr_str(s, out_);
  }
  template <class E>
  void field_Enum(const char* k, E v) {
    key(k);
    out_ += name(v);
    out_ += "()";
  }
  template <class E>
  void field_Enums(const char* k, std::span<const E> vs) {
    key(k);
    out_ += '[';
    for (size_t i = 0; i < vs.size(); ++i) {
      if (i) out_ += ", ";
      out_ += name(vs[i]);
      out_ += "()";
    }
    out_ += ']';
  }

  std::string& out_;
  DumpOptions options_;
  bool first_ = true;
  const Node* current_ = nullptr;
  int in_fstring_field_ = 0;
};

}  // namespace

void dump(const ast::Node& node, std::string& out, DumpOptions options) { Dumper(out, options).node(&node); }

}  // namespace onnxify::syntax
