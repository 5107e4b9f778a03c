// Public header of src/syntax: Python 3.11 source in, CPython-identical AST out.
//
//   auto file = SourceFile::load("model.py");
//   syntax::ParsedModule m = syntax::parse_module(file);   // throws Diagnostic on a syntax error
//   for (ast::stmt* s : m.module().body) ...               // the tree: see syntax/ast.h
//   std::string text = syntax::dump(m.root());             // == CPython's ast.dump(ast.parse(src))
//
// parse_module reads the file the way CPython's ast.parse(bytes) does: UTF-8 with or without a BOM,
// a PEP 263 coding declaration (utf-8, latin-1 and ascii are supported; others are refused with a
// clear error), \n, \r\n and \r line ends, tabs and form feeds in indentation. Errors are CPython's
// SyntaxError/IndentationError/TabError messages in the one diagnostic format:
//
//   model.py:3:9: error: expected ':'
//       if x
//           ^
#pragma once

#include <memory>
#include <string>

#include "support/diagnostic.h"
#include "support/source.h"
#include "syntax/arena.h"
#include "syntax/ast.h"

namespace onnxify::syntax {

// The parser refuses (with a "too deeply nested" diagnostic) input whose tree would nest deeper than
// this many levels, so that no recursive walk over a tree can exhaust the stack. CPython has the
// same kind of limit (its AST construction stops near 2985 levels); real code stays far below.
constexpr int kMaxNesting = 3000;
// CPython's tokenizer limits, with CPython's messages.
constexpr int kMaxParenNesting = 200;  // "too many nested parentheses"
constexpr int kMaxIndent = 100;        // "too many levels of indentation"

// ast.parse's `mode`: "exec" gives a Module, "eval" an Expression.
enum class Mode { Exec, Eval };

// A parsed file: owns the tree (in its arena) and the source text the tree points into.
// Move-only; wrap it in a shared_ptr to share it.
class ParsedModule {
 public:
  ParsedModule(ParsedModule&&) = default;
  ParsedModule& operator=(ParsedModule&&) = default;

  // ast::Module for Mode::Exec, ast::Expression for Mode::Eval.
  const ast::mod& root() const { return *root_; }
  const ast::Module& module() const { return root_->cast<ast::Module>(); }
  const ast::Expression& expression() const { return root_->cast<ast::Expression>(); }

  // The text the positions refer to: the file as given, or its UTF-8 transcoding when it declares
  // another encoding.
  const std::shared_ptr<const SourceFile>& file() const { return file_; }
  // A node's source range, for diagnostics.
  SourceRange range(const ast::Node& n) const {
    return SourceRange{file_, {n.lineno, n.col_offset}, {n.end_lineno, n.end_col_offset}};
  }
  size_t arena_bytes() const { return arena_->bytes_allocated(); }

 private:
  friend ParsedModule parse(std::shared_ptr<const SourceFile> file, Mode mode);
  ParsedModule() = default;
  std::shared_ptr<const SourceFile> file_;
  std::unique_ptr<Arena> arena_;
  ast::mod* root_ = nullptr;
};

// Parses a whole file (or an expression, Mode::Eval). Throws Diagnostic on a syntax error.
ParsedModule parse(std::shared_ptr<const SourceFile> file, Mode mode = Mode::Exec);
inline ParsedModule parse_module(std::shared_ptr<const SourceFile> file) {
  return parse(std::move(file), Mode::Exec);
}
inline ParsedModule parse_expression(std::shared_ptr<const SourceFile> file) {
  return parse(std::move(file), Mode::Eval);
}

struct DumpOptions {
  // Also print lineno/col_offset/end_lineno/end_col_offset, as ast.dump(include_attributes=True).
  bool include_attributes = false;
  // Leave out the positions of nodes inside f-string replacement fields, where CPython 3.11's own
  // positions are unreliable (it re-parses the field's text and shifts the result). Used only to
  // compare with CPython; see tests/syntax/corpus_test.py.
  bool skip_fstring_field_positions = false;
};

// Exactly CPython 3.11's ast.dump(node, include_attributes=...) (no indent), constant reprs
// included. Appends to `out`.
void dump(const ast::Node& node, std::string& out, DumpOptions options = {});
inline std::string dump(const ast::Node& node, DumpOptions options = {}) {
  std::string out;
  dump(node, out, options);
  return out;
}

}  // namespace onnxify::syntax
