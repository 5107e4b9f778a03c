#include "syntax/lexer.h"

#include <fmt/core.h>

#include <array>
#include <cstring>

#include "syntax/syntax.h"
#include "syntax/unicode.h"

namespace onnxify::syntax {

namespace {

enum : uint8_t { kIdentStart = 1, kIdentChar = 2, kDigit = 4, kHexDigit = 8 };

constexpr std::array<uint8_t, 256> make_classes() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 128;
    bool digit = c >= '0' && c <= '9';
    if (letter) t[c] |= kIdentStart | kIdentChar;
    if (digit) t[c] |= kIdentChar | kDigit | kHexDigit;
    if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) t[c] |= kHexDigit;
  }
  return t;
}
constexpr std::array<uint8_t, 256> kClass = make_classes();

inline bool ident_start(char c) { return kClass[static_cast<unsigned char>(c)] & kIdentStart; }
inline bool ident_char(char c) { return kClass[static_cast<unsigned char>(c)] & kIdentChar; }
inline bool digit(char c) { return kClass[static_cast<unsigned char>(c)] & kDigit; }
inline bool hex_digit(char c) { return kClass[static_cast<unsigned char>(c)] & kHexDigit; }
inline bool is_newline(char c) { return c == '\n' || c == '\r'; }

constexpr int kTabSize = 8;

}  // namespace

Lexer::Lexer(const char* buf, uint32_t size, Origin origin, bool fstring_expression)
    : buf_(buf),
      end_(buf + size),
      p_(buf),
      origin_(origin),
      line_(origin.line),
      line_start_(origin.line_start),
      fstring_(fstring_expression),
      at_bol_(!fstring_expression),
      level_(fstring_expression ? 1 : 0) {}

void Lexer::push(std::vector<Token>& out, TokenKind kind, const char* b, const char* e, uint8_t flags) {
  Token& t = out.emplace_back();
  t.kind = kind;
  t.flags = flags;
  t.begin = offset(b);
  t.end = offset(e);
  t.line = tok_line_;
  t.col = tok_col_;
  t.end_line = line_;
  t.end_col = col(e);
}

bool Lexer::fail(const char* p, std::string message) { return fail_at(line_, col(p), std::move(message)); }

bool Lexer::fail_at(uint32_t line, uint32_t column, std::string message) {
  error_.message = std::move(message);
  error_.line = error_.end_line = line;
  error_.col = error_.end_col = column;
  return false;
}

void Lexer::run(std::vector<Token>& out) {
  for (;;) {
    if (at_bol_) {
      at_bol_ = false;
      if (!indentation(out)) {
        error_.replaces_parser_errors = false;
        break;
      }
    }
    const char* p = p_;
    while (*p == ' ' || *p == '\t' || *p == '\f') ++p;
    // A token's start; a NEWLINE after a comment starts at the '#', as in CPython.
    tok_start_ = p;
    tok_line_ = line_;
    tok_col_ = col(p);
    if (*p == '#') {
      while (p < end_ && !is_newline(*p)) ++p;
    }
    p_ = p;
    char c = *p;

    if (p >= end_) {
      if (fstring_) {
        push(out, TokenKind::EndMarker, p, p);
        return;
      }
      if (level_ > 0) {
        const Bracket& b = brackets_.back();
        fail_at(b.line, b.col, fmt::format("'{}' was never closed", b.ch));
        error_.unclosed_bracket = true;
        break;
      }
      // The text ends with a line terminator, so the last NEWLINE is out; close the blocks.
      for (size_t i = 1; i < indents_.size(); ++i) push(out, TokenKind::Dedent, p, p);
      push(out, TokenKind::EndMarker, p, p);
      return;
    }

    if (ident_start(c)) {
      if (!identifier(out)) break;
      continue;
    }

    if (is_newline(c)) {
      const char* after = p + ((c == '\r' && p[1] == '\n') ? 2 : 1);
      if (!blank_line_ && level_ == 0) {
        // NEWLINE spans the terminator's first character.
        const char* e = p + 1;
        Token& t = out.emplace_back();
        t.kind = TokenKind::Newline;
        t.begin = offset(tok_start_);
        t.end = offset(e);
        t.line = t.end_line = line_;
        t.col = tok_col_;
        t.end_col = col(e);
      }
      p_ = after;
      newline_at(after);
      at_bol_ = true;
      blank_line_ = false;
      continue;
    }

    if (c == '.' && digit(p[1])) {
      if (!number(out)) break;
      continue;
    }
    if (digit(c)) {
      if (!number(out)) break;
      continue;
    }
    if (c == '"' || c == '\'') {
      if (!string(out, 0)) break;
      continue;
    }

    if (c == '\\') {
      const char* q = p + 1;
      if (!is_newline(*q)) {
        fail(p + 1, "unexpected character after line continuation character");
        error_.replaces_parser_errors = false;
        break;
      }
      q += (*q == '\r' && q[1] == '\n') ? 2 : 1;
      if (q >= end_) {
        fail(p + 1, "unexpected EOF while parsing");
        error_.replaces_parser_errors = false;
        break;
      }
      newline_at(q);
      p_ = q;
      continue;
    }

    if (c == '(' || c == '[' || c == '{') {
      if (!open_bracket(c)) break;
      TokenKind k = c == '(' ? TokenKind::LPar : c == '[' ? TokenKind::LSqb : TokenKind::LBrace;
      p_ = p + 1;
      push(out, k, p, p_);
      continue;
    }
    if (c == ')' || c == ']' || c == '}') {
      if (!close_bracket(c)) break;
      TokenKind k = c == ')' ? TokenKind::RPar : c == ']' ? TokenKind::RSqb : TokenKind::RBrace;
      p_ = p + 1;
      push(out, k, p, p_);
      continue;
    }

    TokenKind kind;
    if (int n = match_operator(std::string_view(p, end_ - p), &kind)) {
      p_ = p + n;
      push(out, kind, p, p_);
      continue;
    }
    unsigned char uc = static_cast<unsigned char>(c);
    if (uc < 0x20 || uc == 0x7f) {
      fail(p, fmt::format("invalid non-printable character U+{:04X}", uc));
      break;
    }
    // '$', '?', '`', a lone '!': a token no grammar rule accepts, so the parser says "invalid syntax".
    p_ = p + 1;
    push(out, TokenKind::Unknown, p, p_);
  }
  // Stopped by an error: the token marks where (the error itself may point elsewhere, e.g. at an
  // unclosed bracket).
  const char* stop = p_ < end_ ? p_ : end_;
  Token& t = out.emplace_back();
  t.kind = TokenKind::Error;
  t.begin = t.end = offset(stop);
  t.line = t.end_line = line_;
  t.col = t.end_col = col(stop);
}

// Measures the indentation of a new line and emits INDENT/DEDENT tokens (CPython's tok_get at
// `atbol`): tabs advance to the next multiple of 8, a form feed resets the column, and the same
// indentation measured with tabs as 1 column must agree, or the file mixes tabs and spaces
// ambiguously.
bool Lexer::indentation(std::vector<Token>& out) {
  int column = 0, alt_column = 0;
  // A backslash continuation inside the indentation: the column where the first one stands is the
  // line's indentation (CPython's cont_line_col), and the line may still turn out blank.
  int continued_column = 0;
  const char* p = p_;
  for (;;) {
    char c = *p;
    if (c == ' ') {
      ++column;
      ++alt_column;
    } else if (c == '\t') {
      column = (column / kTabSize + 1) * kTabSize;
      ++alt_column;
    } else if (c == '\f') {
      column = alt_column = 0;
    } else if (c == '\\' && p < end_) {
      const char* q = p + 1;
      if (!is_newline(*q)) return fail(q, "unexpected character after line continuation character");
      q += (*q == '\r' && q[1] == '\n') ? 2 : 1;
      if (q >= end_) return fail(p + 1, "unexpected EOF while parsing");
      if (!continued_column) continued_column = column;
      newline_at(q);
      p = q;
      continue;
    } else {
      break;
    }
    ++p;
  }
  p_ = p;
  char c = *p;
  // Lines holding only whitespace and comments neither indent nor end a statement.
  blank_line_ = p < end_ && (c == '#' || is_newline(c));
  if (blank_line_ || level_ > 0) return true;
  if (continued_column) column = alt_column = continued_column;

  tok_line_ = line_;
  tok_col_ = col(p);
  const char* kTabError = "inconsistent use of tabs and spaces in indentation";
  if (column == indents_.back()) {
    if (alt_column != alt_indents_.back()) return fail(p, kTabError);
  } else if (column > indents_.back()) {
    if (indents_.size() >= static_cast<size_t>(kMaxIndent)) return fail(p, "too many levels of indentation");
    if (alt_column <= alt_indents_.back()) return fail(p, kTabError);
    indents_.push_back(column);
    alt_indents_.push_back(alt_column);
    push(out, TokenKind::Indent, p, p);
  } else {
    while (indents_.size() > 1 && column < indents_.back()) {
      indents_.pop_back();
      alt_indents_.pop_back();
      push(out, TokenKind::Dedent, p, p);
    }
    if (column != indents_.back()) return fail(p, "unindent does not match any outer indentation level");
    if (alt_column != alt_indents_.back()) return fail(p, kTabError);
  }
  return true;
}

bool Lexer::identifier(std::vector<Token>& out) {
  const char* p = p_;
  // String prefixes: b, r, u, f and the combinations br, rb, fr, rf in any case (CPython's rules:
  // u combines with nothing, b not with f).
  bool saw_b = false, saw_r = false, saw_u = false, saw_f = false;
  for (const char* q = p;;) {
    char c = *q;
    if (!(saw_b || saw_u || saw_f) && (c == 'b' || c == 'B'))
      saw_b = true;
    else if (!(saw_b || saw_u || saw_r || saw_f) && (c == 'u' || c == 'U'))
      saw_u = true;
    else if (!(saw_r || saw_u) && (c == 'r' || c == 'R'))
      saw_r = true;
    else if (!(saw_f || saw_b || saw_u) && (c == 'f' || c == 'F'))
      saw_f = true;
    else
      break;
    ++q;
    if (*q == '"' || *q == '\'') {
      p_ = q;
      uint8_t flags = (saw_r ? kStrRaw : 0) | (saw_b ? kStrBytes : 0) | (saw_f ? kStrFormat : 0) |
                      (saw_u ? kStrUnicode : 0);
      return string(out, flags);
    }
  }
  bool non_ascii = false;
  while (ident_char(*p)) {
    non_ascii |= static_cast<unsigned char>(*p) >= 128;
    ++p;
  }
  std::string_view word(p_, p - p_);
  if (non_ascii) {
    // CPython scans every byte >= 128 as part of a name, then checks the decoded name.
    for (size_t i = 0; i < word.size();) {
      char32_t cp;
      int n = unicode::decode_utf8(word, i, &cp);
      if (n == 0) {
        int len;
        const char* reason = unicode::utf8_error_reason(word, i, &len);
        return fail(p_,
                    fmt::format("(unicode error) 'utf-8' codec can't decode byte 0x{:02x} in position {}: {}",
                                static_cast<unsigned char>(word[i]), i, reason));
      }
      bool ok = i == 0 ? (cp == '_' || unicode::is_xid_start(cp)) : unicode::is_xid_continue(cp);
      if (!ok) {
        if (unicode::is_printable(cp))
          return fail(p_ + i, fmt::format("invalid character '{}' (U+{:04X})", word.substr(i, n),
                                          static_cast<uint32_t>(cp)));
        return fail(p_ + i,
                    fmt::format("invalid non-printable character U+{:04X}", static_cast<uint32_t>(cp)));
      }
      i += n;
    }
    p_ = p;
    push(out, TokenKind::Name, p - word.size(), p);
    return true;
  }
  p_ = p;
  push(out, keyword_kind(word), p - word.size(), p);
  return true;
}

// After a number: CPython accepts a directly following `and`, `else`, `for`, `if`, `in`, `is`,
// `not`, `or` (with a warning) and refuses any other letter ("invalid decimal literal").
bool Lexer::end_of_number(const char* kind) {
  const char* p = p_;
  auto keyword_follows = [&](const char* rest) {
    size_t n = std::strlen(rest);
    for (size_t i = 0; i < n; ++i)
      if (p[1 + i] != rest[i]) return false;
    return !ident_char(p[1 + n]);
  };
  bool ok_keyword = false;
  switch (*p) {
    case 'a':
      ok_keyword = keyword_follows("nd");
      break;
    case 'e':
      ok_keyword = keyword_follows("lse");
      break;
    case 'f':
      ok_keyword = keyword_follows("or");
      break;
    case 'i':
      ok_keyword = p[1] == 'f' || p[1] == 'n' || p[1] == 's';
      break;
    case 'o':
      ok_keyword = keyword_follows("r");
      break;
    case 'n':
      ok_keyword = keyword_follows("ot");
      break;
    default:
      break;
  }
  if (!ok_keyword && ident_char(*p)) return fail(p - 1, fmt::format("invalid {} literal", kind));
  return true;
}

// digits ('_'? digits)*; p_ is on the first digit.
bool Lexer::decimal_tail() {
  const char* p = p_;
  for (;;) {
    while (digit(*p)) ++p;
    if (*p != '_') break;
    ++p;
    if (!digit(*p)) {
      p_ = p;
      return fail(p - 1, "invalid decimal literal");
    }
  }
  p_ = p;
  return true;
}

// Every numeric literal form of Python 3.11, following CPython's tokenizer and its messages.
bool Lexer::number(std::vector<Token>& out) {
  const char* start = p_;
  const char* p = p_;
  auto finish = [&](const char* e) {
    p_ = e;
    push(out, TokenKind::Number, start, e);
    return true;
  };
  enum class Next { Fraction, Exponent, Imaginary, End };
  Next next = Next::End;

  if (*p == '.') {
    p_ = p + 1;
    next = Next::Fraction;
  } else if (*p == '0' &&
             (p[1] == 'x' || p[1] == 'X' || p[1] == 'o' || p[1] == 'O' || p[1] == 'b' || p[1] == 'B')) {
    char base = static_cast<char>(p[1] | 0x20);
    const char* kind = base == 'x' ? "hexadecimal" : base == 'o' ? "octal" : "binary";
    auto in_base = [&](char c) {
      return base == 'x' ? hex_digit(c) : base == 'o' ? (c >= '0' && c <= '7') : (c == '0' || c == '1');
    };
    p += 2;
    do {
      if (*p == '_') ++p;
      if (!in_base(*p)) {
        if (base != 'x' && digit(*p))
          return fail(p, fmt::format("invalid digit '{}' in {} literal", *p, kind));
        return fail(p - 1, fmt::format("invalid {} literal", kind));
      }
      while (in_base(*p)) ++p;
    } while (*p == '_');
    if (base != 'x' && digit(*p)) return fail(p, fmt::format("invalid digit '{}' in {} literal", *p, kind));
    p_ = p;
    if (!end_of_number(kind)) return false;
    return finish(p);
  } else if (*p == '0') {
    // "0", "00", "0_0" are fine; other digits after leading zeros only in floats and imaginaries.
    ++p;
    for (;;) {
      if (*p == '_') {
        ++p;
        if (!digit(*p)) return fail(p - 1, "invalid decimal literal");
      }
      if (*p != '0') break;
      ++p;
    }
    bool nonzero = false;
    p_ = p;
    if (digit(*p)) {
      nonzero = true;
      if (!decimal_tail()) return false;
      p = p_;
    }
    if (*p == '.') {
      p_ = p + 1;
      next = Next::Fraction;
    } else if (*p == 'e' || *p == 'E') {
      next = Next::Exponent;
    } else if (*p == 'j' || *p == 'J') {
      next = Next::Imaginary;
    } else if (nonzero) {
      fail(
          start,
          "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
      error_.end_col = col(start) + 1;
      return false;
    } else {
      if (!end_of_number("decimal")) return false;
      return finish(p);
    }
  } else {
    if (!decimal_tail()) return false;
    p = p_;
    if (*p == '.') {
      p_ = p + 1;
      next = Next::Fraction;
    } else if (*p == 'e' || *p == 'E') {
      next = Next::Exponent;
    } else if (*p == 'j' || *p == 'J') {
      next = Next::Imaginary;
    } else {
      if (!end_of_number("decimal")) return false;
      return finish(p);
    }
  }

  if (next == Next::Fraction) {
    if (digit(*p_) && !decimal_tail()) return false;
    p = p_;
    next = (*p == 'e' || *p == 'E') ? Next::Exponent : (*p == 'j' || *p == 'J') ? Next::Imaginary : Next::End;
  }
  if (next == Next::Exponent) {
    const char* e = p;
    p = e + 1;
    if (*p == '+' || *p == '-') {
      ++p;
      if (!digit(*p)) return fail(p - 1, "invalid decimal literal");
    } else if (!digit(*p)) {
      // "1else": the number ends before the 'e' when a keyword follows.
      p_ = e;
      if (!end_of_number("decimal")) return false;
      return finish(e);
    }
    p_ = p;
    if (!decimal_tail()) return false;
    p = p_;
    next = (*p == 'j' || *p == 'J') ? Next::Imaginary : Next::End;
  }
  if (next == Next::Imaginary) {
    p_ = p + 1;
    if (!end_of_number("imaginary")) return false;
    return finish(p + 1);
  }
  p_ = p;
  if (!end_of_number("decimal")) return false;
  return finish(p);
}

// A string literal; p_ is on the opening quote, tok_start_ on the prefix. Only the extent is found
// here; the parser decodes escapes and f-string fields.
bool Lexer::string(std::vector<Token>& out, uint8_t flags) {
  const char* p = p_;
  char quote = *p++;
  int quote_size = 1, end_quote_size = 0;
  if (*p == quote) {
    if (p[1] == quote) {
      quote_size = 3;
      p += 2;
    } else {
      ++p;
      end_quote_size = 1;  // the empty string
    }
  }
  while (end_quote_size != quote_size) {
    char c = *p;
    if (p >= end_ || (quote_size == 1 && is_newline(c))) {
      // The line where the scan stopped; at the end of the text that is the last line, not the
      // empty one after the final terminator.
      uint32_t detected = p >= end_ && !fstring_ ? line_ - 1 : line_;
      const char* what =
          quote_size == 3 ? "unterminated triple-quoted string literal" : "unterminated string literal";
      return fail_at(tok_line_, tok_col_, fmt::format("{} (detected at line {})", what, detected));
    }
    if (c == quote) {
      ++end_quote_size;
      ++p;
      continue;
    }
    end_quote_size = 0;
    if (c == '\\') {
      ++p;
      c = *p;
      if (p >= end_) continue;
    }
    if (is_newline(c)) {
      p += (c == '\r' && p[1] == '\n') ? 2 : 1;
      newline_at(p);
    } else {
      ++p;
    }
  }
  p_ = p;
  push(out, TokenKind::String, tok_start_, p, flags);
  return true;
}

bool Lexer::open_bracket(char c) {
  if (level_ >= kMaxParenNesting) return fail(p_, "too many nested parentheses");
  brackets_.push_back({c, line_, col(p_)});
  ++level_;
  return true;
}

bool Lexer::close_bracket(char c) {
  if (brackets_.empty()) return fail(p_, fmt::format("unmatched '{}'", c));
  Bracket open = brackets_.back();
  char want = open.ch == '(' ? ')' : open.ch == '[' ? ']' : '}';
  if (c != want) {
    if (open.line != line_)
      return fail(
          p_, fmt::format("closing parenthesis '{}' does not match opening parenthesis '{}' on line {}", c,
                          open.ch, open.line));
    return fail(p_,
                fmt::format("closing parenthesis '{}' does not match opening parenthesis '{}'", c, open.ch));
  }
  brackets_.pop_back();
  --level_;
  return true;
}

}  // namespace onnxify::syntax
