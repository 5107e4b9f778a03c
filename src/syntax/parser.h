// The recursive-descent parser for Python 3.11 (internal to src/syntax).
//
// It follows CPython's Grammar/python.gram: each parse function carries the rule it implements,
// binary operators go by precedence climbing, and nodes get CPython's positions: a node made by a
// rule spans from the first token the rule consumed (an opening parenthesis included) to the
// last. Error messages are CPython's.
//
// The grammar is split by topic: parse_stmt.cpp (statements), parse_expr.cpp (expressions),
// parse_args.cpp (parameters and call arguments), parse_pattern.cpp (match patterns),
// parse_string.cpp (string literals, f-strings, numbers), targets.cpp (assignment targets).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/arena.h"
#include "syntax/ast.h"
#include "syntax/lexer.h"
#include "syntax/token.h"

namespace onnxify::syntax {

// A syntax error before it becomes a Diagnostic (parse() applies CPython's priorities between
// the parser's and the lexer's errors).
struct ParseError {
  std::string message;
  uint32_t line = 0, col = 0, end_line = 0, end_col = 0;
  // The parser reached the lexer's Error token (failing there, or looking ahead to it): the
  // lexer's error is the one to report.
  bool at_lexer_error = false;
  // "unexpected indent"/"unexpected unindent": CPython reports these without looking further.
  bool indentation = false;
  bool from_fstring = false;   // already carries CPython's "f-string: " prefix
  uint32_t furthest_line = 0;  // the line of the furthest token the parser had looked at
};

// What the parser of a file and the parsers of its f-string fields share.
struct ParseContext {
  std::string_view text;  // the lexed text; text.data()[text.size()] == '\0'
  Arena* arena = nullptr;
  int nesting = 0;  // current depth, across nested f-string parsers
  std::vector<std::vector<ast::Node*>> list_pool;
};

// What kind of assignment target an expression is being checked as (CPython's TARGETS_TYPE).
enum class TargetKind { Star, Del, For };

class Parser {
 public:
  // `tokens` ends with EndMarker or Error; `lex_error` describes the latter.
  Parser(ParseContext& ctx, const std::vector<Token>& tokens, const LexError& lex_error);

  ast::Module* file();
  ast::Expression* eval_input();
  // An f-string replacement field, tokenized as "(" + text + ")": star_expressions ENDMARKER.
  ast::expr* fstring_field();

 private:
  // ----- tokens
  const Token& tok() const { return toks_[pos_]; }
  const Token& peek(size_t k = 1) const {
    return toks_[pos_ + k < toks_.size() ? pos_ + k : toks_.size() - 1];
  }
  const Token& prev() const { return toks_[pos_ - 1]; }
  TokenKind kind() const { return toks_[pos_].kind; }
  bool at(TokenKind k) const { return toks_[pos_].kind == k; }
  const Token& advance() {
    const Token& t = toks_[pos_];
    if (pos_ + 1 < toks_.size()) ++pos_;
    if (pos_ > furthest_) furthest_ = pos_;
    return t;
  }
  bool accept(TokenKind k) {
    if (!at(k)) return false;
    advance();
    return true;
  }
  std::string_view text(const Token& t) const { return ctx_.text.substr(t.begin, t.end - t.begin); }
  bool at_name(std::string_view word) const { return at(TokenKind::Name) && text(tok()) == word; }
  // True when the current token can start an expression.
  bool starts_expression() const { return starts_expression_at(tok()); }
  static bool starts_expression_at(const Token& t);

  // ----- nodes: a node starts at a token (or another node) and ends at the last consumed token
  template <class T>
  T* make(const Token& start) {
    T* n = arena_.make<T>();
    n->node_kind = T::kKind;
    n->lineno = start.line;
    n->col_offset = start.col;
    return n;
  }
  template <class T>
  T* make_at(const ast::Node& start) {
    T* n = arena_.make<T>();
    n->node_kind = T::kKind;
    n->lineno = start.lineno;
    n->col_offset = start.col_offset;
    return n;
  }
  // The last consumed token that is not NEWLINE/INDENT/DEDENT: where a rule's node ends.
  const Token& last_significant() const {
    if (pos_ == 0) return toks_[0];  // nothing consumed (an empty module)
    size_t i = pos_ - 1;
    while (i > 0 && (toks_[i].kind == TokenKind::Newline || toks_[i].kind == TokenKind::Indent ||
                     toks_[i].kind == TokenKind::Dedent))
      --i;
    return toks_[i];
  }
  template <class T>
  T* finish(T* n) {
    const Token& last = last_significant();
    n->end_lineno = last.end_line;
    n->end_col_offset = last.end_col;
    return n;
  }
  template <class T>
  T* finish_at(T* n, const ast::Node& end) {
    n->end_lineno = end.end_lineno;
    n->end_col_offset = end.end_col_offset;
    return n;
  }
  ast::Identifier identifier(const Token& name);

  // A scratch list borrowed from the context's pool while a sequence is being collected.
  class Scratch {
   public:
    explicit Scratch(Parser& p);
    ~Scratch();
    Scratch(const Scratch&) = delete;
    void push(ast::Node* n) { items_.push_back(n); }
    size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }
    ast::Node* operator[](size_t i) const { return items_[i]; }
    ast::Node* back() const { return items_.back(); }
    void clear() { items_.clear(); }
    template <class T>
    ast::Seq<T> seq() const;

   private:
    Parser& p_;
    std::vector<ast::Node*> items_;
  };

  // ----- errors
  [[noreturn]] void fail(const Token& at, std::string message);
  [[noreturn]] void fail_range(const Token& from, const Token& to, std::string message);
  [[noreturn]] void fail_node(const ast::Node& n, std::string message);
  [[noreturn]] void fail_at(uint32_t line, uint32_t col, uint32_t end_line, uint32_t end_col,
                            std::string message);
  // CPython's "invalid syntax" at the current token, or a more specific message where CPython has
  // one for the situation.
  [[noreturn]] void invalid_syntax();
  // "invalid syntax. Perhaps you forgot a comma?" when two expressions touch inside brackets.
  void check_missing_comma(const Token& elem_start, const ast::expr* elem);
  // CPython's hints for `T = V` where V was expected to be compared ('==') or named (':=').
  void assignment_hint(const Token& start, const ast::expr* target);

  // Bounds recursion: every construct that nests calls Nest, which refuses to go deeper than
  // kMaxNesting with a clear error instead of exhausting the stack.
  class Nest {
   public:
    explicit Nest(Parser& p);
    ~Nest() { --p_.ctx_.nesting; }

   private:
    Parser& p_;
  };
  void check_chain(size_t length);  // a left-nested chain (a.b.c..., a+b+c...) adds depth too
  // Inside brackets for the life of the object.
  struct Brackets {
    explicit Brackets(Parser& p) : p_(p) { ++p_.bracket_depth_; }
    ~Brackets() { --p_.bracket_depth_; }
    Parser& p_;
  };

  // ----- statements (parse_stmt.cpp)
  void statements(Scratch& out);
  void statement(Scratch& out);
  void simple_stmts(Scratch& out);
  ast::stmt* simple_stmt();
  ast::stmt* expression_stmt();
  ast::stmt* return_stmt();
  ast::stmt* raise_stmt();
  ast::stmt* global_stmt(bool nonlocal);
  ast::stmt* del_stmt();
  ast::stmt* assert_stmt();
  ast::stmt* import_name();
  ast::stmt* import_from();
  ast::Identifier dotted_name(const Token** last);
  ast::Seq<ast::stmt> block(const Token& owner, const char* what);
  void expect_block_colon();
  ast::stmt* compound_stmt();
  ast::stmt* if_stmt(bool elif);
  ast::Seq<ast::stmt> else_block();
  ast::stmt* while_stmt();
  ast::stmt* for_stmt(const Token& start, bool is_async);
  ast::stmt* with_stmt(const Token& start, bool is_async);
  ast::withitem* with_item();
  ast::stmt* try_stmt();
  ast::excepthandler* except_block(bool* star);
  ast::stmt* decorated();
  ast::stmt* function_def(const Token& start, bool is_async, ast::Seq<ast::expr> decorators);
  ast::stmt* class_def(const Token& start, ast::Seq<ast::expr> decorators);
  bool at_match_stmt() const;
  ast::stmt* match_stmt();

  // ----- expressions (parse_expr.cpp)
  ast::expr* star_expressions();
  ast::expr* star_expression();
  ast::expr* star_named_expressions_tuple(const Token& start, ast::expr* first);
  ast::expr* star_named_expression();
  ast::expr* named_expression();
  ast::expr* expressions();
  ast::expr* expression();
  ast::expr* yield_expr();
  ast::expr* disjunction();
  ast::expr* conjunction();
  ast::expr* inversion();
  ast::expr* comparison();
  ast::expr* bitwise_or() { return binary(1); }
  ast::expr* binary(int min_precedence);
  ast::expr* factor();
  ast::expr* power();
  ast::expr* await_primary();
  ast::expr* primary();
  ast::expr* atom();
  ast::expr* paren_atom();
  ast::expr* list_atom();
  ast::expr* brace_atom();
  ast::expr* slices();
  ast::expr* slice();
  ast::expr* lambdef();
  ast::Seq<ast::comprehension> for_if_clauses();
  ast::expr* star_targets();
  ast::expr* star_target();

  // ----- arguments (parse_args.cpp)
  ast::arguments* parameters(bool lambda, TokenKind close);
  ast::arg* parameter(bool lambda, bool star_annotation);
  ast::expr* call(const Token& start, ast::expr* func);
  void arguments(Scratch& args, Scratch& keywords, const Token& open, bool class_bases);

  // ----- patterns (parse_pattern.cpp)
  ast::pattern* patterns();
  ast::pattern* pattern();
  ast::pattern* or_pattern();
  ast::pattern* closed_pattern();
  ast::pattern* sequence_pattern(const Token& start, TokenKind close);
  ast::pattern* mapping_pattern();
  ast::pattern* class_pattern(const Token& start, ast::expr* cls);
  ast::pattern* maybe_star_pattern();
  ast::expr* signed_number(bool allow_complex);
  ast::expr* name_or_attr();
  ast::Identifier capture_target();

  // ----- literals (parse_string.cpp)
  ast::expr* strings();
  ast::expr* number(const Token& t);
  // An f-string being assembled: pending literal text and the JoinedStr's parts so far.
  struct FStringState {
    std::string literal;
    Scratch* parts;
    const Token* first;  // the run of string tokens, whose range every part carries
    const Token* last;
    std::string_view kind;
  };
  void flush_literal(FStringState& st, const Token* first = nullptr, const Token* last = nullptr);
  void fstring_body(FStringState& st, const Token& token, uint32_t body_end, bool raw, int level,
                    uint32_t* pos);
  ast::expr* fstring_expression(FStringState& st, const Token& token, uint32_t* pos, uint32_t body_end,
                                bool raw, int level);
  ast::expr* fstring_compile(uint32_t open, uint32_t expr_begin, uint32_t expr_end);
  [[noreturn]] void fail_in_string(uint32_t offset, std::string message);
  void locate(uint32_t offset, uint32_t* line, uint32_t* col) const;

  // ----- targets (targets.cpp)
  // Gives an expression parsed as a load the Store/Del context, or fails with CPython's message.
  void set_context(ast::expr* e, ast::ExprContext ctx, TargetKind kind);
  static const ast::expr* invalid_target(const ast::expr* e, TargetKind kind);
  static const char* expr_name(const ast::expr* e);

  ParseContext& ctx_;
  Arena& arena_;
  const std::vector<Token>& toks_;
  const LexError& lex_error_;
  size_t pos_ = 0;
  size_t furthest_ = 0;    // the furthest token reached, speculation included
  int bracket_depth_ = 0;  // inside (), [] or {}: where CPython suggests a missing comma
};

template <class T>
ast::Seq<T> Parser::Scratch::seq() const {
  if (items_.empty()) return {};
  T** out = static_cast<T**>(p_.arena_.allocate(sizeof(T*) * items_.size(), alignof(T*)));
  for (size_t i = 0; i < items_.size(); ++i) out[i] = static_cast<T*>(items_[i]);
  return {out, items_.size()};
}

}  // namespace onnxify::syntax
