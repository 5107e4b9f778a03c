#include "syntax/token.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace onnxify::syntax {

namespace {

struct TokenInfo {
  const char* text;
  bool is_op;
  bool is_keyword;
};

#define ONNXIFY_TOKEN_CLASS(Kind, text) {text, false, false},
#define ONNXIFY_TOKEN_OP(Kind, text) {text, true, false},
#define ONNXIFY_TOKEN_KEYWORD(Kind, text) {text, false, true},
constexpr TokenInfo kTokens[] = {
    ONNXIFY_TOKENS(ONNXIFY_TOKEN_CLASS, ONNXIFY_TOKEN_OP, ONNXIFY_TOKEN_KEYWORD)};
#undef ONNXIFY_TOKEN_CLASS
#undef ONNXIFY_TOKEN_OP
#undef ONNXIFY_TOKEN_KEYWORD
constexpr size_t kTokenCount = sizeof(kTokens) / sizeof(kTokens[0]);

// Lookup structures built once from the table: operators by first character (longest first) and
// keywords by first character.
struct Tables {
  std::array<std::vector<TokenKind>, 128> ops_by_first;
  std::array<std::vector<TokenKind>, 128> keywords_by_first;
  Tables() {
    for (size_t i = 0; i < kTokenCount; ++i) {
      auto k = static_cast<TokenKind>(i);
      const char* t = kTokens[i].text;
      if (kTokens[i].is_op) ops_by_first[static_cast<unsigned char>(t[0])].push_back(k);
      if (kTokens[i].is_keyword) keywords_by_first[static_cast<unsigned char>(t[0])].push_back(k);
    }
    for (auto& v : ops_by_first)
      std::stable_sort(v.begin(), v.end(), [](TokenKind a, TokenKind b) {
        return std::strlen(kTokens[static_cast<int>(a)].text) >
               std::strlen(kTokens[static_cast<int>(b)].text);
      });
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

}  // namespace

const char* token_text(TokenKind k) { return kTokens[static_cast<int>(k)].text; }
bool is_keyword(TokenKind k) { return kTokens[static_cast<int>(k)].is_keyword; }

TokenKind keyword_kind(std::string_view word) {
  if (word.size() < 2 || word.size() > 8) return TokenKind::Name;
  unsigned char c = static_cast<unsigned char>(word[0]);
  if (c >= 128) return TokenKind::Name;
  for (TokenKind k : tables().keywords_by_first[c])
    if (word == kTokens[static_cast<int>(k)].text) return k;
  return TokenKind::Name;
}

int match_operator(std::string_view s, TokenKind* kind) {
  if (s.empty()) return 0;
  unsigned char c = static_cast<unsigned char>(s[0]);
  if (c >= 128) return 0;
  for (TokenKind k : tables().ops_by_first[c]) {
    const char* t = kTokens[static_cast<int>(k)].text;
    size_t n = std::strlen(t);
    if (s.size() >= n && std::memcmp(s.data(), t, n) == 0) {
      *kind = k;
      return static_cast<int>(n);
    }
  }
  return 0;
}

}  // namespace onnxify::syntax
