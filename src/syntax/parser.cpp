// The parser's infrastructure (tokens, nodes, errors, nesting) and parse(), the stage's entry:
// source decoding, tokenizing, parsing, and CPython's rules for which error to report.
#include "syntax/parser.h"

#include <fmt/core.h>

#include <cctype>
#include <cstring>

#include "syntax/syntax.h"
#include "syntax/unicode.h"

namespace onnxify::syntax {

using namespace ast;

Parser::Parser(ParseContext& ctx, const std::vector<Token>& tokens, const LexError& lex_error)
    : ctx_(ctx), arena_(*ctx.arena), toks_(tokens), lex_error_(lex_error) {}

Parser::Scratch::Scratch(Parser& p) : p_(p) {
  auto& pool = p.ctx_.list_pool;
  if (!pool.empty()) {
    items_ = std::move(pool.back());
    pool.pop_back();
  }
}

Parser::Scratch::~Scratch() {
  items_.clear();
  p_.ctx_.list_pool.push_back(std::move(items_));
}

Parser::Nest::Nest(Parser& p) : p_(p) {
  if (++p.ctx_.nesting > kMaxNesting) {
    --p.ctx_.nesting;
    p.fail(p.tok(),
           fmt::format("too deeply nested: onnxify supports at most {} levels of nesting", kMaxNesting));
  }
}

void Parser::check_chain(size_t length) {
  if (ctx_.nesting + length > static_cast<size_t>(kMaxNesting))
    fail(prev(),
         fmt::format("too deeply nested: onnxify supports at most {} levels of nesting", kMaxNesting));
}

Identifier Parser::identifier(const Token& name) {
  std::string_view s = text(name);
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      // CPython normalizes non-ASCII names to NFKC (PEP 3131).
      std::string n = unicode::nfkc(s);
      return n == s ? s : arena_.copy(n);
    }
  }
  return s;
}

void Parser::fail(const Token& at, std::string message) {
  fail_at(at.line, at.col, at.end_line, at.end_col, std::move(message));
}

void Parser::fail_range(const Token& from, const Token& to, std::string message) {
  fail_at(from.line, from.col, to.end_line, to.end_col, std::move(message));
}

void Parser::fail_node(const ast::Node& n, std::string message) {
  fail_at(n.lineno, n.col_offset, n.end_lineno, n.end_col_offset, std::move(message));
}

void Parser::fail_at(uint32_t line, uint32_t col, uint32_t end_line, uint32_t end_col, std::string message) {
  ParseError e;
  e.message = std::move(message);
  e.line = line;
  e.col = col;
  e.end_line = end_line;
  e.end_col = end_col;
  e.at_lexer_error = at(TokenKind::Error) || toks_[furthest_].kind == TokenKind::Error;
  e.furthest_line = toks_[furthest_ > pos_ ? furthest_ : pos_].line;
  throw e;
}

void Parser::invalid_syntax() {
  const Token& t = tok();
  if (t.kind == TokenKind::Indent || t.kind == TokenKind::Dedent) {
    try {
      fail(t, t.kind == TokenKind::Indent ? "unexpected indent" : "unexpected unindent");
    } catch (ParseError& e) {
      e.indentation = true;
      throw;
    }
  }
  if (t.kind == TokenKind::String && pos_ > 0 &&
      (bracket_depth_ > 0 ||
       (prev().kind == TokenKind::Name && (pos_ < 2 || toks_[pos_ - 2].kind != TokenKind::Dot)))) {
    // CPython decodes a run of literals whenever a rule tries it, and its error rules try an
    // expression after a name or inside brackets: an invalid literal there is the error to report.
    size_t save = pos_;
    (void)strings();
    pos_ = save;
  }
  fail(t, "invalid syntax");
}

namespace {

// ---------------------------------------------------------------------------------------------
// Source decoding (PEP 263, as CPython's tokenizer reads a bytes source).

bool is_blank_or_comment_line(std::string_view line) {
  for (char c : line) {
    if (c == ' ' || c == '\t' || c == '\f') continue;
    return c == '#' || c == '\n' || c == '\r';
  }
  return true;
}

// The encoding named by a "coding[:=]" comment on `line`, or "".
std::string coding_spec(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\f')) ++i;
  if (i >= line.size() || line[i] != '#') return "";
  for (size_t k = line.find("coding", i); k != std::string_view::npos; k = line.find("coding", k + 1)) {
    size_t p = k + 6;
    if (p >= line.size() || (line[p] != ':' && line[p] != '=')) continue;
    ++p;
    while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
    size_t b = p;
    while (p < line.size() && (std::isalnum(static_cast<unsigned char>(line[p])) || line[p] == '-' ||
                               line[p] == '_' || line[p] == '.'))
      ++p;
    if (p > b) return std::string(line.substr(b, p - b));
  }
  return "";
}

// CPython's get_normal_name, then the codec families onnxify reads.
enum class Encoding { Utf8, Latin1, Ascii, Cp1252, Unsupported };

Encoding classify(const std::string& spec, std::string* normal) {
  std::string n;
  for (char c : spec.substr(0, 12))
    n += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto is = [&](const char* name) {
    size_t len = std::strlen(name);
    return n == name || (n.size() > len && n.compare(0, len, name) == 0 && n[len] == '-');
  };
  if (is("utf-8")) return *normal = "utf-8", Encoding::Utf8;
  if (is("latin-1") || is("iso-8859-1") || is("iso-latin-1")) return *normal = "iso-8859-1", Encoding::Latin1;
  *normal = spec;
  std::string lower;
  for (char c : spec)
    lower += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "utf8" || lower == "u8" || lower == "utf") return Encoding::Utf8;
  if (lower == "latin1" || lower == "latin" || lower == "l1" || lower == "iso8859-1" || lower == "8859" ||
      lower == "cp819" || lower == "iso-ir-100")
    return Encoding::Latin1;
  if (lower == "ascii" || lower == "us-ascii" || lower == "646" || lower == "us") return Encoding::Ascii;
  if (lower == "cp1252" || lower == "windows-1252") return Encoding::Cp1252;
  return Encoding::Unsupported;
}

// Windows-1252's 0x80..0x9F (0 where undefined).
constexpr char32_t kCp1252High[32] = {0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                      0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
                                      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                      0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

[[noreturn]] void file_error(const std::shared_ptr<const SourceFile>& file, std::string message,
                             uint32_t line = 0, uint32_t col = 0) {
  if (line == 0) throw Diagnostic::error(std::move(message)).with_file(file->path());
  throw Diagnostic::error(std::move(message), SourceRange{file, {line, col}, {line, col + 1}});
}

// The text to tokenize: UTF-8 without BOM, ending with a line terminator (CPython appends one).
// Returns the file itself when nothing had to change, else a transcoded copy (same path), which
// is what positions and diagnostics then refer to.
std::shared_ptr<const SourceFile> prepare_source(std::shared_ptr<const SourceFile> file) {
  const std::string& text = file->text();
  if (const void* nul = std::memchr(text.data(), 0, text.size())) {
    size_t at = static_cast<const char*>(nul) - text.data();
    uint32_t line = 1, line_start = 0;
    for (size_t i = 0; i < at; ++i)
      if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
        ++line;
        line_start = static_cast<uint32_t>(i + 1);
      }
    file_error(file, "source code cannot contain null bytes", line, static_cast<uint32_t>(at - line_start));
  }
  bool bom = text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0;
  const size_t skip = bom ? 3 : 0;

  // A coding declaration on line 1, or on line 2 below a comment or blank line 1.
  std::string_view rest = std::string_view(text).substr(skip);
  size_t eol1 = rest.find_first_of("\r\n");
  std::string_view line1 = rest.substr(0, eol1);
  std::string spec = coding_spec(line1);
  if (spec.empty() && eol1 != std::string_view::npos && is_blank_or_comment_line(line1)) {
    size_t b = eol1 + ((rest[eol1] == '\r' && eol1 + 1 < rest.size() && rest[eol1 + 1] == '\n') ? 2 : 1);
    std::string_view line2 = rest.substr(b, rest.find_first_of("\r\n", b) - b);
    spec = coding_spec(line2);
  }
  Encoding enc = Encoding::Utf8;
  if (!spec.empty()) {
    std::string normal;
    enc = classify(spec, &normal);
    if (bom && enc != Encoding::Utf8) file_error(file, fmt::format("encoding problem: {} with BOM", normal));
    if (enc == Encoding::Unsupported)
      file_error(
          file,
          fmt::format("unknown encoding: {} (onnxify reads UTF-8, latin-1, cp1252 and ASCII sources)", spec));
  }

  bool ends_with_newline = !rest.empty() && (rest.back() == '\n' || rest.back() == '\r');
  if (enc == Encoding::Utf8 && ends_with_newline && !bom) return file;

  std::string out;
  out.reserve(text.size() + 1);
  if (enc == Encoding::Utf8) {
    out = rest;  // without the BOM, so that columns of line 1 count from its first character
  } else {
    uint32_t line = 1;
    for (size_t i = skip; i < text.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(text[i]);
      if (c == '\n') ++line;
      if (c < 0x80) {
        out += static_cast<char>(c);
      } else if (enc == Encoding::Latin1) {
        unicode::append_utf8(out, c);
      } else if (enc == Encoding::Cp1252 && (c >= 0xA0 || kCp1252High[c - 0x80])) {
        unicode::append_utf8(out, c >= 0xA0 ? c : kCp1252High[c - 0x80]);
      } else {
        file_error(file,
                   fmt::format("(unicode error) '{}' codec can't decode byte 0x{:02x}",
                               enc == Encoding::Ascii ? "ascii" : "charmap", c),
                   line);
      }
    }
  }
  if (out.empty() || (out.back() != '\n' && out.back() != '\r')) out += '\n';
  return std::make_shared<SourceFile>(file->path(), std::move(out));
}

}  // namespace

ParsedModule parse(std::shared_ptr<const SourceFile> original, Mode mode) {
  std::shared_ptr<const SourceFile> file = prepare_source(original);
  const std::string& text = file->text();

  std::vector<Token> tokens;
  tokens.reserve(text.size() / 4 + 16);
  Lexer lexer(text.data(), static_cast<uint32_t>(text.size()), Lexer::Origin{});
  lexer.run(tokens);

  ParsedModule result;
  result.file_ = file;
  result.arena_ = std::make_unique<Arena>();
  ParseContext ctx;
  ctx.text = std::string_view(text);
  ctx.arena = result.arena_.get();
  Parser parser(ctx, tokens, lexer.error());

  auto to_diagnostic = [&](const std::string& message, uint32_t line, uint32_t col, uint32_t end_line,
                           uint32_t end_col) {
    return Diagnostic::error(message, SourceRange{file, {line, col}, {end_line, end_col}});
  };
  try {
    if (mode == Mode::Exec)
      result.root_ = parser.file();
    else
      result.root_ = parser.eval_input();
  } catch (const ParseError& e) {
    // CPython's priorities: an error of the tokenizer wins over the parser's, except that a
    // bracket left open at the end of the file only wins over errors on later lines, and
    // indentation and line-continuation errors only count where the parser reaches them.
    const LexError& le = lexer.error();
    bool lex_failed = tokens.back().kind == TokenKind::Error;
    bool lexer_wins =
        lex_failed &&
        (e.at_lexer_error ||
         (!e.indentation && (le.unclosed_bracket ? e.furthest_line > le.line : le.replaces_parser_errors)));
    if (lexer_wins) throw to_diagnostic(le.message, le.line, le.col, le.end_line, le.end_col);
    throw to_diagnostic(e.message, e.line, e.col, e.end_line, e.end_col);
  }
  return result;
}

}  // namespace onnxify::syntax
