// Literals: string concatenation, escape decoding, f-strings (CPython 3.11's string_parser.c
// semantics) and numbers.
#include <fmt/core.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "syntax/literals.h"
#include "syntax/parser.h"
#include "syntax/syntax.h"
#include "syntax/unicode.h"

namespace onnxify::syntax {

using namespace ast;

namespace {

// The parts of a string token: prefix, quotes, body.
struct StringToken {
  uint32_t body_begin, body_end;  // file offsets of the text between the quotes
  uint8_t flags;
};

StringToken split_string(std::string_view text, const Token& t) {
  std::string_view s = text.substr(t.begin, t.end - t.begin);
  size_t prefix = 0;
  while (s[prefix] != '\'' && s[prefix] != '"') ++prefix;
  char q = s[prefix];
  size_t quotes = (s.size() >= prefix + 6 && s[prefix + 1] == q && s[prefix + 2] == q) ? 3 : 1;
  return {static_cast<uint32_t>(t.begin + prefix + quotes), static_cast<uint32_t>(t.end - quotes), t.flags};
}

}  // namespace

// The line and column of a file offset inside the current run of string tokens.
void Parser::locate(uint32_t offset, uint32_t* line, uint32_t* col) const {
  // Start from the last token that begins at or before `offset` and walk forward.
  size_t i = pos_ > 0 ? pos_ - 1 : 0;
  while (i > 0 && toks_[i].begin > offset) --i;
  const Token& t = toks_[i];
  uint32_t l = t.line;
  int64_t line_start = static_cast<int64_t>(t.begin) - t.col;
  for (uint32_t k = t.begin; k < offset; ++k) {
    char c = ctx_.text[k];
    if (c == '\n' || (c == '\r' && ctx_.text[k + 1] != '\n')) {
      ++l;
      line_start = k + 1;
    }
  }
  *line = l;
  *col = static_cast<uint32_t>(offset - line_start);
}

void Parser::fail_in_string(uint32_t offset, std::string message) {
  uint32_t line, col;
  locate(offset, &line, &col);
  fail_at(line, col, line, col + 1, std::move(message));
}

// strings: STRING+
// Adjacent literals concatenate; with any f-string among them the result is a JoinedStr.
expr* Parser::strings() {
  const Token& first = tok();
  const size_t begin = pos_;
  while (at(TokenKind::String)) advance();
  const size_t end = pos_;
  const Token& last = toks_[end - 1];
  const bool bytes = first.flags & kStrBytes;
  bool any_format = false;
  for (size_t i = begin; i < end; ++i) {
    if (static_cast<bool>(toks_[i].flags & kStrBytes) != bytes)
      fail(toks_[i], "cannot mix bytes and nonbytes literals");
    any_format |= (toks_[i].flags & kStrFormat) != 0;
  }
  // CPython's `kind` is 'u' when the first literal is spelled with a lowercase u prefix.
  std::string_view kind = ctx_.text[first.begin] == 'u' ? std::string_view("u") : std::string_view();
  auto decode_error = [&](const LiteralError& e) { fail_in_string(e.offset, e.message); };

  if (!any_format) {
    auto* c = make<Constant>(first);
    c->kind = kind;
    // The common case needs no copy: one literal whose value is its source text.
    if (end - begin == 1) {
      StringToken st = split_string(ctx_.text, first);
      std::string_view body = ctx_.text.substr(st.body_begin, st.body_end - st.body_begin);
      if (literal_is_verbatim(body, st.flags)) {
        c->value = bytes ? ConstantValue::bytes(body) : ConstantValue::str(body);
        return finish(c);
      }
    }
    std::string value;
    for (size_t i = begin; i < end; ++i) {
      StringToken st = split_string(ctx_.text, toks_[i]);
      LiteralError err;
      if (!decode_literal(ctx_.text, st.body_begin, st.body_end, st.flags, value, &err)) decode_error(err);
    }
    std::string_view v = arena_.copy(value);
    c->value = bytes ? ConstantValue::bytes(v) : ConstantValue::str(v);
    return finish(c);
  }

  Nest nest(*this);
  Scratch parts(*this);
  FStringState st{std::string(), &parts, &first, &last, kind};
  for (size_t i = begin; i < end; ++i) {
    const Token& t = toks_[i];
    StringToken s = split_string(ctx_.text, t);
    if (!(t.flags & kStrFormat)) {
      LiteralError err;
      if (!decode_literal(ctx_.text, s.body_begin, s.body_end, s.flags, st.literal, &err)) decode_error(err);
      continue;
    }
    uint32_t pos = s.body_begin;
    fstring_body(st, t, s.body_end, (t.flags & kStrRaw) != 0, 0, &pos);
  }
  flush_literal(st);
  auto* j = make<JoinedStr>(first);
  j->values = parts.seq<expr>();
  return finish(j);
}

// The pending literal text of an f-string becomes a Constant part (empty text makes none). A part
// carries the range of the whole run of literals, as in CPython 3.11, except the last literal of a
// format spec, which CPython places on the string token holding the spec (`first`/`last`).
void Parser::flush_literal(FStringState& st, const Token* first, const Token* last) {
  if (st.literal.empty()) return;
  if (!first) first = st.first;
  if (!last) last = st.last;
  auto* c = make<Constant>(*first);
  c->value = ConstantValue::str(arena_.copy(st.literal));
  c->kind = st.kind;
  c->end_lineno = last->end_line;
  c->end_col_offset = last->end_col;
  st.parts->push(c);
  st.literal.clear();
}

// The body of one f-string (level 0) or of a format spec (level 1, which ends at its '}'):
// literal text alternating with replacement fields (CPython's fstring_find_literal_and_expr).
void Parser::fstring_body(FStringState& st, const Token& token, uint32_t body_end, bool raw, int level,
                          uint32_t* pos) {
  const std::string_view text = ctx_.text;
  while (*pos < body_end) {
    // Literal text up to a '{' or '}'; at the top level '{{' and '}}' stand for one brace.
    uint32_t s = *pos;
    const uint32_t literal_start = s;
    uint32_t literal_end;
    bool doubled = false;
    for (;;) {
      if (s >= body_end) {
        literal_end = s;
        break;
      }
      char ch = text[s++];
      if (!raw && ch == '\\' && s < body_end) {
        ch = text[s++];
        if (ch == 'N') {
          // "\N{name}": these braces are the escape's, not a field's.
          if (s < body_end && text[s++] == '{') {
            while (s < body_end && text[s++] != '}') {
            }
          }
          continue;
        }
      }
      if (ch == '{' || ch == '}') {
        if (level == 0) {
          if (s < body_end && text[s] == ch) {
            literal_end = s;  // keeps one brace
            ++s;
            doubled = true;
            break;
          }
          if (ch == '}') fail_in_string(s - 1, "f-string: single '}' is not allowed");
        }
        literal_end = --s;
        break;
      }
    }
    *pos = s;
    if (literal_end > literal_start) {
      LiteralError err;
      uint8_t flags = raw ? kStrRaw : 0;
      if (!decode_literal(text, literal_start, literal_end, flags, st.literal, &err))
        fail_in_string(err.offset, err.message);
    }
    if (doubled) continue;
    if (*pos >= body_end) return;
    if (text[*pos] == '}') return;  // the end of a format spec (level 1)
    expr* field = fstring_expression(st, token, pos, body_end, raw, level);
    st.parts->push(field);
  }
}

// One replacement field '{' expression ['='] ['!' conversion] [':' format_spec] '}', scanned the way
// CPython's fstring_find_expr does, then parsed as "(" + expression + ")".
expr* Parser::fstring_expression(FStringState& st, const Token& token, uint32_t* pos, uint32_t body_end,
                                 bool raw, int level) {
  const std::string_view text = ctx_.text;
  if (level >= 2) fail_in_string(*pos, "f-string: expressions nested too deeply");
  const uint32_t open = *pos;
  uint32_t s = open + 1;
  const uint32_t expr_begin = s;
  char quote = 0;
  int string_type = 0;
  char brackets[kMaxParenNesting];
  int depth = 0;
  for (; s < body_end; ++s) {
    char ch = text[s];
    if (ch == '\\') fail_in_string(s, "f-string expression part cannot include a backslash");
    if (quote) {
      if (ch == quote) {
        if (string_type == 3) {
          if (s + 2 < body_end && text[s + 1] == ch && text[s + 2] == ch) {
            s += 2;
            quote = 0;
            string_type = 0;
          }
        } else {
          quote = 0;
          string_type = 0;
        }
      }
      continue;
    }
    if (ch == '\'' || ch == '"') {
      if (s + 2 < body_end && text[s + 1] == ch && text[s + 2] == ch) {
        string_type = 3;
        s += 2;
      } else {
        string_type = 1;
      }
      quote = ch;
    } else if (ch == '[' || ch == '{' || ch == '(') {
      if (depth >= kMaxParenNesting) fail_in_string(s, "f-string: too many nested parenthesis");
      brackets[depth++] = ch;
    } else if (ch == '#') {
      fail_in_string(s, "f-string expression part cannot include '#'");
    } else if (depth == 0 && (ch == '!' || ch == ':' || ch == '}' || ch == '=' || ch == '>' || ch == '<')) {
      if (s + 1 < body_end) {
        char next = text[s + 1];
        if ((ch == '!' && next == '=') || (ch == '=' && next == '=') || (ch == '<' && next == '=') ||
            (ch == '>' && next == '=')) {
          ++s;
          continue;
        }
      }
      if (ch == '>' || ch == '<') continue;
      break;
    } else if (ch == ']' || ch == '}' || ch == ')') {
      if (depth == 0) fail_in_string(s, fmt::format("f-string: unmatched '{}'", ch));
      char opening = brackets[--depth];
      if (!((opening == '(' && ch == ')') || (opening == '[' && ch == ']') || (opening == '{' && ch == '}')))
        fail_in_string(
            s, fmt::format("f-string: closing parenthesis '{}' does not match opening parenthesis '{}'", ch,
                           opening));
    }
  }
  const uint32_t expr_end = s;
  if (quote) fail_in_string(s, "f-string: unterminated string");
  if (depth) fail_in_string(s, fmt::format("f-string: unmatched '{}'", brackets[depth - 1]));
  if (s >= body_end) fail_in_string(s, "f-string: expecting '}'");

  bool blank = true;
  for (uint32_t k = expr_begin; k < expr_end && blank; ++k) {
    char c = text[k];
    blank = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
  }
  if (blank) {
    char c = text[expr_end];
    if (c == '!' || c == ':' || c == '=')
      fail_in_string(expr_end, fmt::format("f-string: expression required before '{}'", c));
    fail_in_string(expr_end, "f-string: empty expression not allowed");
  }
  expr* value = fstring_compile(open, expr_begin, expr_end);

  // '=': the expression's text (and the spaces after '=') is printed before its value.
  bool debug = false;
  if (text[s] == '=') {
    ++s;
    while (s < body_end && (text[s] == ' ' || text[s] == '\t' || text[s] == '\n' || text[s] == '\r' ||
                            text[s] == '\f' || text[s] == '\v'))
      ++s;
    if (s >= body_end) fail_in_string(s, "f-string: expecting '}'");
    for (uint32_t k = expr_begin; k < s; ++k) {
      char c = text[k];
      if (c == '\r') {
        st.literal += '\n';
        if (text[k + 1] == '\n') ++k;
      } else {
        st.literal += c;
      }
    }
    debug = true;
  }
  int conversion = -1;
  if (text[s] == '!') {
    ++s;
    if (s >= body_end) fail_in_string(s, "f-string: expecting '}'");
    char c = text[s++];
    if (c != 's' && c != 'r' && c != 'a')
      fail_in_string(s - 1, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
    conversion = static_cast<unsigned char>(c);
  }
  expr* spec = nullptr;
  if (s < body_end && text[s] == ':') {
    ++s;
    if (s >= body_end) fail_in_string(s, "f-string: expecting '}'");
    Scratch spec_parts(*this);
    FStringState spec_state{std::string(), &spec_parts, st.first, st.last, st.kind};
    fstring_body(spec_state, token, body_end, raw, level + 1, &s);
    // CPython gives the spec (and its last literal) the range of the string token holding it.
    flush_literal(spec_state, &token, &token);
    auto* j = make<JoinedStr>(token);
    j->values = spec_parts.seq<expr>();
    j->end_lineno = token.end_line;
    j->end_col_offset = token.end_col;
    spec = j;
  }
  if (s >= body_end || text[s] != '}') fail_in_string(s, "f-string: expecting '}'");
  ++s;
  *pos = s;
  if (debug && !spec && conversion == -1) conversion = 'r';

  flush_literal(st);
  auto* f = make<FormattedValue>(*st.first);
  f->value = value;
  f->conversion = conversion;
  f->format_spec = spec;
  f->end_lineno = st.last->end_line;
  f->end_col_offset = st.last->end_col;
  return f;
}

// Parses the text of a replacement field as CPython does, as "(" + text + ")", but in place: the
// '{' plays the '(' and the field's end the ')', so every node gets its true position in the file.
expr* Parser::fstring_compile(uint32_t open, uint32_t expr_begin, uint32_t expr_end) {
  Nest nest(*this);
  uint32_t line, col;
  locate(open, &line, &col);
  std::string buf(ctx_.text.substr(expr_begin, expr_end - expr_begin));
  Lexer::Origin origin{expr_begin, line, static_cast<int64_t>(open) - col};
  Lexer lexer(buf.c_str(), static_cast<uint32_t>(buf.size()), origin, true);
  std::vector<Token> toks;
  Token& lpar = toks.emplace_back();
  lpar.kind = TokenKind::LPar;
  lpar.begin = open;
  lpar.end = open + 1;
  lpar.line = lpar.end_line = line;
  lpar.col = col;
  lpar.end_col = col + 1;
  lexer.run(toks);
  if (toks.back().kind == TokenKind::Error) {
    const LexError& le = lexer.error();
    ParseError e;
    e.message = le.message;
    e.line = le.line;
    e.col = le.col;
    e.end_line = le.end_line;
    e.end_col = le.end_col;
    e.from_fstring = true;  // a tokenizer error: CPython adds no prefix
    e.furthest_line = le.line;
    throw e;
  }
  Token end_marker = toks.back();
  Token& rpar = toks.back();
  rpar.kind = TokenKind::RPar;
  rpar.begin = expr_end;
  rpar.end = expr_end + 1;
  rpar.end_line = rpar.line;
  rpar.end_col = rpar.col + 1;
  end_marker.begin = end_marker.end = expr_end + 1;
  end_marker.col = end_marker.end_col = rpar.end_col;
  toks.push_back(end_marker);
  Parser sub(ctx_, toks, lexer.error());
  try {
    return sub.fstring_field();
  } catch (ParseError& e) {
    // CPython marks the errors of its f-string sub-parser (not those of its tokenizer).
    if (!e.from_fstring) e.message = "f-string: " + e.message;
    e.from_fstring = true;
    throw;
  }
}

// fstring: star_expressions   (of the text wrapped in parentheses)
expr* Parser::fstring_field() {
  expr* e = star_expressions();
  if (!at(TokenKind::EndMarker)) invalid_syntax();
  return e;
}

// NUMBER
expr* Parser::number(const Token& t) {
  auto* c = make<Constant>(t);
  LiteralError err;
  if (!parse_number(text(t), arena_, &c->value, &err)) fail(t, err.message);
  c->end_lineno = t.end_line;
  c->end_col_offset = t.end_col;
  return c;
}

}  // namespace onnxify::syntax
