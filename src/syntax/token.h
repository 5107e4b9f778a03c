// Python 3.11's tokens: ONE table generates the TokenKind enum, the token names used in messages,
// the operator matcher and the keyword lookup.
#pragma once

#include <cstdint>
#include <string_view>

namespace onnxify::syntax {

//   TOKEN(Kind, description)   token classes
//   OP(Kind, spelling)          operators and delimiters (Grammar/Tokens in CPython)
//   KEYWORD(Kind, spelling)     hard keywords; the soft keywords match, case, _ are NAMEs
// clang-format off
#define ONNXIFY_TOKENS(TOKEN, OP, KEYWORD)                                                            \
  TOKEN(EndMarker, "end of file")                                                                  \
  TOKEN(Name, "name")                                                                              \
  TOKEN(Number, "number")                                                                          \
  TOKEN(String, "string")                                                                          \
  TOKEN(Newline, "newline")                                                                        \
  TOKEN(Indent, "indent")                                                                          \
  TOKEN(Dedent, "dedent")                                                                          \
  /* A character that starts no token ('$', '?', a lone '!'); the parser rejects it, as CPython's */ \
  TOKEN(Unknown, "character")                                                                      \
  /* The point where the lexer stopped with an error; the parser reports that error on reaching it. */ \
  TOKEN(Error, "error")                                                                            \
  OP(LPar, "(") OP(RPar, ")") OP(LSqb, "[") OP(RSqb, "]") OP(LBrace, "{") OP(RBrace, "}")          \
  OP(Colon, ":") OP(Comma, ",") OP(Semi, ";") OP(Dot, ".") OP(Ellipsis, "...") OP(RArrow, "->")    \
  OP(Plus, "+") OP(Minus, "-") OP(Star, "*") OP(Slash, "/") OP(VBar, "|") OP(Amper, "&")           \
  OP(Less, "<") OP(Greater, ">") OP(Equal, "=") OP(Percent, "%") OP(Tilde, "~") OP(Circumflex, "^") \
  OP(At, "@") OP(EqEqual, "==") OP(NotEqual, "!=") OP(LessEqual, "<=") OP(GreaterEqual, ">=")      \
  OP(LeftShift, "<<") OP(RightShift, ">>") OP(DoubleStar, "**") OP(DoubleSlash, "//")              \
  OP(ColonEqual, ":=")                                                                             \
  OP(PlusEqual, "+=") OP(MinEqual, "-=") OP(StarEqual, "*=") OP(SlashEqual, "/=")                  \
  OP(PercentEqual, "%=") OP(AmperEqual, "&=") OP(VBarEqual, "|=") OP(CircumflexEqual, "^=")        \
  OP(LeftShiftEqual, "<<=") OP(RightShiftEqual, ">>=") OP(DoubleStarEqual, "**=")                  \
  OP(DoubleSlashEqual, "//=") OP(AtEqual, "@=")                                                    \
  KEYWORD(False, "False") KEYWORD(None, "None") KEYWORD(True, "True") KEYWORD(And, "and")          \
  KEYWORD(As, "as") KEYWORD(Assert, "assert") KEYWORD(Async, "async") KEYWORD(Await, "await")      \
  KEYWORD(Break, "break") KEYWORD(Class, "class") KEYWORD(Continue, "continue") KEYWORD(Def, "def") \
  KEYWORD(Del, "del") KEYWORD(Elif, "elif") KEYWORD(Else, "else") KEYWORD(Except, "except")        \
  KEYWORD(Finally, "finally") KEYWORD(For, "for") KEYWORD(From, "from") KEYWORD(Global, "global")   \
  KEYWORD(If, "if") KEYWORD(Import, "import") KEYWORD(In, "in") KEYWORD(Is, "is")                  \
  KEYWORD(Lambda, "lambda") KEYWORD(Nonlocal, "nonlocal") KEYWORD(Not, "not") KEYWORD(Or, "or")    \
  KEYWORD(Pass, "pass") KEYWORD(Raise, "raise") KEYWORD(Return, "return") KEYWORD(Try, "try")      \
  KEYWORD(While, "while") KEYWORD(With, "with") KEYWORD(Yield, "yield")
// clang-format on

#define ONNXIFY_TOKEN_ENUM(Kind, text) Kind,
enum class TokenKind : uint8_t { ONNXIFY_TOKENS(ONNXIFY_TOKEN_ENUM, ONNXIFY_TOKEN_ENUM, ONNXIFY_TOKEN_ENUM) };
#undef ONNXIFY_TOKEN_ENUM

// The spelling of operators and keywords ("+=", "lambda"), a description of the others ("name").
const char* token_text(TokenKind k);
bool is_keyword(TokenKind k);
// The keyword spelled `word`, or TokenKind::Name.
TokenKind keyword_kind(std::string_view word);
// The longest operator at the start of `s`; returns its length (0 if none) and kind.
int match_operator(std::string_view s, TokenKind* kind);

// String prefix flags (Token::flags for String tokens).
enum StringFlags : uint8_t { kStrRaw = 1, kStrBytes = 2, kStrFormat = 4, kStrUnicode = 8 };

// One token. Positions follow CPython: 1-based lines, 0-based UTF-8 byte columns; offsets index
// the lexed text.
struct Token {
  TokenKind kind = TokenKind::EndMarker;
  uint8_t flags = 0;
  uint32_t begin = 0, end = 0;  // byte offsets [begin, end)
  uint32_t line = 0, col = 0;
  uint32_t end_line = 0, end_col = 0;
};

}  // namespace onnxify::syntax
