// The token table and the lexer on their own.
#include "syntax/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace onnxify::syntax {
namespace {

std::vector<Token> lex(const std::string& text, LexError* error = nullptr) {
  std::vector<Token> out;
  Lexer lexer(text.c_str(), static_cast<uint32_t>(text.size()), Lexer::Origin{});
  lexer.run(out);
  if (error) *error = lexer.error();
  return out;
}

std::vector<TokenKind> kinds(const std::string& text) {
  std::vector<TokenKind> out;
  for (const Token& t : lex(text)) out.push_back(t.kind);
  return out;
}

TEST(TokenTable, KeywordsAndOperatorsComeFromTheTable) {
  EXPECT_EQ(keyword_kind("lambda"), TokenKind::Lambda);
  EXPECT_EQ(keyword_kind("None"), TokenKind::None);
  EXPECT_EQ(keyword_kind("match"), TokenKind::Name);  // soft keyword
  EXPECT_EQ(keyword_kind("lambdas"), TokenKind::Name);
  EXPECT_STREQ(token_text(TokenKind::DoubleSlashEqual), "//=");
  EXPECT_TRUE(is_keyword(TokenKind::Yield));
  TokenKind k;
  EXPECT_EQ(match_operator("**=x", &k), 3);
  EXPECT_EQ(k, TokenKind::DoubleStarEqual);
  EXPECT_EQ(match_operator("...", &k), 3);
  EXPECT_EQ(k, TokenKind::Ellipsis);
  EXPECT_EQ(match_operator("->", &k), 2);
  EXPECT_EQ(k, TokenKind::RArrow);
  EXPECT_EQ(match_operator("$", &k), 0);
}

TEST(Lexer, IndentDedentAndNewlines) {
  using K = TokenKind;
  EXPECT_EQ(kinds("if x:\n    y\n\n  # comment\n    z\nw\n"),
            (std::vector<K>{K::If, K::Name, K::Colon, K::Newline, K::Indent, K::Name, K::Newline, K::Name,
                            K::Newline, K::Dedent, K::Name, K::Newline, K::EndMarker}));
  // Inside brackets line breaks and indentation do not count.
  EXPECT_EQ(kinds("f(a,\n      b)\n"), (std::vector<K>{K::Name, K::LPar, K::Name, K::Comma, K::Name, K::RPar,
                                                       K::Newline, K::EndMarker}));
  // Blocks still open at the end are closed.
  EXPECT_EQ(kinds("if x:\n  if y:\n    z\n"),
            (std::vector<K>{K::If, K::Name, K::Colon, K::Newline, K::Indent, K::If, K::Name, K::Colon,
                            K::Newline, K::Indent, K::Name, K::Newline, K::Dedent, K::Dedent, K::EndMarker}));
}

TEST(Lexer, PositionsAreLinesAndByteColumns) {
  auto t = lex("x = 'é' + \\\n  yy\n");
  ASSERT_GE(t.size(), 6u);
  EXPECT_EQ(t[2].kind, TokenKind::String);
  EXPECT_EQ(t[2].col, 4u);
  EXPECT_EQ(t[2].end_col, 8u);  // 'é' is 4 bytes
  EXPECT_EQ(t[4].line, 2u);     // after the continuation
  EXPECT_EQ(t[4].col, 2u);
  auto m = lex("s = '''a\nbc'''\n");
  EXPECT_EQ(m[2].line, 1u);
  EXPECT_EQ(m[2].end_line, 2u);
  EXPECT_EQ(m[2].end_col, 5u);
}

TEST(Lexer, NumbersAndStringPrefixes) {
  for (const char* n : {"0", "00", "0_0", "1_000", "0xdead_BEEF", "0o17", "0b1_0", "1.", ".5", "1e-5",
                        "1_0.0_1e+1_0", "3j", "1.5J", "0e0", "09.5"}) {
    auto t = lex(std::string(n) + "\n");
    EXPECT_EQ(t[0].kind, TokenKind::Number) << n;
    EXPECT_EQ(t[0].end - t[0].begin, std::string(n).size()) << n;
  }
  auto t = lex("rb'a' Br\"b\" f'c' Rf'd' u'e' b'' x'f'\n");
  EXPECT_EQ(t[0].flags, kStrRaw | kStrBytes);
  EXPECT_EQ(t[1].flags, kStrRaw | kStrBytes);
  EXPECT_EQ(t[2].flags, kStrFormat);
  EXPECT_EQ(t[3].flags, kStrRaw | kStrFormat);
  EXPECT_EQ(t[4].flags, kStrUnicode);
  EXPECT_EQ(t[5].flags, kStrBytes);
  EXPECT_EQ(t[6].kind, TokenKind::Name);  // x is no prefix
  EXPECT_EQ(t[7].kind, TokenKind::String);
  // "1if" is the number 1 and the keyword if (CPython warns); "1x" is an error.
  EXPECT_EQ(kinds("1if\n")[1], TokenKind::If);
  LexError e;
  auto bad = lex("x = 1x\n", &e);
  EXPECT_EQ(bad.back().kind, TokenKind::Error);
  EXPECT_EQ(e.message, "invalid decimal literal");
}

TEST(Lexer, ErrorsStopTheStream) {
  LexError e;
  auto t = lex("if x:\n\ty\n        z\n", &e);
  EXPECT_EQ(t.back().kind, TokenKind::Error);
  EXPECT_EQ(e.message, "inconsistent use of tabs and spaces in indentation");
  EXPECT_FALSE(e.replaces_parser_errors);
  lex("x = (1,\n2\n", &e);
  EXPECT_EQ(e.message, "'(' was never closed");
  EXPECT_TRUE(e.unclosed_bracket);
  EXPECT_EQ(e.line, 1u);
  EXPECT_EQ(e.col, 4u);
  lex("x = 'abc\n", &e);
  EXPECT_EQ(e.message, "unterminated string literal (detected at line 1)");
  lex(std::string(201, '(') + "\n", &e);
  EXPECT_EQ(e.message, "too many nested parentheses");
  // 99 nested blocks are fine, the 100th is one too many (CPython's MAXINDENT).
  auto nested = [](int n) {
    std::string s = "if x:\n";
    for (int i = 1; i < n; ++i) s += std::string(i, ' ') + "if x:\n";
    return s + std::string(n, ' ') + "pass\n";
  };
  EXPECT_EQ(lex(nested(99), &e).back().kind, TokenKind::EndMarker);
  EXPECT_EQ(lex(nested(100), &e).back().kind, TokenKind::Error);
  EXPECT_EQ(e.message, "too many levels of indentation");
}

}  // namespace
}  // namespace onnxify::syntax
