// The tokenizer: Python 3.11's lexical grammar over a raw UTF-8 buffer, as CPython's
// Parser/tokenizer.c reads it (INDENT/DEDENT with tabs to 8 and the tab-consistency check,
// implicit joining inside brackets, backslash continuation, every number and string form).
//
// The whole file is tokenized up front into a vector (the parser backtracks in two places: `match`
// and parenthesized `with` items). A lexical error ends the vector with an Error token; the parser
// reports that error when it reaches the token, or instead of a syntax error of its own found
// earlier, following CPython's priorities (see parser.cpp, `fail`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "syntax/token.h"

namespace onnxify::syntax {

struct LexError {
  std::string message;
  uint32_t line = 0, col = 0;  // where the caret goes (0-based byte column)
  uint32_t end_line = 0, end_col = 0;
  // The file ended inside brackets ("'(' was never closed", at the bracket). CPython lets this
  // error replace a parser error only when the bracket was opened on an earlier line.
  bool unclosed_bracket = false;
  // CPython reports most tokenizer errors even when the parser failed earlier in the file (it
  // tokenizes the rest to look for them); indentation errors, a bad line continuation and an
  // unexpected end of file only count where the parser reaches them.
  bool replaces_parser_errors = true;
};

class Lexer {
 public:
  // Where buf[0] sits in the source text: its offset, line, and the offset of that line's start.
  struct Origin {
    uint32_t offset = 0;
    uint32_t line = 1;
    int64_t line_start = 0;
  };

  // Lexes buf[0, size). buf[size] must be readable and '\0'. A whole file must end with a line
  // terminator (parse() appends one, as CPython does). In fstring_expression mode the buffer is
  // the text of one f-string replacement field: it starts inside an implicit bracket (so newlines
  // are insignificant) and ends with EndMarker, like CPython's re-parse of "(" + text + ")".
  Lexer(const char* buf, uint32_t size, Origin origin, bool fstring_expression = false);

  // Appends the tokens to `out`; the last one is EndMarker or Error.
  void run(std::vector<Token>& out);
  const LexError& error() const { return error_; }

 private:
  struct Bracket {
    char ch;
    uint32_t line, col;
  };

  uint32_t offset(const char* p) const { return origin_.offset + static_cast<uint32_t>(p - buf_); }
  uint32_t col(const char* p) const { return static_cast<uint32_t>(offset(p) - line_start_); }
  void newline_at(const char* after) {
    ++line_;
    line_start_ = offset(after);
  }
  void push(std::vector<Token>& out, TokenKind kind, const char* b, const char* e, uint8_t flags = 0);
  // Records an error at p (caret there) and returns false, which stops the lexer.
  bool fail(const char* p, std::string message);
  bool fail_at(uint32_t line, uint32_t col, std::string message);

  bool indentation(std::vector<Token>& out);
  bool identifier(std::vector<Token>& out);
  bool number(std::vector<Token>& out);
  bool string(std::vector<Token>& out, uint8_t flags);
  bool end_of_number(const char* kind);
  bool decimal_tail();
  bool open_bracket(char c);
  bool close_bracket(char c);

  const char* buf_;
  const char* end_;
  const char* p_;
  const char* tok_start_ = nullptr;
  uint32_t tok_line_ = 0, tok_col_ = 0;  // where the current token starts
  Origin origin_;
  uint32_t line_;
  int64_t line_start_;
  bool fstring_;
  bool at_bol_;
  bool blank_line_ = false;
  int level_ = 0;
  std::vector<int> indents_{0};
  std::vector<int> alt_indents_{0};
  std::vector<Bracket> brackets_;
  LexError error_;
};

}  // namespace onnxify::syntax
